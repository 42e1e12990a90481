/**
 * Reading a painted PDF back with pdf-lib's low-level objects: enough to check what the painter
 * wrote (annotations, destinations, outline, fonts) and to extract text through ToUnicode.
 */
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFString,
} from 'pdf-lib';

export function resolve(doc: PDFDocument, object: PDFObject | undefined): PDFObject | undefined {
  return object instanceof PDFRef ? doc.context.lookup(object) : object;
}

export function dict(doc: PDFDocument, object: PDFObject | undefined): PDFDict {
  const value = resolve(doc, object);
  if (!(value instanceof PDFDict)) throw new Error(`expected a dictionary, got ${value?.toString()}`);
  return value;
}

export function get(doc: PDFDocument, from: PDFDict, key: string): PDFObject | undefined {
  return resolve(doc, from.get(PDFName.of(key)));
}

export function array(doc: PDFDocument, object: PDFObject | undefined): PDFArray {
  const value = resolve(doc, object);
  if (!(value instanceof PDFArray)) throw new Error(`expected an array, got ${value?.toString()}`);
  return value;
}

export function text(object: PDFObject | undefined): string {
  if (object instanceof PDFHexString || object instanceof PDFString) return object.decodeText();
  throw new Error(`expected a string, got ${object?.toString()}`);
}

export function streamText(doc: PDFDocument, object: PDFObject | undefined): string {
  const stream = resolve(doc, object);
  if (!(stream instanceof PDFRawStream)) throw new Error('expected a stream');
  // One character per byte. (TextDecoder's 'latin1' is windows-1252, which remaps 0x80–0x9F.)
  let text = '';
  for (const byte of decodePDFRawStream(stream).decode()) text += String.fromCharCode(byte);
  return text;
}

/** The page's content stream(s), decoded. */
export function pageContentText(doc: PDFDocument, pageIndex: number): string {
  const page = doc.getPage(pageIndex).node;
  const contents = resolve(doc, page.get(PDFName.of('Contents')));
  if (contents instanceof PDFArray)
    return contents
      .asArray()
      .map((part) => streamText(doc, part))
      .join('\n');
  return streamText(doc, contents);
}

/** bfchar entries of a ToUnicode CMap: glyph code → Unicode text. */
export function toUnicodeMap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, unicode] of (block[1] ?? '').matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      const units: number[] = [];
      for (let i = 0; i < (unicode ?? '').length; i += 4)
        units.push(Number.parseInt((unicode ?? '').slice(i, i + 4), 16));
      map.set(Number.parseInt(code ?? '', 16), String.fromCharCode(...units));
    }
  }
  return map;
}

/** The bytes of a literal string's body (ISO 32000-1 §7.3.4.2, Table 3 escapes). */
export function literalBytes(body: string): number[] {
  const bytes: number[] = [];
  const escapes: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char !== '\\') {
      bytes.push(char.charCodeAt(0));
      continue;
    }
    const next = body[++i] as string;
    const octal = /^[0-7]{1,3}/.exec(body.slice(i, i + 3))?.[0];
    if (octal) {
      bytes.push(Number.parseInt(octal, 8) & 0xff);
      i += octal.length - 1;
    } else if (next === '\r' || next === '\n') {
      if (next === '\r' && body[i + 1] === '\n') i++; // a line continuation
    } else bytes.push(escapes[next] ?? next.charCodeAt(0));
  }
  return bytes;
}

/** A hex or literal string's bytes. */
function stringBytes(hex: string | undefined, literal: string | undefined): number[] {
  const bytes: number[] = [];
  if (hex !== undefined) for (let i = 0; i < hex.length; i += 2) bytes.push(Number.parseInt(hex.slice(i, i + 2), 16));
  else bytes.push(...literalBytes(literal ?? ''));
  return bytes;
}

const LITERAL = String.raw`\(((?:\\[\s\S]|[^\\)])*)\)`;
const HEX = '<([0-9A-Fa-f]*)>';
const SHOWN = new RegExp(
  String.raw`\/(\S+) (\S+) Tf|${HEX} Tj|${LITERAL} Tj|\[((?:${LITERAL}|${HEX}|[^\]()<])*)\]\s*TJ`,
  'g',
);
const ARRAY_STRING = new RegExp(`${LITERAL}|${HEX}`, 'g');

/**
 * Strings shown with Tj, and the strings of TJ arrays (ISO 32000-1 §9.4.3), hex or literal,
 * after each Tf, as two-byte glyph codes: one entry per string.
 */
export function shownText(content: string): { font: string; size: number; codes: number[] }[] {
  const shown: { font: string; size: number; codes: number[] }[] = [];
  let font = '';
  let size = 0;
  const push = (bytes: number[]) => {
    const codes: number[] = [];
    for (let i = 0; i + 1 < bytes.length; i += 2) codes.push(((bytes[i] as number) << 8) | (bytes[i + 1] as number));
    shown.push({ font, size, codes });
  };
  for (const match of content.matchAll(SHOWN)) {
    if (match[1] !== undefined) {
      font = match[1];
      size = Number(match[2]);
    } else if (match[5] !== undefined) {
      for (const item of match[5].matchAll(ARRAY_STRING)) push(stringBytes(item[2], item[1]));
    } else push(stringBytes(match[3], match[4]));
  }
  return shown;
}

/** CID → width (1/1000 em) from a CIDFont's /W array (ISO 32000-1 §9.7.4.3). */
export function cidWidths(doc: PDFDocument, w: PDFArray): Map<number, number> {
  const widths = new Map<number, number>();
  const items = w.asArray().map((item) => resolve(doc, item));
  for (let i = 0; i < items.length; ) {
    const first = Number(items[i]?.toString());
    const next = items[i + 1];
    if (next instanceof PDFArray) {
      for (const [k, width] of next.asArray().entries()) widths.set(first + k, Number(width.toString()));
      i += 2;
    } else {
      const last = Number(next?.toString());
      const width = Number(items[i + 2]?.toString());
      for (let cid = first; cid <= last; cid++) widths.set(cid, width);
      i += 3;
    }
  }
  return widths;
}
