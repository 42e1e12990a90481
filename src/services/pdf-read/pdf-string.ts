/**
 * The bytes a PDF string stands for, whichever way it was written: a literal string with its
 * escapes and line-end rules (ISO 32000-1 §7.3.4.2) or a hexadecimal one (§7.3.4.3). Two strings
 * with the same bytes are the same string object, so comparisons use these, not the spelling.
 */
import type { PdfValue } from './pdf-syntax';

type StringValue = Extract<PdfValue, { kind: 'string' }>;

export function stringBytes(value: StringValue, buffer: Uint8Array): Uint8Array {
  const body = buffer.subarray(value.start + 1, Math.max(value.start + 1, value.end - 1));
  return value.hex ? hexBytes(body) : literalBytes(body);
}

function hexDigit(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

function hexBytes(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(body.length / 2));
  let n = 0;
  let high = -1;
  for (const b of body) {
    const digit = hexDigit(b);
    if (digit < 0) continue; // White space is ignored (§7.3.4.3).
    if (high < 0) high = digit;
    else {
      out[n++] = (high << 4) | digit;
      high = -1;
    }
  }
  // An odd final digit is followed by an implied 0 (§7.3.4.3).
  if (high >= 0) out[n++] = high << 4;
  return out.subarray(0, n);
}

const ESCAPES: Record<number, number> = { 110: 0x0a, 114: 0x0d, 116: 0x09, 98: 0x08, 102: 0x0c };

function literalBytes(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length);
  let n = 0;
  for (let i = 0; i < body.length; i++) {
    let b = body[i] as number;
    if (b === 0x0d) {
      // An unescaped end-of-line of any kind is read as a single LF (§7.3.4.2).
      if (body[i + 1] === 0x0a) i++;
      out[n++] = 0x0a;
      continue;
    }
    if (b !== 0x5c) {
      out[n++] = b;
      continue;
    }
    b = body[++i] as number;
    if (b === undefined) break;
    if (ESCAPES[b] !== undefined) out[n++] = ESCAPES[b] as number;
    else if (b >= 0x30 && b <= 0x37) {
      let code = b - 0x30;
      for (let k = 0; k < 2 && (body[i + 1] ?? 0) >= 0x30 && (body[i + 1] ?? 0) <= 0x37; k++) {
        code = code * 8 + ((body[++i] as number) - 0x30);
      }
      out[n++] = code & 0xff;
    } else if (b === 0x0d) {
      // A backslash before an end-of-line continues the string on the next line.
      if (body[i + 1] === 0x0a) i++;
    } else if (b !== 0x0a) out[n++] = b;
  }
  return out.subarray(0, n);
}

const utf16 = new TextDecoder('utf-16be');
const latin1 = new TextDecoder('latin1');

/**
 * A text string's characters (§7.9.2.2): UTF-16BE after a byte order mark, UTF-8 after its mark
 * (PDF 2.0), else PDFDocEncoding, read here as Latin-1, which it matches for the letters and
 * digits of language tags and names.
 */
export function textOf(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16.decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder().decode(bytes.subarray(3));
  return latin1.decode(bytes);
}
