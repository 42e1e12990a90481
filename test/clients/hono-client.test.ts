import { SELF } from 'cloudflare:test';
import { hc } from 'hono/client';
import { describe, expect, it } from 'vitest';
import type { AppType } from '../../src';
import { mintKey } from '../helpers/accounts';
import { BASE } from '../helpers/api';

/**
 * hono/client typed by the worker's AppType: paths, query/json/form inputs and JSON answers come
 * from the routes themselves, and `tsc --noEmit` (npm run check) checks the calls below.
 */
const client = (apiKey?: string) =>
  hc<AppType>(BASE, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(input, init),
    ...(apiKey ? { headers: { Authorization: `Bearer ${apiKey}` } } : {}),
  });

describe('hc<AppType>', () => {
  it('GET /v1/health: a typed JSON answer', async () => {
    const res = await client().v1.health.$get();
    expect(res.status).toBe(200);
    if (!res.ok) throw new Error(`health answered ${res.status}`);
    const body = await res.json();
    const status: 'healthy' = body.status;
    expect(status).toBe('healthy');
    expect(typeof body.version).toBe('string');
  });

  it('POST /v1/convert: a typed query and multipart form', async () => {
    const res = await client(await mintKey()).v1.convert.$post({
      query: { to: 'docx' },
      form: { file: new File(['# From hono/client\n'], 'hc.md') },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(res.headers.get('Content-Disposition')).toContain('hc.docx');
  });

  it('POST /v1/annotate: a JSON body typed by the route; an error answer is the plain error object', async () => {
    const annotate = client(await mintKey()).v1.annotate.$post;
    type Args = Parameters<typeof annotate>[0];
    // A route that takes JSON or a form (annotate, sign, verify) is typed by hc with both `json`
    // and `form` required (@hono/zod-openapi 1.x intersects its validators' inputs), while a
    // request carries one: the body is checked against the route's JSON type, and the argument
    // is cast past the other key (README "Typed clients"; @quire/client types either alone).
    const json = {
      document: { base64: '!!!!' },
      fields: [{ id: 'x', type: 'text', value: 'y' }],
    } satisfies Args['json'];
    const res = await annotate({ query: { to: 'docx' }, json } as Args);
    expect(res.status).toBe(400);
    // AppType knows what the handlers return (the 200); errors are thrown and answered by
    // handleError, so their body is read untyped (the generated client types it from the document).
    const body = (await res.json()) as unknown as { code: string };
    expect(body.code).toBe('INVALID_BASE64');
  });
});
