import { PDFObject } from 'pdf-lib';

/**
 * The /ByteRange and /Contents of a signature dictionary (ISO 32000-1 §12.8.1, Table 252) are
 * only known after the file is laid out, and the digest covers everything but /Contents
 * (§12.8.3.3: "the entire file except the signature value"). So the update is written with
 * fixed-width placeholders, which are then patched in place without moving a byte.
 */

/** Digits reserved per ByteRange number: 10 covers files up to 9.3 GB. */
const BYTE_RANGE_DIGITS = 10;

/** A PDF token written verbatim: pdf-lib has no way to write a fixed-width, patchable value. */
export class RawPdfToken extends PDFObject {
  private text: string;
  constructor(text: string) {
    super();
    this.text = text;
  }
  setText(text: string): void {
    this.text = text;
  }
  override clone(): RawPdfToken {
    return new RawPdfToken(this.text);
  }
  override toString(): string {
    return this.text;
  }
  override sizeInBytes(): number {
    return this.text.length;
  }
  override copyBytesInto(buffer: Uint8Array, offset: number): number {
    for (let i = 0; i < this.text.length; i++) buffer[offset + i] = this.text.charCodeAt(i);
    return this.text.length;
  }
}

/** "[0 0000000000 0000000000 0000000000]": four numbers, patched later (and padded with spaces). */
export function byteRangePlaceholder(): RawPdfToken {
  const zeros = '0'.repeat(BYTE_RANGE_DIGITS);
  return new RawPdfToken(`[0 ${zeros} ${zeros} ${zeros}]`);
}

/** A hex string of zeros holding `bytes` bytes of CMS (ISO 32000-1 §7.3.4.3). */
export function contentsPlaceholderText(bytes: number): string {
  return `<${'0'.repeat(bytes * 2)}>`;
}

export interface PlaceholderPositions {
  /** Offset of the ByteRange array's "[" and its length through "]". */
  byteRangeStart: number;
  byteRangeLength: number;
  /** Offset of the /Contents "<" and of the byte after its ">". */
  contentsStart: number;
  contentsEnd: number;
}

/** Finds the placeholders in the written file, searching from the signature dictionary's offset. */
export function locatePlaceholders(file: Uint8Array, signatureObjectOffset: number): PlaceholderPositions {
  const byteRangeKey = indexOf(file, '/ByteRange', signatureObjectOffset);
  const byteRangeStart = indexOf(file, '[', byteRangeKey);
  const byteRangeEnd = indexOf(file, ']', byteRangeStart);
  const contentsKey = indexOf(file, '/Contents', signatureObjectOffset);
  const contentsStart = indexOf(file, '<', contentsKey);
  const contentsEnd = indexOf(file, '>', contentsStart) + 1;
  if (
    byteRangeKey < 0 ||
    byteRangeStart < 0 ||
    byteRangeEnd < 0 ||
    contentsKey < 0 ||
    contentsStart < 0 ||
    contentsEnd <= 0
  ) {
    throw new Error('The signature placeholders were not found in the written update');
  }
  return { byteRangeStart, byteRangeLength: byteRangeEnd + 1 - byteRangeStart, contentsStart, contentsEnd };
}

/** [0, a, b, c]: from the file's start to the "<", and from after the ">" to the end. */
export function byteRangeFor(positions: PlaceholderPositions, fileLength: number): [number, number, number, number] {
  return [0, positions.contentsStart, positions.contentsEnd, fileLength - positions.contentsEnd];
}

/** Writes the real ByteRange over the placeholder, left-aligned and padded with spaces before "]". */
export function patchByteRange(file: Uint8Array, positions: PlaceholderPositions, range: readonly number[]): void {
  const text = `[${range.join(' ')}`;
  if (text.length + 1 > positions.byteRangeLength) throw new Error('The ByteRange does not fit its placeholder');
  const padded = `${text.padEnd(positions.byteRangeLength - 1, ' ')}]`;
  for (let i = 0; i < padded.length; i++) file[positions.byteRangeStart + i] = padded.charCodeAt(i);
}

/** Writes the CMS as hex into the /Contents hole; the rest stays zeros (trailing zeros after the DER are ignored). */
export function patchContents(file: Uint8Array, positions: PlaceholderPositions, cms: Uint8Array): void {
  const capacity = (positions.contentsEnd - positions.contentsStart - 2) / 2;
  if (cms.length > capacity)
    throw new Error(`The CMS (${cms.length} bytes) does not fit the /Contents hole (${capacity} bytes)`);
  const hex = '0123456789abcdef';
  let offset = positions.contentsStart + 1;
  for (const byte of cms) {
    file[offset++] = hex.charCodeAt(byte >> 4);
    file[offset++] = hex.charCodeAt(byte & 0x0f);
  }
}

/** The signed bytes: the two ranges, concatenated (ISO 32000-1 §12.8.1). */
export function signedBytes(file: Uint8Array, range: readonly number[]): Uint8Array {
  const [start1 = 0, length1 = 0, start2 = 0, length2 = 0] = range;
  const out = new Uint8Array(length1 + length2);
  out.set(file.subarray(start1, start1 + length1), 0);
  out.set(file.subarray(start2, start2 + length2), length1);
  return out;
}

function indexOf(haystack: Uint8Array, needle: string, from: number): number {
  if (from < 0) return -1;
  const first = needle.charCodeAt(0);
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    if (haystack[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}
