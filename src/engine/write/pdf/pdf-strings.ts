/**
 * PDF strings for names, URIs and text, always written in hexadecimal form: pdf-lib's literal
 * strings are not escaped, and hex needs no escaping (ISO 32000-1 §7.3.4.3).
 */
import { PDFHexString } from 'pdf-lib';

/** Each byte's two upper-case hex digits: a lookup, where formatting each byte made three strings. */
const HEX_PAIRS: readonly string[] = Array.from({ length: 256 }, (_, byte) =>
  byte.toString(16).padStart(2, '0').toUpperCase(),
);

export function hexOfBytes(bytes: Iterable<number>): string {
  let hex = '';
  for (const byte of bytes) hex += HEX_PAIRS[byte & 0xff];
  return hex;
}

/**
 * A text string (§7.9.2.2): titles, bookmarks, metadata. ASCII as it is (PDFDocEncoding agrees
 * with ASCII on printable characters), anything else as UTF-16BE with a byte order mark.
 */
export function textString(text: string): PDFHexString {
  return /^[\x20-\x7e]*$/.test(text) ? PDFHexString.of(hexOfBytes(asciiBytes(text))) : PDFHexString.fromText(text);
}

/**
 * The bytes a text string is written with, for sorting name-tree keys, which are compared as
 * byte strings (§7.9.6).
 */
export function textStringBytes(text: string): number[] {
  if (/^[\x20-\x7e]*$/.test(text)) return asciiBytes(text);
  const bytes = [0xfe, 0xff];
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes.push(unit >> 8, unit & 0xff);
  }
  return bytes;
}

/** A 7-bit ASCII byte string, for URIs (§12.6.4.7: "a string … encoded in 7-bit ASCII"). */
export function asciiString(ascii: string): PDFHexString {
  return PDFHexString.of(hexOfBytes(asciiBytes(ascii)));
}

function asciiBytes(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) bytes.push(text.charCodeAt(i) & 0x7f);
  return bytes;
}

export function compareBytes(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}
