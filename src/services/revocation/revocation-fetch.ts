/**
 * Asking for revocation data live, the one way both callers do: signing's B-LT collection for a
 * chain (revocation-collect.ts) and verify's REVOCATION_CHECK=online check for a signer
 * (`fetchRevocationData` below). For one certificate: an OCSP request (ocsp-request.ts) by GET
 * (RFC 6960 Appendix A.1) to each responder its Authority Information Access names (RFC 5280
 * §4.2.2.1), then each CRL distribution point (§4.2.1.13), until the caller takes an answer.
 *
 * Every request goes through the guarded fetcher of src/services/input (the address guard refuses
 * private and loopback targets, redirects are re-checked, each body is capped). Plain http: is
 * allowed because OCSP and CRL are served over http by design: the data is signed, and https
 * would need revocation data of its own (RFC 5280 §8, RFC 6960 Appendix A.1). One budget, a
 * deadline and a number of requests, covers every request of one API request.
 *
 * What comes back is only bytes; judging them is the caller's (revocation-collect.ts for what a
 * DSS may store, revocation-status.ts for what a signature's status is). Failures are reasons in
 * plain words, never errors.
 */
import type * as pkijs from 'pkijs';
import { ApiError } from '../../errors';
import { fetchDocument } from '../input';
import { issuersOf, parseCertificate, parseCertificates, type SignatureCheck } from './certificate-links';
import { crlDistributionUrls, ocspResponderUrls } from './certificate-pointers';
import { ocspGetUrl, ocspRequest } from './ocsp-request';
import {
  MAX_CRL_BYTES,
  MAX_OCSP_BYTES,
  MAX_URLS_PER_KIND,
  ONLINE_MAX_FETCHES,
  REVOCATION_TIMEOUT_MS,
} from './revocation-constants';
import type { RevocationDatum } from './revocation-status';

/** One deadline and a number of requests, shared by every live request of one API request. */
export interface OnlineBudget {
  deadline: number;
  /** The time the deadline was set for, for messages. */
  timeoutMs: number;
  fetchesLeft: number;
}

export function onlineBudget(timeoutMs = REVOCATION_TIMEOUT_MS, fetches = ONLINE_MAX_FETCHES): OnlineBudget {
  return { deadline: Date.now() + timeoutMs, timeoutMs, fetchesLeft: fetches };
}

/** Where a certificate's status can be asked: at most MAX_URLS_PER_KIND of each kind. */
export interface RevocationUrls {
  /** OCSP responders; none without the issuer's certificate, which the CertID needs (RFC 6960 §4.1.1). */
  ocsp: string[];
  crl: string[];
}

export function revocationUrls(certificate: pkijs.Certificate, issuer: pkijs.Certificate | undefined): RevocationUrls {
  return {
    ocsp: issuer ? ocspResponderUrls(certificate).slice(0, MAX_URLS_PER_KIND) : [],
    crl: crlDistributionUrls(certificate).slice(0, MAX_URLS_PER_KIND),
  };
}

export interface AskOptions {
  budget: OnlineBudget;
  /** The most one answer may be, within MAX_OCSP_BYTES and MAX_CRL_BYTES. */
  maxBytes?: number;
  /** How messages name a responder or a distribution point. */
  name: (kind: 'ocsp' | 'crl', url: string) => string;
  /** The fetch to use (tests); the runtime's by default. */
  fetch?: typeof fetch;
}

/** One answer: the DER an OCSP responder or a CRL distribution point sent, or why there is none. */
export type Answer = { kind: 'ocsp' | 'crl'; url: string } & ({ der: Uint8Array } | { error: unknown });

/**
 * The answers for `certificate`, OCSP first, one request at a time and only as the caller asks
 * for the next: a caller that takes an answer stops there, and nothing more is fetched.
 */
export async function* askFor(
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate | undefined,
  urls: RevocationUrls,
  options: AskOptions,
): AsyncGenerator<Answer> {
  if (issuer && urls.ocsp.length > 0) {
    const request = await ocspRequest(certificate, issuer);
    for (const url of urls.ocsp) {
      yield await answer('ocsp', url, () => fetchWithin(ocspGetUrl(url, request), 'ocsp', url, options));
    }
  }
  for (const url of urls.crl) yield await answer('crl', url, () => fetchWithin(url, 'crl', url, options));
}

async function answer(kind: 'ocsp' | 'crl', url: string, get: () => Promise<Uint8Array>): Promise<Answer> {
  try {
    return { kind, url, der: await get() };
  } catch (error) {
    return { kind, url, error };
  }
}

/** RFC 6960 Appendix A.1 and RFC 2585 §4.2: what OCSP responders and CRL servers send. */
const MEDIA_TYPES = { ocsp: 'application/ocsp-response', crl: 'application/pkix-crl' } as const;
/** A responder or CRL server that redirects at all does so once or twice; more spends the shared deadline. */
const MAX_REDIRECTS = 3;

class BudgetSpent extends Error {}

async function fetchWithin(
  url: string,
  kind: 'ocsp' | 'crl',
  pointer: string,
  options: AskOptions,
): Promise<Uint8Array> {
  const { budget } = options;
  const name = options.name(kind, pointer);
  const remaining = budget.deadline - Date.now();
  if (remaining <= 0) {
    throw new BudgetSpent(
      `${name} was not asked: the ${budget.timeoutMs / 1000} s allowed for revocation requests had run out`,
    );
  }
  if (budget.fetchesLeft <= 0) {
    throw new BudgetSpent(`${name} was not asked: the requests allowed for revocation had all been made`);
  }
  budget.fetchesLeft--;
  const cap = kind === 'ocsp' ? MAX_OCSP_BYTES : MAX_CRL_BYTES;
  const fetched = await fetchDocument(url, {
    maxBytes: Math.min(cap, options.maxBytes ?? cap),
    allowHttp: true,
    timeoutMs: remaining,
    maxRedirects: MAX_REDIRECTS,
    name,
    accept: MEDIA_TYPES[kind],
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return kind === 'crl' ? pemOrDer(fetched.bytes, 'X509 CRL') : fetched.bytes;
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

/**
 * Why an answer could not be had, in plain words. The fetcher's messages are written for a
 * caller's document URL and end with advice for that caller ("send it as base64"); what happened
 * is their first clause.
 */
export function reasonOf(error: unknown): string {
  if (error instanceof BudgetSpent) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split(/; |\. (?=[A-Z])/)[0] ?? message;
  const text = first.replace(/\.$/, '');
  return error instanceof ApiError ? text : `unexpected failure: ${text}`;
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

/**
 * Verify's online check (REVOCATION_CHECK=online): the first answer the certificate's responders
 * or distribution points give, as data for revocation-status.ts to judge.
 */
export async function fetchRevocationData(
  query: OnlineQuery,
): Promise<{ data: RevocationDatum[]; problems: string[] }> {
  const problems: string[] = [];
  const target = parseCertificate(query.certificate);
  if (!target) return { data: [], problems: ['online revocation check: the certificate cannot be read'] };
  const [issuer] = await issuersOf(target, parseCertificates(query.certificates), query.verify);
  const urls = revocationUrls(target, issuer);
  if (urls.ocsp.length === 0 && urls.crl.length === 0) {
    problems.push(
      issuer
        ? 'online revocation check: the certificate names no OCSP responder or http CRL distribution point'
        : 'online revocation check: the certificate names no http CRL distribution point, and without its issuer’s certificate no OCSP request can be made',
    );
  }
  const options: AskOptions = {
    budget: query.budget,
    name: (kind) => (kind === 'ocsp' ? 'the OCSP responder' : 'the CRL distribution point'),
    ...(query.fetch ? { fetch: query.fetch } : {}),
  };
  for await (const answer of askFor(target, issuer, urls, options)) {
    if ('der' in answer) return { data: [{ kind: answer.kind, der: answer.der, source: 'online' }], problems };
    problems.push(`online revocation check: ${reasonOf(answer.error)}`);
  }
  return { data: [], problems };
}
