import { describe, expect, it } from 'vitest';
import pkg from '../../../package.json' with { type: 'json' };
import { call } from '../../helpers/api';

/** Every path of docs/api.md that exists so far, with its methods. Grows with each endpoint. */
const IMPLEMENTED: Record<string, string[]> = {
  '/v1/health': ['get'],
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
    expect(html).not.toMatch(/<script/i);
  });
});
