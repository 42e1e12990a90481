/**
 * POST /v1/verify's answer for one PDF (docs/api.md "POST /v1/verify"): every signature dictionary
 * (ISO 32000-1 §12.8.1) checked for ByteRange coverage, CMS integrity and signature (RFC 5652
 * §5.4), what changed in later revisions (§7.5.6 incremental updates) and trust; `valid` decided
 * exactly per docs/api.md. Hostile input never throws: only a file with no readable structure at all is
 * 422 INVALID_DOCUMENT; every other failure becomes a problem.
 */
import { toHex } from '../../crypto';
import type { CertificateSummary } from '../../kit';
import {
  findRevisions,
  ObjectReader,
  type RevisionScan,
  readPageTree,
  requireCatalog,
  stringBytes,
  withDecryptedStreams,
} from '../pdf-read';
import { onlineBudget, type RevocationSource, type RevocationStatus } from '../revocation';
import { type ByteRangeCheck, type Coverage, checkByteRange } from './byte-range-check';
import { verifyCms } from './cms-verify';
import { type DocMdpLevel, docMdpViolation, fieldLockViolation, findCertification, findFieldLock } from './docmdp';
import { verifyDocumentTimestamp } from './document-timestamp';
import { type DssRead, readDss } from './dss-read';
import { longTermChecks, type PadesLevel, type SignatureEvidence } from './long-term';
import { classifyModifications, type ModificationClass, type ModificationReport } from './modification-check';
import { parsePdfDate } from './pdf-date-read';
import { findSignatureFields, type SignatureField } from './signature-fields';
import { isPlaceholder } from './signature-inventory';
import { type TimestampCheck, verifyTimestampToken } from './timestamp-token';
import { checkTrust, type Trust } from './trust-chain';

export interface VerifiedSignature {
  field: string;
  signer: { name: string | null; email: string | null; certificate: Omit<CertificateSummary, 'pem'> | null };
  signedAt: string | null;
  subFilter: string | null;
  digestAlgorithm: string;
  signatureAlgorithm: string;
  intact: boolean;
  cryptographicallyValid: boolean;
  coverage: Coverage;
  modificationsAfterSigning: ModificationClass;
  trusted: boolean;
  trust: Trust;
  /**
   * The signer certificate's status at the best signature time (docs/api.md): good, revoked (then
   * not trusted either), or unknown when no usable OCSP response or CRL says.
   */
  revocation: RevocationStatus;
  /** Where the deciding OCSP response or CRL came from; null when unknown. */
  revocationSource: RevocationSource | null;
  timestamp: { time: string | null; verified: boolean } | null;
  /** The PAdES baseline level reached (ETSI EN 319 142-1 §6); null for other signatures and document timestamps. */
  level: PadesLevel | null;
  problems: string[];
}

export interface VerifyResult {
  valid: boolean;
  reason: string;
  signatures: VerifiedSignature[];
  document: { pages: number | null; revisions: number; sha256: string };
}

export interface VerifyOptions {
  /** DER certificates trusted as roots: the service chain and TRUSTED_ROOTS. */
  trustedRoots: Uint8Array[];
  /** The service clock, for a signature whose signing time is unknown (default: the system clock). */
  now?: () => Date;
  /**
   * REVOCATION_CHECK: 'online' also asks the signer's OCSP responder (else its CRL distribution
   * point) when the file's own data says nothing; 'offline' (the default) reads only the file.
   */
  revocationCheck?: 'offline' | 'online';
}

/** Modifications a later revision may make without invalidating a signature (docs/api.md). */
const PERMITTED: ReadonlySet<ModificationClass> = new Set(['none', 'signatures', 'form-filling', 'annotations']);

/** Why one signature fails `valid`, in plain words; undefined when it passes. */
type Failure = string | undefined;

export async function verifyPdf(pdf: Uint8Array, options: VerifyOptions): Promise<VerifyResult> {
  const { scan, problems: decryptionProblems } = await withDecryptedStreams(pdf, findRevisions(pdf));
  const sha256 = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', pdf)));
  const reader = new ObjectReader(pdf, scan);
  const last = scan.revisions.length - 1;
  requireCatalog(reader, scan);
  // The pages really there, not the root's /Count, which a file can set to a billion.
  const tree = readPageTree(reader, last);
  const document = { pages: tree.complete ? tree.pages.size : null, revisions: scan.revisions.length, sha256 };
  const search = await findSignatureFields(pdf, scan);
  const signed = search.signatures.filter((field) => !isPlaceholder(pdf, field));
  if (signed.length === 0) {
    // An encrypted file whose form sits in encrypted object streams cannot be searched without
    // decrypting (ISO 32000-1 §7.6): saying "no signatures" would be a claim never checked.
    if (search.problems.length > 0 && scan.revisions.at(-1)?.encrypted) {
      const why = decryptionProblems[0] ?? search.problems[0];
      return {
        valid: false,
        reason: `The document is encrypted and its signature fields cannot be read without decrypting it (${why}); no signature was checked`,
        signatures: [],
        document,
      };
    }
    return { valid: false, reason: 'The document has no signatures', signatures: [], document };
  }
  // Oldest first: by where the signed bytes end (ISO 32000-1 §12.8.1 /ByteRange).
  const fields = [...signed].sort((a, b) => signedEnd(a) - signedEnd(b));
  const certification = findCertification(
    reader,
    scan,
    fields.flatMap((field) => (field.ref ? [field.ref.num] : [])),
  );
  const certifying = certification ? fields.findIndex((field) => field.ref?.num === certification.signatureRef) : -1;
  const dss = readDss(reader, scan);
  const signatures: VerifiedSignature[] = [];
  const failures: Failure[] = [];
  const evidence: SignatureEvidence[] = [];
  for (const [i, field] of fields.entries()) {
    // A certification governs the changes after it and after every later signature (§12.8.2.2).
    const docMdp = certification && certifying >= 0 && i >= certifying ? certification.p : undefined;
    const checked = await verifyOne(pdf, scan, reader, field, fields, options, docMdp, dss);
    if (i === certifying && i > 0) {
      checked.signature.problems.push(
        'the certification signature is not the first signature (ISO 32000-1 §12.8.2.2.1)',
      );
    }
    signatures.push(checked.signature);
    failures.push(checked.failure);
    evidence.push(checked.evidence);
  }
  await addLongTermChecks(signatures, evidence, dss, options);
  const first = failures.findIndex((failure) => failure !== undefined);
  const reason =
    first >= 0
      ? `Signature ${first + 1} of ${fields.length}: ${failures[first]}`
      : `${fields.length === 1 ? 'The signature is' : `All ${fields.length} signatures are`} intact and cryptographically valid, cover${fields.length === 1 ? 's' : ''} the whole of ${fields.length === 1 ? 'its' : 'their'} revision, and later revisions hold only permitted changes`;
  return { valid: first < 0, reason, signatures, document };
}

/**
 * The time the signer's certificate must have been valid at: a verified timestamp's genTime
 * proves it; a claimed time (/M or signingTime) is used but said to be only claimed; with
 * neither, the time of verifying, said so too.
 */
function trustTime(signature: VerifiedSignature, now: Date): { time: Date; note?: string } {
  if (signature.timestamp?.verified && signature.timestamp.time) return { time: new Date(signature.timestamp.time) };
  const claimed = signature.signedAt ? new Date(signature.signedAt) : undefined;
  if (claimed && !Number.isNaN(claimed.getTime())) {
    return {
      time: claimed,
      note: `the certificate's validity was checked at the signing time the signer claims (${signature.signedAt}), which no verified timestamp proves`,
    };
  }
  return { time: now, note: 'the signing time is unknown: the certificate was checked as of now' };
}

/**
 * Revocation and PAdES level (long-term.ts), which need every signature and document timestamp
 * first. A revoked certificate is not trusted (docs/api.md); `valid` is not touched.
 */
async function addLongTermChecks(
  signatures: VerifiedSignature[],
  evidence: SignatureEvidence[],
  dss: DssRead,
  options: VerifyOptions,
): Promise<void> {
  const now = options.now?.() ?? new Date();
  const online = options.revocationCheck === 'online' ? onlineBudget() : undefined;
  const results = await longTermChecks(evidence, { dss, online, now });
  for (const [i, signature] of signatures.entries()) {
    const result = results[i];
    if (!result) continue;
    signature.revocation = result.revocation;
    signature.revocationSource = result.revocationSource;
    signature.level = result.level;
    signature.problems.push(...dss.problems, ...result.problems);
    if (result.revocation === 'revoked') {
      signature.trusted = false;
      signature.trust = 'untrusted';
    }
  }
}

function signedEnd(field: SignatureField): number {
  const range = field.byteRange;
  return range && range.length === 4 ? (range[2] ?? 0) + (range[3] ?? 0) : Number.MAX_SAFE_INTEGER;
}

async function verifyOne(
  pdf: Uint8Array,
  scan: RevisionScan,
  reader: ObjectReader,
  field: SignatureField,
  all: readonly SignatureField[],
  options: VerifyOptions,
  docMdp: DocMdpLevel | undefined,
  dss: DssRead,
): Promise<{ signature: VerifiedSignature; failure: Failure; evidence: SignatureEvidence }> {
  const problems = [...field.problems];
  const range = checkByteRange(pdf, field, scan, all);
  problems.push(...range.problems);
  const signedAtPdf = signingTimeOf(reader, field, scan);
  let cmsProblems: string[] = [];

  const signature: VerifiedSignature = {
    field: field.fieldName,
    signer: { name: null, email: null, certificate: null },
    signedAt: signedAtPdf ?? null,
    subFilter: field.subFilter ?? null,
    digestAlgorithm: 'unknown',
    signatureAlgorithm: 'unknown',
    intact: false,
    cryptographicallyValid: false,
    coverage: range.coverage ?? 'partial',
    modificationsAfterSigning: 'other',
    trusted: false,
    trust: 'unknown',
    revocation: 'unknown',
    revocationSource: null,
    timestamp: null,
    level: null,
    problems,
  };
  const documentTimestamp = field.type === 'DocTimeStamp' || field.subFilter === 'ETSI.RFC3161';
  const evidence: SignatureEvidence = {
    kind: documentTimestamp ? 'document-timestamp' : 'signature',
    subFilter: field.subFilter,
    hasM: signedAtPdf !== undefined,
    revision: range.revisionIndex ?? (range.coverage === 'entire-file' ? scan.revisions.length - 1 : undefined),
    verified: false,
    signerDer: undefined,
    certificates: [],
    revocationData: [],
    baseline: undefined,
    claimedTime: undefined,
    timestamp: undefined,
  };
  const dssCertificates = [...dss.certificates.values()];

  if (range.wellFormed && field.byteRange && field.contents) {
    const [, b = 0, c = 0, d = 0] = field.byteRange;
    const signedBytes = new Uint8Array(b + d);
    signedBytes.set(pdf.subarray(0, b), 0);
    signedBytes.set(pdf.subarray(c, c + d), b);
    const contents = stringBytes({ kind: 'string', hex: true, ...field.contents }, pdf);
    const cms = documentTimestamp
      ? await verifyDocumentTimestamp(contents, signedBytes)
      : await verifyCms(contents, signedBytes, field.subFilter ?? '', field.cert);
    cmsProblems = cms.problems;
    problems.push(...cms.problems);
    signature.intact = cms.intact;
    signature.cryptographicallyValid = cms.cryptographicallyValid;
    signature.digestAlgorithm = cms.digestAlgorithm;
    signature.signatureAlgorithm = cms.signatureAlgorithm;
    if (cms.signer) {
      const { pem: _pem, ...certificate } = cms.signer.certificate;
      signature.signer = { name: cms.signer.name ?? null, email: cms.signer.email ?? null, certificate };
    }
    signature.signedAt ??= cms.signingTime ?? null;
    if (cms.timestampToken) {
      // RFC 3161 Appendix A: the token stamps the SignerInfo's signature value.
      const stamp = await verifyTimestampToken(cms.timestampToken, cms.signatureValue ?? new Uint8Array());
      signature.timestamp = { time: stamp.time ?? null, verified: stamp.verified };
      problems.push(...stamp.problems.map((problem) => `signature timestamp: ${problem}`));
      if (stamp.verified && stamp.time) {
        const tsa = await tsaTrust(stamp, stamp.time, dssCertificates, options);
        evidence.timestamp = { time: new Date(stamp.time), verified: true, tsaTrusted: tsa === true };
        if (tsa !== true) problems.push(`signature timestamp: ${tsa}`);
      }
    }
    const signerDer = cms.signer ? pemToDer(cms.signer.certificate.pem) : undefined;
    const at = trustTime(signature, options.now?.() ?? new Date());
    if (at.note) problems.push(at.note);
    const trust = await checkTrust(signerDer, [...cms.certificates, ...dssCertificates], options.trustedRoots, at.time);
    signature.trust = trust.trust;
    signature.trusted = trust.trust === 'trusted';
    problems.push(...trust.problems);
    const claimed = signature.signedAt ? new Date(signature.signedAt) : undefined;
    evidence.verified = cms.intact && cms.cryptographicallyValid;
    evidence.signerDer = signerDer;
    evidence.certificates = cms.certificates;
    evidence.revocationData = cms.revocationData;
    evidence.baseline = cms.baseline;
    evidence.claimedTime = claimed && !Number.isNaN(claimed.getTime()) ? claimed : undefined;
    if (documentTimestamp && cms.signingTime) {
      // A document timestamp's own time is its genTime, proven as far as its TSA is trusted.
      evidence.timestamp = {
        time: new Date(cms.signingTime),
        verified: evidence.verified,
        tsaTrusted: signature.trusted,
      };
    }
  }

  const modifications = modificationsAfter(pdf, scan, range);
  signature.modificationsAfterSigning = modifications.classification;
  problems.push(...modifications.details);
  const lock = findFieldLock(reader, scan, field.ref?.num, field.fieldRef);
  const notPermitted =
    (docMdp === undefined ? undefined : docMdpViolation(docMdp, modifications)) ??
    (lock === undefined ? undefined : fieldLockViolation(lock, modifications));
  if (notPermitted) problems.push(notPermitted);
  return {
    signature,
    failure: failureOf(signature, range, cmsProblems, modifications.reason, notPermitted),
    evidence,
  };
}

/**
 * Whether a signature timestamp's TSA certificate chains to a configured root at the stamped time
 * (the same path validation as signers, trust-chain.ts): true, or what is wrong, in words.
 */
async function tsaTrust(
  stamp: TimestampCheck,
  time: string,
  dssCertificates: readonly Uint8Array[],
  options: VerifyOptions,
): Promise<true | string> {
  const tsa = stamp.cms.signer ? pemToDer(stamp.cms.signer.certificate.pem) : undefined;
  const certificates = [...stamp.cms.certificates, ...dssCertificates];
  const trust = await checkTrust(tsa, certificates, options.trustedRoots, new Date(time));
  if (trust.trust === 'trusted') return true;
  const why = trust.problems.map((problem) => problem.replace(/^the signer certificate /, 'it ')).join('; ');
  return `the TSA certificate is not trusted${why ? ` (${why})` : ''}`;
}

function failureOf(
  signature: VerifiedSignature,
  range: ByteRangeCheck,
  cmsProblems: string[],
  modificationReason: string | undefined,
  notPermitted: string | undefined,
): Failure {
  if (!range.wellFormed)
    return `its byte range is malformed (${range.problems[0] ?? 'not two ranges around /Contents'})`;
  if (range.coverage === 'partial') return 'it does not cover the whole of its revision';
  if (range.problems.length > 0) return `its byte range is not sound (${range.problems[0]})`;
  const digestMismatch = cmsProblems.some((problem) => problem.startsWith('the document digest does not match'));
  if (!signature.intact && digestMismatch) {
    return 'the document was changed after signing (the signed bytes do not match)';
  }
  if (!signature.intact || !signature.cryptographicallyValid) {
    const why = cmsProblems.at(-1);
    if (signature.intact) return `the signer's signature does not verify${why ? ` (${why})` : ''}`;
    return `the signature cannot be checked${why ? ` (${why})` : ''}`;
  }
  if (!PERMITTED.has(signature.modificationsAfterSigning)) {
    return `the document was changed after signing (${modificationReason ?? 'a change that is not permitted'})`;
  }
  if (notPermitted) return `the document was changed after signing in a way that is not permitted (${notPermitted})`;
  return undefined;
}

function modificationsAfter(pdf: Uint8Array, scan: RevisionScan, range: ByteRangeCheck): ModificationReport {
  const unknown = (reason: string): ModificationReport => ({
    classification: 'other',
    approvalSignatureAdded: false,
    reason,
    details: [reason],
    filledFields: [],
  });
  if (!range.wellFormed) return unknown('the signed revision is unknown');
  let index = range.revisionIndex;
  // Signed to the end of the file, but the file's end is no %%EOF (trailing bytes): the newest.
  if (index === undefined && range.coverage === 'entire-file') index = scan.revisions.length - 1;
  if (index === undefined || index < 0) {
    return unknown('the signed bytes end at no revision');
  }
  return classifyModifications(pdf, scan, index, { signedToEnd: range.coverage === 'entire-file' });
}

/** /M of the signature dictionary (ISO 32000-1 §12.8.1 Table 252), as written in its revision. */
function signingTimeOf(reader: ObjectReader, field: SignatureField, scan: RevisionScan): string | undefined {
  if (!field.ref) return undefined;
  try {
    const state = reader.read(field.ref.num, scan.revisions.length - 1);
    if (state.kind !== 'object' || state.value.kind !== 'dict') return undefined;
    const m = state.value.entries.get('M');
    if (m?.kind !== 'string' || m.hex) return undefined;
    const text = new TextDecoder('latin1').decode(state.buffer.subarray(m.start + 1, m.end - 1));
    return parsePdfDate(text);
  } catch {
    return undefined;
  }
}

function pemToDer(pem: string): Uint8Array {
  const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
}
