import { delay, HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchDocument } from '../../../src/services/input/url-fetcher';
import { network } from '../../setup/network';
import { apiRejectionOf, bytesOf, fixtures } from './helpers';

const options = { maxBytes: 64 * 1024, allowHttp: false };

/** A body of `count` chunks of `size` bytes that records how many chunks were pulled from it. */
function countingStream(count: number, size: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled === count) return controller.close();
        state.pulled++;
        controller.enqueue(new Uint8Array(size).fill(0x41));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

/** A body that sends one chunk and then nothing, never closing. */
function stalledStream() {
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytesOf('%PDF-1.7\n'));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('fetchDocument: success', () => {
  it('GETs the document with Accept and User-Agent, and returns its bytes', async () => {
    const pdf = fixtures.pdf();
    const seen: { method: string; headers: Headers }[] = [];
    network.use(
      http.get('https://files.example.com/contract.pdf', ({ request }) => {
        seen.push({ method: request.method, headers: request.headers });
        return HttpResponse.arrayBuffer(pdf.slice().buffer, { headers: { 'Content-Type': 'application/pdf' } });
      }),
    );
    const result = await fetchDocument('https://files.example.com/contract.pdf', options);
    expect(result.bytes).toEqual(pdf);
    expect(result.finalUrl).toBe('https://files.example.com/contract.pdf');
    expect(result.contentType).toBe('application/pdf');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('GET');
    expect(seen[0]?.headers.get('User-Agent')).toBe('Quire document fetcher');
    expect(seen[0]?.headers.get('Accept')).toContain('application/pdf');
    expect(seen[0]?.headers.get('Accept')).toContain(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(seen[0]?.headers.get('Accept')).toContain('*/*;q=0.1');
  });

  it('reads a body that arrives in many chunks', async () => {
    const { stream } = countingStream(10, 1000);
    network.use(http.get('https://files.example.com/chunked', () => new HttpResponse(stream)));
    const result = await fetchDocument('https://files.example.com/chunked', options);
    expect(result.bytes.length).toBe(10_000);
    expect(result.contentType).toBeUndefined();
  });

  it('fetches plain http only when allowHttp is set', async () => {
    network.use(http.get('http://dev.example.com/doc', () => HttpResponse.text('hello')));
    const result = await fetchDocument('http://dev.example.com/doc', { ...options, allowHttp: true });
    expect(new TextDecoder().decode(result.bytes)).toBe('hello');
    const refused = await apiRejectionOf(fetchDocument('http://dev.example.com/doc', options));
    expect(refused.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(refused.message).toContain('uses plain http:');
  });
});

describe('fetchDocument: redirects', () => {
  it('follows a redirect chain, resolving a relative Location against the current URL', async () => {
    network.use(
      http.get('https://short.example.com/s/abc', () =>
        HttpResponse.redirect('https://cdn.example.net/files/doc', 302),
      ),
      http.get(
        'https://cdn.example.net/files/doc',
        () => new HttpResponse(null, { status: 301, headers: { Location: 'v2/final.pdf' } }),
      ),
      http.get(
        'https://cdn.example.net/files/v2/final.pdf',
        () => new HttpResponse(null, { status: 307, headers: { Location: '/final.pdf?x=1' } }),
      ),
      http.get('https://cdn.example.net/final.pdf', () => HttpResponse.text('%PDF-1.7')),
    );
    const result = await fetchDocument('https://short.example.com/s/abc', options);
    expect(new TextDecoder().decode(result.bytes)).toBe('%PDF-1.7');
    expect(result.finalUrl).toBe('https://cdn.example.net/final.pdf?x=1');
  });

  it('refuses a redirect to a private address before requesting it', async () => {
    const internalCalls: string[] = [];
    network.use(
      http.get('https://public.example.com/doc', () => HttpResponse.redirect('https://10.0.0.1/secret', 302)),
      http.get('https://10.0.0.1/secret', ({ request }) => {
        internalCalls.push(request.url);
        return HttpResponse.text('internal data');
      }),
    );
    const error = await apiRejectionOf(fetchDocument('https://public.example.com/doc', options));
    expect(error.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(error.message).toBe(
      'document.url redirected to a URL that points to a private network address (10.0.0.1); only public https URLs are fetched.',
    );
    expect(internalCalls).toEqual([]);
  });

  it('refuses a redirect from https to plain http', async () => {
    network.use(
      http.get('https://public.example.com/doc', () => HttpResponse.redirect('http://public.example.com/doc', 301)),
    );
    const error = await apiRejectionOf(fetchDocument('https://public.example.com/doc', options));
    expect(error.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(error.message).toContain('redirected to a URL that uses plain http:');
  });

  it('follows 5 redirects but refuses the 6th', async () => {
    const calls: string[] = [];
    const hops = (last: number) =>
      http.get('https://loop.example.com/r/:n', ({ params }) => {
        const n = Number(params.n);
        calls.push(String(n));
        if (n === last) return HttpResponse.text('done');
        return new HttpResponse(null, { status: 302, headers: { Location: `/r/${n + 1}` } });
      });

    network.use(hops(5));
    const five = await fetchDocument('https://loop.example.com/r/0', options);
    expect(five.finalUrl).toBe('https://loop.example.com/r/5');

    calls.length = 0;
    network.resetHandlers(hops(1000));
    const error = await apiRejectionOf(fetchDocument('https://loop.example.com/r/0', options));
    expect(error.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(error.message).toContain('too many redirects');
    expect(error.message).toContain('more than 5 times');
    expect(calls).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('honours a smaller maxRedirects', async () => {
    network.use(
      http.get(
        'https://loop.example.com/r/:n',
        ({ params }) => new HttpResponse(null, { status: 308, headers: { Location: `/r/${Number(params.n) + 1}` } }),
      ),
    );
    const error = await apiRejectionOf(fetchDocument('https://loop.example.com/r/0', { ...options, maxRedirects: 0 }));
    expect(error.message).toContain('more than 0 times');
  });

  it('fails on a redirect without a Location header', async () => {
    network.use(http.get('https://files.example.com/moved', () => new HttpResponse(null, { status: 302 })));
    const error = await apiRejectionOf(fetchDocument('https://files.example.com/moved', options));
    expect(error.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(error.message).toContain('files.example.com answered 302 (a redirect) without a Location header');
  });
});

describe('fetchDocument: failures', () => {
  it('names the status of a non-2xx answer', async () => {
    network.use(
      http.get(
        'https://files.example.com/missing.pdf',
        () => new HttpResponse('not here', { status: 404, statusText: 'Not Found' }),
      ),
      http.get('https://files.example.com/private.pdf', () => new HttpResponse(null, { status: 403 })),
      http.get('https://files.example.com/broken.pdf', () => new HttpResponse(null, { status: 503 })),
    );
    const missing = await apiRejectionOf(fetchDocument('https://files.example.com/missing.pdf', options));
    expect(missing.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(missing.message).toBe(
      'document.url could not be fetched: files.example.com answered HTTP 404 Not Found. Check the link.',
    );
    const forbidden = await apiRejectionOf(fetchDocument('https://files.example.com/private.pdf', options));
    expect(forbidden.message).toContain('answered HTTP 403');
    expect(forbidden.message).toContain('publicly readable link');
    const unavailable = await apiRejectionOf(fetchDocument('https://files.example.com/broken.pdf', options));
    expect(unavailable.message).toContain('answered HTTP 503');
    expect(unavailable.message).toContain('try again later');
  });

  it('reports a network error without internal details', async () => {
    network.use(http.get('https://down.example.com/doc', () => HttpResponse.error()));
    const error = await apiRejectionOf(fetchDocument('https://down.example.com/doc', options));
    expect(error.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(error.message).toBe(
      'document.url could not be fetched: the connection failed or broke off. Check that the URL is reachable from the internet.',
    );
    expect(error.cause).toBeDefined();
  });

  it('refuses a target before any request, and a URL that does not parse', async () => {
    // No handler: were either fetched, MSW would fail the test on the unhandled request.
    const loopback = await apiRejectionOf(fetchDocument('https://127.0.0.1/x', options));
    expect(loopback.message).toContain('points to a loopback address (127.0.0.1)');
    const garbage = await apiRejectionOf(fetchDocument('not a url', options));
    expect(garbage.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(garbage.message).toContain('not a valid absolute URL');
  });

  it('times out when the server never answers', async () => {
    network.use(
      http.get('https://slow.example.com/doc', async () => {
        await delay('infinite');
        return HttpResponse.text('never');
      }),
    );
    const started = Date.now();
    const error = await apiRejectionOf(fetchDocument('https://slow.example.com/doc', { ...options, timeoutMs: 50 }));
    expect(error.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(error.message).toContain('timed out after 0.05 s');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('times out when the body never ends', async () => {
    network.use(http.get('https://slow.example.com/stalled', () => new HttpResponse(stalledStream().stream)));
    const error = await apiRejectionOf(
      fetchDocument('https://slow.example.com/stalled', { ...options, timeoutMs: 100 }),
    );
    expect(error.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(error.message).toContain('timed out after 0.1 s');
  });

  it('states the timeout in seconds', async () => {
    network.use(
      http.get('https://slow.example.com/doc', async () => {
        await delay('infinite');
        return HttpResponse.text('never');
      }),
    );
    const error = await apiRejectionOf(fetchDocument('https://slow.example.com/doc', { ...options, timeoutMs: 250 }));
    expect(error.message).toContain('timed out after 0.25 s');
  });
});

describe('fetchDocument: size limit', () => {
  it('refuses a Content-Length over the limit before reading the body', async () => {
    const { stream, state } = countingStream(100, 1024);
    network.use(
      http.get(
        'https://files.example.com/big.pdf',
        () => new HttpResponse(stream, { headers: { 'Content-Length': String(100 * 1024) } }),
      ),
    );
    const error = await apiRejectionOf(
      fetchDocument('https://files.example.com/big.pdf', { ...options, maxBytes: 4096 }),
    );
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toContain('is 100 KiB (102,400 bytes) (its Content-Length)');
    expect(error.message).toContain('The limit is 4 KiB (4,096 bytes), set by MAX_DOCUMENT_BYTES');
    expect(state.pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading a streamed body the moment it passes the limit', async () => {
    const { stream, state } = countingStream(1000, 1024);
    network.use(http.get('https://files.example.com/endless', () => new HttpResponse(stream)));
    const error = await apiRejectionOf(
      fetchDocument('https://files.example.com/endless', { ...options, maxBytes: 4096 }),
    );
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toContain('larger than the limit; reading stopped after 5 KiB (5,120 bytes)');
    // Five chunks cross 4 KiB; allow the stream machinery one chunk of read-ahead.
    expect(state.pulled).toBeLessThanOrEqual(6);
  });

  it('accepts a body exactly at the limit', async () => {
    const { stream } = countingStream(4, 1024);
    network.use(http.get('https://files.example.com/exact', () => new HttpResponse(stream)));
    const result = await fetchDocument('https://files.example.com/exact', { ...options, maxBytes: 4096 });
    expect(result.bytes.length).toBe(4096);
  });
});

/**
 * MSW keeps a copy of every mocked response, so cancelling the body the fetcher received does not
 * reach the source stream there. These tests hand `fetch` a plain Response instead, to prove the
 * fetcher releases every body it does not read to the end.
 */
describe('fetchDocument: releasing bodies', () => {
  function stubFetch(answer: (url: string) => Response) {
    return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => answer(String(input)));
  }

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('cancels a body that passes the limit', async () => {
    const { stream, state } = countingStream(1000, 1024);
    stubFetch(() => new Response(stream));
    const error = await apiRejectionOf(
      fetchDocument('https://files.example.com/endless', { ...options, maxBytes: 4096 }),
    );
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(state.pulled).toBeLessThanOrEqual(6);
    expect(state.cancelled).toBe(true);
  });

  it('cancels a body that stalls past the deadline', async () => {
    const { stream, state } = stalledStream();
    stubFetch(() => new Response(stream));
    const error = await apiRejectionOf(
      fetchDocument('https://slow.example.com/stalled', { ...options, timeoutMs: 50 }),
    );
    expect(error.message).toContain('timed out after 0.05 s');
    expect(state.cancelled).toBe(true);
  });

  it('cancels the bodies of redirects, error answers and over-size Content-Lengths', async () => {
    const redirect = stalledStream();
    const notFound = stalledStream();
    const tooBig = stalledStream();
    const fetchSpy = stubFetch((url) => {
      if (url.endsWith('/start')) {
        return new Response(redirect.stream, { status: 302, headers: { Location: '/missing' } });
      }
      if (url.endsWith('/missing')) return new Response(notFound.stream, { status: 404 });
      return new Response(tooBig.stream, { headers: { 'Content-Length': '999999' } });
    });
    const missing = await apiRejectionOf(fetchDocument('https://files.example.com/start', options));
    expect(missing.message).toContain('answered HTTP 404');
    const large = await apiRejectionOf(fetchDocument('https://files.example.com/big', options));
    expect(large.code).toBe('PAYLOAD_TOO_LARGE');
    expect(fetchSpy).toHaveBeenCalledTimes(3);
    expect(fetchSpy.mock.calls[0]?.[1]).toMatchObject({ method: 'GET', redirect: 'manual' });
    expect([redirect.state.cancelled, notFound.state.cancelled, tooBig.state.cancelled]).toEqual([true, true, true]);
  });
});
