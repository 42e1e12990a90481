/**
 * A small, bounded reader of PDF objects straight from the file's bytes (ISO 32000-1 §7.2 lexical
 * conventions, §7.3 objects), for the parts of a file the verifier must see as written: trailers,
 * xref stream dictionaries, signature dictionaries. Every value keeps its byte span, because a
 * signature's /Contents hole is defined by offsets in the file (§12.8.1), not by parsed values.
 * Nothing here trusts the input: nesting depth, item counts and string lengths are capped, and a
 * malformed token ends the value with undefined instead of throwing.
 */

export type PdfValue =
  | { kind: 'number'; value: number; start: number; end: number }
  | { kind: 'name'; value: string; start: number; end: number }
  | { kind: 'ref'; num: number; gen: number; start: number; end: number }
  | { kind: 'array'; items: PdfValue[]; start: number; end: number }
  | { kind: 'dict'; entries: Map<string, PdfValue>; start: number; end: number }
  /** Literal (§7.3.4.2) or hexadecimal (§7.3.4.3) string; start/end span the delimiters too. */
  | { kind: 'string'; hex: boolean; start: number; end: number }
  | { kind: 'keyword'; value: string; start: number; end: number };

/** Nesting deeper than this is hostile, not a real trailer or signature dictionary. */
const MAX_DEPTH = 32;
/** Items in one array or dictionary. */
const MAX_ITEMS = 100_000;

export function isWhite(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00;
}

function isDelimiter(b: number | undefined): boolean {
  // ( ) < > [ ] { } / %  (§7.2.2, Table 2)
  return (
    b === 0x28 ||
    b === 0x29 ||
    b === 0x3c ||
    b === 0x3e ||
    b === 0x5b ||
    b === 0x5d ||
    b === 0x7b ||
    b === 0x7d ||
    b === 0x2f ||
    b === 0x25
  );
}

/** Skips white space and comments (§7.2.3). */
export function skipWhite(pdf: Uint8Array, pos: number): number {
  let at = pos;
  while (at < pdf.length) {
    const b = pdf[at];
    if (isWhite(b)) at++;
    else if (b === 0x25) {
      while (at < pdf.length && pdf[at] !== 0x0a && pdf[at] !== 0x0d) at++;
    } else break;
  }
  return at;
}

/** The regular characters from `pos` (a keyword, number or name body). */
function regularRun(pdf: Uint8Array, pos: number): number {
  let at = pos;
  while (at < pdf.length && !isWhite(pdf[at]) && !isDelimiter(pdf[at])) at++;
  return at;
}

function ascii(pdf: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(pdf[i] as number);
  return text;
}

/** Whether `word` is at `pos` as a whole token. */
export function keywordAt(pdf: Uint8Array, pos: number, word: string): boolean {
  if (pos < 0 || pos + word.length > pdf.length) return false;
  for (let i = 0; i < word.length; i++) if (pdf[pos + i] !== word.charCodeAt(i)) return false;
  const after = pdf[pos + word.length];
  return after === undefined || isWhite(after) || isDelimiter(after);
}

/** A non-negative integer token at `pos` (after white space), or undefined. */
export function readInteger(pdf: Uint8Array, pos: number): { value: number; end: number } | undefined {
  const start = skipWhite(pdf, pos);
  let at = start;
  let value = 0;
  while (at < pdf.length && (pdf[at] as number) >= 0x30 && (pdf[at] as number) <= 0x39 && at - start < 15) {
    value = value * 10 + ((pdf[at] as number) - 0x30);
    at++;
  }
  if (at === start) return undefined;
  const after = pdf[at];
  if (after !== undefined && !isWhite(after) && !isDelimiter(after)) return undefined;
  return { value, end: at };
}

function endOfLiteralString(pdf: Uint8Array, pos: number): number | undefined {
  // Balanced parentheses and backslash escapes (§7.3.4.2); pos is at "(".
  let depth = 0;
  for (let at = pos; at < pdf.length; at++) {
    const b = pdf[at];
    if (b === 0x5c) at++;
    else if (b === 0x28) depth++;
    else if (b === 0x29) {
      depth--;
      if (depth === 0) return at + 1;
    }
  }
  return undefined;
}

function endOfHexString(pdf: Uint8Array, pos: number): number | undefined {
  for (let at = pos + 1; at < pdf.length; at++) {
    const b = pdf[at] as number;
    if (b === 0x3e) return at + 1;
    const hex = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
    if (!hex && !isWhite(b)) return undefined;
  }
  return undefined;
}

/**
 * Reads one object at `pos` (after white space). `n g R` becomes a reference (§7.3.10). Returns
 * undefined on anything malformed or past the caps.
 */
export function readValue(pdf: Uint8Array, pos: number, depth = 0): PdfValue | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const start = skipWhite(pdf, pos);
  const b = pdf[start];
  if (b === undefined) return undefined;
  if (b === 0x2f) {
    const end = regularRun(pdf, start + 1);
    return { kind: 'name', value: ascii(pdf, start + 1, end), start, end };
  }
  if (b === 0x28) {
    const end = endOfLiteralString(pdf, start);
    return end === undefined ? undefined : { kind: 'string', hex: false, start, end };
  }
  if (b === 0x3c && pdf[start + 1] === 0x3c) return readDict(pdf, start, depth);
  if (b === 0x3c) {
    const end = endOfHexString(pdf, start);
    return end === undefined ? undefined : { kind: 'string', hex: true, start, end };
  }
  if (b === 0x5b) {
    const items: PdfValue[] = [];
    let at = start + 1;
    for (;;) {
      at = skipWhite(pdf, at);
      if (at >= pdf.length || items.length > MAX_ITEMS) return undefined;
      if (pdf[at] === 0x5d) return { kind: 'array', items: collapseRefs(items), start, end: at + 1 };
      const item = readValue(pdf, at, depth + 1);
      if (!item) return undefined;
      items.push(item);
      at = item.end;
    }
  }
  const end = regularRun(pdf, start);
  if (end === start) return undefined;
  const text = ascii(pdf, start, end);
  // One way to match a number (digits, then an optional fraction): '\d+\.?\d*' tried every split
  // of a digit run before failing, quadratic in its length (40,000 digits and a letter: 5.9 s).
  if (/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(text)) return { kind: 'number', value: Number(text), start, end };
  return { kind: 'keyword', value: text, start, end };
}

/** Folds `n g R` triples in a list of values into references. */
function collapseRefs(items: PdfValue[]): PdfValue[] {
  const out: PdfValue[] = [];
  for (let i = 0; i < items.length; i++) {
    const num = items[i];
    const gen = items[i + 1];
    const r = items[i + 2];
    if (
      num?.kind === 'number' &&
      gen?.kind === 'number' &&
      r?.kind === 'keyword' &&
      r.value === 'R' &&
      Number.isInteger(num.value) &&
      Number.isInteger(gen.value)
    ) {
      out.push({ kind: 'ref', num: num.value, gen: gen.value, start: num.start, end: r.end });
      i += 2;
    } else if (num) out.push(num);
  }
  return out;
}

function readDict(pdf: Uint8Array, start: number, depth: number): PdfValue | undefined {
  const entries = new Map<string, PdfValue>();
  let at = start + 2;
  for (;;) {
    at = skipWhite(pdf, at);
    if (at >= pdf.length || entries.size > MAX_ITEMS) return undefined;
    if (pdf[at] === 0x3e && pdf[at + 1] === 0x3e) return { kind: 'dict', entries, start, end: at + 2 };
    const key = readValue(pdf, at, depth + 1);
    if (key?.kind !== 'name') return undefined;
    let value = readValue(pdf, key.end, depth + 1);
    if (!value) return undefined;
    // A value of the form "n g R" is three tokens; look ahead for the rest of a reference.
    if (value.kind === 'number') {
      const gen = readInteger(pdf, value.end);
      if (gen) {
        const r = skipWhite(pdf, gen.end);
        if (keywordAt(pdf, r, 'R') && Number.isInteger(value.value)) {
          value = { kind: 'ref', num: value.value, gen: gen.value, start: value.start, end: r + 1 };
        }
      }
    }
    // The last occurrence of a repeated key wins, as in most readers; callers may look for repeats.
    entries.set(key.value, value);
    at = value.end;
  }
}

/** Reads `n g obj` at `pos` (after white space); returns the numbers and where the body begins. */
export function readObjectHeader(
  pdf: Uint8Array,
  pos: number,
): { num: number; gen: number; bodyStart: number } | undefined {
  const num = readInteger(pdf, pos);
  if (!num) return undefined;
  const gen = readInteger(pdf, num.end);
  if (!gen) return undefined;
  const obj = skipWhite(pdf, gen.end);
  if (!keywordAt(pdf, obj, 'obj')) return undefined;
  return { num: num.value, gen: gen.value, bodyStart: obj + 3 };
}

/** Index of `needle` (ASCII) in pdf within [from, to), or -1. */
export function indexOfAscii(pdf: Uint8Array, needle: string, from: number, to = pdf.length): number {
  const first = needle.charCodeAt(0);
  const last = Math.min(to, pdf.length) - needle.length;
  outer: for (let i = Math.max(0, from); i <= last; i++) {
    if (pdf[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (pdf[i + j] !== needle.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

/** Last index of `needle` (ASCII) starting in [from, to), or -1. */
export function lastIndexOfAscii(pdf: Uint8Array, needle: string, from: number, to: number): number {
  for (let i = Math.min(to, pdf.length - needle.length); i >= Math.max(0, from); i--) {
    let match = true;
    for (let j = 0; j < needle.length; j++) {
      if (pdf[i + j] !== needle.charCodeAt(j)) {
        match = false;
        break;
      }
    }
    if (match) return i;
  }
  return -1;
}

export function dictInteger(dict: PdfValue | undefined, key: string): number | undefined {
  if (dict?.kind !== 'dict') return undefined;
  const value = dict.entries.get(key);
  return value?.kind === 'number' && Number.isInteger(value.value) && value.value >= 0 ? value.value : undefined;
}
