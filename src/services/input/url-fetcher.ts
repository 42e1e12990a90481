import { ApiError } from '../../errors';
import { concatBytes } from '../../kit';
import { checkFetchTarget } from './address-guard';
import { documentTooLarge, formatBytes } from './size-limit';

export interface FetchDocumentOptions {
  maxBytes: number;
  allowHttp: boolean;
  /** One deadline for the whole operation: every hop and the download. Default 15 000 ms. */
  timeoutMs?: number;
  /** Redirects followed before giving up. Default 5. */
  maxRedirects?: number;
  /** How the URL is named in messages: `document.url` unless a caller says otherwise (a field). */
  name?: string;
  /** The fetch to use; the runtime's by default (tests of other callers pass a stub). */
  fetch?: typeof fetch;
  /** The Accept header: document types by default; another caller names what it fetches (an OCSP response, a CRL). */
  accept?: string;
}

export interface FetchedDocument {
  bytes: Uint8Array;
  /** The URL the bytes came from, after redirects. */
  finalUrl: string;
  /** As the server declared it; informational only, since formats are sniffed from bytes. */
  contentType?: string;
}

export const DEFAULT_FETCH_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_REDIRECTS = 5;

/** The redirects of RFC 9110 §15.4 that carry a Location to follow. 300 and 304 are not among them. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const REQUEST_HEADERS = {
  Accept: 'application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, */*;q=0.1',
  'User-Agent': 'Quire document fetcher',
};

/**
 * GETs `document.url` under the rules of docs/api.md "Document input object": every hop is checked by
 * the address guard before it is requested (redirects are followed by hand for that reason), at
 * most `maxRedirects` redirects, one overall deadline, and never more than `maxBytes` (plus the
 * chunk that crossed the limit) held in memory.
 *
 * Throws ApiError DOCUMENT_FETCH_FAILED (refused target, network error, timeout, non-2xx status,
 * too many redirects) or PAYLOAD_TOO_LARGE.
 */
export async function fetchDocument(url: string, options: FetchDocumentOptions): Promise<FetchedDocument> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const name = options.name ?? 'document.url';
  const fetcher = options.fetch ?? fetch;
  const headers = options.accept === undefined ? REQUEST_HEADERS : { ...REQUEST_HEADERS, Accept: options.accept };
  const deadline = startDeadline(timeoutMs);
  try {
    let current = parseTarget(url, name);
    for (let redirects = 0; ; redirects++) {
      const subject = redirects === 0 ? name : `${name} redirected to a URL that`;
      checkFetchTarget(current, { allowHttp: options.allowHttp, subject });
      const response = await deadline.within(
        fetcher(current.href, { method: 'GET', redirect: 'manual', headers, signal: deadline.signal }),
      );

      if (REDIRECT_STATUSES.has(response.status)) {
        discardBody(response);
        if (redirects >= maxRedirects) {
          throw fetchFailed(
            `${name} redirected more than ${maxRedirects} times (too many redirects); link to the document itself.`,
          );
        }
        current = redirectTarget(response, current, name);
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        discardBody(response);
        throw fetchFailed(`${name} could not be fetched: ${current.host} ${describeStatus(response)}`);
      }

      const bytes = await readBody(response, options.maxBytes, deadline, name);
      const contentType = response.headers.get('Content-Type') ?? undefined;
      return contentType === undefined
        ? { bytes, finalUrl: current.href }
        : { bytes, finalUrl: current.href, contentType };
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (deadline.signal.aborted) {
      throw fetchFailed(
        `Fetching ${name} timed out after ${formatSeconds(timeoutMs)} s (the time allowed for redirects and download together); serve the document from a faster host or send it as base64.`,
        error,
      );
    }
    // The runtime's message may name internals (addresses, TLS details); the caller gets a plain reason.
    throw fetchFailed(
      `${name} could not be fetched: the connection failed or broke off. Check that the URL is reachable from the internet.`,
      error,
    );
  } finally {
    deadline.clear();
  }
}

function fetchFailed(message: string, cause?: unknown): ApiError {
  return new ApiError('DOCUMENT_FETCH_FAILED', message, cause === undefined ? {} : { cause });
}

function parseTarget(url: string, name: string): URL {
  try {
    return new URL(url);
  } catch (cause) {
    throw fetchFailed(`${name} is not a valid absolute URL; give one like https://example.com/contract.pdf`, cause);
  }
}

/** RFC 9110 §10.2.2: Location may be relative and is resolved against the URL that was requested. */
function redirectTarget(response: Response, current: URL, name: string): URL {
  const location = response.headers.get('Location');
  if (location === null || location.trim() === '') {
    throw fetchFailed(
      `${name} could not be fetched: ${current.host} answered ${response.status} (a redirect) without a Location header.`,
    );
  }
  try {
    return new URL(location, current);
  } catch (cause) {
    throw fetchFailed(`${name} could not be fetched: ${current.host} redirected to an invalid Location.`, cause);
  }
}

function describeStatus(response: Response): string {
  const status = `answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status === 401 || response.status === 403) {
    return `${status}. The link needs credentials or has expired; send a publicly readable link, or the document as base64.`;
  }
  if (response.status === 404 || response.status === 410) return `${status}. Check the link.`;
  if (response.status >= 500) return `${status}. The server failed; try again later.`;
  return `${status}.`;
}

/**
 * Reads the body chunk by chunk and stops the moment the count passes `maxBytes`, so an endless or
 * lying server costs at most one chunk beyond the limit. A Content-Length over the limit is refused
 * before reading at all.
 */
async function readBody(response: Response, maxBytes: number, deadline: Deadline, name: string): Promise<Uint8Array> {
  const declared = contentLength(response.headers);
  if (declared !== undefined && declared > maxBytes) {
    discardBody(response);
    throw documentTooLarge(
      `The document at ${name} is ${formatBytes(declared)} (its Content-Length), more than the limit.`,
      maxBytes,
    );
  }
  if (response.body === null) return new Uint8Array(0);

  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await deadline.within(reader.read());
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        throw documentTooLarge(
          `The document at ${name} is larger than the limit; reading stopped after ${formatBytes(total)}.`,
          maxBytes,
        );
      }
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(ignore);
    throw error;
  }
  return chunks.length === 1 && chunks[0] ? chunks[0] : concatBytes(chunks);
}

/** RFC 9110 §8.6: 1*DIGIT. Anything else is ignored here; the streamed count still holds the limit. */
function contentLength(headers: Headers): number | undefined {
  const value = headers.get('Content-Length')?.trim();
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/** A body that is not read is cancelled, so the connection is released rather than left draining. */
function discardBody(response: Response): void {
  response.body?.cancel().catch(ignore);
}

function ignore(): void {}

function formatSeconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

interface Deadline {
  /** Aborts the fetch in flight when the time is up. */
  signal: AbortSignal;
  /**
   * Settles like `promise`, or rejects when the time is up. Needed besides the signal: once the
   * response has arrived, aborting no longer reaches a body that is not backed by the network.
   */
  within<T>(promise: Promise<T>): Promise<T>;
  clear(): void;
}

function startDeadline(ms: number): Deadline {
  const controller = new AbortController();
  const expired = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  // Nobody may be racing against the deadline when it fires; that is not an unhandled rejection.
  expired.catch(ignore);
  const timer = setTimeout(() => controller.abort(new DOMException('document fetch timed out', 'TimeoutError')), ms);
  return {
    signal: controller.signal,
    within: (promise) => Promise.race([promise, expired]),
    clear: () => clearTimeout(timer),
  };
}
