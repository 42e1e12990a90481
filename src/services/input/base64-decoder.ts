import { ApiError } from '../../errors';
import { documentTooLarge, formatBytes } from './size-limit';

export interface DecodedBase64 {
  bytes: Uint8Array;
  /** The media type a data URI declared, lower-cased. Informational only: formats are sniffed from bytes. */
  declaredMediaType?: string;
}

/**
 * Whitespace skipped inside the data: ASCII whitespace as in the WHATWG "forgiving-base64 decode"
 * that `atob` uses, which covers MIME-style line breaks (RFC 2045 §6.8). Other characters, such
 * as a no-break space, are reported rather than silently dropped (RFC 4648 §3.3).
 */
const WHITESPACE = /[\t\n\f\r ]/;
const ALL_WHITESPACE = /[\t\n\f\r ]+/g;
/** Anything outside both alphabets of RFC 4648 (§4 standard, §5 URL-safe), padding and whitespace. */
const OUTSIDE_ALPHABET = /[^A-Za-z0-9+/\-_=\t\n\f\r ]/;
const DATA_URI_START = /^[\t\n\f\r ]*data:/i;
const EQUALS = 0x3d;

type FromBase64 = (
  text: string,
  options?: { alphabet?: 'base64' | 'base64url'; lastChunkHandling?: 'loose' | 'strict' | 'stop-before-partial' },
) => Uint8Array;

/** `Uint8Array.fromBase64` (TC39 "Uint8Array to/from base64") decodes natively, without a binary string. */
const nativeFromBase64: FromBase64 | undefined = (() => {
  const candidate = (Uint8Array as unknown as { fromBase64?: unknown }).fromBase64;
  return typeof candidate === 'function' ? (candidate as FromBase64).bind(Uint8Array) : undefined;
})();

/**
 * Decodes `document.base64`: plain base64 or a `data:<mime>[;param=…];base64,<data>` URI (RFC 2397).
 * Both alphabets (standard and URL-safe, RFC 4648 §4–5) are accepted, padding may be missing, and
 * whitespace anywhere in the data is ignored. The decoded size is checked before decoding, so an
 * over-size string costs no more than a scan.
 *
 * Throws ApiError INVALID_BASE64 (saying what is wrong and where) or PAYLOAD_TOO_LARGE.
 * `field` names the input in messages (`document.base64` unless a caller says otherwise).
 */
export function decodeBase64Document(text: string, maxBytes: number, field = 'document.base64'): DecodedBase64 {
  const { payload, offset, declaredMediaType } = splitDataUri(text, field);
  const compact = WHITESPACE.test(payload) ? payload.replace(ALL_WHITESPACE, '') : payload;
  if (compact.length === 0) {
    const what = offset > 0 ? `${field} is a data URI with no data after the comma` : `${field} is empty`;
    throw new ApiError('INVALID_BASE64', `${what}; send the document's bytes as base64.`);
  }

  const decodedSize = Math.floor((withoutTrailingPadding(compact).length * 3) / 4);
  if (decodedSize > maxBytes) {
    throw documentTooLarge(`${field} decodes to ${formatBytes(decodedSize)}, more than the limit.`, maxBytes);
  }

  const bad = OUTSIDE_ALPHABET.exec(payload);
  if (bad) throw invalidCharacter(text, offset + bad.index, field, offset > 0);

  const data = checkPadding(compact, payload, offset, field);
  if (data.length % 4 === 1) {
    // Each 4 characters carry 3 bytes; a lone character in the last group carries only 6 bits,
    // less than one byte, so the text was cut short or has a stray character (RFC 4648 §4).
    throw new ApiError(
      'INVALID_BASE64',
      `${field} has ${data.length} base64 characters, which cannot encode a whole number of bytes; it looks cut short or has one character too many.`,
    );
  }

  const standard = /[-_]/.test(data) ? data.replace(/[-_]/g, (c) => (c === '-' ? '+' : '/')) : data;
  try {
    const bytes = nativeFromBase64
      ? nativeFromBase64(standard, { lastChunkHandling: 'loose' })
      : decodeWithAtob(standard);
    return declaredMediaType === undefined ? { bytes } : { bytes, declaredMediaType };
  } catch (cause) {
    // Unreachable after the checks above; kept so a decoder quirk still becomes a 400, not a 500.
    throw new ApiError('INVALID_BASE64', `${field} is not valid base64.`, { cause });
  }
}

/**
 * The fallback decoder for runtimes without `Uint8Array.fromBase64`. Expects the standard
 * alphabet without whitespace; exported so the fallback is tested too.
 */
export function decodeWithAtob(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

interface SplitInput {
  payload: string;
  /** Index in the original text where the payload starts, so positions in messages are the caller's. */
  offset: number;
  declaredMediaType?: string;
}

/** RFC 2397: `data:[<mediatype>][;base64],<data>`. The scheme is case-insensitive (RFC 3986 §3.1). */
function splitDataUri(text: string, field: string): SplitInput {
  const start = DATA_URI_START.exec(text);
  if (!start) return { payload: text, offset: 0 };
  const comma = text.indexOf(',', start[0].length);
  if (comma === -1) {
    throw new ApiError(
      'INVALID_BASE64',
      `${field} starts with "data:" but has no comma; a data URI looks like data:application/pdf;base64,JVBERi0…`,
    );
  }
  const parameters = text.slice(start[0].length, comma).split(';');
  const last = parameters.at(-1)?.trim().toLowerCase();
  if (parameters.length < 2 || last !== 'base64') {
    // Without ";base64" the data is percent-encoded text (RFC 2397 §2), which no document format here is.
    throw new ApiError(
      'INVALID_BASE64',
      `${field} is a data URI without ";base64"; only base64 data URIs are accepted (data:<type>;base64,<data>).`,
    );
  }
  const mediaType = parameters[0]?.trim().toLowerCase();
  const payload = text.slice(comma + 1);
  return mediaType ? { payload, offset: comma + 1, declaredMediaType: mediaType } : { payload, offset: comma + 1 };
}

function withoutTrailingPadding(compact: string): string {
  let end = compact.length;
  while (end > 0 && compact.charCodeAt(end - 1) === EQUALS) end--;
  return end === compact.length ? compact : compact.slice(0, end);
}

/**
 * Padding may be missing (RFC 4648 §3.2 lets a specification drop it, and base64url usually does),
 * but when present it is one or two `=` at the very end. Returns the data without padding.
 */
function checkPadding(compact: string, payload: string, offset: number, field: string): string {
  const firstPad = compact.indexOf('=');
  if (firstPad === -1) return compact;
  const data = withoutTrailingPadding(compact);
  if (data.length !== firstPad) {
    const position = offset + payload.indexOf('=') + 1;
    throw new ApiError(
      'INVALID_BASE64',
      `${field} has "=" padding at position ${position} followed by more data; "=" may only end the base64 text.`,
    );
  }
  const padding = compact.length - firstPad;
  if (padding > 2) {
    throw new ApiError(
      'INVALID_BASE64',
      `${field} ends with ${padding} "=" characters; base64 padding is at most two.`,
    );
  }
  return data;
}

function invalidCharacter(text: string, index: number, field: string, inDataUri: boolean): ApiError {
  const code = text.codePointAt(index) ?? 0;
  const shown =
    code >= 0x21 && code <= 0x7e
      ? `"${String.fromCodePoint(code)}"`
      : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  let hint = 'Base64 uses A–Z, a–z, 0–9, "+" and "/" (or "-" and "_"), with optional "=" padding at the end.';
  if (!inDataUri && /^\s*https?:\/\//i.test(text)) {
    hint = 'It looks like a URL: send it as {"url": "…"} instead of {"base64": "…"}.';
  } else if (inDataUri && code === 0x25) {
    hint = 'Percent-encoded data is not accepted; put the base64 text in the data URI as it is.';
  }
  return new ApiError(
    'INVALID_BASE64',
    `${field} is not valid base64: character ${shown} at position ${index + 1} is not allowed. ${hint}`,
  );
}
