import type { PDFDocument } from 'pdf-lib';
import { ApiError } from '../../errors';
import type { Limits } from '../../limits';
import { byteRangeFor, locatePlaceholders, patchByteRange, patchContents, signedBytes } from './byte-range';
import { buildCms } from './cms-builder';
import { changedObjects, snapshotObjects, writeIncrementalUpdate } from './incremental-writer';
import { loadPdfForUpdate } from './pdf-source';
import type { SignatureDetails, SigningIdentity, TimestampAuthority } from './sign-types';
import { addSignatureField } from './signature-field';
import { requestTimestampToken } from './timestamp-client';

export interface SignPdfOptions {
  identity: SigningIdentity;
  details: SignatureDetails;
  /** Called on the loaded document before the signature is added, to append pages (the audit certificate); every object it adds or changes is written in the same incremental update. */
  beforeSign?: (doc: PDFDocument) => Promise<void>;
  tsa?: TimestampAuthority;
  /** What parsing the PDF may cost: the bytes its object and cross-reference streams decode to. */
  limits: Pick<Limits, 'decodedPdfStreamBytes'>;
}

/**
 * Room for the RFC 3161 token (a SignedData with the TSA's certificates) before its size is known:
 * public TSAs answer with 2–7 KB. A larger token costs one more layout and one more TSA request.
 */
const TIMESTAMP_ALLOWANCE = 8 * 1024;
/** ECDSA signatures vary by a few bytes; the rest is slack for DER length octets. */
const CMS_MARGIN = 64;

/**
 * Signs a PDF as PAdES baseline B-B (B-T with a TSA), ETSI EN 319 142-1, in one incremental
 * update (ISO 32000-1 §7.5.6) that also carries whatever `beforeSign` added.
 */
export async function signPdf(pdf: Uint8Array, options: SignPdfOptions): Promise<Uint8Array> {
  const { doc, xref } = await loadPdfForUpdate(pdf, options.limits);
  // Object numbers up to the original /Size - 1 are taken, including xref and object streams
  // that pdf-lib does not keep as objects: new objects must start above them.
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, xref.size - 1);
  const snapshot = snapshotObjects(doc.context);

  if (options.beforeSign) {
    await options.beforeSign(doc);
    // Fonts and images pdf-lib embeds lazily are written by flush(), as save() would.
    await doc.flush();
  }

  // The hole is sized from a real CMS of this identity (over a dummy digest), so it is not
  // kilobytes of zeros; a timestamp token's size is only known once it arrives.
  const probe = await buildCms(options.identity, new Uint8Array(32));
  let contentsBytes = probe.length + CMS_MARGIN + (options.tsa ? TIMESTAMP_ALLOWANCE : 0);
  const placeholder = addSignatureField(doc, options.details, contentsBytes);

  for (let attempt = 0; attempt < 2; attempt++) {
    placeholder.setContentsBytes(contentsBytes);
    const { file, offsets } = writeIncrementalUpdate(pdf, doc.context, changedObjects(doc.context, snapshot), xref);
    const signatureOffset = offsets.get(placeholder.signatureRef.tag);
    if (signatureOffset === undefined) throw new Error('The signature dictionary was not written');
    const positions = locatePlaceholders(file, signatureOffset);
    const range = byteRangeFor(positions, file.length);
    patchByteRange(file, positions, range);

    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', signedBytes(file, range)));
    const tsa = options.tsa;
    const cms = await buildCms(
      options.identity,
      digest,
      tsa ? (signatureValue) => requestTimestampToken(tsa, signatureValue) : undefined,
    );
    if (cms.length <= contentsBytes) {
      patchContents(file, positions, cms);
      return file;
    }
    // Only a timestamp token larger than the allowance gets here: redo the layout with its size.
    contentsBytes = cms.length + CMS_MARGIN;
  }
  throw new ApiError('INTERNAL_ERROR', 'The signature did not fit its reserved space');
}
