/**
 * A strict walk of a BER/DER element's TLV tree (X.690 §8.1), for the encoding faults a lenient
 * parser (asn1js) passes over and OpenSSL or BouncyCastle reject: lengths running past the
 * enclosing element, constructed contents that are not whole elements, an indefinite length on a
 * primitive (§8.1.3.2 a), the reserved length octet 0xFF (§8.1.3.5 c), a missing end-of-contents,
 * a padded high tag number (§8.1.2.4.2 c), and INTEGER or ENUMERATED contents that are empty or
 * not minimal (§8.3.1, §8.3.2, §8.4), which X.690 forbids in BER as well as DER. Only constructed
 * elements are descended into: OCTET STRING payloads are not parsed. Bounded in depth and count.
 *
 * The INTEGER checks skip the byte ranges the caller exempts: a CMS's attribute values are open
 * types (RFC 5652 §5.3, AttributeValue ::= ANY) that a CMS parser does not decode, so a padded
 * INTEGER in, say, a timestamp token's certificate is that token's fault, not the CMS's.
 */

const MAX_DEPTH = 64;
const MAX_ELEMENTS = 200_000;

const UNIVERSAL = 0;
const INTEGER = 2;
const ENUMERATED = 10;

/** Thrown inside the walk only; findEncodingFault turns it into its message. */
class Fault extends Error {}

/** Byte ranges [start, end) of the input whose INTEGERs are not checked. */
export type Exempt = ReadonlyArray<{ start: number; end: number }>;

interface Walk {
  elements: number;
  exempt: Exempt;
}

interface Header {
  tagClass: number;
  constructed: boolean;
  tagNumber: number;
  /** Offset of the contents. */
  contentStart: number;
  /** The contents' length, or undefined for the indefinite form. */
  length: number | undefined;
}

/**
 * The first fault in the element that starts at byte 0 of `bytes`, in plain words with its byte
 * offset; undefined when it is well formed. Bytes after the element (a /Contents hole's zero
 * padding) are not looked at.
 */
export function findEncodingFault(bytes: Uint8Array, exempt: Exempt = []): string | undefined {
  try {
    walkElement(bytes, 0, bytes.length, 0, { elements: 0, exempt });
    return undefined;
  } catch (error) {
    if (error instanceof Fault) return error.message;
    throw error;
  }
}

function walkElement(bytes: Uint8Array, at: number, limit: number, depth: number, count: Walk): number {
  if (depth > MAX_DEPTH) throw new Fault(`elements nested deeper than ${MAX_DEPTH} at byte ${at}`);
  if (++count.elements > MAX_ELEMENTS) throw new Fault(`more than ${MAX_ELEMENTS} elements`);
  const header = readHeader(bytes, at, limit);
  if (header.length === undefined) {
    if (!header.constructed)
      throw new Fault(`a primitive element with an indefinite length at byte ${at} (X.690 §8.1.3.2)`);
    let pos = header.contentStart;
    for (;;) {
      if (pos + 2 > limit) throw new Fault(`an indefinite length without end-of-contents at byte ${at} (X.690 §8.1.5)`);
      if (bytes[pos] === 0 && bytes[pos + 1] === 0) return pos + 2;
      pos = walkElement(bytes, pos, limit, depth + 1, count);
    }
  }
  const end = header.contentStart + header.length;
  if (end > limit) throw new Fault(`a length that runs past its enclosing element at byte ${at} (X.690 §8.1.3)`);
  if (header.constructed) {
    let pos = header.contentStart;
    while (pos < end) pos = walkElement(bytes, pos, end, depth + 1, count);
  } else if (header.tagClass === UNIVERSAL && (header.tagNumber === INTEGER || header.tagNumber === ENUMERATED)) {
    if (!count.exempt.some((range) => at >= range.start && at < range.end))
      checkInteger(bytes, at, header.contentStart, end);
  }
  return end;
}

/** §8.3.2: the first nine bits of the contents are not all zeros, nor all ones. */
function checkInteger(bytes: Uint8Array, at: number, start: number, end: number) {
  if (end === start) throw new Fault(`an empty INTEGER at byte ${at} (X.690 §8.3.1)`);
  if (end - start < 2) return;
  const first = bytes[start] ?? 0;
  const second = bytes[start + 1] ?? 0;
  if ((first === 0x00 && second < 0x80) || (first === 0xff && second >= 0x80)) {
    throw new Fault(`a non-minimal INTEGER at byte ${at} (X.690 §8.3.2)`);
  }
}

function readHeader(bytes: Uint8Array, at: number, limit: number): Header {
  let pos = at;
  const next = () => {
    if (pos >= limit) throw new Fault(`an element cut short at byte ${at} (X.690 §8.1.1)`);
    return bytes[pos++] ?? 0;
  };
  const identifier = next();
  let tagNumber = identifier & 0x1f;
  if (tagNumber === 0x1f) {
    // High tag number form (§8.1.2.4): base-128, no leading 0x80 octet; more than 4 octets is hostile.
    tagNumber = 0;
    for (let i = 0; ; i++) {
      const octet = next();
      if (i === 0 && octet === 0x80) throw new Fault(`a padded tag number at byte ${at} (X.690 §8.1.2.4.2)`);
      if (i >= 4) throw new Fault(`a tag number too large at byte ${at}`);
      tagNumber = tagNumber * 128 + (octet & 0x7f);
      if ((octet & 0x80) === 0) break;
    }
  }
  const first = next();
  let length: number | undefined;
  if (first < 0x80) length = first;
  else if (first === 0x80) length = undefined;
  else if (first === 0xff) throw new Fault(`the reserved length octet 0xFF at byte ${at} (X.690 §8.1.3.5)`);
  else {
    const octets = first & 0x7f;
    if (octets > 4) throw new Fault(`a length of more than 4 octets at byte ${at}`);
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + next();
  }
  return { tagClass: identifier >> 6, constructed: (identifier & 0x20) !== 0, tagNumber, contentStart: pos, length };
}

export interface Element {
  start: number;
  end: number;
  tagClass: number;
  tagNumber: number;
  constructed: boolean;
}

/**
 * The elements directly inside the constructed element at `at` (definite or indefinite length),
 * for navigating input findEncodingFault has passed; empty when it is primitive or unreadable.
 */
export function childrenOf(bytes: Uint8Array, at: number): Element[] {
  const out: Element[] = [];
  try {
    const header = readHeader(bytes, at, bytes.length);
    if (!header.constructed) return out;
    const end = header.length === undefined ? bytes.length : header.contentStart + header.length;
    let pos = header.contentStart;
    while (pos < end && !(header.length === undefined && bytes[pos] === 0 && bytes[pos + 1] === 0)) {
      const child = readHeader(bytes, pos, end);
      const next = walkElement(bytes, pos, end, 0, { elements: 0, exempt: [{ start: 0, end: bytes.length }] });
      out.push({
        start: pos,
        end: next,
        tagClass: child.tagClass,
        tagNumber: child.tagNumber,
        constructed: child.constructed,
      });
      pos = next;
    }
  } catch (error) {
    if (!(error instanceof Fault)) throw error;
  }
  return out;
}
