/**
 * A readable rendering of an audit event's `data` and of the request's `metadata` for the
 * audit-trail certificate (docs/api.md "The audit-trail certificate"): one "key: value" line per leaf,
 * nested objects flattened with dotted keys, arrays indexed, long tokens made breakable.
 */

export interface DataLine {
  key: string;
  value: string;
}

/** Deeper than this, the rest of a branch is printed as JSON: the lines stay few and readable. */
const MAX_DEPTH = 6;

/** The leaves of `data` as dotted keys in insertion order: {a: {b: 1}, c: [2]} → a.b: 1, c[0]: 2. */
export function dataLines(data: Record<string, unknown>): DataLine[] {
  const lines: DataLine[] = [];
  const visit = (value: unknown, key: string, depth: number): void => {
    if (Array.isArray(value)) {
      if (value.length === 0) lines.push({ key, value: '(none)' });
      else if (depth >= MAX_DEPTH) lines.push({ key, value: json(value) });
      else for (const [index, item] of value.entries()) visit(item, `${key}[${index}]`, depth + 1);
      return;
    }
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length === 0) lines.push({ key, value: '(empty)' });
      else if (depth >= MAX_DEPTH) lines.push({ key, value: json(value) });
      else for (const [child, inner] of entries) visit(inner, key === '' ? child : `${key}.${child}`, depth + 1);
      return;
    }
    lines.push({ key, value: scalar(value) });
  };
  for (const [key, value] of Object.entries(data)) visit(value, key, 0);
  return lines;
}

function scalar(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'null';
  if (value === undefined) return '(undefined)';
  return String(value);
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const ZWSP = '\u200b';
/** Tokens (runs without white space) longer than this get break opportunities. */
const LONG_TOKEN = 24;
/** …every this many characters, where no punctuation offered one sooner. */
const CHUNK = 16;

/**
 * `text` with zero-width spaces inside long tokens. UAX #14 gives no break opportunity inside a
 * hex digest, a base64 string or most of a URL; the line breaker then splits such a token at the
 * last character that fits (src/engine/layout/line-breaker.ts), so nothing runs past the cell, but a URL
 * cut mid-word reads badly. A zero-width space is a break opportunity (UAX #14 class ZW) that the
 * shaper drops (a default-ignorable, src/engine/fonts/shaping.ts), so it shows nothing: after URL
 * punctuation (/ ? & = # . , ; _ -) where there is some, else every CHUNK characters.
 */
export function breakableText(text: string): string {
  return text.replace(/\S+/g, (token) => (token.length > LONG_TOKEN ? breakToken(token) : token));
}

function breakToken(token: string): string {
  let out = '';
  let run = 0;
  for (const char of token) {
    out += char;
    run++;
    if (/[/?&=#.,;_-]/.test(char) || run >= CHUNK) {
      out += ZWSP;
      run = 0;
    }
  }
  return out.endsWith(ZWSP) ? out.slice(0, -ZWSP.length) : out;
}
