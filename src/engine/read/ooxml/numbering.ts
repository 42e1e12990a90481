import type { ListLabel, RunProperties } from '../../model';
import { formatNumber, isKnownNumberFormat, isSymbolFont, mapSymbolText } from '../../text';
import { effectiveChildren } from './markup-compatibility';
import { type ParagraphDelta, readParagraphDelta } from './paragraph-properties';
import { type RunDelta, readRunDelta } from './run-properties';
import type { StyleSheet } from './style-cascade';
import type { ThemeColors } from './theme-colors';
import { integer, onOff } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * Numbering (ECMA-376 Part 1, §17.9): abstract definitions (w:abstractNum) with nine levels,
 * instances (w:num) that point at one and may override levels or start values, and the counters
 * that number paragraphs in document order.
 */

export interface LevelDefinition {
  start: number;
  /** ST_NumberFormat; "custom" formats are resolved to a known one when possible. */
  format: string;
  /** Zero-padding width for custom formats like "001, 002, 003". */
  padding?: number;
  /** w:lvlText: "%1.%2." style template, or the bullet itself. */
  text: string;
  /** w:lvlRestart: 0 = never restart; n = restart after level n (1-based) is used; undefined = after any higher level. */
  restartAfter?: number;
  /** w:isLgl: show every referenced level in decimal (§17.9.4). */
  legal: boolean;
  suffix: ListLabel['suffix'];
  align: ListLabel['align'];
  paragraph: ParagraphDelta;
  run: RunDelta;
  /** w:pStyle: the paragraph style linked to this level (§17.9.24). */
  styleId?: string;
  pictureBullet: boolean;
  /** w:lvlPicBulletId: the w:numPicBullet drawn as the label (§17.9.10). */
  pictureBulletId?: string;
}

export interface NumberingInstance {
  numId: string;
  /** The abstract definition whose counters this instance shares (after w:numStyleLink). */
  abstractId: string;
  levels: (LevelDefinition | undefined)[];
  /** w:lvlOverride/w:startOverride: restart these levels at these values when first used (§17.9.27). */
  startOverrides: ReadonlyMap<number, number>;
}

export interface NumberingDefinitions {
  instances: ReadonlyMap<string, NumberingInstance>;
  /** w:numPicBullet by w:numPicBulletId: the pictures of picture bullets (§17.9.20). */
  pictureBullets: ReadonlyMap<string, XmlElement>;
  /** The numbering part, whose relationships name the bullets' pictures. */
  partName?: string;
  /** Formats met that print as decimal for want of support. */
  unsupportedFormats: ReadonlySet<string>;
}

export const NO_NUMBERING: NumberingDefinitions = {
  instances: new Map(),
  pictureBullets: new Map(),
  unsupportedFormats: new Set(),
};

interface AbstractDefinition {
  id: string;
  levels: (LevelDefinition | undefined)[];
  numStyleLink?: string;
}

export function readNumbering(
  root: XmlElement | undefined,
  styles: StyleSheet,
  colors: ThemeColors,
): NumberingDefinitions {
  if (root === undefined) return NO_NUMBERING;
  const unsupported = new Set<string>();
  const abstracts = new Map<string, AbstractDefinition>();
  const nums: XmlElement[] = [];
  const pictureBullets = new Map<string, XmlElement>();
  for (const element of root.children) {
    const bulletId = element.attributes['w:numPicBulletId'];
    if (element.name === 'w:numPicBullet' && bulletId !== undefined) pictureBullets.set(bulletId, element);
    if (element.name === 'w:abstractNum') {
      const id = element.attributes['w:abstractNumId'];
      if (id === undefined || abstracts.has(id)) continue;
      const levels: (LevelDefinition | undefined)[] = [];
      for (const lvl of element.children) {
        if (lvl.name !== 'w:lvl') continue;
        const index = integer(lvl.attributes['w:ilvl']);
        if (index === undefined || index < 0 || index > 8) continue;
        levels[index] = readLevel(lvl, colors, unsupported);
      }
      const definition: AbstractDefinition = { id, levels };
      const link = child(element, 'w:numStyleLink')?.attributes['w:val'];
      if (link) definition.numStyleLink = link;
      abstracts.set(id, definition);
    } else if (element.name === 'w:num') {
      nums.push(element);
    }
  }

  const abstractOfNum = new Map<string, string>();
  for (const num of nums) {
    const numId = num.attributes['w:numId'];
    const abstractId = child(num, 'w:abstractNumId')?.attributes['w:val'];
    if (numId !== undefined && abstractId !== undefined && !abstractOfNum.has(numId)) {
      abstractOfNum.set(numId, abstractId);
    }
  }

  /**
   * w:numStyleLink names a numbering style whose w:numPr points at the instance holding the real
   * definition (the one with the matching w:styleLink, §17.9.21); follow it, a few hops at most.
   */
  const resolveAbstract = (abstractId: string): AbstractDefinition | undefined => {
    let current = abstracts.get(abstractId);
    for (let hop = 0; hop < 4 && current?.numStyleLink !== undefined; hop++) {
      const numId = styles.styles.get(current.numStyleLink)?.paragraph.numbering?.numId;
      const target = numId === undefined ? undefined : abstractOfNum.get(numId);
      const next = target === undefined ? undefined : abstracts.get(target);
      if (next === undefined || next === current) break;
      current = next;
    }
    return current;
  };

  const instances = new Map<string, NumberingInstance>();
  for (const num of nums) {
    const numId = num.attributes['w:numId'];
    const abstractId = abstractOfNum.get(numId ?? '');
    if (numId === undefined || abstractId === undefined || instances.has(numId)) continue;
    const abstract = resolveAbstract(abstractId);
    if (abstract === undefined) continue;
    const levels = abstract.levels.slice();
    const startOverrides = new Map<number, number>();
    for (const override of num.children) {
      if (override.name !== 'w:lvlOverride') continue;
      const index = integer(override.attributes['w:ilvl']);
      if (index === undefined || index < 0 || index > 8) continue;
      const replacement = child(override, 'w:lvl');
      if (replacement) levels[index] = readLevel(replacement, colors, unsupported);
      const start = integer(child(override, 'w:startOverride')?.attributes['w:val']);
      if (start !== undefined) startOverrides.set(index, start);
    }
    instances.set(numId, { numId, abstractId: abstract.id, levels, startOverrides });
  }
  return { instances, pictureBullets, unsupportedFormats: unsupported };
}

function readLevel(lvl: XmlElement, colors: ThemeColors, unsupported: Set<string>): LevelDefinition {
  let format = 'decimal';
  let padding: number | undefined;
  const level: LevelDefinition = {
    start: 1,
    format,
    text: '',
    legal: false,
    suffix: 'tab',
    align: 'left',
    paragraph: {},
    run: {},
    pictureBullet: false,
  };
  for (const property of effectiveChildren(lvl)) {
    const value = property.attributes['w:val'];
    switch (property.name) {
      case 'w:start':
        level.start = integer(value) ?? 1;
        break;
      case 'w:numFmt':
        format = value ?? 'decimal';
        if (format === 'custom') {
          // Word 2010+ custom formats ("001, 002, 003"): zero-padded decimals are the common case.
          const match = /^(0*)1\b/.exec(property.attributes['w:format'] ?? '');
          format = 'decimal';
          if (match && (match[1] as string).length > 0) padding = (match[1] as string).length + 1;
        }
        if (!isKnownNumberFormat(format)) unsupported.add(format);
        break;
      case 'w:lvlText':
        level.text = value ?? '';
        break;
      case 'w:lvlRestart': {
        const restart = integer(value);
        if (restart !== undefined) level.restartAfter = restart;
        break;
      }
      case 'w:isLgl':
        level.legal = onOff(value);
        break;
      case 'w:suff':
        level.suffix = value === 'space' ? 'space' : value === 'nothing' ? 'nothing' : 'tab';
        break;
      case 'w:lvlJc':
        level.align = value === 'center' ? 'center' : value === 'right' || value === 'end' ? 'right' : 'left';
        break;
      case 'w:pStyle':
        if (value) level.styleId = value;
        break;
      case 'w:lvlPicBulletId':
        level.pictureBullet = true;
        if (value !== undefined) level.pictureBulletId = value;
        break;
      case 'w:pPr':
        level.paragraph = readParagraphDelta(property, colors);
        break;
      case 'w:rPr':
        level.run = readRunDelta(property, colors);
        break;
    }
  }
  level.format = format;
  if (padding !== undefined) level.padding = padding;
  return level;
}

/** Which list a paragraph is in: from its own w:numPr or its style's (§17.9.23). */
export interface ParagraphNumbering {
  instance: NumberingInstance;
  level: number;
  definition: LevelDefinition;
  /** True when the numbering came from the paragraph style rather than direct w:numPr. */
  fromStyle: boolean;
}

export function paragraphNumbering(
  definitions: NumberingDefinitions,
  direct: ParagraphDelta['numbering'],
  fromStyle: ParagraphDelta['numbering'],
  styleId: string | undefined,
): ParagraphNumbering | undefined {
  const numId = direct?.numId ?? fromStyle?.numId;
  if (numId === undefined || numId === '0') return undefined;
  const instance = definitions.instances.get(numId);
  if (instance === undefined) return undefined;
  let level = direct?.level ?? fromStyle?.level;
  if (level === undefined && styleId !== undefined) {
    const linked = instance.levels.findIndex((candidate) => candidate?.styleId === styleId);
    if (linked !== -1) level = linked;
  }
  level ??= 0;
  const definition = instance.levels[level];
  if (definition === undefined) return undefined;
  return { instance, level, definition, fromStyle: direct?.numId === undefined };
}

/**
 * The counters of one story (the body, or one header): per abstract definition, since Word keeps
 * numbering going across w:num instances of the same abstractNum unless an instance overrides a
 * start value — the way separate lists are made to restart (pandoc, python-docx and Word itself).
 */
export class ListCounters {
  private readonly counters = new Map<string, (number | undefined)[]>();
  private readonly started = new Set<string>();

  /** Advances the counter for this paragraph and returns the label's text. */
  next(numbering: ParagraphNumbering): string {
    const { instance, level } = numbering;
    let values = this.counters.get(instance.abstractId);
    if (values === undefined) {
      values = [];
      this.counters.set(instance.abstractId, values);
    }
    if (!this.started.has(instance.numId)) {
      this.started.add(instance.numId);
      for (const overridden of instance.startOverrides.keys()) values[overridden] = undefined;
    }
    const current = values[level];
    values[level] = current === undefined ? startOf(instance, level) : current + 1;
    for (let deeper = level + 1; deeper < 9; deeper++) {
      const restartAfter = instance.levels[deeper]?.restartAfter ?? deeper;
      if (restartAfter !== 0 && level < restartAfter) values[deeper] = undefined;
    }
    return labelText(instance, numbering.definition, values);
  }
}

function startOf(instance: NumberingInstance, level: number): number {
  return instance.startOverrides.get(level) ?? instance.levels[level]?.start ?? 1;
}

/** Expands w:lvlText: %1…%9 become those levels' numbers, each in its own format (§17.9.11). */
function labelText(instance: NumberingInstance, definition: LevelDefinition, values: (number | undefined)[]): string {
  if (definition.format === 'bullet') return definition.text;
  return definition.text.replace(/%([1-9])/g, (_, digit: string) => {
    const index = Number(digit) - 1;
    const referenced = instance.levels[index];
    const value = values[index] ?? startOf(instance, index);
    if (referenced === undefined) return String(value);
    if (definition.legal && referenced.format !== 'none') return String(value);
    const text = formatNumber(value, referenced.format);
    return referenced.padding !== undefined ? text.padStart(referenced.padding, '0') : text;
  });
}

/**
 * The label as the model carries it. Bullets in a symbol font are mapped to Unicode and then drawn
 * in the paragraph's face instead, since the symbol face itself is not available.
 */
export function listLabel(
  text: string,
  definition: LevelDefinition,
  properties: RunProperties,
  markProperties: RunProperties,
): ListLabel {
  let labelText = text;
  let props = properties;
  let metricsFont: string | undefined;
  // Picture bullets (w:lvlPicBulletId) are images; until they are read, a bullet stands in.
  if (definition.pictureBullet && definition.format === 'bullet') labelText = '•';
  // Bullets in the private use area without a symbol font were meant for one: guess it.
  const mapped = mapSymbolText(labelText, isSymbolFont(properties.font) ? properties.font : undefined);
  if (mapped.mapped) {
    labelText = mapped.text;
    props = { ...properties, font: markProperties.font };
    if (isSymbolFont(properties.font)) metricsFont = properties.font;
  }
  const label: ListLabel = { text: labelText, props, suffix: definition.suffix, align: definition.align };
  if (metricsFont !== undefined) label.metricsFont = metricsFont;
  return label;
}
