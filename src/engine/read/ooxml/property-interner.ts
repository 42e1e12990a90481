import type { ParagraphProperties, RunProperties } from '../../model';

/**
 * Shares equal property objects within one conversion. A document's runs and paragraphs repeat a
 * handful of distinct formattings (the largest corpus document: 13 649 run-property objects, 58
 * distinct), so the model keeps one frozen object per distinct value instead of one per run: less
 * to allocate, promote and trace. One interner per StyleCascade, which lives as long as the
 * conversion's read context; nothing downstream writes into properties (the objects are frozen,
 * so a write would throw in strict-mode code).
 *
 * Keys are exact: two objects share a key only when they have the same own keys in the same order
 * with the same values (-0, NaN and undefined kept apart), so sharing cannot change output.
 */
export class PropertyInterner {
  /** Candidates by a hash of their fields; the exact comparison decides (sameRun, sameParagraph). */
  private readonly runs = new Map<number, RunProperties[]>();
  private readonly paragraphs = new Map<number, ParagraphProperties[]>();
  /** Values the typed comparisons do not cover, by their exact JSON. */
  private readonly other = new Map<string, object>();

  run(value: RunProperties): RunProperties {
    if (!keysInOrder(value, RUN_KEYS)) return this.intern(value);
    return shareEqual(this.runs, runHash(value), value, sameRun);
  }

  paragraph(value: ParagraphProperties): ParagraphProperties {
    if (!hasParagraphLayout(value)) return this.intern(value);
    return shareEqual(this.paragraphs, paragraphHash(value), value, sameParagraph);
  }

  /** Any plain-data object, keyed by its JSON (slower than the typed comparisons above). */
  intern<T extends object>(value: T): T {
    return share(this.other as Map<string, T>, JSON.stringify(value, keyReplacer), value);
  }
}

function share<T extends object>(map: Map<string, T>, key: string, value: T): T {
  const existing = map.get(key);
  if (existing !== undefined) return existing;
  deepFreeze(value);
  map.set(key, value);
  return value;
}

/**
 * The shared object `same` as `value`, or `value` itself, frozen, when it is new. No key string is
 * built: the hash picks the candidates and `same` compares them exactly, so a run costs no
 * allocation once its formatting has been seen.
 */
function shareEqual<T extends object>(map: Map<number, T[]>, hash: number, value: T, same: (a: T, b: T) => boolean): T {
  const candidates = map.get(hash);
  if (candidates === undefined) {
    deepFreeze(value);
    map.set(hash, [value]);
    return value;
  }
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i] as T;
    if (same(candidate, value)) return candidate;
  }
  deepFreeze(value);
  candidates.push(value);
  return value;
}

/** The order toRunProperties writes every field in, the optional ones undefined when unset. */
const RUN_KEYS: readonly (keyof RunProperties)[] = [
  'font',
  'size',
  'bold',
  'italic',
  'strike',
  'doubleStrike',
  'caps',
  'smallCaps',
  'verticalAlign',
  'characterSpacing',
  'position',
  'hidden',
  'fontEastAsia',
  'fontComplex',
  'sizeComplex',
  'boldComplex',
  'italicComplex',
  'rtl',
  'complexScript',
  'fontHintEastAsia',
  'languageEastAsia',
  'underline',
  'underlineColor',
  'color',
  'highlight',
  'shading',
];

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function mixText(hash: number, text: string | undefined): number {
  if (text === undefined) return Math.imul(hash ^ 1, FNV_PRIME);
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return Math.imul(h ^ 2, FNV_PRIME);
}

function mixNumber(hash: number, value: number | undefined): number {
  return Math.imul(hash ^ (value === undefined ? 3 : (value * 4096) | 0), FNV_PRIME);
}

function mixFlag(hash: number, value: boolean | undefined): number {
  return Math.imul(hash ^ (value === undefined ? 5 : value ? 6 : 7), FNV_PRIME);
}

/**
 * Equal values, and the field present in both or in neither (an own undefined is not an absent
 * key). Object.is: -0 and 0, NaN and NaN as the exact keys had them.
 */
function sameOptional(a: object, b: object, key: string, x: unknown, y: unknown): boolean {
  return Object.is(x, y) && (x !== undefined || key in a === key in b);
}

/** Hash over the fields that usually differ (collisions only cost a comparison). */
function runHash(v: RunProperties): number {
  let h = mixText(FNV_OFFSET, v.font);
  h = mixNumber(h, v.size);
  h = mixFlag(h, v.bold);
  h = mixFlag(h, v.italic);
  h = mixText(h, v.color);
  h = mixText(h, v.fontEastAsia);
  h = mixText(h, v.fontComplex);
  h = mixText(h, v.underline);
  h = mixText(h, v.highlight);
  h = mixText(h, v.shading);
  h = mixText(h, v.verticalAlign);
  h = mixNumber(h, v.characterSpacing);
  h = mixNumber(h, v.position);
  return mixFlag(h, v.hidden);
}

/**
 * Every field of RUN_KEYS compared; the key order was checked when each was interned. The `in`
 * checks of sameOptional only run for a value undefined in both, which for the required fields
 * never happens in practice.
 */
function sameRun(a: RunProperties, b: RunProperties): boolean {
  return (
    sameOptional(a, b, 'font', a.font, b.font) &&
    sameOptional(a, b, 'size', a.size, b.size) &&
    sameOptional(a, b, 'bold', a.bold, b.bold) &&
    sameOptional(a, b, 'italic', a.italic, b.italic) &&
    sameOptional(a, b, 'strike', a.strike, b.strike) &&
    sameOptional(a, b, 'doubleStrike', a.doubleStrike, b.doubleStrike) &&
    sameOptional(a, b, 'caps', a.caps, b.caps) &&
    sameOptional(a, b, 'smallCaps', a.smallCaps, b.smallCaps) &&
    sameOptional(a, b, 'verticalAlign', a.verticalAlign, b.verticalAlign) &&
    sameOptional(a, b, 'characterSpacing', a.characterSpacing, b.characterSpacing) &&
    sameOptional(a, b, 'position', a.position, b.position) &&
    sameOptional(a, b, 'hidden', a.hidden, b.hidden) &&
    sameOptional(a, b, 'fontEastAsia', a.fontEastAsia, b.fontEastAsia) &&
    sameOptional(a, b, 'fontComplex', a.fontComplex, b.fontComplex) &&
    sameOptional(a, b, 'sizeComplex', a.sizeComplex, b.sizeComplex) &&
    sameOptional(a, b, 'boldComplex', a.boldComplex, b.boldComplex) &&
    sameOptional(a, b, 'italicComplex', a.italicComplex, b.italicComplex) &&
    sameOptional(a, b, 'rtl', a.rtl, b.rtl) &&
    sameOptional(a, b, 'complexScript', a.complexScript, b.complexScript) &&
    sameOptional(a, b, 'fontHintEastAsia', a.fontHintEastAsia, b.fontHintEastAsia) &&
    sameOptional(a, b, 'languageEastAsia', a.languageEastAsia, b.languageEastAsia) &&
    sameOptional(a, b, 'underline', a.underline, b.underline) &&
    sameOptional(a, b, 'underlineColor', a.underlineColor, b.underlineColor) &&
    sameOptional(a, b, 'color', a.color, b.color) &&
    sameOptional(a, b, 'highlight', a.highlight, b.highlight) &&
    sameOptional(a, b, 'shading', a.shading, b.shading)
  );
}

/** Whether `a` and `b` each have all of `keys` or lack the same ones. */
function sameRequired(a: object, b: object, keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key in a !== key in b) return false;
  }
  return true;
}

/** toParagraphProperties' order; borders and tabs (rare) go through the exact JSON key. */
const PARAGRAPH_KEYS: readonly string[] = [
  'align',
  'indent',
  'spacing',
  'tabs',
  'keepNext',
  'keepLines',
  'widowControl',
  'pageBreakBefore',
  'contextualSpacing',
  'borders',
  'rtl',
  'styleId',
  'shading',
  'outlineLevel',
  'snapToGrid',
  'autoSpaceLatin',
  'autoSpaceDigits',
];
const INDENT_KEYS: readonly string[] = ['left', 'right', 'firstLine'];
const SPACING_KEYS: readonly string[] = ['before', 'after', 'line', 'lineRule', 'beforeAuto', 'afterAuto'];

/**
 * Whether the paragraph has toParagraphProperties' layout: its keys from PARAGRAPH_KEYS in that
 * order, indent and spacing objects with theirs, and tabs and borders (if any) empty. Anything
 * else (real tab stops or borders, which are rare) goes through the exact JSON key.
 */
function hasParagraphLayout(value: ParagraphProperties): boolean {
  const { indent, spacing, tabs, borders } = value;
  if ('tabs' in value && !(Array.isArray(tabs) && tabs.length === 0)) return false;
  if ('borders' in value && !isEmptyObject(borders)) return false;
  return (
    keysInOrder(value, PARAGRAPH_KEYS) &&
    typeof indent === 'object' &&
    typeof spacing === 'object' &&
    keysInOrder(indent, INDENT_KEYS) &&
    keysInOrder(spacing, SPACING_KEYS) &&
    sameRequired(indent, FULL_INDENT, INDENT_KEYS) &&
    sameRequired(spacing, BASE_SPACING, REQUIRED_SPACING_KEYS)
  );
}

const FULL_INDENT = { left: 0, right: 0, firstLine: 0 };
const REQUIRED_SPACING_KEYS: readonly string[] = ['before', 'after', 'line', 'lineRule'];
const BASE_SPACING = { before: 0, after: 0, line: 0, lineRule: 'auto' };

function paragraphHash(v: ParagraphProperties): number {
  let h = mixText(FNV_OFFSET, v.styleId);
  h = mixText(h, v.align);
  h = mixNumber(h, v.indent.left);
  h = mixNumber(h, v.indent.right);
  h = mixNumber(h, v.indent.firstLine);
  h = mixNumber(h, v.spacing.before);
  h = mixNumber(h, v.spacing.after);
  h = mixNumber(h, v.spacing.line);
  h = mixText(h, v.spacing.lineRule);
  h = mixFlag(h, v.keepNext);
  h = mixFlag(h, v.contextualSpacing);
  return mixNumber(h, v.outlineLevel);
}

/** Every field compared; both passed hasParagraphLayout, so tabs and borders are empty if present. */
function sameParagraph(a: ParagraphProperties, b: ParagraphProperties): boolean {
  const ai = a.indent;
  const bi = b.indent;
  const as = a.spacing;
  const bs = b.spacing;
  return (
    sameOptional(a, b, 'styleId', a.styleId, b.styleId) &&
    sameOptional(a, b, 'align', a.align, b.align) &&
    Object.is(ai.left, bi.left) &&
    Object.is(ai.right, bi.right) &&
    Object.is(ai.firstLine, bi.firstLine) &&
    Object.is(as.before, bs.before) &&
    Object.is(as.after, bs.after) &&
    Object.is(as.line, bs.line) &&
    as.lineRule === bs.lineRule &&
    sameOptional(as, bs, 'beforeAuto', as.beforeAuto, bs.beforeAuto) &&
    sameOptional(as, bs, 'afterAuto', as.afterAuto, bs.afterAuto) &&
    'tabs' in a === 'tabs' in b &&
    'borders' in a === 'borders' in b &&
    sameOptional(a, b, 'keepNext', a.keepNext, b.keepNext) &&
    sameOptional(a, b, 'keepLines', a.keepLines, b.keepLines) &&
    sameOptional(a, b, 'widowControl', a.widowControl, b.widowControl) &&
    sameOptional(a, b, 'pageBreakBefore', a.pageBreakBefore, b.pageBreakBefore) &&
    sameOptional(a, b, 'contextualSpacing', a.contextualSpacing, b.contextualSpacing) &&
    sameOptional(a, b, 'rtl', a.rtl, b.rtl) &&
    sameOptional(a, b, 'shading', a.shading, b.shading) &&
    sameOptional(a, b, 'outlineLevel', a.outlineLevel, b.outlineLevel) &&
    sameOptional(a, b, 'snapToGrid', a.snapToGrid, b.snapToGrid) &&
    sameOptional(a, b, 'autoSpaceLatin', a.autoSpaceLatin, b.autoSpaceLatin) &&
    sameOptional(a, b, 'autoSpaceDigits', a.autoSpaceDigits, b.autoSpaceDigits)
  );
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** Whether the object's keys all come from `order`, in that order. */
function keysInOrder(value: object, order: readonly string[]): boolean {
  let at = 0;
  for (const name in value) {
    while (at < order.length && order[at] !== name) at++;
    if (at === order.length) return false;
  }
  return true;
}

/** JSON leaves out undefined and turns -0, NaN and ±Infinity into 0 or null; keep them apart. */
function keyReplacer(_key: string, value: unknown): unknown {
  if (value === undefined) return '\u0000undefined';
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0)))
    return `\u0000${Object.is(value, -0) ? '-0' : String(value)}`;
  return value;
}

function deepFreeze(value: object): void {
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null) deepFreeze(inner);
}
