import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { DocumentInputSchema, loadDocument } from '../../../src/services/input/document-input';
import { network } from '../../setup/network';
import { apiRejectionOf, fixtures, toBase64 } from './helpers';

const config = { maxDocumentBytes: 64 * 1024, allowHttpUrls: false };
const Body = z.object({ document: DocumentInputSchema });

function issuesOf(value: unknown) {
  const result = Body.safeParse({ document: value });
  expect(result.success).toBe(false);
  return result.error?.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) ?? [];
}

describe('DocumentInputSchema', () => {
  it('accepts exactly one of base64 or url', () => {
    expect(DocumentInputSchema.safeParse({ base64: 'JVBERi0=' }).success).toBe(true);
    expect(DocumentInputSchema.safeParse({ url: 'https://example.com/contract.pdf' }).success).toBe(true);
  });

  it('refuses both, and neither, with one message', () => {
    const expected = [{ path: 'document', message: 'give exactly one of base64 or url' }];
    expect(issuesOf({ base64: 'JVBERi0=', url: 'https://example.com/a.pdf' })).toEqual(expected);
    expect(issuesOf({})).toEqual(expected);
  });

  it('refuses unknown keys, naming them', () => {
    expect(issuesOf({ base64: 'JVBERi0=', name: 'a.pdf' })).toEqual([
      { path: 'document', message: 'unknown key "name"; give exactly one of base64 or url' },
    ]);
    expect(issuesOf({ url: 'https://example.com/a.pdf', file: 1, type: 2 })[0]?.message).toBe(
      'unknown keys "file", "type"; give exactly one of base64 or url',
    );
  });

  it('refuses an empty base64 and a url that is not an absolute URL', () => {
    expect(issuesOf({ base64: '' })).toEqual([{ path: 'document.base64', message: 'must not be empty' }]);
    expect(issuesOf({ url: '/relative/path.pdf' })).toEqual([
      { path: 'document.url', message: 'must be an absolute URL such as https://example.com/contract.pdf' },
    ]);
  });

  it('refuses a document that is not an object', () => {
    expect(issuesOf('JVBERi0=')[0]?.path).toBe('document');
  });

  it('appears in the OpenAPI document as the DocumentInput component', () => {
    const app = new OpenAPIHono();
    app.openapi(
      createRoute({
        method: 'post',
        path: '/x',
        request: { body: { content: { 'application/json': { schema: Body } } } },
        responses: { 204: { description: 'done' } },
      }),
      (c) => c.body(null, 204),
    );
    const document = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    const component = document.components?.schemas?.DocumentInput as Record<string, unknown> | undefined;
    expect(component).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { base64: { type: 'string' }, url: { type: 'string', format: 'uri' } },
      example: { url: 'https://example.com/contract.pdf' },
    });
    expect(String(component?.description)).toContain('exactly one');
  });
});

describe('loadDocument', () => {
  it('decodes base64 and sniffs the format', async () => {
    const docx = fixtures.docx();
    const loaded = await loadDocument({ base64: toBase64(docx) }, { config, accept: ['pdf', 'docx'] });
    expect(loaded.format).toBe('docx');
    expect(loaded.bytes).toEqual(docx);
  });

  it('trusts the bytes, not the media type a data URI declares', async () => {
    const base64 = `data:application/pdf;base64,${toBase64(fixtures.docx())}`;
    const loaded = await loadDocument({ base64 }, { config, accept: ['pdf', 'docx'] });
    expect(loaded.format).toBe('docx');
    const refused = await apiRejectionOf(loadDocument({ base64 }, { config, accept: ['pdf'] }));
    expect(refused.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(refused.message).toBe('The document is a DOCX (Word) document. Send a PDF.');
  });

  it('fetches a URL and trusts the bytes, not the Content-Type', async () => {
    const pdf = fixtures.pdf();
    network.use(
      http.get('https://files.example.com/contract', () =>
        HttpResponse.arrayBuffer(pdf.slice().buffer, {
          headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
        }),
      ),
    );
    const loaded = await loadDocument(
      { url: 'https://files.example.com/contract' },
      { config, accept: ['pdf', 'docx'] },
    );
    expect(loaded.format).toBe('pdf');
    expect(loaded.bytes).toEqual(pdf);
  });

  it('holds both sources to MAX_DOCUMENT_BYTES', async () => {
    const small = { ...config, maxDocumentBytes: 100 };
    const big = new Uint8Array(200);
    const decoded = await apiRejectionOf(loadDocument({ base64: toBase64(big) }, { config: small, accept: ['pdf'] }));
    expect(decoded.code).toBe('PAYLOAD_TOO_LARGE');
    network.use(http.get('https://files.example.com/big', () => HttpResponse.arrayBuffer(big.buffer)));
    const fetched = await apiRejectionOf(
      loadDocument({ url: 'https://files.example.com/big' }, { config: small, accept: ['pdf'] }),
    );
    expect(fetched.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('applies ALLOW_HTTP_URLS', async () => {
    network.use(http.get('http://dev.example.com/a.md', () => HttpResponse.text('# Title')));
    const refused = await apiRejectionOf(
      loadDocument({ url: 'http://dev.example.com/a.md' }, { config, accept: ['md'] }),
    );
    expect(refused.code).toBe('DOCUMENT_FETCH_FAILED');
    const loaded = await loadDocument(
      { url: 'http://dev.example.com/a.md' },
      { config: { ...config, allowHttpUrls: true }, accept: ['md'] },
    );
    expect(loaded.format).toBe('md');
  });

  it('passes on decoding, fetching and format errors', async () => {
    const invalid = await apiRejectionOf(loadDocument({ base64: '!!!' }, { config, accept: ['pdf'] }));
    expect(invalid.code).toBe('INVALID_BASE64');
    const refused = await apiRejectionOf(
      loadDocument({ url: 'https://169.254.169.254/latest' }, { config, accept: ['pdf'] }),
    );
    expect(refused.code).toBe('DOCUMENT_FETCH_FAILED');
    const zip = await apiRejectionOf(
      loadDocument({ base64: toBase64(fixtures.zip()) }, { config, accept: ['pdf', 'docx'] }),
    );
    expect(zip.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses an input that skipped the schema', async () => {
    const error = await apiRejectionOf(loadDocument({}, { config, accept: ['pdf'] }));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toBe('document: give exactly one of base64 or url');
  });
});
