import type { PDFDocument } from 'pdf-lib';
import type { Limits } from '../../limits';
import { buildCms } from './cms-builder';
import { CONTENTS_MARGIN, openUpdate, writeSignedUpdate } from './pdf-update';
import type { SignatureDetails, SignedPdf, SigningIdentity, TimestampAuthority } from './sign-types';
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
 * Room for an RFC 3161 token (a SignedData with the TSA's certificates) before its size is known:
 * public TSAs answer with 2–7 KB. A larger token costs one more layout and one more TSA request.
 */
export const TIMESTAMP_ALLOWANCE = 8 * 1024;

/**
 * Signs a PDF as PAdES baseline B-B (B-T with a TSA), ETSI EN 319 142-1, in one incremental
 * update (ISO 32000-1 §7.5.6) that also carries whatever `beforeSign` added. Returns the signed
 * file, the /Contents written and the timestamp token, which the validation data of B-LT names.
 */
export async function addSignature(pdf: Uint8Array, options: SignPdfOptions): Promise<SignedPdf> {
  const update = await openUpdate(pdf, options.limits);
  if (options.beforeSign) {
    await options.beforeSign(update.doc);
    // Fonts and images pdf-lib embeds lazily are written by flush(), as save() would.
    await update.doc.flush();
  }

  // The hole is sized from a real CMS of this identity (over a dummy digest), so it is not
  // kilobytes of zeros; a timestamp token's size is only known once it arrives.
  const probe = await buildCms(options.identity, new Uint8Array(32));
  const contentsBytes = probe.length + CONTENTS_MARGIN + (options.tsa ? TIMESTAMP_ALLOWANCE : 0);
  const placeholder = addSignatureField(update.doc, { type: 'signature', details: options.details }, contentsBytes);

  const tsa = options.tsa;
  let timestampToken: Uint8Array | undefined;
  const stamp = tsa
    ? async (signatureValue: Uint8Array) => {
        // RFC 3161 Appendix A: the signatureTimeStampToken stamps the SignerInfo's signature value.
        const imprint = new Uint8Array(await crypto.subtle.digest('SHA-256', signatureValue));
        timestampToken = await requestTimestampToken(tsa, imprint);
        return timestampToken;
      }
    : undefined;
  const { file, contents } = await writeSignedUpdate(pdf, update, placeholder, contentsBytes, (digest) =>
    buildCms(options.identity, digest, stamp),
  );
  return { pdf: file, contents, timestampToken };
}

/** The signed file alone, for callers that need nothing else (tests, fixtures). */
export async function signPdf(pdf: Uint8Array, options: SignPdfOptions): Promise<Uint8Array> {
  return (await addSignature(pdf, options)).pdf;
}
