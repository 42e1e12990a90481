/**
 * Gathering the revocation data a validator needs for a certificate chain (PAdES B-LT, ETSI EN
 * 319 142-1 §5.4; ISO 32000-2 §12.8.4.3): for each certificate that has an issuer in the chain,
 * an OCSP response from the responders its Authority Information Access names (RFC 6960), else
 * a CRL from its CRL distribution points (RFC 5280 §4.2.1.13), asked as revocation-fetch.ts asks.
 * A self-issued root needs none: a validator trusts it as itself. One deadline covers the whole
 * collection; certificates are looked up in parallel.
 *
 * What is stored is checked as verify will check it (ocsp-response.ts, certificate-list.ts, with
 * the caller's SignatureCheck), and must be current now; else the next responder or distribution
 * point is asked.
 *
 * Nothing here throws for missing data: what could not be had is said in `problems`, one plain
 * sentence per certificate, and the caller decides what that means (sign warns, docs/api.md).
 */
import type * as pkijs from 'pkijs';
import { bytesEqual } from '../../kit';
import { certificateLabel, isSelfIssued, issuedBy, parseCertificate, type SignatureCheck } from './certificate-links';
import { crlAnswer, parseCrl } from './certificate-list';
import { type CertStatus, ocspAnswers, parseOcsp } from './ocsp-response';
import { CLOCK_SKEW_MS, CRL_REASONS, REVOCATION_MAX_BYTES, REVOCATION_TIMEOUT_MS } from './revocation-constants';
import { type AskOptions, askFor, onlineBudget, reasonOf, revocationUrls } from './revocation-fetch';

export interface RevocationFetchOptions {
  /** The fetch to use; the runtime's by default. */
  fetch?: typeof fetch;
  /** One deadline for every request of the collection. Default REVOCATION_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The most one response may be (within MAX_OCSP_BYTES, MAX_CRL_BYTES). Default REVOCATION_MAX_BYTES. */
  maxBytes?: number;
  /** The time responses must be current at. Default: now. */
  now?: Date;
  /**
   * Certificates (DER) whose revocation data another call gathers: a TSA's chain often shares the
   * signer's CAs, and asking twice would store two copies of one status.
   */
  skip?: readonly Uint8Array[];
}

export interface RevocationData {
  /** DER OCSPResponse values as the responders sent them (RFC 6960 §4.2.1), checked. */
  ocsps: Uint8Array[];
  /** DER CRLs (RFC 5280 §5.1), checked. */
  crls: Uint8Array[];
  /** What could not be gathered and why, and any certificate found revoked; plain sentences. */
  problems: string[];
}

/**
 * Revocation data for `chain` (DER, leaf first, each certificate followed by its issuer); `verify`
 * checks the signatures of responses and CRLs (verify's, so that what is stored is what verify
 * accepts).
 */
export async function collectRevocationData(
  chain: readonly Uint8Array[],
  verify: SignatureCheck,
  options: RevocationFetchOptions = {},
): Promise<RevocationData> {
  const context: Context = {
    verify,
    now: options.now ?? new Date(),
    ask: {
      // The collection's one deadline; the number of requests is bounded by the chain's URLs.
      budget: onlineBudget(options.timeoutMs ?? REVOCATION_TIMEOUT_MS, Number.POSITIVE_INFINITY),
      maxBytes: options.maxBytes ?? REVOCATION_MAX_BYTES,
      name: (kind, url) => (kind === 'ocsp' ? `OCSP responder ${url}` : `CRL ${url}`),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  };
  const certificates = chain.map(parseCertificate);
  const results = await Promise.all(
    certificates.map((certificate, i): Found | Promise<Found> => {
      const der = chain[i] as Uint8Array;
      if (options.skip?.some((skipped) => bytesEqual(skipped, der))) return {};
      if (!certificate) return { problem: `certificate ${i + 1} of the chain cannot be read` };
      // Nothing here may fail the caller: an unexpected error is one more sentence.
      return forCertificate(certificate, certificates[i + 1], context).catch((error: unknown) => ({
        problem: `no revocation data for ${certificateLabel(certificate)}: ${reasonOf(error)}`,
      }));
    }),
  );
  const data: RevocationData = { ocsps: [], crls: [], problems: [] };
  for (const result of results) {
    if ('ocsp' in result && result.ocsp) data.ocsps.push(result.ocsp);
    if ('crl' in result && result.crl) data.crls.push(result.crl);
    if (result.problem) data.problems.push(result.problem);
  }
  return data;
}

interface Context {
  verify: SignatureCheck;
  now: Date;
  ask: AskOptions;
}

type Found = { ocsp?: Uint8Array; crl?: Uint8Array; problem?: string };

async function forCertificate(
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate | undefined,
  context: Context,
): Promise<Found> {
  if (isSelfIssued(certificate)) return {};
  const label = certificateLabel(certificate);
  if (!issuer || !(await issuedBy(certificate, issuer, context.verify))) {
    return { problem: `no revocation data for ${label}: its issuer's certificate is not in the chain` };
  }
  const urls = revocationUrls(certificate, issuer);
  if (urls.ocsp.length === 0 && urls.crl.length === 0) {
    return {
      problem: `no revocation data for ${label}: its certificate names no OCSP responder and no CRL distribution point (http or https)`,
    };
  }
  const failures: string[] = [];
  for await (const answer of askFor(certificate, issuer, urls, context.ask)) {
    if ('error' in answer) {
      failures.push(reasonOf(answer.error));
      continue;
    }
    const { kind, url, der } = answer;
    const status = await (kind === 'ocsp' ? checkOcsp : checkCrl)(der, certificate, issuer, context);
    if (typeof status === 'string') {
      failures.push(`${kind === 'ocsp' ? 'OCSP response' : 'CRL'} from ${url}: ${status}`);
    } else if (status.kind === 'unknown') {
      // Only an OCSP answer is kept back as unknown here: checkCrl refuses an incomplete CRL itself.
      failures.push(`OCSP responder ${url} does not know the certificate (status unknown)`);
    } else {
      const source = kind === 'ocsp' ? `OCSP responder ${url}` : `the CRL at ${url}`;
      return { ...(kind === 'ocsp' ? { ocsp: der } : { crl: der }), ...revoked(label, status, source) };
    }
  }
  return { problem: `no revocation data for ${label}: ${failures.join('; ')}` };
}

/**
 * An OCSP response fit for the DSS: read and checked as verify checks it (ocsp-response.ts), for
 * this certificate, signed by its issuer or a responder the issuer authorized, and current now;
 * the status it gives, or why it is not fit.
 */
async function checkOcsp(
  body: Uint8Array,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  context: Context,
): Promise<CertStatus | string> {
  const parsed = parseOcsp(body, false);
  if (typeof parsed === 'string') return parsed;
  const answers = await ocspAnswers(parsed, certificate, [issuer], [], context.verify);
  const answer = answers.find((candidate) => candidate.issuer);
  if (!answer) return 'the response does not answer for this certificate (no matching CertID)';
  if (answer.signerProblem) return answer.signerProblem;
  return (
    notCurrent('response', answer.single.thisUpdate, answer.single.nextUpdate, context.now) ?? answer.single.status
  );
}

/**
 * A CRL fit for the DSS: read and checked as verify checks it (certificate-list.ts), about this
 * certificate, signed by its issuer with a key allowed to sign CRLs, current now, and either
 * listing it or complete; the status it gives, or why it is not fit.
 */
async function checkCrl(
  body: Uint8Array,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  context: Context,
): Promise<CertStatus | string> {
  const crl = parseCrl(body);
  if (typeof crl === 'string') return crl;
  const answer = await crlAnswer(crl, certificate, [issuer], context.verify);
  if (answer === undefined) return "it is not the certificate issuer's, or its scope leaves the certificate out";
  if (typeof answer === 'string') return answer;
  const stale = notCurrent('CRL', crl.thisUpdate, crl.nextUpdate, context.now);
  if (stale) return stale;
  if (answer.kind === 'unknown') return 'it is not complete (a delta CRL, or one for some reasons only)';
  return answer;
}

/**
 * What goes into a document now must be current now (RFC 6960 §4.2.2.1: a thisUpdate later than
 * the local time, or a nextUpdate earlier, is unreliable; RFC 5280 §6.3.3 (a) likewise for a
 * CRL), within CLOCK_SKEW_MS. A response without nextUpdate says newer information is always
 * available (§4.2.2.1) and is current as of its thisUpdate. Verify asks stored data another
 * question, whether it speaks for the signing time (revocation-status.ts).
 */
function notCurrent(
  what: 'response' | 'CRL',
  thisUpdate: Date,
  nextUpdate: Date | undefined,
  now: Date,
): string | undefined {
  if (thisUpdate.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    return `the ${what}'s thisUpdate (${thisUpdate.toISOString()}) is in the future`;
  }
  if (nextUpdate && nextUpdate.getTime() < now.getTime() - CLOCK_SKEW_MS) {
    return `the ${what} is stale (its nextUpdate ${nextUpdate.toISOString()} has passed)`;
  }
  return undefined;
}

/** A revoked certificate is not a gap in the data but the worst news it can carry: said, never hidden. */
function revoked(label: string, status: CertStatus, source: string): { problem?: string } {
  if (status.kind !== 'revoked') return {};
  const name = status.reason === undefined ? undefined : CRL_REASONS[status.reason];
  const reason = name ? `, reason ${name}` : '';
  return {
    problem: `${label} is revoked according to ${source} (since ${status.time.toISOString()}${reason}): validators will reject a signature that relies on it`,
  };
}
