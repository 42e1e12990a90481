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
  /** Candidates by field hash; the exact comparison decides (fieldsHash, sameFields). */
  private readonly runs = new Map<number, RunProperties[]>();
  private readonly paragraphs = new Map<number, ParagraphProperties[]>();
  /** Values the field layouts do not cover, by their exact JSON. */
  private readonly other = new Map<string, object>();

  run(value: RunProperties): RunProperties {
    if (!sameKeysInOrder(value, RUN_KEYS, presentCount(value, RUN_KEYS))) return this.intern(value);
    return shareByFields(this.runs, RUN_FIELDS, value);
  }

  paragraph(value: ParagraphProperties): ParagraphProperties {
    if (!hasParagraphLayout(value)) return this.intern(value);
    return shareByFields(this.paragraphs, PARAGRAPH_FIELDS, value);
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

/**
 * The shared object equal to `value` field by field, or `value` itself, frozen, when it is new. No
 * key string is built: a hash of the fields picks the candidates and sameFields compares them
 * exactly, so a run costs no allocation once its formatting has been seen.
 */
function shareByFields<T extends object>(map: Map<number, T[]>, fields: readonly Field[], value: T): T {
  const hash = fieldsHash(value, fields);
  const candidates = map.get(hash);
  if (candidates === undefined) {
    deepFreeze(value);
    map.set(hash, [value]);
    return value;
  }
  for (let i = 0; i < candidates.length; i++) {
    const candidate = candidates[i] as T;
    if (sameFields(candidate, value, fields)) return candidate;
  }
  deepFreeze(value);
  candidates.push(value);
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
  'underline',
  'underlineColor',
  'color',
  'highlight',
  'shading',
];

/** How many of `names` the object has as own keys. */
function presentCount(value: object, names: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < names.length; i++) if ((names[i] as string) in value) count++;
  return count;
}

/**
 * One compared value: a top-level key, or a key of one of the nested objects (indent, spacing).
 * Values are scalars, except paragraph tabs and borders, which take part only when empty (a
 * paragraph with real ones goes through the JSON key).
 */
interface Field {
  key: string;
  inside?: string;
}

const RUN_FIELDS: readonly Field[] = RUN_KEYS.map((key) => ({ key }));

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
];
const INDENT_KEYS: readonly string[] = ['left', 'right', 'firstLine'];
const SPACING_KEYS: readonly string[] = ['before', 'after', 'line', 'lineRule', 'beforeAuto', 'afterAuto'];

const PARAGRAPH_FIELDS: readonly Field[] = [
  ...PARAGRAPH_KEYS.filter((key) => key !== 'indent' && key !== 'spacing').map((key) => ({ key })),
  ...INDENT_KEYS.map((key) => ({ key, inside: 'indent' })),
  ...SPACING_KEYS.map((key) => ({ key, inside: 'spacing' })),
];

/**
 * Whether the paragraph has toParagraphProperties' layout: its keys from PARAGRAPH_KEYS in that
 * order, indent and spacing objects with theirs, and tabs and borders (if any) empty.
 */
function hasParagraphLayout(value: ParagraphProperties): boolean {
  const { indent, spacing } = value;
  const record = value as unknown as Record<string, unknown>;
  if ('tabs' in value && !(Array.isArray(record.tabs) && record.tabs.length === 0)) return false;
  if ('borders' in value && !isEmptyObject(record.borders)) return false;
  return (
    sameKeysInOrder(value, PARAGRAPH_KEYS, presentCount(value, PARAGRAPH_KEYS)) &&
    typeof indent === 'object' &&
    typeof spacing === 'object' &&
    sameKeysInOrder(indent, INDENT_KEYS, 3) &&
    sameKeysInOrder(spacing, SPACING_KEYS, 4 + ('beforeAuto' in spacing ? 1 : 0) + ('afterAuto' in spacing ? 1 : 0))
  );
}

/** The object holding the field (the value, or its indent or spacing), as a record. */
function holder(value: object, field: Field): Record<string, unknown> | undefined {
  const record = value as Record<string, unknown>;
  return field.inside === undefined ? record : (record[field.inside] as Record<string, unknown> | undefined);
}

/** FNV-1a over the fields: presence, type and value (numbers by their bits' low words). */
function fieldsHash(value: object, fields: readonly Field[]): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as Field;
    const owner = holder(value, field);
    hash = Math.imul(hash ^ (owner !== undefined && field.key in owner ? 1 : 2), 0x01000193);
    const item = owner?.[field.key];
    if (typeof item === 'string') {
      for (let c = 0; c < item.length; c++) hash = Math.imul(hash ^ item.charCodeAt(c), 0x01000193);
    } else if (typeof item === 'number') {
      hash = Math.imul(hash ^ ((item * 4096) | 0), 0x01000193);
    } else if (typeof item === 'boolean') {
      hash = Math.imul(hash ^ (item ? 3 : 4), 0x01000193);
    }
  }
  return hash;
}

/**
 * Exact equality over the fields: the same keys present and the same values (Object.is, so -0,
 * NaN and undefined stay apart; empty tabs and borders are equal). Both objects passed the layout
 * check, so the same keys also come in the same order.
 */
function sameFields(a: object, b: object, fields: readonly Field[]): boolean {
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as Field;
    const x = holder(a, field);
    const y = holder(b, field);
    const inX = x !== undefined && field.key in x;
    const inY = y !== undefined && field.key in y;
    if (inX !== inY) return false;
    if (!inX) continue;
    const p = x?.[field.key];
    const q = y?.[field.key];
    if (Object.is(p, q)) continue;
    // Empty tabs ([]) and borders ({}) are the only objects that reach here.
    const emptyArrays = Array.isArray(p) && Array.isArray(q) && p.length === 0 && q.length === 0;
    if (!emptyArrays && !(isEmptyObject(p) && isEmptyObject(q))) return false;
  }
  return true;
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
