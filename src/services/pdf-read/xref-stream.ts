/**
 * Decoding a cross-reference stream's data (ISO 32000-1 §7.5.8): FlateDecode (§7.4.4) through the
 * project's bounded inflate, then the PNG predictors of §7.4.4.4 (Table 8; /Predictor 10–15, the
 * row filter named per row) via the PNG decoder's own unfilter, then the /W-wide fields per /Index
 * subsection (§7.5.8.2–3, Table 18).
 */

import { unfilter } from '../../engine';
import { boundedInflate } from '../../kit';
import type { PdfValue } from './pdf-syntax';
import type { XrefEntry } from './revision-types';

/** An xref stream of a real file is a few bytes per object; 32 MiB is ~6 million objects. */
const MAX_DECODED = 32 * 1024 * 1024;
/** Entries per section, whatever /Index claims. */
const MAX_ENTRIES = 8_000_000;

function dictValue(dict: PdfValue, key: string): PdfValue | undefined {
  return dict.kind === 'dict' ? dict.entries.get(key) : undefined;
}

function integers(value: PdfValue | undefined): number[] | undefined {
  if (value?.kind !== 'array') return undefined;
  const out: number[] = [];
  for (const item of value.items) {
    if (item.kind !== 'number' || !Number.isInteger(item.value) || item.value < 0) return undefined;
    out.push(item.value);
  }
  return out;
}

/**
 * The stream's data decoded per /Filter and /DecodeParms, or a problem. What is inflated is taken
 * from `budget`, the caller's allowance for the whole file.
 */
export function decodeStreamData(
  dict: PdfValue,
  raw: Uint8Array,
  budget: { remaining: number },
): { bytes: Uint8Array } | { problem: string } {
  let filter = dictValue(dict, 'Filter');
  let parms = dictValue(dict, 'DecodeParms');
  if (filter?.kind === 'array') {
    if (filter.items.length > 1) return { problem: 'xref stream has a filter chain' };
    filter = filter.items[0];
  }
  if (parms?.kind === 'array') parms = parms.items[0];
  let bytes = raw;
  if (filter !== undefined) {
    if (filter.kind !== 'name' || filter.value !== 'FlateDecode')
      return { problem: 'xref stream filter is not FlateDecode' };
    const inflated = boundedInflate(raw, Math.min(MAX_DECODED, budget.remaining));
    if (!inflated)
      return { problem: 'xref stream does not inflate (corrupt, or too large for what is left of the budget)' };
    budget.remaining -= inflated.length;
    bytes = inflated.bytes;
  }
  const predictor = parms?.kind === 'dict' ? parms.entries.get('Predictor') : undefined;
  const p = predictor?.kind === 'number' ? predictor.value : 1;
  if (p === 1) return { bytes };
  if (p < 10) return { problem: `xref stream predictor ${p} is not supported` };
  const columnsValue = parms?.kind === 'dict' ? parms.entries.get('Columns') : undefined;
  const columns = columnsValue?.kind === 'number' ? columnsValue.value : 1;
  if (!Number.isInteger(columns) || columns < 1 || columns > 1024)
    return { problem: 'xref stream /Columns is invalid' };
  return unpredict(bytes, columns);
}

/** PNG prediction with one byte per pixel (/Colors 1, /BitsPerComponent 8, the defaults). */
function unpredict(bytes: Uint8Array, columns: number): { bytes: Uint8Array } | { problem: string } {
  const rowLength = columns + 1;
  const rows = Math.floor(bytes.length / rowLength);
  const out = new Uint8Array(rows * columns);
  let previous: Uint8Array | undefined;
  for (let r = 0; r < rows; r++) {
    const row = out.subarray(r * columns, (r + 1) * columns);
    row.set(bytes.subarray(r * rowLength + 1, (r + 1) * rowLength));
    if (!unfilter(bytes[r * rowLength] as number, row, previous, 1))
      return { problem: 'xref stream has a bad PNG row filter' };
    previous = row;
  }
  return { bytes: out };
}

/** The entries of a decoded xref stream; problems are appended to `problems`. */
export function xrefStreamEntries(dict: PdfValue, data: Uint8Array, problems: string[]): Map<number, XrefEntry> {
  const entries = new Map<number, XrefEntry>();
  const w = integers(dictValue(dict, 'W'));
  if (!w || w.length < 3 || w.some((width) => width > 8)) {
    problems.push('xref stream /W is missing or invalid');
    return entries;
  }
  const [w0, w1, w2] = w as [number, number, number];
  const rowLength = w0 + w1 + w2;
  if (rowLength === 0) {
    problems.push('xref stream /W is all zero');
    return entries;
  }
  const sizeValue = dictValue(dict, 'Size');
  const size = sizeValue?.kind === 'number' ? sizeValue.value : 0;
  const index = integers(dictValue(dict, 'Index')) ?? [0, size];
  if (index.length % 2 !== 0) problems.push('xref stream /Index has an odd length');
  let at = 0;
  let count = 0;
  const field = (width: number, fallback: number): number => {
    if (width === 0) return fallback;
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 256 + (data[at + i] as number);
    at += width;
    return value;
  };
  for (let s = 0; s + 1 < index.length; s += 2) {
    const first = index[s] as number;
    const n = index[s + 1] as number;
    for (let i = 0; i < n; i++) {
      if (at + rowLength > data.length) {
        problems.push('xref stream data is shorter than /Index claims');
        return entries;
      }
      if (++count > MAX_ENTRIES) {
        problems.push('xref stream has too many entries');
        return entries;
      }
      // Type 1 is the default when the first field is absent (§7.5.8.3).
      const type = field(w0, 1);
      const f2 = field(w1, 0);
      const f3 = field(w2, 0);
      const num = first + i;
      if (type === 0) entries.set(num, { kind: 'free', nextFree: f2, generation: f3 });
      else if (type === 1) entries.set(num, { kind: 'offset', offset: f2, generation: f3 });
      else if (type === 2) entries.set(num, { kind: 'compressed', streamObject: f2, index: f3, generation: 0 });
      // Other types are reserved and are to be ignored (§7.5.8.3) — "null references".
    }
  }
  return entries;
}
