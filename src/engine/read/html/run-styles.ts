/**
 * Run and paragraph properties for one document, cached. Runs by the run format's delta: the
 * walk shares one RunDelta object among all the text inside an element (format-context.ts:
 * contexts are copied on change, never mutated), so the DOCX cascade runs once per (delta,
 * paragraph style, character style) instead of once per text run. Paragraphs by their style and
 * the values of their direct formatting, which a page repeats for most of its paragraphs.
 */
import type { ParagraphProperties, RunProperties } from '../../model';
import type { ParagraphDelta, RunDelta, StyleCascade } from '../ooxml';

export class RunStyles {
  readonly cascade: StyleCascade;
  /** Weak: a delta's entries go when the walk no longer holds it. */
  private readonly byDelta = new WeakMap<RunDelta, Map<string, RunProperties>>();
  private readonly paragraphs = new Map<string, ParagraphProperties>();

  constructor(cascade: StyleCascade) {
    this.cascade = cascade;
  }

  /** cascade.runProperties(undefined, paragraphStyleId, characterStyleId, delta), cached. */
  of(paragraphStyleId: string, characterStyleId: string | undefined, delta: RunDelta): RunProperties {
    let byStyles = this.byDelta.get(delta);
    if (!byStyles) {
      byStyles = new Map();
      this.byDelta.set(delta, byStyles);
    }
    const key = `${paragraphStyleId}\u0001${characterStyleId ?? ''}`;
    let properties = byStyles.get(key);
    if (!properties) {
      properties = this.cascade.runProperties(undefined, paragraphStyleId, characterStyleId, delta);
      byStyles.set(key, properties);
    }
    return properties;
  }

  /**
   * cascade.paragraphProperties(paragraphBase(styleId), direct), cached by the style and the
   * direct values. Only the flat fields the HTML walk sets take part in the key; a delta with any
   * other field (borders, tabs, numbering) is resolved uncached.
   */
  paragraph(styleId: string, direct: ParagraphDelta): ParagraphProperties {
    const key = paragraphKey(styleId, direct);
    let properties = key === undefined ? undefined : this.paragraphs.get(key);
    if (!properties) {
      const base = this.cascade.paragraphBase({ styleId, tableStyleId: undefined });
      properties = this.cascade.paragraphProperties(base, direct);
      if (key !== undefined && this.paragraphs.size < MAX_CACHED_PARAGRAPHS) this.paragraphs.set(key, properties);
    }
    return properties;
  }
}

/** Distinct paragraph formats remembered per document; past this they are resolved each time. */
const MAX_CACHED_PARAGRAPHS = 10_000;

/** The fields paragraphKey covers, in the order they are written into the key. */
const KEYED_FIELDS = [
  'justification',
  'left',
  'before',
  'after',
  'line',
  'lineRule',
  'shading',
  'pageBreakBefore',
  'firstLine',
] as const satisfies readonly (keyof ParagraphDelta)[];
const KEYED = new Set<string>(KEYED_FIELDS);

/** A key that equal (style, direct) pairs share and different ones do not; undefined if not keyable. */
function paragraphKey(styleId: string, direct: ParagraphDelta): string | undefined {
  for (const field in direct) if (!KEYED.has(field)) return undefined;
  // Field order changes the merged object's key order, so it is part of the key too.
  let key = styleId;
  for (const field in direct) key += `\u0001${field}=${String(direct[field as keyof ParagraphDelta])}`;
  return key;
}
