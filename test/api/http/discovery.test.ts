import { describe, expect, it } from 'vitest';
import pkg from '../../../package.json' with { type: 'json' };
import { statusOf } from '../../../src/api/http/error-response';
import type { ErrorCode } from '../../../src/errors';
import { call } from '../../helpers/api';

/** Every path of docs/api.md that exists so far, with its methods. Grows with each endpoint. */
const IMPLEMENTED: Record<string, string[]> = {
  '/v1/health': ['get', 'head'],
  '/v1/auth/register': ['get'],
  '/v1/auth/verify': ['get'],
  '/v1/auth/key': ['delete'],
  '/v1/annotate': ['post'],
  '/v1/convert': ['post'],
  '/v1/merge': ['post'],
  '/v1/sign': ['post'],
  '/v1/verify': ['post'],
  '/v1/verify/key': ['get'],
};

interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string }[];
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
        responses: Record<string, { content?: Record<string, unknown> }>;
      }
    >
  >;
  components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
}

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with every implemented path, generated from the zod schemas', async () => {
    const res = await call('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApiDoc;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(pkg.version);
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(IMPLEMENTED).sort());
    for (const [path, methods] of Object.entries(IMPLEMENTED)) {
      expect(Object.keys(doc.paths[path] ?? {}).sort()).toEqual(methods);
    }
    expect(doc.components.schemas).toHaveProperty('Health');
    expect(doc.components.schemas).toHaveProperty('Error');
    expect(doc.paths['/v1/merge']?.post?.responses).toHaveProperty('501');
  });

  it('names every operation once (operationId, what client generators name methods after) and its server', async () => {
    const doc = (await (await call('/openapi.json')).json()) as OpenApiDoc;
    const ids = Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(ids).toHaveLength(Object.values(IMPLEMENTED).flat().length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.servers).toEqual([{ url: '/', description: 'This deployment' }]);
  });

  it('declares 500 on every operation, the error code as an enum, and what merge answers before its 501', async () => {
    const doc = (await (await call('/openapi.json')).json()) as OpenApiDoc;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods))
        expect(op.responses, `${method} ${path}`).toHaveProperty('500');
    }
    expect(doc.components.schemas.Error?.properties?.code?.enum).toEqual(
      expect.arrayContaining(['VALIDATION_ERROR', 'RATE_LIMIT_ERROR', 'INTERNAL_ERROR', 'NOT_IMPLEMENTED']),
    );
    expect(Object.keys(doc.paths['/v1/merge']?.post?.responses ?? {}).sort()).toEqual(['401', '429', '500', '501']);
  });

  it('says a document input holds exactly one of base64 and url (oneOf), as the schema refines', async () => {
    const doc = (await (await call('/openapi.json')).json()) as OpenApiDoc;
    expect((doc.components.schemas.DocumentInput as { oneOf?: unknown }).oneOf).toEqual([
      { required: ['base64'] },
      { required: ['url'] },
    ]);
  });

  it("gives the signer's ip the two standard formats once", async () => {
    const doc = (await (await call('/openapi.json')).json()) as OpenApiDoc;
    const ip = doc.components.schemas.Signer?.properties?.ip;
    expect(ip).toMatchObject({ type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] });
  });

  it('says every request body is required, as the routes answer an empty one with 400', async () => {
    const doc = (await (await call('/openapi.json')).json()) as OpenApiDoc;
    const bodies = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).flatMap((op) => (op.requestBody ? [op.requestBody.required] : [])),
    );
    expect(bodies.length).toBeGreaterThanOrEqual(4);
    expect(bodies.every((required) => required === true)).toBe(true);
    expect(doc.paths['/v1/verify']?.post?.requestBody?.required).toBe(true);
  });

  it('gives sign and annotate both request bodies (JSON, and a form with the file) and both kinds of answer', async () => {
    const doc = (await (await call('/openapi.json')).json()) as OpenApiDoc;
    const answers = {
      '/v1/sign': ['application/json', 'application/pdf'],
      '/v1/annotate': [
        'application/json',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'application/pdf',
      ],
    };
    for (const [path, types] of Object.entries(answers)) {
      const op = doc.paths[path]?.post;
      expect(Object.keys(op?.requestBody?.content ?? {}), path).toEqual(['application/json', 'multipart/form-data']);
      expect(op?.requestBody?.content?.['multipart/form-data']?.schema, path).toMatchObject({
        properties: { file: { type: 'string', format: 'binary' } },
        required: expect.arrayContaining(['file']),
      });
      expect(Object.keys(op?.responses['200']?.content ?? {}), path).toEqual(types);
      expect(op?.responses, path).toHaveProperty('406');
    }
  });
});

/** A response or request body as the tests read it. */
interface Media {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value: { code?: string; requestId?: string } }>;
}
interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { headers?: Record<string, { $ref?: string }>; content?: Record<string, Media> }>;
}

async function operations(): Promise<{ where: string; method: string; op: Operation }[]> {
  const doc = (await (await call('/openapi.json')).json()) as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ where: `${method} ${path}`, method, op })),
  );
}

describe('GET /openapi.json: examples and headers', () => {
  it('gives an example for every JSON request and response body', async () => {
    for (const { where, op } of await operations()) {
      const bodies = [
        ...(op.requestBody ? [['request', op.requestBody.content] as const] : []),
        ...Object.entries(op.responses).map(([status, r]) => [status, r.content ?? {}] as const),
      ];
      for (const [which, content] of bodies) {
        for (const [type, media] of Object.entries(content)) {
          if (!type.includes('json')) continue;
          expect(media.example ?? media.examples, `${where} ${which} ${type}`).toBeDefined();
        }
      }
    }
  });

  it('gives every error example its real code and the X-Request-Id example as its requestId', async () => {
    const doc = (await (await call('/openapi.json')).json()) as {
      components: { headers: Record<string, { example?: string }> };
    };
    const requestId = doc.components.headers['X-Request-Id']?.example;
    expect(requestId).toMatch(/^[A-Za-z0-9_=-]{1,128}$/);
    for (const { where, op } of await operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400 || !response.content) continue;
        const examples = Object.values(response.content['application/json']?.examples ?? {});
        expect(examples.length, `${where} ${status}`).toBeGreaterThan(0);
        for (const { value } of examples) {
          expect(response.content, `${where} ${status}`).toBeDefined();
          expect(value.requestId).toBe(requestId);
          // The status line of each example's code is the response's own (docs/api.md's table).
          expect(String(statusOf(value.code as ErrorCode))).toBe(status);
        }
      }
    }
  });

  it('declares X-Request-Id and Cache-Control on every response, Retry-After on 429, WWW-Authenticate on 401', async () => {
    for (const { where, op } of await operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const headers = response.headers ?? {};
        expect(headers['X-Request-Id'], `${where} ${status}`).toEqual({ $ref: '#/components/headers/X-Request-Id' });
        expect(headers['Cache-Control'], `${where} ${status}`).toEqual({ $ref: '#/components/headers/Cache-Control' });
        if (status === '429') expect(headers, where).toHaveProperty('Retry-After');
        if (status === '401') expect(headers, where).toHaveProperty('WWW-Authenticate');
      }
    }
    const convert = (await operations()).find(({ op }) => op.operationId === 'convertDocument');
    expect(Object.keys(convert?.op.responses['200']?.headers ?? {})).toEqual([
      'X-Request-Id',
      'Cache-Control',
      'Content-Disposition',
      'X-Quire-Pages',
      'X-Quire-Warnings',
      'X-Quire-Warning-Count',
    ]);
  });

  it('declares each header once, in components.headers, and every one it declares is used', async () => {
    const text = await (await call('/openapi.json')).text();
    const doc = JSON.parse(text) as { components: { headers: Record<string, unknown> } };
    const used = new Set([...text.matchAll(/"#\/components\/headers\/([^"]+)"/g)].map((m) => m[1]));
    expect(Object.keys(doc.components.headers).sort()).toEqual([...used].sort());
    expect(used).toContain('X-Request-Id');
  });

  it('documents HEAD /v1/health as GET without the body, which is how it answers', async () => {
    const head = (await operations()).find(({ where }) => where === 'head /v1/health')?.op;
    expect(head?.operationId).toBe('headHealth');
    expect(head?.responses['200']?.content).toBeUndefined();
    expect(head?.responses['200']?.headers).toHaveProperty('X-Request-Id');
    const res = await call('/v1/health', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Request-Id')).toBeTruthy();
    expect(await res.text()).toBe('');
  });
});

describe('GET /docs', () => {
  it('is an HTML reference listing every path of the OpenAPI document', async () => {
    const res = await call('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    for (const path of Object.keys(IMPLEMENTED)) expect(html).toContain(path);
    expect(html).toContain('NOT_IMPLEMENTED');
    expect(html).toContain('href="/openapi.json"');
    expect(html).toContain('href="/playground"');
  });

  it('shows per operation a curl sample built from the document, its examples and its response headers', async () => {
    const html = await (await call('/docs')).text();
    const sections = html.split('<section ').slice(1);
    expect(sections).toHaveLength(Object.values(IMPLEMENTED).flat().length);
    for (const section of sections) {
      expect(section).toMatch(/<pre class="curl">curl /);
      expect(section).toMatch(/href="\/playground#[a-z][A-Za-z]+"/);
      expect(section).toContain('href="#header-X-Request-Id"');
    }
    // The key only where one is needed; the body as the content type wants it.
    const curl = (id: string) =>
      sections.find((s) => s.startsWith(`id="${id}"`))?.match(/<pre class="curl">[\s\S]*?<\/pre>/g);
    expect(curl('get-v1-health')?.[0]).not.toContain('Authorization');
    expect(curl('head-v1-health')?.[0]).toContain('curl -I');
    expect(curl('post-v1-convert')?.[0]).toContain('-H &#34;Authorization: Bearer $QUIRE_KEY&#34;');
    expect(curl('post-v1-convert')?.[0]).toContain('-F file=@document.docx');
    const verify = curl('post-v1-verify') ?? [];
    expect(verify).toHaveLength(2);
    expect(verify[0]).toContain('-d &#39;{&#34;document&#34;:{&#34;url&#34;:');
    expect(verify[1]).toContain('-F file=@document.pdf');
    // Sign's upload: text parts carry the JSON example's values, and Accept asks for the PDF
    // itself, saved under its Content-Disposition name; its JSON sample answers JSON, unsaved.
    const sign = (curl('post-v1-sign') ?? []).map((sample) =>
      sample.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))),
    );
    expect(sign).toHaveLength(2);
    expect(sign[0]).not.toContain('-OJ');
    expect(sign[1]).toContain('-F file=@document.pdf');
    expect(sign[1]).toContain(`-F signer='{"name":"Ada Lovelace","email":"ada@example.com"}'`);
    expect(sign[1]).toContain(`-H 'Accept: application/pdf'`);
    expect(sign[1]).toContain('-OJ');
    expect(html).toContain('<summary>Example: VALIDATION_ERROR</summary>');
    expect(html).toContain('id="header-Retry-After"');
  });

  it('runs only its own inline script and style, by hash (Content-Security-Policy)', async () => {
    const res = await call('/docs');
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(csp).not.toContain('unsafe');
    const html = await res.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.[1]).toBe('');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(scripts[0]?.[2] ?? ''));
    expect(csp).toContain(`'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`);
  });
});
