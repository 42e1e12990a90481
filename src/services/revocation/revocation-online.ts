/**
 * The live revocation check of verify (REVOCATION_CHECK=online): an OCSP request for one
 * certificate to the responder its authorityInfoAccess names (RFC 5280 §4.2.2.1 id-ad-ocsp), sent
 * as RFC 6960 Appendix A.1 GET, else the CRL its cRLDistributionPoints names (§4.2.1.13). Both
 * go through the guarded fetcher (src/services/input): public hosts only, plain http allowed
 * because OCSP responses and CRLs are signed and are served over http by design (RFC 6960
 * Appendix A.1, RFC 5280 §4.2.1.13), redirects re-checked, a size cap, and one deadline for every
 * fetch of a request (OnlineBudget). What comes back is only data: revocation-status.ts judges it.
 * Failures are problems, never errors. Kept minimal and apart so that signing's fetcher
 * (revocation-fetch.ts) can take it over.
 */
import * as pkijs from 'pkijs';
import { fetchDocument } from '../input';
import { issuersOf, parseCertificates, type SignatureCheck } from './certificate-links';
import { crlDistributionUrls, ocspResponderUrls } from './certificate-pointers';
import { ocspGetUrl, ocspRequest } from './ocsp-request';
import { MAX_CRL_BYTES, MAX_OCSP_BYTES, ONLINE_MAX_FETCHES, REVOCATION_TIMEOUT_MS } from './revocation-constants';
import type { RevocationDatum } from './revocation-status';

/** One deadline and a number of fetches shared by every online check of one request. */
export interface OnlineBudget {
  deadline: number;
  fetchesLeft: number;
}

export function onlineBudget(timeoutMs = REVOCATION_TIMEOUT_MS, fetches = ONLINE_MAX_FETCHES): OnlineBudget {
  return { deadline: Date.now() + timeoutMs, fetchesLeft: fetches };
}

export interface OnlineQuery {
  /** DER of the certificate to ask about, and certificates its issuer is among. */
  certificate: Uint8Array;
  certificates: readonly Uint8Array[];
  verify: SignatureCheck;
  budget: OnlineBudget;
  /** The fetch to use (tests); the runtime's by default. */
  fetch?: typeof fetch;
}

export async function fetchRevocationData(
  query: OnlineQuery,
): Promise<{ data: RevocationDatum[]; problems: string[] }> {
  const problems: string[] = [];
  let target: pkijs.Certificate;
  try {
    target = pkijs.Certificate.fromBER(query.certificate);
  } catch {
    return { data: [], problems: ['online revocation check: the certificate cannot be read'] };
  }
  const [issuer] = await issuersOf(target, parseCertificates(query.certificates), query.verify);
  const ocspUrls = issuer ? ocspResponderUrls(target) : [];
  for (const url of ocspUrls.slice(0, 2)) {
    const request = await ocspRequest(target, issuer as pkijs.Certificate);
    const der = await get(ocspGetUrl(url, request), {
      query,
      maxBytes: MAX_OCSP_BYTES,
      name: 'the OCSP responder',
      problems,
    });
    if (der) return { data: [{ kind: 'ocsp', der, source: 'online' }], problems };
  }
  const crlUrls = crlDistributionUrls(target);
  for (const url of crlUrls.slice(0, 2)) {
    const der = await get(url, { query, maxBytes: MAX_CRL_BYTES, name: 'the CRL distribution point', problems });
    if (der) return { data: [{ kind: 'crl', der: pemOrDer(der, 'X509 CRL'), source: 'online' }], problems };
  }
  if (ocspUrls.length === 0 && crlUrls.length === 0) {
    problems.push(
      issuer
        ? 'online revocation check: the certificate names no OCSP responder or http CRL distribution point'
        : 'online revocation check: the certificate names no http CRL distribution point, and without its issuer’s certificate no OCSP request can be made',
    );
  }
  return { data: [], problems };
}

async function get(
  url: string,
  options: { query: OnlineQuery; maxBytes: number; name: string; problems: string[] },
): Promise<Uint8Array | undefined> {
  const { budget } = options.query;
  const left = budget.deadline - Date.now();
  if (left <= 0 || budget.fetchesLeft <= 0) {
    options.problems.push(
      `online revocation check: ${options.name} was not asked, the time or requests allowed for it ran out`,
    );
    return undefined;
  }
  budget.fetchesLeft--;
  try {
    const fetched = await fetchDocument(url, {
      maxBytes: options.maxBytes,
      allowHttp: true,
      timeoutMs: left,
      maxRedirects: 3,
      name: options.name,
      ...(options.query.fetch ? { fetch: options.query.fetch } : {}),
    });
    return fetched.bytes;
  } catch (error) {
    const message = (error as Error).message;
    options.problems.push(
      /timed out/.test(message)
        ? `online revocation check: ${options.name} did not answer in time`
        : `online revocation check: ${message.replace(/\.$/, '')}`,
    );
    return undefined;
  }
}

/** A CRL some servers send as PEM (RFC 7468 §6) instead of DER. */
function pemOrDer(bytes: Uint8Array, label: string): Uint8Array {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 64));
  if (!head.includes(`-----BEGIN ${label}-----`)) return bytes;
  const text = new TextDecoder('latin1').decode(bytes);
  const body = text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  try {
    return Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
  } catch {
    return bytes;
  }
}
