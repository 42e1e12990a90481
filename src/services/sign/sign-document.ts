import { PDFDocument, type PDFPage } from 'pdf-lib';
import { sha256Hex } from '../../crypto';
import { ApiError } from '../../errors';
import { summarizeCertificate } from '../../kit';
import { Budget, type Limits } from '../../limits';
import type { EngineResources } from '../convert';
import type { RevocationFetchOptions } from '../revocation';
import { signatureInventory } from '../verify';
import { appendPdfPages } from './append-pages';
import { renderAuditCertificate } from './audit-certificate';
import { addDocumentTimestamp } from './document-timestamp';
import { addDss } from './dss-update';
import { loadPdfForUpdate } from './pdf-source';
import { addSignature } from './sign-pdf';
import type { SignBody } from './sign-request';
import type { AuditEvent, SignatureLevel, SigningIdentity, TimestampAuthority } from './sign-types';
import { levelAddsValidationData, levelNeedsTsa } from './signature-level';
import { gatherValidationData } from './validation-data';

export interface SignDocumentOptions {
  identity: SigningIdentity;
  engine: EngineResources;
  /** What the request may cost (src/limits.ts): the certificate's pages and time, the PDF's decoded streams. */
  limits: Limits;
  /** The service clock: the signature's /M and the time the certificate states. */
  now: Date;
  /** A fresh id when the request gives no eventId. */
  newEventId: () => string;
  tsa?: TimestampAuthority;
  /** The PAdES level to produce (resolveSignatureLevel): B-T and above need `tsa`. */
  level: SignatureLevel;
  /** How B-LT gathers revocation data (the fetch, the deadline, the size cap); the defaults of src/services/revocation otherwise. */
  revocation?: RevocationFetchOptions;
}

export interface SignedDocument {
  pdf: Uint8Array;
  eventId: string;
  certificatePages: number;
  /** Why the certificate pages were left out although enabled, in plain words. */
  certificateOmitted: string | undefined;
  level: SignatureLevel;
  /** What the level's validation data lacks and why (B-LT, B-LTA), in plain words; empty when nothing. */
  warnings: string[];
}

/**
 * Signs a PDF as docs/api.md "POST /v1/sign" describes: the audit-trail certificate pages (unless
 * disabled) are appended in the same incremental update as the signature, so the signature covers
 * them and signatures already in the file stay valid; the certificate states the hash and page
 * count of the document as it came. B-LT adds a second update with the validation data (/DSS),
 * B-LTA a third with a document timestamp (ETSI EN 319 142-1 §5.4, §5.5).
 */
export async function signDocument(
  pdf: Uint8Array,
  // The request's fields; its document is `pdf`, already loaded (from JSON or an upload).
  body: Omit<SignBody, 'document'>,
  options: SignDocumentOptions,
): Promise<SignedDocument> {
  const { level } = options;
  const tsa = levelNeedsTsa(level) ? options.tsa : undefined;
  // resolveSignatureLevel refuses such a request with 400 first; this is the contract held here too.
  if (levelNeedsTsa(level) && !tsa) throw new Error(`PAdES ${level} needs a TSA, and none was given`);
  const eventId = body.eventId ?? options.newEventId();
  const { signer } = body;
  const metadata = body.metadata ?? {};
  let certificatePages = 0;
  let certificateOmitted: string | undefined;
  let beforeSign: ((doc: PDFDocument) => Promise<void>) | undefined;
  const existing = await signatureInventory(pdf);
  if (existing.certification?.p === 1) {
    throw new ApiError(
      'INVALID_DOCUMENT',
      'The PDF is certified with no changes permitted (DocMDP P=1): another signature would invalidate its certification',
    );
  }
  // Pages added after a signature are a change no signature permits (ISO 32000-1 §12.8.2.2), so
  // the certificate would break the signatures docs/api.md promises to keep valid: it is left out.
  if ((body.certificate?.enabled ?? true) && existing.signed > 0) {
    certificateOmitted = 'the PDF is already signed, and pages added after a signature would invalidate it';
  } else if (body.certificate?.enabled ?? true) {
    const { pages, lastPageSize } = await pageFacts(pdf, options.limits);
    const events: AuditEvent[] = body.auditTrail.map((event) => ({
      type: event.type,
      timestamp: event.timestamp,
      data: event.data ?? {},
    }));
    const certificatePdf = await renderAuditCertificate(
      {
        documentSha256: await sha256Hex(pdf),
        documentPages: pages,
        eventId,
        signer: {
          name: signer.name,
          email: signer.email,
          ...(signer.ip !== undefined ? { ip: signer.ip } : {}),
          ...(signer.userAgent !== undefined ? { userAgent: signer.userAgent } : {}),
        },
        events,
        ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
        signedAt: options.now,
        certificate: await summarizeCertificate(options.identity.chain[0] as Uint8Array),
      },
      options.engine,
      new Budget(options.limits),
      lastPageSize,
    );
    certificatePages = (await PDFDocument.load(certificatePdf)).getPageCount();
    // The pages keep the size the certificate was laid out at (the last page's, or Letter when
    // that is too small to read or absurdly large), never scaled to fit a tiny page.
    beforeSign = (doc) => appendPdfPages(doc, certificatePdf);
  }
  const signed = await addSignature(pdf, {
    identity: options.identity,
    details: {
      name: signer.name,
      // docs/api.md: /Reason and /Location come from the request; metadata may name them, else they
      // say what happened and where the signer was (docs/design.md "Sign").
      reason: stringEntry(metadata, 'reason') ?? `Signed electronically by ${signer.name} <${signer.email}>`,
      location: stringEntry(metadata, 'location') ?? (signer.ip !== undefined ? `IP ${signer.ip}` : 'Online'),
      contactInfo: signer.email,
      signingTime: options.now,
    },
    ...(beforeSign ? { beforeSign } : {}),
    ...(tsa ? { tsa } : {}),
    limits: options.limits,
  });
  let out = signed.pdf;
  const warnings: string[] = [];
  if (levelAddsValidationData(level)) {
    const gathered = await gatherValidationData(options.identity.chain, signed.timestampToken, {
      now: options.now,
      ...options.revocation,
    });
    // Missing revocation data does not fail the request (docs/api.md): the signature is made and
    // valid, the certificates are in the DSS, and the caller is told what a validator will lack.
    warnings.push(...gathered.problems.map((problem) => `${level} validation data: ${problem}`));
    out = await addDss(out, gathered.data, { limits: options.limits, signatureContents: signed.contents });
  }
  if (level === 'B-LTA' && tsa) out = await addDocumentTimestamp(out, { tsa, limits: options.limits });
  return { pdf: out, eventId, certificatePages, certificateOmitted, level, warnings };
}

function stringEntry(metadata: Record<string, unknown>, key: string): string | undefined {
  const value = metadata[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 255) : undefined;
}

/**
 * Page count and the last page's size (the certificate pages take it), from the signer's own
 * loader, so a damaged or encrypted file fails here the same way (INVALID_DOCUMENT).
 */
async function pageFacts(
  pdf: Uint8Array,
  limits: Limits,
): Promise<{ pages: number; lastPageSize: { width: number; height: number } | undefined }> {
  const { doc } = await loadPdfForUpdate(pdf, limits);
  const pages = doc.getPages();
  try {
    const { width, height } = (pages.at(-1) as PDFPage).getSize();
    return { pages: pages.length, lastPageSize: { width, height } };
  } catch {
    // No /MediaBox to read (required, and inheritable: ISO 32000-1 §7.7.3.3, Table 30): the
    // certificate is laid out on Letter, as for a page too small to read.
    return { pages: pages.length, lastPageSize: undefined };
  }
}
