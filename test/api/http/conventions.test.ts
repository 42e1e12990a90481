import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';

describe('X-Request-Id', () => {
  it('is generated when the caller sends none', async () => {
    const res = await call('/v1/health');
    expect(res.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a sane caller token', async () => {
    const res = await call('/v1/health', { headers: { 'X-Request-Id': 'trace-42_abc' } });
    expect(res.headers.get('X-Request-Id')).toBe('trace-42_abc');
  });

  it.each([['has spaces'], ['<script>'], ['x'.repeat(129)]])('replaces an insane token %#', async (token) => {
    const res = await call('/v1/health', { headers: { 'X-Request-Id': token } });
    const id = res.headers.get('X-Request-Id');
    expect(id).not.toBe(token);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is the requestId of an error body', async () => {
    const res = await call('/nope', { headers: { 'X-Request-Id': 'abc-123' } });
    const body = await expectError(res, 404, 'NOT_FOUND');
    expect(body.requestId).toBe('abc-123');
  });
});

describe('Cache-Control: no-store', () => {
  it.each([
    ['GET', '/v1/health'],
    ['GET', '/openapi.json'],
    ['GET', '/docs'],
    ['GET', '/missing'],
    ['POST', '/v1/health'],
    ['POST', '/v1/merge'],
    ['OPTIONS', '/v1/merge'],
  ])('is on %s %s', async (method, path) => {
    const res = await call(path, { method });
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    await res.arrayBuffer();
  });
});

describe('CORS', () => {
  it('lets any origin read answers and the request id', async () => {
    const res = await call('/v1/health', { headers: { Origin: 'https://app.example' } });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('X-Request-Id');
  });

  it('lets a browser read every header docs/api.md gives an answer', async () => {
    const res = await call('/v1/health', { headers: { Origin: 'https://app.example' } });
    const exposed = (res.headers.get('Access-Control-Expose-Headers') ?? '').split(/\s*,\s*/);
    for (const name of [
      'X-Request-Id',
      'Content-Disposition',
      'Retry-After',
      'Allow',
      'X-Quire-Pages',
      'X-Quire-Warnings',
      'X-Quire-Warning-Count',
      'X-Quire-Event-Id',
      'X-Quire-Certificate-Pages',
      'X-Quire-Certificate-Omitted',
      'Vary',
    ]) {
      expect(exposed).toContain(name);
    }
  });

  it('answers a preflight with 204 and the allowed methods and headers', async () => {
    const res = await call('/v1/merge', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('Access-Control-Allow-Methods')).toContain('POST');
    const allowed = res.headers.get('Access-Control-Allow-Headers')?.toLowerCase() ?? '';
    expect(allowed).toContain('authorization');
    expect(allowed).toContain('content-type');
    expect(res.headers.get('Access-Control-Max-Age')).toBe('86400');
    expect(res.headers.get('X-Request-Id')).toBeTruthy();
    expect(await res.text()).toBe('');
  });
});

describe('404 and 405', () => {
  it('answers an unknown path with 404 and the error body', async () => {
    const res = await call('/v1/does-not-exist');
    const body = await expectError(res, 404, 'NOT_FOUND');
    expect(body.error).toBe('Not Found');
    expect(body.message).toContain('/v1/does-not-exist');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await call('/v1/health', { method: 'POST' });
    const body = await expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(body.error).toBe('Method Not Allowed');
    expect(res.headers.get('Allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('lists POST for a POST-only path', async () => {
    const res = await call('/v1/merge');
    await expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('Allow')).toBe('OPTIONS, POST');
  });
});

describe('POST /v1/merge', () => {
  it('answers 501 NOT_IMPLEMENTED saying it is planned', async () => {
    const init = { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } };
    const res = await call('/v1/merge', withKey(await mintKey(), init));
    const body = await expectError(res, 501, 'NOT_IMPLEMENTED');
    expect(body.message).toMatch(/planned/i);
  });
});

describe('body size limit', () => {
  // vitest.config.ts sets MAX_DOCUMENT_BYTES to 2 MiB: bodies may be 4/3 of that plus 1 MiB.
  const limit = Math.ceil((2 * 1024 * 1024) / 3) * 4 + 1024 * 1024;

  it('answers 413 from Content-Length alone', async () => {
    const res = await call('/v1/merge', withKey(await mintKey(), { method: 'POST', body: new Uint8Array(limit + 1) }));
    const body = await expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(body.message).toContain('MAX_DOCUMENT_BYTES');
  });

  it('lets a body at the limit through', async () => {
    const res = await call('/v1/merge', withKey(await mintKey(), { method: 'POST', body: new Uint8Array(limit) }));
    await expectError(res, 501, 'NOT_IMPLEMENTED');
  });

  it('refuses an unauthenticated upload before reading it', async () => {
    const res = await call('/v1/merge', { method: 'POST', body: new Uint8Array(limit + 1) });
    await expectError(res, 401, 'AUTHENTICATION_ERROR');
  });

  it('answers 413 while streaming a body without Content-Length, and stops reading', async () => {
    const chunk = new Uint8Array(64 * 1024);
    const totalChunks = 200; // 12.5 MiB if read to the end
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === totalChunks) return controller.close();
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const init = withKey(await mintKey(), { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    const res = await call('/v1/merge', init);
    await expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(pulled).toBeLessThan(totalChunks / 2);
  });
});
