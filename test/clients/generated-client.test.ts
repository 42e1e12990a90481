import { SELF } from 'cloudflare:test';
import { strFromU8, unzipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createQuireClient, documentBytes, type QuireClient, toBase64 } from '../../clients/typescript/src';
import { mintKey, uniqueIdentity } from '../helpers/accounts';
import { BASE } from '../helpers/api';
import { buildDocx, paragraph } from '../helpers/docx-fixture';
import { openMailbox } from '../helpers/mailbox';
import { pdfText } from '../helpers/pdf-text';

/**
 * The generated client (clients/typescript) against the worker, for every operation of the
 * OpenAPI document: each request goes through SELF and is recorded, and the last test fails when
 * an operation of the document has no method or was not called here, so a new endpoint cannot be
 * left out of the client or of this test.
 */
const requested: { method: string; path: string }[] = [];
const viaWorker = (request: Request): Promise<Response> => {
  requested.push({ method: request.method, path: new URL(request.url).pathname });
  return SELF.fetch(request);
};
const clientWith = (apiKey?: string): QuireClient =>
  createQuireClient({ baseUrl: BASE, fetch: viaWorker, ...(apiKey ? { apiKey } : {}) });

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
interface Operation {
  operationId: string;
  method: string;
  path: string;
}

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

const startsWith = (bytes: Uint8Array, prefix: string) =>
  new TextDecoder('latin1').decode(bytes.subarray(0, prefix.length)) === prefix;

let operations: Operation[] = [];
// The signed PDF of the sign test, verified by the verify tests.
let signedPdf: Uint8Array | undefined;

describe('the generated TypeScript client, through the worker', () => {
  it('reads the OpenAPI document (GET /openapi.json) through the same fetch', async () => {
    const res = await viaWorker(new Request(`${BASE}/openapi.json`));
    expect(res.status).toBe(200);
    const document = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => item[method]).map((method) => ({
        operationId: (item[method] as { operationId: string }).operationId,
        method: method.toUpperCase(),
        path,
      })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(10);
  });

  it('getHealth and headHealth need no key', async () => {
    const quire = clientWith();
    const { data, error, response } = await quire.getHealth();
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.status).toBe('healthy');
    expect(new Date(data?.timestamp ?? '').toISOString()).toBe(data?.timestamp);

    const head = await quire.headHealth();
    expect(head.status).toBe(200);
    expect(head.headers.get('Content-Type')).toMatch(/^application\/json/);
  });

  it('requestVerificationCode and createApiKey register; the new key works, and revokeApiKey ends it', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity('client');
    const headers = { 'CF-Connecting-IP': ip };
    const anonymous = clientWith();
    const registered = await anonymous.requestVerificationCode(email, { headers });
    expect(registered.data).toEqual({ message: 'Check your email for a verification code.', expiresInSeconds: 900 });

    const issued = await anonymous.createApiKey(email, mailbox.codeFor(email), { headers });
    expect(issued.error).toBeUndefined();
    const apiKey = issued.data?.apiKey ?? '';
    expect(apiKey).toMatch(/^qk_/);
    expect(issued.data?.email).toBe(email);

    const owner = clientWith(apiKey);
    expect((await owner.getSigningCertificate()).response.status).toBe(200);
    const revoked = await owner.revokeApiKey();
    expect(revoked.data?.message).toBe('The API key has been revoked.');
    expect(new Date(revoked.data?.revokedAt ?? '').toISOString()).toBe(revoked.data?.revokedAt);
    const after = await owner.getSigningCertificate();
    expect(after.response.status).toBe(401);
    expect(after.error?.code).toBe('AUTHENTICATION_ERROR');
  });

  it('createApiKey answers a wrong code with the typed error object', async () => {
    const { email, ip } = uniqueIdentity('client');
    const { data, error, response } = await clientWith().createApiKey(email, 'abc', {
      headers: { 'CF-Connecting-IP': ip },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error?.code).toBe('VALIDATION_ERROR');
    expect(error?.requestId).toBe(response.headers.get('X-Request-Id'));
  });

  it('convertDocument answers the document itself: a DOCX as a PDF Blob, Markdown as DOCX bytes', async () => {
    const quire = clientWith(await mintKey());
    const docx = buildDocx({ document: `<w:body>${paragraph('Typed client conversion')}</w:body>` });
    const pdf = await quire.convertDocument(
      { file: new Blob([docx]), fileName: 'letter.docx' },
      { to: 'pdf' },
      { as: 'blob' },
    );
    expect(pdf.error).toBeUndefined();
    expect(pdf.data).toBeInstanceOf(Blob);
    const pdfBytes = new Uint8Array(await (pdf.data as Blob).arrayBuffer());
    expect(startsWith(pdfBytes, '%PDF-')).toBe(true);
    expect(pdf.response.headers.get('X-Quire-Pages')).toBe('1');
    expect(pdf.response.headers.get('Content-Disposition')).toContain('letter.pdf');
    expect(await pdfText(pdfBytes)).toContain('Typed client conversion');

    const markdown = new File(['# Title\n\nSome *text*.\n'], 'notes.md', { type: 'text/markdown' });
    const docxAnswer = await quire.convertDocument({ file: markdown }, { to: 'docx' });
    expect(docxAnswer.error).toBeUndefined();
    const word = unzipSync(new Uint8Array(docxAnswer.data ?? new ArrayBuffer(0)));
    expect(strFromU8(word['word/document.xml'] ?? new Uint8Array())).toContain('Title');
    expect(docxAnswer.response.headers.get('Content-Disposition')).toContain('notes.docx');
  });

  it('convertDocument reads an error answer as the error object, whatever `as` says', async () => {
    const quire = clientWith(await mintKey());
    const { data, error, response } = await quire.convertDocument(
      { file: new Blob(['%PDF-1.7\n']), fileName: 'a.pdf' },
      { from: 'docx' },
    );
    expect(data).toBeUndefined();
    expect(response.status).toBe(415);
    expect(error?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('annotateTemplate fills a template; documentBytes decodes its base64 and its deprecated data URI', async () => {
    const template = buildDocx({ document: `<w:body>${paragraph('Dear {{customer}},')}</w:body>` });
    const { data, error } = await clientWith(await mintKey()).annotateTemplate(
      { document: { base64: toBase64(template) }, fields: [{ id: 'customer', type: 'text', value: 'Ada' }] },
      { to: 'docx' },
    );
    expect(error).toBeUndefined();
    expect(data?.document.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(data?.document.base64).toMatch(/^UEsDB/);
    expect(data?.document.dataUri).toMatch(/^data:application\/vnd\.openxmlformats/);
    const filled = unzipSync(documentBytes(data?.document ?? { base64: '' }));
    const text = strFromU8(filled['word/document.xml'] ?? new Uint8Array()).replace(/<[^>]+>/g, '');
    expect(text).toContain('Dear Ada,');
    expect(documentBytes({ base64: data?.document.dataUri ?? '' })).toEqual(
      documentBytes(data?.document ?? { base64: '' }),
    );
  });

  it('annotateTemplateFile uploads the template and answers the filled DOCX itself', async () => {
    const template = buildDocx({ document: `<w:body>${paragraph('Dear {{customer}},')}</w:body>` });
    const { data, error, response } = await clientWith(await mintKey()).annotateTemplateFile(
      { file: new Blob([template]), fileName: 'offer.docx', fields: [{ id: 'customer', type: 'text', value: 'Ada' }] },
      { to: 'docx' },
    );
    expect(error).toBeUndefined();
    expect(response.headers.get('Content-Disposition')).toContain('offer.docx');
    const filled = unzipSync(new Uint8Array(data ?? new ArrayBuffer(0)));
    expect(strFromU8(filled['word/document.xml'] ?? new Uint8Array()).replace(/<[^>]+>/g, '')).toContain('Dear Ada,');
  });

  it('signDocument signs a PDF; getSigningCertificate gives the certificate it was signed with', async () => {
    const quire = clientWith(await mintKey());
    const { data, error, response } = await quire.signDocument({
      document: { base64: toBase64(await onePagePdf('Signed through the client')) },
      signer: { name: 'Ada Lovelace', email: 'ada@example.com', ip: '203.0.113.7' },
      auditTrail: [
        { type: 'view', timestamp: '2026-11-22T10:00:00Z' },
        { type: 'submit', timestamp: '2026-11-22T10:02:10Z', data: { fields: 1 } },
      ],
      level: 'B-B',
    });
    expect(error).toBeUndefined();
    expect(data?.document.contentType).toBe('application/pdf');
    signedPdf = documentBytes(data?.document ?? { base64: '' });
    expect(startsWith(signedPdf, '%PDF-')).toBe(true);
    expect(response.headers.get('X-Quire-Event-Id')).toBeTruthy();

    const certificate = await quire.getSigningCertificate();
    expect(certificate.data?.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(certificate.data?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signDocumentFile uploads the PDF with its fields and answers the signed PDF itself', async () => {
    const { data, error, response } = await clientWith(await mintKey()).signDocumentFile({
      file: new Blob([await onePagePdf('Signed as an upload')]),
      fileName: 'upload.pdf',
      signer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      auditTrail: [{ type: 'submit', timestamp: '2026-11-22T10:02:10Z' }],
      level: 'B-B',
    });
    expect(error).toBeUndefined();
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toContain('upload.pdf');
    expect(response.headers.get('X-Quire-Event-Id')).toBeTruthy();
    expect(startsWith(new Uint8Array(data ?? new ArrayBuffer(0)), '%PDF-')).toBe(true);
  });

  it('verifyDocument takes the PDF as JSON and as an uploaded file', async () => {
    expect(signedPdf).toBeDefined();
    const pdf = signedPdf ?? new Uint8Array();
    const quire = clientWith(await mintKey());
    const asJson = await quire.verifyDocument({ document: { base64: toBase64(pdf) } });
    expect(asJson.error).toBeUndefined();
    expect(asJson.data?.valid).toBe(true);
    expect(asJson.data?.signatures).toHaveLength(1);
    expect(asJson.data?.signatures[0]?.level).toBe('B-B');
    expect(asJson.data?.signatures[0]?.trusted).toBe(true);

    const uploaded = await quire.verifyDocument({ file: new Blob([pdf]), fileName: 'signed.pdf' });
    expect(uploaded.error).toBeUndefined();
    expect(uploaded.data).toEqual(asJson.data);
  });

  it('mergeDocuments answers 501 NOT_IMPLEMENTED, typed', async () => {
    const { data, error, response } = await clientWith(await mintKey()).mergeDocuments();
    expect(data).toBeUndefined();
    expect(response.status).toBe(501);
    expect(error?.code).toBe('NOT_IMPLEMENTED');
  });

  it('has a method for, and called, every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(0);
    const quire = clientWith();
    const withoutMethod = operations.filter(
      ({ operationId }) => typeof (quire as Record<string, unknown>)[operationId] !== 'function',
    );
    expect(
      withoutMethod.map((op) => op.operationId),
      'operations the client has no method for',
    ).toEqual([]);
    // A path template's {parameter} matches one segment; the rest of the path matches itself.
    const pattern = (path: string) =>
      new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const notCalled = operations.filter(
      ({ method, path }) => !requested.some((r) => r.method === method && pattern(path).test(r.path)),
    );
    expect(
      notCalled.map((op) => `${op.method} ${op.path} (${op.operationId})`),
      'operations no test here calls',
    ).toEqual([]);
  });
});
