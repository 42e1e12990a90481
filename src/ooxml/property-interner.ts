import type { ParagraphProperties, RunProperties } from '../model/document';

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
  private readonly runs = new Map<string, RunProperties>();
  private readonly paragraphs = new Map<string, ParagraphProperties>();
  private readonly other = new Map<string, object>();

  run(value: RunProperties): RunProperties {
    return share(this.runs, runKey(value), value);
  }

  paragraph(value: ParagraphProperties): ParagraphProperties {
    return share(this.paragraphs, paragraphKey(value), value);
  }

  /** Any plain-data object, keyed by its JSON (slower than the typed keys above). */
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

/** toRunProperties always writes the required fields first, in one order, then the optional ones. */
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
  'underline',
  'underlineColor',
  'color',
  'highlight',
  'shading',
];

function runKey(value: RunProperties): string {
  let key = '';
  let count = 0;
  for (const name of RUN_KEYS) {
    if (!(name in value)) {
      key += '\u0002';
      continue;
    }
    count++;
    key += `${scalar(value[name])}\u0002`;
  }
  // A field this list does not know (or a different order) falls back to the exact JSON key.
  if (!sameKeysInOrder(value, RUN_KEYS, count)) return `J${JSON.stringify(value, keyReplacer)}`;
  return key;
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

function paragraphKey(value: ParagraphProperties): string {
  const { indent, spacing } = value;
  let count = 0;
  let key = '';
  for (const name of PARAGRAPH_KEYS) {
    if (!(name in value)) {
      key += '\u0002';
      continue;
    }
    count++;
    if (name === 'indent' || name === 'spacing') continue;
    const field = value[name as keyof ParagraphProperties];
    if (name === 'tabs' && Array.isArray(field) && field.length === 0) key += '[]\u0002';
    else if (name === 'borders' && isEmptyObject(field)) key += '{}\u0002';
    else key += `${scalar(field)}\u0002`;
  }
  if (
    !sameKeysInOrder(value, PARAGRAPH_KEYS, count) ||
    typeof indent !== 'object' ||
    typeof spacing !== 'object' ||
    !sameKeysInOrder(indent, INDENT_KEYS, 3) ||
    !sameKeysInOrder(spacing, SPACING_KEYS, 4 + ('beforeAuto' in spacing ? 1 : 0) + ('afterAuto' in spacing ? 1 : 0))
  )
    return `J${JSON.stringify(value, keyReplacer)}`;
  key += `${scalar(indent.left)}\u0002${scalar(indent.right)}\u0002${scalar(indent.firstLine)}\u0002`;
  for (const name of SPACING_KEYS)
    key += name in spacing ? `${scalar(spacing[name as keyof typeof spacing])}\u0002` : '\u0002';
  return key;
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

/** Whether the object's `count` own keys all come from `order`, in that order. */
function sameKeysInOrder(value: object, order: readonly string[], count: number): boolean {
  let at = 0;
  let seen = 0;
  for (const name in value) {
    while (at < order.length && order[at] !== name) at++;
    if (at === order.length) return false;
    seen++;
  }
  return seen === count;
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return `s${value.length}:${value}`; // length first: no separator can be faked
  if (typeof value === 'number') return Object.is(value, -0) ? 'n-0' : `n${value}`;
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value === undefined) return 'u';
  return `J${JSON.stringify(value, keyReplacer)}`;
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
