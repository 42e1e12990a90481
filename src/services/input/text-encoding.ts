/**
 * Which encoding a Markdown or HTML source is in, decided the way browsers decide it (WHATWG HTML
 * §13.2.3.2 "Determining the character encoding"), from the bytes alone: a file name or a
 * Content-Type is never consulted (docs/api.md "Document input object").
 *
 * 1. A byte order mark wins, and is not part of the text (WHATWG Encoding §6 "BOM sniff").
 * 2. Bytes with NULs are UTF-16 without a BOM when they read as such (below), or not text at all.
 * 3. HTML: what a `<meta charset>` or `<meta http-equiv="Content-Type" content="…charset=…">` in
 *    the first 1024 bytes declares (§13.2.3.2 "prescan a byte stream to determine its encoding").
 * 4. UTF-8, when the bytes are valid UTF-8 (browsers' autodetection recognises it, and it is the
 *    default the standard suggests).
 * 5. windows-1252 otherwise: what browsers fall back to for Western text, and a superset of
 *    Latin-1 (WHATWG Encoding maps the labels "latin1" and "iso-8859-1" to it), so Latin-1 files
 *    from older editors read right. Bytes holding C0 controls that no text uses are not text.
 *
 * workerd's TextDecoder knows every encoding of WHATWG Encoding (utf-16be, shift_jis, gbk, koi8-r…;
 * test/input/text-encoding.test.ts checks the ones used here), so a declared encoding is decoded
 * as declared.
 */

/** An encoding name as TextDecoder reports it (WHATWG Encoding §4.2 names, lower case). */
export interface TextEncoding {
  encoding: string;
  /** Bytes of the byte order mark the text starts with (0 when none). */
  bom: number;
  /** What decided it: the reason a caller may show. */
  by: 'bom' | 'utf-16 without a BOM' | 'meta' | 'utf-8' | 'fallback';
}

/** How far the prescan looks: the 1024 bytes the standard encourages (§13.2.3.2 step 5). */
const PRESCAN_BYTES = 1024;
/** How much of a file the other steps judge: enough for any real text, and cheap. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * The encoding of `bytes`, judged on their first 64 KiB, or undefined when they are not text: NULs
 * that do not read as UTF-16, or (not being UTF-8) control characters no text holds. `html` runs
 * the `<meta>` prescan. The sniffer and the decoder both ask this, so they never disagree.
 */
export function sniffTextEncoding(bytes: Uint8Array, html: boolean): TextEncoding | undefined {
  const bom = bomEncoding(bytes);
  if (bom) return bom;
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  // When the sample cuts the file, a character split at the cut does not count against it.
  const truncated = bytes.length > SAMPLE_BYTES;
  if (sample.includes(0)) return utf16WithoutBom(sample, truncated);
  if (html) {
    const declared = prescanEncoding(sample.subarray(0, PRESCAN_BYTES));
    if (declared) return { encoding: declared, bom: 0, by: 'meta' };
  }
  if (isUtf8(sample, truncated)) return { encoding: 'utf-8', bom: 0, by: 'utf-8' };
  return hasBinaryControls(sample) ? undefined : { encoding: 'windows-1252', bom: 0, by: 'fallback' };
}

/**
 * The text of a Markdown (`html` false) or HTML source, without its byte order mark. Bytes that
 * are not text (the sniffer refuses them before this is reached) are read as UTF-8; malformed
 * sequences become U+FFFD (WHATWG Encoding's decode), whatever the encoding.
 */
export function decodeText(bytes: Uint8Array, html: boolean): string {
  const sniffed = sniffTextEncoding(bytes, html) ?? { encoding: 'utf-8', bom: 0 };
  return new TextDecoder(sniffed.encoding, { fatal: false, ignoreBOM: true }).decode(bytes.subarray(sniffed.bom));
}

/** WHATWG Encoding §6 "BOM sniff". */
function bomEncoding(bytes: Uint8Array): TextEncoding | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bom: 3, by: 'bom' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bom: 2, by: 'bom' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bom: 2, by: 'bom' };
  return undefined;
}

/**
 * UTF-16 without a BOM (a browser's autodetection step; the prescan itself takes `<?x` in UTF-16
 * for it, §13.2.3.2 step 2). Text in a Latin or markup-heavy script puts a NUL in the high byte of
 * most code units, so the NULs sit on one parity: odd offsets for little-endian, even for
 * big-endian. The bytes must then decode without a lone surrogate and hold no control character
 * other than tab, LF, FF and CR; binary data does not survive that.
 */
function utf16WithoutBom(bytes: Uint8Array, truncated: boolean): TextEncoding | undefined {
  let even = 0;
  let odd = 0;
  for (let i = bytes.indexOf(0); i !== -1; i = bytes.indexOf(0, i + 1)) {
    if (i % 2 === 0) even++;
    else odd++;
  }
  const encoding = odd > even ? 'utf-16le' : 'utf-16be';
  let text: string;
  try {
    const whole = bytes.length - (bytes.length % 2);
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, whole), {
      stream: truncated,
    });
  } catch {
    return undefined;
  }
  return CONTROL.test(text) ? undefined : { encoding, bom: 0, by: 'utf-16 without a BOM' };
}

/** C0 controls other than tab, LF, FF, CR (HTML's ASCII whitespace), and NUL: not in any text file. */
const CONTROL = /[^\t\n\f\r\u0020-\uffff]/;

function hasBinaryControls(bytes: Uint8Array): boolean {
  for (const byte of bytes) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) return true;
  }
  return false;
}

/** Valid UTF-8; `truncated`: a character cut at the end of a sample does not count against it. */
function isUtf8(bytes: Uint8Array, truncated: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: truncated });
    return true;
  } catch {
    return false;
  }
}

/** WHATWG Encoding §4.2 "get an encoding": the encoding a label names, or undefined. */
function encodingForLabel(label: string): string | undefined {
  try {
    // The constructor runs "get an encoding" (trims ASCII whitespace, ignores case), and throws
    // for failure and for the "replacement" encoding, which decodes nothing useful.
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

const HT = 0x09;
const LF = 0x0a;
const FF = 0x0c;
const CR = 0x0d;
const SPACE = 0x20;
const SLASH = 0x2f;
const LT = 0x3c;
const EQUALS = 0x3d;
const GT = 0x3e;

const isSpace = (byte: number | undefined) =>
  byte === HT || byte === LF || byte === FF || byte === CR || byte === SPACE;
const isAsciiAlpha = (byte: number | undefined) =>
  byte !== undefined && ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a));
const lower = (byte: number) => String.fromCharCode(byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);

/**
 * HTML §13.2.3.2 "prescan a byte stream to determine its encoding", step for step, over `bytes`
 * (running out of them ends it). Returns an encoding name, or undefined (failure).
 */
export function prescanEncoding(bytes: Uint8Array): string | undefined {
  // Step 2: `<?x` in UTF-16 (an XML declaration); the encoding name is not checked.
  if (startsWith(bytes, 0, [0x3c, 0, 0x3f, 0, 0x78, 0])) return 'utf-16le';
  if (startsWith(bytes, 0, [0, 0x3c, 0, 0x3f, 0, 0x78])) return 'utf-16be';
  let position = 0;
  while (position < bytes.length) {
    if (startsWith(bytes, position, [LT, 0x21, 0x2d, 0x2d])) {
      // `<!--`: to the `>` of the first `-->` (its dashes may be those of `<!--`).
      const end = indexOfSequence(bytes, [0x2d, 0x2d, GT], position + 2);
      if (end === -1) return undefined;
      position = end + 2;
    } else if (
      bytes[position] === LT &&
      asciiLower(bytes, position + 1, 4) === 'meta' &&
      (isSpace(bytes[position + 5]) || bytes[position + 5] === SLASH)
    ) {
      const cursor = { position: position + 5 };
      const found = metaEncoding(bytes, cursor);
      if (found !== undefined) return found;
      if (cursor.position >= bytes.length) return undefined;
      position = cursor.position;
    } else if (
      bytes[position] === LT &&
      (isAsciiAlpha(bytes[position + 1]) || (bytes[position + 1] === SLASH && isAsciiAlpha(bytes[position + 2])))
    ) {
      // Another tag: to the end of its name, then over its attributes.
      while (position < bytes.length && !isSpace(bytes[position]) && bytes[position] !== GT) position++;
      const cursor = { position };
      while (getAttribute(bytes, cursor)) {}
      if (cursor.position >= bytes.length) return undefined;
      position = cursor.position;
    } else if (
      bytes[position] === LT &&
      (bytes[position + 1] === 0x21 || bytes[position + 1] === SLASH || bytes[position + 1] === 0x3f)
    ) {
      // `<!`, `</`, `<?`: to the next `>`.
      const end = bytes.indexOf(GT, position + 2);
      if (end === -1) return undefined;
      position = end;
    }
    position++; // "next byte"
  }
  return undefined;
}

/** The `<meta>` steps 2–16: the encoding it declares, or undefined to go on scanning. */
function metaEncoding(bytes: Uint8Array, cursor: { position: number }): string | undefined {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | undefined;
  let charset: string | null | undefined = null; // null: none yet; undefined: failure
  for (let attribute = getAttribute(bytes, cursor); attribute; attribute = getAttribute(bytes, cursor)) {
    if (seen.has(attribute.name)) continue;
    seen.add(attribute.name);
    if (attribute.name === 'http-equiv') {
      if (attribute.value === 'content-type') gotPragma = true;
    } else if (attribute.name === 'content') {
      const declared = charsetFromContent(attribute.value);
      if (declared !== undefined && charset === null) {
        charset = declared;
        needPragma = true;
      }
    } else if (attribute.name === 'charset') {
      charset = encodingForLabel(attribute.value);
      needPragma = false;
    }
  }
  if (needPragma === undefined || (needPragma && !gotPragma) || !charset) return undefined;
  // Steps 14–15: a document that could declare UTF-16 in ASCII bytes is not UTF-16.
  if (charset === 'utf-16le' || charset === 'utf-16be') return 'utf-8';
  if (charset === 'x-user-defined') return 'windows-1252';
  return charset;
}

/**
 * HTML §13.2.3.2 "get an attribute" (names and values lower-cased). Undefined when there is none,
 * or when the bytes run out first.
 */
function getAttribute(bytes: Uint8Array, cursor: { position: number }): { name: string; value: string } | undefined {
  let at = cursor.position;
  while (isSpace(bytes[at]) || bytes[at] === SLASH) at++;
  cursor.position = at;
  if (at >= bytes.length || bytes[at] === GT) return undefined;
  let name = '';
  let value = '';
  // Steps 4–5: the name.
  for (;;) {
    const byte = bytes[at];
    if (byte === undefined) return end(cursor, at);
    if (byte === EQUALS && name !== '') {
      at++;
      break;
    }
    if (isSpace(byte)) {
      // Steps 6–8: spaces, then `=` or no value.
      while (isSpace(bytes[at])) at++;
      if (at >= bytes.length) return end(cursor, at);
      if (bytes[at] !== EQUALS) {
        cursor.position = at;
        return { name, value };
      }
      at++;
      break;
    }
    if (byte === SLASH || byte === GT) {
      cursor.position = at;
      return { name, value };
    }
    name += lower(byte);
    at++;
  }
  // Steps 9–12: the value.
  while (isSpace(bytes[at])) at++;
  const first = bytes[at];
  if (first === undefined) return end(cursor, at);
  if (first === 0x22 || first === 0x27) {
    for (at++; at < bytes.length; at++) {
      if (bytes[at] === first) {
        cursor.position = at + 1;
        return { name, value };
      }
      value += lower(bytes[at] as number);
    }
    return end(cursor, at);
  }
  if (first === GT) {
    cursor.position = at;
    return { name, value };
  }
  for (; at < bytes.length; at++) {
    const byte = bytes[at] as number;
    if (isSpace(byte) || byte === GT) {
      cursor.position = at;
      return { name, value };
    }
    value += lower(byte);
  }
  return end(cursor, at);
}

/** The bytes ran out inside an attribute: nothing more can be sniffed. */
function end(cursor: { position: number }, at: number): undefined {
  cursor.position = at;
  return undefined;
}

/**
 * HTML §2.6.5 "algorithm for extracting a character encoding from a meta element": the encoding
 * after the first `charset` followed by `=` in a content attribute (already lower-cased).
 */
function charsetFromContent(content: string): string | undefined {
  let at = 0;
  for (;;) {
    const found = content.indexOf('charset', at);
    if (found === -1) return undefined;
    at = found + 'charset'.length;
    while (/[\t\n\f\r ]/.test(content[at] ?? '')) at++;
    if (content[at] === '=') break;
  }
  at++;
  while (/[\t\n\f\r ]/.test(content[at] ?? '')) at++;
  const quote = content[at];
  if (quote === undefined) return undefined;
  if (quote === '"' || quote === "'") {
    const close = content.indexOf(quote, at + 1);
    return close === -1 ? undefined : encodingForLabel(content.slice(at + 1, close));
  }
  const rest = content.slice(at);
  const stop = rest.search(/[\t\n\f\r ;]/);
  return encodingForLabel(stop === -1 ? rest : rest.slice(0, stop));
}

function startsWith(bytes: Uint8Array, at: number, prefix: readonly number[]): boolean {
  if (at + prefix.length > bytes.length) return false;
  return prefix.every((byte, index) => bytes[at + index] === byte);
}

function indexOfSequence(bytes: Uint8Array, sequence: readonly number[], from: number): number {
  for (let i = bytes.indexOf(sequence[0] as number, from); i !== -1; i = bytes.indexOf(sequence[0] as number, i + 1)) {
    if (startsWith(bytes, i, sequence)) return i;
  }
  return -1;
}

function asciiLower(bytes: Uint8Array, at: number, length: number): string {
  let text = '';
  for (let i = at; i < at + length && i < bytes.length; i++) text += lower(bytes[i] as number);
  return text;
}
