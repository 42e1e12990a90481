/**
 * The file identifier /ID (ISO 32000-1 §14.4), derived from the content so that the same input
 * gives the same bytes (pdf-lib writes none by default; PDF 2.0 requires one and signing tools
 * expect it). The file is written once with a placeholder of the same length, the digest of
 * those bytes is taken, and the placeholder is overwritten in place: no offset moves.
 */
import { type PDFDocument, PDFHexString } from 'pdf-lib';
import { hexOfBytes } from './pdf-strings';

const ID_BYTES = 16;
const PLACEHOLDER = '0'.repeat(ID_BYTES * 2);

/** Sets a placeholder /ID [<0…0> <0…0>] in the trailer, for stampDocumentId to fill. */
export function reserveDocumentId(pdfDoc: PDFDocument): void {
  pdfDoc.context.trailerInfo.ID = pdfDoc.context.obj([PDFHexString.of(PLACEHOLDER), PDFHexString.of(PLACEHOLDER)]);
}

/** Fills both placeholders: the last two in the file, in the trailer or cross-reference stream. */
export async function stampDocumentId(bytes: Uint8Array): Promise<Uint8Array> {
  const marker = new TextEncoder().encode(`<${PLACEHOLDER}>`);
  const second = lastIndexOf(bytes, marker, bytes.length);
  const first = second < 0 ? -1 : lastIndexOf(bytes, marker, second);
  if (first < 0) throw new Error('The PDF has no placeholder /ID to stamp.');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  const id = new TextEncoder().encode(hexOfBytes(digest.subarray(0, ID_BYTES)));
  bytes.set(id, first + 1);
  bytes.set(id, second + 1);
  return bytes;
}

/** Start of the last occurrence of `needle` ending at or before `end`, or -1. */
function lastIndexOf(haystack: Uint8Array, needle: Uint8Array, end: number): number {
  outer: for (let i = end - needle.length; i >= 0; i--) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
