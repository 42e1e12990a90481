import type { PDFDocument } from 'pdf-lib';
import { ApiError } from '../../errors';
import type { Limits } from '../../limits';
import { byteRangeFor, locatePlaceholders, patchByteRange, patchContents, signedBytes } from './byte-range';
import {
  changedObjects,
  type ObjectSnapshot,
  snapshotObjects,
  type WrittenUpdate,
  writeIncrementalUpdate,
} from './incremental-writer';
import { loadPdfForUpdate, type OriginalXref } from './pdf-source';
import type { SignaturePlaceholder } from './signature-field';

/**
 * One incremental update (ISO 32000-1 §7.5.6) in the making: the loaded document, where the
 * original's newest cross-reference section is, and the snapshot that tells what changed. Each
 * step of signing — the signature (with the certificate pages), the validation data of B-LT,
 * the document timestamp of B-LTA — is one such update over the output of the one before, so
 * every earlier signature keeps covering the bytes it signed.
 */
export interface PdfUpdate {
  doc: PDFDocument;
  xref: OriginalXref;
  snapshot: ObjectSnapshot;
}

export async function openUpdate(pdf: Uint8Array, limits: Pick<Limits, 'decodedPdfStreamBytes'>): Promise<PdfUpdate> {
  const { doc, xref } = await loadPdfForUpdate(pdf, limits);
  // Object numbers up to the original /Size - 1 are taken, including xref and object streams
  // that pdf-lib does not keep as objects: new objects must start above them.
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, xref.size - 1);
  return { doc, xref, snapshot: snapshotObjects(doc.context) };
}

/** The original followed by every object the update added or changed. */
export function writeUpdate(pdf: Uint8Array, update: PdfUpdate): WrittenUpdate {
  const { doc, xref, snapshot } = update;
  return writeIncrementalUpdate(pdf, doc.context, changedObjects(doc.context, snapshot), xref);
}

/** ECDSA signatures vary by a few bytes, and DER length octets grow; this is the slack. */
export const CONTENTS_MARGIN = 64;

/**
 * Writes an update that holds a signature placeholder, then fills it: the ByteRange is patched
 * in (ISO 32000-1 §12.8.1), `makeContents` gets the SHA-256 of the ByteRange bytes and returns
 * the DER for /Contents (a CMS, or a timestamp token for a document timestamp). A value larger
 * than the hole lays the update out once more with a hole of its size; `makeContents` is then
 * asked again, since the bytes it covers moved.
 *
 * Returns the file and the /Contents value as written (the DER then its zero padding).
 */
export async function writeSignedUpdate(
  pdf: Uint8Array,
  update: PdfUpdate,
  placeholder: SignaturePlaceholder,
  contentsBytes: number,
  makeContents: (digest: Uint8Array) => Promise<Uint8Array>,
): Promise<{ file: Uint8Array; contents: Uint8Array }> {
  let capacity = contentsBytes;
  for (let attempt = 0; attempt < 2; attempt++) {
    placeholder.setContentsBytes(capacity);
    const { file, offsets } = writeUpdate(pdf, update);
    const signatureOffset = offsets.get(placeholder.signatureRef.tag);
    if (signatureOffset === undefined) throw new Error('The signature dictionary was not written');
    const positions = locatePlaceholders(file, signatureOffset);
    const range = byteRangeFor(positions, file.length);
    patchByteRange(file, positions, range);

    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', signedBytes(file, range)));
    const der = await makeContents(digest);
    if (der.length <= capacity) {
      patchContents(file, positions, der);
      const contents = new Uint8Array(capacity);
      contents.set(der);
      return { file, contents };
    }
    // Only a timestamp token larger than its allowance gets here: redo the layout with its size.
    capacity = der.length + CONTENTS_MARGIN;
  }
  throw new ApiError('INTERNAL_ERROR', 'The signature did not fit its reserved space');
}
