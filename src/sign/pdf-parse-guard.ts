/**
 * Bounds checked before pdf-lib parses a PDF to update it. pdf-lib reads every cross-reference
 * stream and object stream in the body as it meets them, looping once per byte of each /W width,
 * once per entry its /Index (or /Size) declares (ISO 32000-1 §7.5.8.2), and once per object an
 * object stream's /N declares (§7.5.7), whatever the data holds: `/W [1 2 4294967296]` keeps an
 * isolate busy for minutes. Files declaring more than any real file has are refused up front.
 */
import { ApiError } from '../errors';
import { indexOfAscii, lastIndexOfAscii, type PdfValue, readValue } from '../verify/pdf-syntax';

/** Bytes per xref stream field: 8 addresses any file (§7.5.8.3). */
const MAX_FIELD_WIDTH = 8;
/** Entries one xref stream may declare, and objects one object stream may hold. */
const MAX_ENTRIES = 8_000_000;
/** How far before a /Type name the `obj` keyword of its object may be. */
const DICT_WINDOW = 64 * 1024;
/** Stream dictionaries examined at most (a real file has a handful of xref streams, hundreds of object streams). */
const MAX_DICTS = 100_000;

function numbers(value: PdfValue | undefined): number[] | undefined {
  if (value?.kind !== 'array') return undefined;
  return value.items.map((item) => (item.kind === 'number' ? item.value : Number.NaN));
}

function integerOf(dict: Map<string, PdfValue>, key: string): number | undefined {
  const value = dict.get(key);
  return value?.kind === 'number' ? value.value : undefined;
}

/** Why the dictionary around a /Type /XRef or /Type /ObjStm is out of bounds, or undefined. */
function violation(dict: Map<string, PdfValue>, type: string): string | undefined {
  if (type === 'ObjStm') {
    const n = integerOf(dict, 'N');
    return n !== undefined && !(n >= 0 && n <= MAX_ENTRIES) ? `an object stream declares /N ${n}` : undefined;
  }
  const widths = numbers(dict.get('W'));
  if (widths?.some((width) => !(Number.isInteger(width) && width >= 0 && width <= MAX_FIELD_WIDTH))) {
    return `a cross-reference stream declares field widths /W [${widths.join(' ')}]`;
  }
  const index = numbers(dict.get('Index'));
  const counts = index ? index.filter((_, i) => i % 2 === 1) : [integerOf(dict, 'Size') ?? 0];
  const total = counts.reduce(
    (sum, count) => sum + (Number.isFinite(count) && count >= 0 ? count : Number.POSITIVE_INFINITY),
    0,
  );
  return total > MAX_ENTRIES ? `a cross-reference stream declares ${total} entries` : undefined;
}

export function assertParseableStreams(pdf: Uint8Array): void {
  let examined = 0;
  for (const type of ['XRef', 'ObjStm']) {
    for (let at = indexOfAscii(pdf, `/${type}`, 0); at >= 0; at = indexOfAscii(pdf, `/${type}`, at + 1)) {
      if (++examined > MAX_DICTS) throw refuse('it has more stream dictionaries than any real file');
      const objAt = lastIndexOfAscii(pdf, 'obj', Math.max(0, at - DICT_WINDOW), at);
      const dict = objAt < 0 ? undefined : readValue(pdf, objAt + 3);
      if (dict?.kind !== 'dict' || dict.end < at) continue;
      const why = violation(dict.entries, type);
      if (why) throw refuse(why);
    }
  }
}

function refuse(why: string): ApiError {
  return new ApiError('INVALID_DOCUMENT', `The PDF is damaged: ${why}, more than any real file`);
}
