/**
 * Whether a certificate was revoked when it was used (RFC 5280 §6.3 CRL processing, RFC 6960
 * OCSP), from the revocation data at hand: OCSP responses and CRLs carried in a signature, in a
 * PDF's DSS (ISO 32000-2 §12.8.4.3), or fetched live. A datum counts only when it is about the
 * certificate (OCSP CertID, RFC 6960 §4.1.1; CRL issuer and scope, RFC 5280 §6.3.3 (b)), comes
 * from the certificate's issuer (the CA itself, a responder it authorized with
 * id-kp-OCSPSigning, RFC 6960 §4.2.2.2, or the CA's key allowed to sign CRLs) and its signature
 * verifies (ocsp-response.ts, certificate-list.ts: the checks signing's collection makes too).
 * Then:
 *
 * - **revoked**: it says the certificate was revoked at or before `at` (the best signature time:
 *   a trusted timestamp's, else the time the signer claims). A revocation after `at` still counts
 *   when `at` is only claimed, since nothing proves the signature was made before it; when a
 *   trusted timestamp proves `at`, a later revocation does not affect the signature (as EU DSS
 *   judges, ETSI EN 319 102-1 §5.6.2.4 best-signature-time), and a problem says so.
 * - **good**: it says not revoked, and is current at `at`: issued at or after it (what EU DSS and
 *   ETSI EN 319 102-1 §5.2.5 call fresh), or valid at it (thisUpdate ≤ at ≤ nextUpdate, what
 *   pyHanko's certvalidator requires of revocation data at the validation time). A good answer
 *   issued after the certificate expired counts only with expiredCertsOnCRL (RFC 5280 §5.2.7 of
 *   X.509, 2.5.29.60) or archiveCutoff (RFC 6960 §4.4.4) reaching back to its validity, since
 *   entries may leave a CRL once the certificate has expired (RFC 5280 §5.1.2.6). Only a complete
 *   CRL (not delta, not some reasons only) speaks for "not listed".
 * - **unknown**: nothing usable. A datum that cannot be read, is signed by the wrong key, or is
 *   too old is a problem, never an error.
 *
 * Revoked wins over good. Never throws.
 */
import type * as pkijs from 'pkijs';
import { issuersOf, parseCertificate, parseCertificates, type SignatureCheck } from './certificate-links';
import { crlAnswer, crlCovers, type ParsedCrl, parseCrl } from './certificate-list';
import { ocspAnswers, type ParsedOcsp, parseOcsp, responsesFor } from './ocsp-response';
import { CRL_REASONS, MAX_CRL_BYTES, MAX_OCSP_BYTES } from './revocation-constants';

export type RevocationStatus = 'good' | 'revoked' | 'unknown';
/** Where the deciding datum came from: the signature's CMS, the PDF's DSS, or a live request. */
export type RevocationSource = 'cms' | 'dss' | 'online';
/** An OCSPResponse (RFC 6960 §4.2.1), a bare BasicOCSPResponse (CAdES revocation-values), or a CRL (RFC 5280 §5.1). */
export type RevocationKind = 'ocsp' | 'basic-ocsp' | 'crl';

export interface RevocationDatum {
  kind: RevocationKind;
  der: Uint8Array;
  source: RevocationSource;
}

export interface StatusQuery {
  /** The certificate whose status is asked, DER. */
  certificate: Uint8Array;
  /** Certificates its issuer (and a delegated OCSP responder) may be among, DER. */
  certificates: readonly Uint8Array[];
  data: readonly RevocationDatum[];
  /** The time the certificate must not have been revoked at. */
  at: Date;
  /** A trusted timestamp proves `at`; otherwise it is only claimed. */
  atProven: boolean;
  verify: SignatureCheck;
  /** How messages name the certificate; default "the certificate". */
  label?: string;
}

export interface StatusResult {
  status: RevocationStatus;
  /** The source of the datum that decided; null when unknown. */
  source: RevocationSource | null;
  /** When revoked: the revocation time (ISO 8601). */
  revokedAt?: string;
  problems: string[];
}

/** Data looked at per question; more is hostile (a real DSS holds a few per certificate). */
export const MAX_REVOCATION_DATA = 192;

type Parsed = ParsedOcsp | ParsedCrl | string;
/** Each datum is parsed once per isolate while its bytes live (a DSS serves every signature of a file). */
const parsedData = new WeakMap<Uint8Array, Parsed>();

function parseDatum(datum: RevocationDatum): Parsed {
  const cached = parsedData.get(datum.der);
  if (cached !== undefined) return cached;
  const limit = datum.kind === 'crl' ? MAX_CRL_BYTES : MAX_OCSP_BYTES;
  const parsed =
    datum.der.length > limit
      ? `it is larger than ${limit} bytes`
      : datum.kind === 'crl'
        ? parseCrl(datum.der)
        : parseOcsp(datum.der, datum.kind === 'basic-ocsp');
  parsedData.set(datum.der, parsed);
  return parsed;
}

function describe(datum: Pick<RevocationDatum, 'kind' | 'source'>): string {
  const what = datum.kind === 'crl' ? 'a CRL' : 'an OCSP response';
  const where = datum.source === 'cms' ? 'in the signature' : datum.source === 'dss' ? 'in the DSS' : 'fetched online';
  return `${what} ${where}`;
}

type Finding =
  | { verdict: 'revoked'; source: RevocationSource; time: Date; note: string }
  | { verdict: 'good'; source: RevocationSource; note?: string }
  | { verdict: 'problem'; note: string };

export async function revocationStatus(query: StatusQuery): Promise<StatusResult> {
  const label = query.label ?? 'the certificate';
  const target = parseCertificate(query.certificate);
  if (!target) {
    return { status: 'unknown', source: null, problems: [`${label} cannot be read, so its revocation is unknown`] };
  }
  const pool = parseCertificates(query.certificates);
  const issuers = await issuersOf(target, pool, query.verify);
  const findings: Finding[] = [];
  const data = query.data.slice(0, MAX_REVOCATION_DATA);
  for (const datum of data) {
    const parsed = parseDatum(datum);
    if (typeof parsed === 'string') {
      findings.push({ verdict: 'problem', note: `${describe(datum)} cannot be read: ${parsed}` });
    } else if (parsed.kind === 'ocsp') {
      findings.push(...(await ocspFindings(parsed, datum, target, issuers, pool, query, label)));
    } else {
      findings.push(...(await crlFindings(parsed, datum, target, issuers, query, label)));
    }
  }
  // Two copies of one response (a DSS and its VRI, a signature and the DSS) say the same thing once.
  const problems = [...new Set(findings.flatMap((finding) => (finding.note ? [finding.note] : [])))];
  if (query.data.length > data.length) {
    problems.push(`only the first ${MAX_REVOCATION_DATA} of ${query.data.length} revocation data were read`);
  }
  const revoked = findings.find((finding) => finding.verdict === 'revoked');
  if (revoked) return { status: 'revoked', source: revoked.source, revokedAt: revoked.time.toISOString(), problems };
  const good = findings.find((finding) => finding.verdict === 'good');
  if (good) return { status: 'good', source: good.source, problems };
  return { status: 'unknown', source: null, problems };
}

/** A not-revoked answer issued at `thisUpdate` (until `nextUpdate`) speaks for `at` (see the header). */
function current(
  thisUpdate: Date,
  nextUpdate: Date | undefined,
  at: Date,
  target: pkijs.Certificate,
  cutoff: Date | undefined,
): string | undefined {
  const afterExpiry = thisUpdate > target.notAfter.value && !(cutoff && cutoff <= target.notAfter.value);
  if (afterExpiry) {
    return `it was issued on ${iso(thisUpdate)}, after the certificate expired, when a revoked certificate may no longer be listed (RFC 5280 §5.1.2.6)`;
  }
  if (thisUpdate >= at) return undefined;
  if (nextUpdate && at <= nextUpdate) return undefined;
  return `it was issued on ${iso(thisUpdate)}, before the signing time ${iso(at)}, and ${nextUpdate ? `expired on ${iso(nextUpdate)}` : 'names no next update'}, so it does not speak for the signing time`;
}

/** The verdict of a datum that says the certificate was revoked at `time`. */
function revokedFinding(
  source: RevocationSource,
  what: string,
  time: Date,
  reason: number | undefined,
  query: StatusQuery,
  label: string,
): Finding {
  const why = reason === undefined ? '' : ` (${CRL_REASONS[reason] ?? `reason ${reason}`})`;
  if (time <= query.at) {
    return {
      verdict: 'revoked',
      source,
      time,
      note: `${label} is revoked: ${what} says it was revoked on ${iso(time)}${why}, at or before the signing time ${iso(query.at)}`,
    };
  }
  if (!query.atProven) {
    return {
      verdict: 'revoked',
      source,
      time,
      note: `${label} is revoked: ${what} says it was revoked on ${iso(time)}${why}, after the signing time ${iso(query.at)} the signer claims, but no trusted timestamp proves the signature was made before the revocation`,
    };
  }
  return {
    verdict: 'good',
    source,
    note: `${label} was revoked on ${iso(time)}${why} (${what}), after ${iso(query.at)}, when a trusted timestamp proves the signature existed: the revocation does not affect it`,
  };
}

async function ocspFindings(
  parsed: ParsedOcsp,
  datum: RevocationDatum,
  target: pkijs.Certificate,
  issuers: readonly pkijs.Certificate[],
  pool: readonly pkijs.Certificate[],
  query: StatusQuery,
  label: string,
): Promise<Finding[]> {
  const what = describe(datum);
  const findings: Finding[] = [];
  for (const { single, issuer, signerProblem } of await ocspAnswers(parsed, target, issuers, pool, query.verify)) {
    if (!issuer) {
      findings.push({
        verdict: 'problem',
        note: `${what} about ${label} cannot be checked: the issuing CA’s certificate is not in the signature or the DSS`,
      });
      continue;
    }
    if (signerProblem) {
      findings.push({ verdict: 'problem', note: `${what} about ${label} is not usable: ${signerProblem}` });
      continue;
    }
    if (single.status.kind === 'revoked') {
      findings.push(revokedFinding(datum.source, what, single.status.time, single.status.reason, query, label));
    } else if (single.status.kind === 'unknown') {
      findings.push({ verdict: 'problem', note: `${what} says the responder does not know ${label}` });
    } else {
      const stale = current(single.thisUpdate, single.nextUpdate, query.at, target, parsed.archiveCutoff);
      findings.push(
        stale
          ? { verdict: 'problem', note: `${what} says ${label} is good, but ${stale}` }
          : { verdict: 'good', source: datum.source },
      );
    }
  }
  return findings;
}

async function crlFindings(
  crl: ParsedCrl,
  datum: RevocationDatum,
  target: pkijs.Certificate,
  issuers: readonly pkijs.Certificate[],
  query: StatusQuery,
  label: string,
): Promise<Finding[]> {
  const answer = await crlAnswer(crl, target, issuers, query.verify);
  // Not about the certificate, or an incomplete CRL that does not list it: it says nothing.
  if (answer === undefined || (typeof answer !== 'string' && answer.kind === 'unknown')) return [];
  const what = describe(datum);
  if (typeof answer === 'string') {
    return [{ verdict: 'problem', note: `${what} from the issuer of ${label} is not usable: ${answer}` }];
  }
  if (answer.kind === 'revoked') return [revokedFinding(datum.source, what, answer.time, answer.reason, query, label)];
  const stale = current(crl.thisUpdate, crl.nextUpdate, query.at, target, crl.expiredCertsOnCrl);
  return stale
    ? [{ verdict: 'problem', note: `${what} does not list ${label}, but ${stale}` }]
    : [{ verdict: 'good', source: datum.source }];
}

function iso(date: Date): string {
  return Number.isNaN(date.getTime()) ? 'an unreadable date' : date.toISOString();
}

/**
 * Whether `data` holds a datum about `certificate` (an OCSP SingleResponse naming it, or a CRL of
 * its issuer whose scope includes it), without judging it: what ETSI EN 319 142-1 §6.3 B-LT asks
 * the validation data to contain (an OCSP CertID is matched by serial and issuer name hash).
 */
export async function hasRevocationData(certificate: Uint8Array, data: readonly RevocationDatum[]): Promise<boolean> {
  const target = parseCertificate(certificate);
  if (!target) return false;
  for (const datum of data.slice(0, MAX_REVOCATION_DATA)) {
    const parsed = parseDatum(datum);
    if (typeof parsed === 'string') continue;
    if (parsed.kind === 'crl' ? crlCovers(parsed, target) : (await responsesFor(parsed, target, [])).length > 0) {
      return true;
    }
  }
  return false;
}
