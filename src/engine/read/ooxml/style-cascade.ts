import type { ParagraphProperties, RunProperties } from '../../model';
import { IdentityCache } from './identity-cache';
import {
  mergeParagraphDelta,
  type ParagraphDelta,
  readParagraphDelta,
  toParagraphProperties,
} from './paragraph-properties';
import { PropertyInterner } from './property-interner';
import { hAnsiFont, type RunDelta, readRunDelta, TOGGLE_PROPERTIES, toRunProperties } from './run-properties';
import {
  CONDITION_SEPARATOR,
  mergeTableStyleProperties,
  readTableStyleProperties,
  type TableCondition,
  type TableStyleProperties,
} from './table-style';
import type { ThemeColors } from './theme-colors';
import type { ThemeFonts } from './theme-fonts';
import { clamp, OFFSET, twips } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * The style part (ECMA-376 Part 1, §17.7) and the cascade that turns styles plus direct formatting
 * into computed properties (§17.7.2): document defaults → table style → numbering level →
 * paragraph style (with its basedOn chain) → character style → direct formatting. Each style's
 * chain is merged once and cached by id; so are the combinations paragraphs actually use.
 */

export type StyleType = 'paragraph' | 'character' | 'table' | 'numbering';

export interface StyleDefinition {
  id: string;
  type: StyleType;
  name?: string;
  basedOn?: string;
  paragraph: ParagraphDelta;
  run: RunDelta;
  /** Table styles: w:tblPr/w:tblInd, points. */
  tableIndent?: number;
  /** Table styles: borders, margins, shading and conditional formatting (table-style.ts). */
  table?: TableStyleProperties;
}

export interface StyleSheet {
  defaults: { paragraph: ParagraphDelta; run: RunDelta };
  styles: ReadonlyMap<string, StyleDefinition>;
  /** The styles marked w:default="1" per type (§17.7.4.17), used when content names none. */
  defaultParagraphStyle?: string;
  defaultCharacterStyle?: string;
  defaultTableStyle?: string;
}

export const EMPTY_STYLE_SHEET: StyleSheet = { defaults: { paragraph: {}, run: {} }, styles: new Map() };

export function readStyleSheet(root: XmlElement | undefined, colors: ThemeColors): StyleSheet {
  if (root === undefined) return EMPTY_STYLE_SHEET;
  const docDefaults = child(root, 'w:docDefaults');
  const sheet: {
    defaults: StyleSheet['defaults'];
    styles: Map<string, StyleDefinition>;
    defaultParagraphStyle?: string;
    defaultCharacterStyle?: string;
    defaultTableStyle?: string;
  } = {
    defaults: {
      paragraph: readParagraphDelta(child(child(docDefaults, 'w:pPrDefault'), 'w:pPr'), colors),
      run: readRunDelta(child(child(docDefaults, 'w:rPrDefault'), 'w:rPr'), colors),
    },
    styles: new Map(),
  };
  for (const element of root.children) {
    if (element.name !== 'w:style') continue;
    const id = element.attributes['w:styleId'];
    const type = (element.attributes['w:type'] ?? 'paragraph') as StyleType;
    if (id === undefined || sheet.styles.has(id)) continue;
    const style: StyleDefinition = {
      id,
      type,
      paragraph: readParagraphDelta(child(element, 'w:pPr'), colors),
      run: readRunDelta(child(element, 'w:rPr'), colors),
    };
    const name = child(element, 'w:name')?.attributes['w:val'];
    if (name !== undefined) style.name = name;
    const basedOn = child(element, 'w:basedOn')?.attributes['w:val'];
    if (basedOn !== undefined && basedOn !== id) style.basedOn = basedOn;
    if (type === 'table') {
      const indent = clamp(twips(child(child(element, 'w:tblPr'), 'w:tblInd')?.attributes['w:w']), OFFSET);
      if (indent !== undefined) style.tableIndent = indent;
      style.table = readTableStyleProperties(element, colors);
    }
    // A style's own pStyle would be meaningless; numbering styles keep their numPr (§17.9.22).
    delete style.paragraph.styleId;
    sheet.styles.set(id, style);
    const isDefault = element.attributes['w:default'];
    if (isDefault === '1' || isDefault === 'true' || isDefault === 'on') {
      if (type === 'paragraph') sheet.defaultParagraphStyle ??= id;
      else if (type === 'character') sheet.defaultCharacterStyle ??= id;
      else if (type === 'table') sheet.defaultTableStyle ??= id;
    }
  }
  return sheet;
}

/** Styles may name a missing or wrong-typed basedOn, or loop; chains stop there. */
const MAX_CHAIN = 64;

/** What decides a paragraph's properties apart from its own direct formatting. */
export interface ParagraphContext {
  /** The paragraph's style, or the default paragraph style. */
  styleId: string | undefined;
  /** The style of the innermost table holding the paragraph. */
  tableStyleId: string | undefined;
  /** The numbering level's w:pPr, and whether the numbering came from the style (see cascade). */
  numbering?: { key: string; paragraph: ParagraphDelta; fromStyle: boolean };
}

/**
 * Resolves and caches. One instance per document: the caches are keyed by style ids, so every
 * paragraph of a style after the first costs a map lookup.
 */
export class StyleCascade {
  private readonly paragraphChains = new Map<string, ParagraphDelta>();
  private readonly runChains = new Map<string, RunDelta>();
  private readonly paragraphBases = new Map<string, ParagraphDelta>();
  private readonly runBases = new Map<string, RunProperties>();
  private readonly markBases = new Map<string, RunDelta>();
  /** runDelta without direct formatting, by table, paragraph and character style (read-only). */
  private readonly runDeltaBases = new Map<string, RunDelta>();
  private readonly tableStyles = new Map<string, TableStyleProperties>();
  /** Equal resolved properties share one frozen object (property-interner.ts). */
  private readonly interner = new PropertyInterner();
  /**
   * What the body's property elements resolve to, by element (identity-cache.ts), each for the
   * last styles it was resolved under: runs of one paragraph style follow one another.
   */
  private readonly runsByElement = new IdentityCache<XmlElement, ResolvedRun>(ELEMENT_CACHE_LIMIT);
  private readonly marksByElement = new IdentityCache<XmlElement, ResolvedMark>(ELEMENT_CACHE_LIMIT);
  private readonly paragraphDeltas = new IdentityCache<XmlElement, ParagraphDelta>(ELEMENT_CACHE_LIMIT);
  private readonly paragraphsByDelta = new IdentityCache<ParagraphDelta, ResolvedParagraph>(ELEMENT_CACHE_LIMIT);

  readonly sheet: StyleSheet;
  private readonly fonts: ThemeFonts;

  constructor(sheet: StyleSheet, fonts: ThemeFonts) {
    this.sheet = sheet;
    this.fonts = fonts;
  }

  /** The id to use for a paragraph: its w:pStyle when that style exists, else the default. */
  paragraphStyleId(requested: string | undefined): string | undefined {
    if (requested !== undefined && this.sheet.styles.get(requested)?.type === 'paragraph') return requested;
    return this.sheet.defaultParagraphStyle;
  }

  /** The style of a table: its w:tblStyle when that style exists, else the default table style. */
  tableStyleId(requested: string | undefined): string | undefined {
    if (requested !== undefined && this.sheet.styles.get(requested)?.type === 'table') return requested;
    return this.sheet.defaultTableStyle;
  }

  style(id: string | undefined): StyleDefinition | undefined {
    return id === undefined ? undefined : this.sheet.styles.get(id);
  }

  /** A style's paragraph properties merged along its basedOn chain (base first). */
  paragraphChain(styleId: string | undefined): ParagraphDelta {
    if (styleId === undefined) return NO_PARAGRAPH;
    const cached = this.paragraphChains.get(styleId);
    if (cached) return cached;
    const conditional = splitConditional(styleId);
    if (conditional) {
      let merged = this.paragraphChain(conditional.styleId);
      const table = this.tableStyle(conditional.styleId);
      for (const type of conditional.conditions) {
        const format = table?.conditions[type];
        if (format) merged = mergeParagraphDelta(merged, format.paragraph);
      }
      this.paragraphChains.set(styleId, merged);
      return merged;
    }
    let merged: ParagraphDelta = {};
    let headingLevel: number | undefined;
    for (const style of this.chain(styleId)) {
      merged = mergeParagraphDelta(merged, style.paragraph);
      const heading = BUILT_IN_HEADING.exec(style.name ?? '');
      if (heading) headingLevel = Number(heading[1]) - 1;
    }
    // Word gives its built-in "heading 1"–"heading 9" styles their outline level even when the
    // style part does not say so (files from other writers often omit w:outlineLvl).
    if (merged.outlineLevel === undefined && headingLevel !== undefined)
      merged = { ...merged, outlineLevel: headingLevel };
    this.paragraphChains.set(styleId, merged);
    return merged;
  }

  /**
   * A style's run properties merged along its basedOn chain. For toggles this is "the first value
   * met walking from the style towards its bases" (§17.7.3), which is what an override merge gives.
   */
  runChain(styleId: string | undefined): RunDelta {
    if (styleId === undefined) return NO_RUN;
    const cached = this.runChains.get(styleId);
    if (cached) return cached;
    const conditional = splitConditional(styleId);
    if (conditional) {
      let merged = this.runChain(conditional.styleId);
      const table = this.tableStyle(conditional.styleId);
      for (const type of conditional.conditions) {
        const format = table?.conditions[type];
        if (format) merged = { ...merged, ...format.run };
      }
      this.runChains.set(styleId, merged);
      return merged;
    }
    let merged: RunDelta = {};
    for (const style of this.chain(styleId)) merged = { ...merged, ...style.run };
    this.runChains.set(styleId, merged);
    return merged;
  }

  /**
   * The paragraph's properties without its direct formatting: docDefaults → table style →
   * numbering level → paragraph style, except that a numbering applied directly to the paragraph
   * puts its level's indents over the style's (Word shows a list's indents even when the style
   * has its own; when the style itself carries the numbering, the style's indents win).
   */
  paragraphBase(context: ParagraphContext): ParagraphDelta {
    const key = `${context.tableStyleId ?? ''}\u0001${context.styleId ?? ''}\u0001${context.numbering?.key ?? ''}`;
    const cached = this.paragraphBases.get(key);
    if (cached) return cached;
    let merged = this.sheet.defaults.paragraph;
    if (context.tableStyleId) merged = mergeParagraphDelta(merged, this.paragraphChain(context.tableStyleId));
    const numbering = context.numbering;
    if (numbering?.fromStyle) merged = mergeParagraphDelta(merged, numbering.paragraph);
    merged = mergeParagraphDelta(merged, this.paragraphChain(context.styleId));
    if (numbering && !numbering.fromStyle) merged = mergeParagraphDelta(merged, numbering.paragraph);
    if (context.styleId !== undefined) merged = { ...merged, styleId: context.styleId };
    else if (merged.styleId !== undefined) {
      merged = { ...merged };
      delete merged.styleId;
    }
    this.paragraphBases.set(key, merged);
    return merged;
  }

  /** The model's properties for a paragraph: its base with direct formatting over it. */
  paragraphProperties(base: ParagraphDelta, direct: ParagraphDelta | undefined): ParagraphProperties {
    const merged = direct === undefined ? base : mergeParagraphDelta(base, withoutStyle(direct));
    return this.interner.paragraph(toParagraphProperties(merged));
  }

  /**
   * A run's properties: docDefaults, then the table, paragraph and character style levels, then
   * direct formatting. Toggles (§17.7.3): direct formatting is absolute; otherwise the style levels
   * that set the toggle combine by exclusive or (a bold character style in a bold paragraph style
   * gives regular text); if no style level sets it, the document default applies.
   */
  runProperties(
    tableStyleId: string | undefined,
    paragraphStyleId: string | undefined,
    characterStyleId: string | undefined,
    direct: RunDelta | undefined,
  ): RunProperties {
    const characterStyle = this.characterStyle(characterStyleId);
    const noDirect = direct === undefined || isEmpty(direct);
    const key = `${tableStyleId ?? ''}\u0001${paragraphStyleId ?? ''}\u0001${characterStyle ?? ''}`;
    if (noDirect) {
      const cached = this.runBases.get(key);
      if (cached) return cached;
    }
    const merged = this.runDelta(tableStyleId, paragraphStyleId, characterStyle, noDirect ? undefined : direct);
    const properties = this.interner.run(toRunProperties(merged, this.fonts));
    if (noDirect) this.runBases.set(key, properties);
    return properties;
  }

  /** The character style a run uses: the one it names if that is a character style, else the default. */
  private characterStyle(characterStyleId: string | undefined): string | undefined {
    return characterStyleId !== undefined && this.sheet.styles.get(characterStyleId)?.type === 'character'
      ? characterStyleId
      : this.sheet.defaultCharacterStyle;
  }

  /**
   * The w:hAnsi face of a run (§17.3.2.26) through the same levels as runProperties. Not part of
   * the run's properties (the model keeps one Latin face, w:ascii first); asked only for text that
   * holds symbol-font codes, which Word sets in the hAnsi face.
   */
  hAnsiFaceOf(
    rPr: XmlElement | undefined,
    tableStyleId: string | undefined,
    paragraphStyleId: string | undefined,
    colors: ThemeColors,
  ): string | undefined {
    const direct = rPr === undefined ? undefined : readRunDelta(rPr, colors);
    const merged = this.runDelta(
      tableStyleId,
      paragraphStyleId,
      this.characterStyle(direct?.styleId),
      direct === undefined || isEmpty(direct) ? undefined : direct,
    );
    return hAnsiFont(merged, this.fonts);
  }

  /** runProperties for a run whose direct formatting is the element `rPr` (cached by the element). */
  runPropertiesOf(
    rPr: XmlElement,
    tableStyleId: string | undefined,
    paragraphStyleId: string | undefined,
    colors: ThemeColors,
  ): RunProperties {
    const cached = this.runsByElement.get(rPr);
    if (cached !== undefined && cached.tableStyleId === tableStyleId && cached.paragraphStyleId === paragraphStyleId) {
      return cached.properties;
    }
    const delta = readRunDelta(rPr, colors);
    const properties = this.runProperties(tableStyleId, paragraphStyleId, delta.styleId, delta);
    this.runsByElement.set(rPr, { tableStyleId, paragraphStyleId, properties });
    return properties;
  }

  /** readParagraphDelta, cached by the element (callers only read the delta). */
  paragraphDeltaOf(pPr: XmlElement, colors: ThemeColors): ParagraphDelta {
    let delta = this.paragraphDeltas.get(pPr);
    if (delta === undefined) {
      delta = readParagraphDelta(pPr, colors);
      this.paragraphDeltas.set(pPr, delta);
    }
    return delta;
  }

  /** paragraphProperties for a direct delta that paragraphDeltaOf gave (cached by the delta). */
  paragraphPropertiesOf(base: ParagraphDelta, direct: ParagraphDelta): ParagraphProperties {
    const cached = this.paragraphsByDelta.get(direct);
    if (cached !== undefined && cached.base === base) return cached.properties;
    const properties = this.paragraphProperties(base, direct);
    this.paragraphsByDelta.set(direct, { base, properties });
    return properties;
  }

  /** markDelta and its properties for a paragraph mark's w:rPr (cached by the element). */
  markOf(
    rPr: XmlElement,
    tableStyleId: string | undefined,
    paragraphStyleId: string | undefined,
    colors: ThemeColors,
  ): ResolvedMark {
    const cached = this.marksByElement.get(rPr);
    if (cached !== undefined && cached.tableStyleId === tableStyleId && cached.paragraphStyleId === paragraphStyleId) {
      return cached;
    }
    const delta = this.markDelta(tableStyleId, paragraphStyleId, readRunDelta(rPr, colors));
    const resolved: ResolvedMark = { tableStyleId, paragraphStyleId, delta, properties: this.toRunProperties(delta) };
    this.marksByElement.set(rPr, resolved);
    return resolved;
  }

  /** The merged run delta (toggles combined) for the given levels; see runProperties. */
  runDelta(
    tableStyleId: string | undefined,
    paragraphStyleId: string | undefined,
    characterStyleId: string | undefined,
    direct: RunDelta | undefined,
  ): RunDelta {
    if (direct !== undefined) {
      // Runs with direct formatting share their levels' merge; only the direct part is new.
      const key = `${tableStyleId ?? '\u0000'}\u0001${paragraphStyleId ?? '\u0000'}\u0001${characterStyleId ?? '\u0000'}`;
      let base = this.runDeltaBases.get(key);
      if (base === undefined) {
        base = this.runDelta(tableStyleId, paragraphStyleId, characterStyleId, undefined);
        this.runDeltaBases.set(key, base);
      }
      const result = { ...base, ...direct };
      delete result.styleId;
      return result;
    }
    const levels = [this.runChain(tableStyleId), this.runChain(paragraphStyleId), this.runChain(characterStyleId)];
    const defaults = this.sheet.defaults.run;
    const merged: RunDelta = { ...defaults, ...levels[0], ...levels[1], ...levels[2] };
    for (const toggle of TOGGLE_PROPERTIES) {
      let set = false;
      let value = false;
      for (const level of levels) {
        const levelValue = level[toggle];
        if (levelValue === undefined) continue;
        set = true;
        if (levelValue) value = !value;
      }
      const resolved = set ? value : defaults[toggle];
      if (resolved === undefined) delete merged[toggle];
      else merged[toggle] = resolved;
    }
    return merged;
  }

  /**
   * The paragraph mark's run properties (the height of an empty line, the base of a list label):
   * the mark has no character style, only the paragraph's levels and its own w:pPr/w:rPr.
   */
  markDelta(tableStyleId: string | undefined, paragraphStyleId: string | undefined, direct: RunDelta | undefined) {
    const key = `${tableStyleId ?? ''}\u0001${paragraphStyleId ?? ''}`;
    let base = this.markBases.get(key);
    if (base === undefined) {
      base = this.runDelta(tableStyleId, paragraphStyleId, undefined, undefined);
      this.markBases.set(key, base);
    }
    if (direct === undefined || isEmpty(direct)) return base;
    const result = { ...base, ...direct };
    delete result.styleId;
    return result;
  }

  toRunProperties(delta: RunDelta): RunProperties {
    return this.interner.run(toRunProperties(delta, this.fonts));
  }

  /** A table style's table properties merged along its basedOn chain. */
  tableStyle(styleId: string | undefined): TableStyleProperties | undefined {
    if (styleId === undefined) return undefined;
    const cached = this.tableStyles.get(styleId);
    if (cached) return cached;
    let merged: TableStyleProperties | undefined;
    for (const style of this.chain(styleId)) {
      if (style.table) merged = merged ? mergeTableStyleProperties(merged, style.table) : style.table;
    }
    if (merged) this.tableStyles.set(styleId, merged);
    return merged;
  }

  /** The style and its bases, base first; stops at loops, missing styles and type changes. */
  private chain(styleId: string): StyleDefinition[] {
    const chain: StyleDefinition[] = [];
    const seen = new Set<string>();
    let current = this.sheet.styles.get(styleId);
    const type = current?.type;
    while (current !== undefined && !seen.has(current.id) && chain.length < MAX_CHAIN && current.type === type) {
      seen.add(current.id);
      chain.push(current);
      current = current.basedOn === undefined ? undefined : this.sheet.styles.get(current.basedOn);
    }
    return chain.reverse();
  }
}

/**
 * A table style with the conditional formats that apply to one cell (table-reader.ts builds the
 * key): their paragraph and run properties go over the style's own, in the order given.
 */
function splitConditional(key: string): { styleId: string; conditions: TableCondition[] } | undefined {
  const at = key.indexOf(CONDITION_SEPARATOR);
  if (at < 0) return undefined;
  const conditions = key
    .slice(at + 1)
    .split(' ')
    .filter(Boolean) as TableCondition[];
  return { styleId: key.slice(0, at), conditions };
}

/** Property elements (and deltas) whose resolution each cache keeps, at most. */
const ELEMENT_CACHE_LIMIT = 4096;

interface ResolvedRun {
  tableStyleId: string | undefined;
  paragraphStyleId: string | undefined;
  properties: RunProperties;
}

export interface ResolvedMark {
  readonly tableStyleId: string | undefined;
  readonly paragraphStyleId: string | undefined;
  readonly delta: RunDelta;
  readonly properties: RunProperties;
}

interface ResolvedParagraph {
  base: ParagraphDelta;
  properties: ParagraphProperties;
}

const NO_PARAGRAPH: ParagraphDelta = {};
/** The names of Word's built-in heading styles (latent style names, §17.7.4.9). */
const BUILT_IN_HEADING = /^heading ([1-9])$/i;
const NO_RUN: RunDelta = {};

function isEmpty(delta: object): boolean {
  for (const _ in delta) return false;
  return true;
}

function withoutStyle(direct: ParagraphDelta): ParagraphDelta {
  if (direct.styleId === undefined && direct.numbering === undefined) return direct;
  const copy = { ...direct };
  delete copy.styleId;
  return copy;
}
