import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { buildDocx, paragraph } from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';
import { toBase64 } from '../input/helpers';
import { deflateZeros, pdfWith, rawPdf, streamObject } from './pdf-bombs';

async function post(path: string, body: unknown) {
  return call(
    path,
    withKey(await mintKey(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

async function onePagePdf(text = 'Contract body'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

const signer = { name: 'Ada Lovelace', email: 'ada@example.com', ip: '2001:db8::7', userAgent: 'TestAgent/1.0' };
const auditTrail = [
  { type: 'submit', timestamp: '2026-11-22T10:02:10Z', data: { fields: 3, note: 'x'.repeat(300) } },
  { type: 'view', timestamp: '2026-11-22T11:00:00+02:00' },
];

function decode(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function byteRanges(pdf: Uint8Array): number[][] {
  const text = new TextDecoder('latin1').decode(pdf);
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) =>
    m.slice(1).map(Number),
  );
}

describe('POST /v1/sign', () => {
  it('signs a PDF in an incremental update, with the certificate pages appended and covered', async () => {
    const original = await onePagePdf();
    const res = await post('/v1/sign', {
      document: { base64: toBase64(original) },
      signer,
      auditTrail,
      eventId: 'evt-42',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Quire-Event-Id')).toBe('evt-42');
    const body = (await res.json()) as { document: { base64: string; contentType: string } };
    expect(body.document.contentType).toBe('application/pdf');
    const signed = decode(body.document.base64);
    // The original bytes are untouched: the update is appended.
    expect(signed.subarray(0, original.length)).toEqual(original);
    const [range] = byteRanges(signed);
    expect(range?.[0]).toBe(0);
    expect((range?.[2] ?? 0) + (range?.[3] ?? 0)).toBe(signed.length);
    const pages = await pdfText(signed);
    expect(pages.length).toBeGreaterThan(1);
    const certificate = pages.slice(1).join('\n');
    for (const needle of [
      'Ada Lovelace',
      'ada@example.com',
      '2001:db8::7',
      'TestAgent/1.0',
      'evt-42',
      '10:02:10',
      '09:00:00',
    ]) {
      expect(certificate).toContain(needle);
    }
    // Events in time order: 09:00 UTC (11:00+02:00) before 10:02:10.
    expect(certificate.indexOf('09:00:00')).toBeLessThan(certificate.indexOf('10:02:10'));
  });

  it('writes an eventId a header cannot carry as it can (\\uXXXX), not as a 500 (sign-fuzz seed 3, variant 397)', async () => {
    const document = { base64: toBase64(await onePagePdf()) };
    const cases: [string, string][] = [
      ['evt-1\r\nX-Injected: 1', 'evt-1\\u000d\\u000aX-Injected: 1'],
      ['evt\u0000 2\ttab', 'evt\\u0000 2\\u0009tab'],
      ['événement-3 😀', '\\u00e9v\\u00e9nement-3 \\u{1f600}'],
      ['lone \ud800', 'lone \\ud800'],
    ];
    for (const [eventId, header] of cases) {
      const res = await post('/v1/sign', {
        document,
        signer,
        auditTrail,
        eventId,
        certificate: { enabled: false },
      });
      expect(res.status, JSON.stringify(eventId)).toBe(200);
      expect(res.headers.get('X-Quire-Event-Id')).toBe(header);
      expect(res.headers.get('X-Injected')).toBeNull();
      await res.arrayBuffer();
    }
  });

  it('without the certificate, signs the pages as they are; a second signature keeps the first', async () => {
    const first = await post('/v1/sign', {
      document: { base64: toBase64(await onePagePdf()) },
      signer,
      auditTrail,
      certificate: { enabled: false },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('X-Quire-Certificate-Pages')).toBe('0');
    const once = decode(((await first.json()) as { document: { base64: string } }).document.base64);
    expect((await PDFDocument.load(once)).getPageCount()).toBe(1);
    const second = await post('/v1/sign', { document: { base64: toBase64(once) }, signer, auditTrail });
    expect(second.status).toBe(200);
    const twice = decode(((await second.json()) as { document: { base64: string } }).document.base64);
    expect(twice.subarray(0, once.length)).toEqual(once);
    const ranges = byteRanges(twice);
    expect(ranges).toHaveLength(2);
    expect(ranges[0]).toEqual(byteRanges(once)[0]);
  });

  it('signs an already signed PDF without certificate pages, so that both signatures verify valid and trusted', async () => {
    const first = await post('/v1/sign', { document: { base64: toBase64(await onePagePdf()) }, signer, auditTrail });
    const once = decode(((await first.json()) as { document: { base64: string } }).document.base64);
    const pages = (await PDFDocument.load(once)).getPageCount();
    expect(pages).toBeGreaterThan(1);
    const second = await post('/v1/sign', { document: { base64: toBase64(once) }, signer, auditTrail });
    expect(second.status).toBe(200);
    expect(second.headers.get('X-Quire-Certificate-Pages')).toBe('0');
    expect(second.headers.get('X-Quire-Certificate-Omitted')).toMatch(/already signed/);
    const twice = decode(((await second.json()) as { document: { base64: string } }).document.base64);
    expect((await PDFDocument.load(twice)).getPageCount()).toBe(pages);
    const verified = await post('/v1/verify', { document: { base64: toBase64(twice) } });
    const report = (await verified.json()) as {
      valid: boolean;
      signatures: { trusted: boolean; modificationsAfterSigning: string }[];
    };
    expect(report.valid).toBe(true);
    expect(report.signatures.map((s) => [s.trusted, s.modificationsAfterSigning])).toEqual([
      [true, 'signatures'],
      [true, 'none'],
    ]);
  });

  it('refuses xref and object streams declaring absurd sizes with 422, before the PDF parser loops over them', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    const source = new TextDecoder('latin1').decode(await doc.save({ useObjectStreams: true }));
    const hostile: [string, string][] = [
      [source.replace(/\/W\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s*\]/, '/W [ $1 $2 4294967296 ]'), 'INVALID_DOCUMENT'],
      [source.replace(/\/Index\s*\[\s*0\s+(\d+)\s*\]/, '/Index [ 0 999999999 ]'), 'DOCUMENT_TOO_COMPLEX'],
      [source.replace(/\/N\s+(\d+)/, '/N 999999999'), 'INVALID_DOCUMENT'],
    ];
    for (const [text, code] of hostile) {
      expect(text).not.toBe(source);
      const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
      const res = await post('/v1/sign', { document: { base64: toBase64(bytes) }, signer, auditTrail });
      const body = await expectError(res, 422, code);
      expect(body.message).toMatch(/declare/);
    }
  });

  it('refuses a PDF that numbers its objects past 8,388,607 with 422, not a 500 (sign-fuzz seed 6, variant 2)', async () => {
    const saved = async (useObjectStreams: boolean) => {
      const doc = await PDFDocument.create();
      doc.addPage([200, 200]);
      return new TextDecoder('latin1').decode(await doc.save({ useObjectStreams }));
    };
    const sign = (text: string) =>
      post('/v1/sign', {
        document: { base64: toBase64(Uint8Array.from(text, (c) => c.charCodeAt(0))) },
        signer,
        auditTrail,
        certificate: { enabled: false },
      });
    const classic = await saved(false);
    for (const source of [classic, await saved(true)]) {
      // Past 2^53 the new objects' numbers were not exact: two objects shared one, and the
      // signature dictionary's placeholders were looked for in the wrong one.
      for (const size of ['9007199254740993', '99999999999999999999', '2147483647', '8388609']) {
        const text = source.replace(/\/Size\s+\d+/, `/Size ${size}`);
        expect(text).not.toBe(source);
        const body = await expectError(await sign(text), 422, 'INVALID_DOCUMENT');
        expect(body.message).toMatch(/numbers its objects up to/);
      }
    }
    // At the limit (objects 0 to 8,388,607), a classic trailer's /Size is only a number to stay above.
    const res = await sign(classic.replace(/\/Size\s+\d+/, '/Size 8388608'));
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it('refuses a PDF whose cross-reference table verify cannot read with 422, as verify does (sign-fuzz seed 6, variant 40)', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    const text = new TextDecoder('latin1').decode(await doc.save({ useObjectStreams: false }));
    // One entry of the table made unreadable: pdf-lib reads objects without the table and would
    // sign, but the update's /Prev would point at a section no reader can use.
    const damaged = text.replace(
      /\n(\d{10}) 00000 n/,
      (_, offset: string) => `\n${'null'.padEnd(offset.length, ' ')} 00000 n`,
    );
    expect(damaged).not.toBe(text);
    const bytes = Uint8Array.from(damaged, (c) => c.charCodeAt(0));
    const signed = await post('/v1/sign', { document: { base64: toBase64(bytes) }, signer, auditTrail });
    const body = await expectError(signed, 422, 'INVALID_DOCUMENT');
    expect(body.message).toMatch(/The PDF cannot be read: .*xref/);
    const verified = await post('/v1/verify', { document: { base64: toBase64(bytes) } });
    expect((await expectError(verified, 422, 'INVALID_DOCUMENT')).message).toBe(body.message);
  });

  it('refuses an object stream that decodes past the 16 MiB budget with 422 DOCUMENT_TOO_COMPLEX, without decoding it', async () => {
    // 70 MiB of zeros, deflated to about 70 KB, in an object stream nothing refers to.
    const pdf = await pdfWith(
      streamObject(90, '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', deflateZeros(70 * 1024 * 1024)),
    );
    expect(pdf.length).toBeLessThan(100_000);
    const started = performance.now();
    const res = await post('/v1/sign', { document: { base64: toBase64(pdf) }, signer, auditTrail });
    const body = await expectError(res, 422, 'DOCUMENT_TOO_COMPLEX');
    expect(body.message).toMatch(/decode to more than 16 MiB/);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('refuses a page tree that is not a tree with 422, mends wrong /Count values in the update, and signs a page without /MediaBox', async () => {
    const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';
    const kids = (ref: string, n: number) => `[${Array(n).fill(ref).join(' ')}]`;
    const notTrees = [
      // A node listed 1,000 times under a node listed 1,000 times: pdf-lib would walk 10^9 pages.
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        `<< /Type /Pages /Kids ${kids('4 0 R', 1000)} /Count 1 >>`,
        '<< /Type /Page /Parent 5 0 R /MediaBox [0 0 612 792] >>',
        `<< /Type /Pages /Parent 2 0 R /Kids ${kids('5 0 R', 1000)} /Count 1 >>`,
        '<< /Type /Pages /Parent 4 0 R /Kids [3 0 R] /Count 1 >>',
      ]),
      // A /Parent loop above the root: pdf-lib's page insertion would climb it forever.
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 /Parent 4 0 R >>',
        page,
        '<< /Type /Pages /Kids [] /Count 0 /Parent 2 0 R >>',
      ]),
    ];
    // No catalog: /Root names an object the file does not have (pdf-lib's catalog is undefined: a 500).
    const noCatalog = new TextDecoder('latin1').decode(rawPdf(['<< /Type /Pages /Kids [] /Count 0 >>']));
    notTrees.push(Uint8Array.from(noCatalog.replace('/Root 1 0 R', '/Root 9 0 R'), (c) => c.charCodeAt(0)));
    for (const pdf of notTrees) {
      const res = await post('/v1/sign', { document: { base64: toBase64(pdf) }, signer, auditTrail });
      await expectError(res, 422, 'INVALID_DOCUMENT');
    }
    // A page without a /MediaBox (pdf-lib's getSize threw: a 500): the certificate is on Letter.
    const noMediaBox = rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R >>',
    ]);
    const res = await post('/v1/sign', { document: { base64: toBase64(noMediaBox) }, signer, auditTrail });
    expect(res.status).toBe(200);
    const withCertificate = await PDFDocument.load(
      decode(((await res.json()) as { document: { base64: string } }).document.base64),
    );
    expect(withCertificate.getPage(1).getSize()).toEqual({ width: 612, height: 792 });
    // A /Count of 0 over one page (pdf-lib's insertion threw: a 500) and one of a billion.
    for (const count of [0, 1_000_000_000]) {
      const pdf = rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>`,
        page,
      ]);
      const res = await post('/v1/sign', { document: { base64: toBase64(pdf) }, signer, auditTrail });
      expect(res.status).toBe(200);
      const signed = await PDFDocument.load(
        decode(((await res.json()) as { document: { base64: string } }).document.base64),
      );
      const certificatePages = Number(res.headers.get('X-Quire-Certificate-Pages'));
      expect(certificatePages).toBeGreaterThan(0);
      expect(signed.getPageCount()).toBe(1 + certificatePages);
      expect(signed.catalog.Pages().Count().asNumber()).toBe(1 + certificatePages);
    }
  });

  it('refuses a PDF certified with no changes permitted (DocMDP P=1) with 422', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    const params = doc.context.obj({ Type: 'TransformParams', P: 1, V: '1.2' });
    const reference = doc.context.obj({ Type: 'SigRef', TransformMethod: 'DocMDP', TransformParams: params });
    const signature = doc.context.register(doc.context.obj({ Type: 'Sig', Reference: [reference] }));
    doc.catalog.set(PDFName.of('Perms'), doc.context.obj({ DocMDP: signature }));
    const res = await post('/v1/sign', { document: { base64: toBase64(await doc.save()) }, signer, auditTrail });
    await expectError(res, 422, 'INVALID_DOCUMENT');
  });

  it('lays the certificate out on Letter, unscaled, when the last page is too small to read', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 144]);
    const res = await post('/v1/sign', { document: { base64: toBase64(await doc.save()) }, signer, auditTrail });
    expect(res.status).toBe(200);
    const signed = await PDFDocument.load(
      decode(((await res.json()) as { document: { base64: string } }).document.base64),
    );
    const last = signed.getPage(signed.getPageCount() - 1);
    expect(last.getSize()).toEqual({ width: 612, height: 792 });
    // The document's own page is left as it was.
    expect(signed.getPage(0).getSize()).toEqual({ width: 300, height: 144 });
  });

  it('converts a DOCX to PDF first', async () => {
    const docx = buildDocx({ document: `<w:body>${paragraph('Agreement from a DOCX')}</w:body>` });
    const res = await post('/v1/sign', { document: { base64: toBase64(docx) }, signer, auditTrail });
    expect(res.status).toBe(200);
    const signed = decode(((await res.json()) as { document: { base64: string } }).document.base64);
    expect((await pdfText(signed))[0]).toContain('Agreement from a DOCX');
    // The answer counts its pages as a conversion does: the document's and the certificate's.
    const certificatePages = Number(res.headers.get('X-Quire-Certificate-Pages'));
    expect(certificatePages).toBeGreaterThan(0);
    expect(Number(res.headers.get('X-Quire-Pages'))).toBe(1 + certificatePages);
    expect((await PDFDocument.load(signed)).getPageCount()).toBe(1 + certificatePages);
  });

  it('says what the conversion of a DOCX could not draw, as convert does', async () => {
    // An Egyptian hieroglyph: no bundled or fallback face has it.
    const docx = buildDocx({ document: `<w:body>${paragraph('Sealed with \u{13000}')}</w:body>` });
    const res = await post('/v1/sign', { document: { base64: toBase64(docx) }, signer, auditTrail });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('X-Quire-Warning-Count'))).toBeGreaterThan(0);
    expect(res.headers.get('X-Quire-Warnings')).toContain('U+13000');
    await res.arrayBuffer();
  });

  it('refuses damaged and encrypted PDFs with 422, and what is neither PDF nor DOCX with 415', async () => {
    const damaged = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >>\n%%EOF\n');
    await expectError(
      await post('/v1/sign', { document: { base64: toBase64(damaged) }, signer, auditTrail }),
      422,
      'INVALID_DOCUMENT',
    );
    const encrypted = new TextEncoder().encode(
      '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n3 0 obj\n<< /Filter /Standard /V 2 /R 3 /O <00> /U <00> /P -4 >>\nendobj\ntrailer\n<< /Root 1 0 R /Encrypt 3 0 R /Size 4 >>\n%%EOF\n',
    );
    await expectError(
      await post('/v1/sign', { document: { base64: toBase64(encrypted) }, signer, auditTrail }),
      422,
      'INVALID_DOCUMENT',
    );
    const text = new TextEncoder().encode('just text, no document');
    expect((await post('/v1/sign', { document: { base64: toBase64(text) }, signer, auditTrail })).status).toBe(415);
  });

  it('validates every rule of docs/api.md with a 400 naming the field', async () => {
    const document = { base64: toBase64(await onePagePdf()) };
    const cases: [unknown, string][] = [
      [{ document, auditTrail }, 'signer'],
      [{ document, signer: { ...signer, email: 'not-an-email' }, auditTrail }, 'signer.email'],
      [{ document, signer: { ...signer, name: 'A' }, auditTrail }, 'signer.name'],
      [{ document, signer: { ...signer, ip: '999.1.1.1' }, auditTrail }, 'signer.ip'],
      [{ document, signer: { ...signer, userAgent: 'u'.repeat(1025) }, auditTrail }, 'signer.userAgent'],
      [{ document, signer: { ...signer, role: 'admin' }, auditTrail }, 'signer.role'],
      [{ document, signer, auditTrail: [] }, 'auditTrail'],
      [{ document, signer, auditTrail: [{ type: 'view', timestamp: '2026-11-22T10:00:00Z' }] }, 'auditTrail'],
      [
        { document, signer, auditTrail: [{ type: 'submit', timestamp: '2026-11-22T10:00:00' }] },
        'auditTrail[0].timestamp',
      ],
      [{ document, signer, auditTrail: [{ type: 'click', timestamp: '2026-11-22T10:00:00Z' }] }, 'auditTrail[0].type'],
      [
        { document, signer, auditTrail: [{ type: 'submit', timestamp: '2026-11-22T10:00:00Z', data: 'x' }] },
        'auditTrail[0].data',
      ],
      [{ document, signer, auditTrail, eventId: 'e'.repeat(256) }, 'eventId'],
      [{ document, signer, auditTrail, metadata: { blob: 'm'.repeat(17 * 1024) } }, 'metadata'],
      [{ document, signer, auditTrail, certificate: { enabled: 'yes' } }, 'certificate.enabled'],
      [{ document, signer, auditTrail, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const error = await expectError(await post('/v1/sign', body), 400, 'VALIDATION_ERROR');
      expect(
        error.details?.map((d) => d.field),
        JSON.stringify(body).slice(0, 160),
      ).toContain(field);
    }
  });
});

/** A sign request as multipart/form-data: the document as `file`, strings as text, the rest as JSON text. */
function signForm(file: File | undefined, fields: Record<string, unknown>): FormData {
  const form = new FormData();
  if (file) form.append('file', file);
  for (const [name, value] of Object.entries(fields)) {
    form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

async function send(body: FormData | unknown, headers: Record<string, string> = {}) {
  const form = body instanceof FormData;
  return call(
    '/v1/sign',
    withKey(await mintKey(), {
      method: 'POST',
      headers: form ? headers : { 'Content-Type': 'application/json', ...headers },
      body: form ? body : JSON.stringify(body),
    }),
  );
}

const PDF_TYPE = 'application/pdf';

describe('POST /v1/sign: multipart/form-data in, the PDF itself out (Accept)', () => {
  it('takes the document as the file part and the fields as form fields, and answers JSON as before', async () => {
    const original = await onePagePdf();
    const form = signForm(new File([original], 'contract.pdf'), {
      signer,
      auditTrail,
      eventId: 'evt-form',
      level: 'B-B',
      certificate: { enabled: false },
      metadata: { reason: 'Approved', batch: 7 },
    });
    const res = await send(form);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(res.headers.get('X-Quire-Event-Id')).toBe('evt-form');
    expect(res.headers.get('X-Quire-Certificate-Pages')).toBe('0');
    const body = (await res.json()) as { document: { base64: string; contentType: string } };
    expect(body.document.contentType).toBe(PDF_TYPE);
    const signed = decode(body.document.base64);
    expect(signed.subarray(0, original.length)).toEqual(original);
    expect(byteRanges(signed)).toHaveLength(1);
    expect((await PDFDocument.load(signed)).getPageCount()).toBe(1);
  });

  it('answers JSON in with the PDF itself when Accept asks for application/pdf, the metadata in headers', async () => {
    const res = await send(
      { document: { base64: toBase64(await onePagePdf()) }, signer, auditTrail, eventId: 'evt-raw' },
      { Accept: PDF_TYPE },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe(PDF_TYPE);
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="signed.pdf"');
    expect(res.headers.get('Vary')).toMatch(/Accept/);
    expect(res.headers.get('X-Quire-Event-Id')).toBe('evt-raw');
    const certificatePages = Number(res.headers.get('X-Quire-Certificate-Pages'));
    expect(certificatePages).toBeGreaterThan(0);
    const signed = new Uint8Array(await res.arrayBuffer());
    expect(byteRanges(signed)).toHaveLength(1);
    const pages = await pdfText(signed);
    expect(pages).toHaveLength(1 + certificatePages);
    expect(pages.slice(1).join('\n')).toContain('evt-raw');
  });

  it('multipart in, PDF out: a DOCX upload is converted, signed and named after the upload', async () => {
    const docx = buildDocx({ document: `<w:body>${paragraph('Agreement uploaded as a file')}</w:body>` });
    const res = await send(signForm(new File([docx], 'Offer letter.docx'), { signer, auditTrail }), {
      Accept: `application/json;q=0.5, ${PDF_TYPE}`,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe(PDF_TYPE);
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="Offer letter.pdf"');
    const certificatePages = Number(res.headers.get('X-Quire-Certificate-Pages'));
    expect(Number(res.headers.get('X-Quire-Pages'))).toBe(1 + certificatePages);
    const signed = new Uint8Array(await res.arrayBuffer());
    expect((await pdfText(signed))[0]).toContain('Agreement uploaded as a file');
  });

  it('reads Accept by weight and specificity: JSON unless the PDF weighs more (RFC 9110 §12.5.1)', async () => {
    const document = { base64: toBase64(await onePagePdf()) };
    const cases: [string, string][] = [
      ['*/*', 'application/json'],
      ['application/*', 'application/json'],
      ['application/json', 'application/json'],
      [`${PDF_TYPE};q=0.5, application/json`, 'application/json'],
      ['text/html, */*;q=0.1', 'application/json'],
      [`application/*;q=0.2, ${PDF_TYPE}`, PDF_TYPE],
      [`*/*;q=0.1, application/json;q=0`, PDF_TYPE],
    ];
    for (const [accept, type] of cases) {
      const res = await send({ document, signer, auditTrail, certificate: { enabled: false } }, { Accept: accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('Content-Type'), accept).toMatch(new RegExp(`^${type}`));
      await res.arrayBuffer();
    }
  });

  it('answers 406 when Accept takes neither JSON nor a PDF, before any signing', async () => {
    const document = { base64: toBase64(await onePagePdf()) };
    for (const accept of ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/html']) {
      const res = await send({ document, signer, auditTrail }, { Accept: accept });
      const body = await expectError(res, 406, 'NOT_ACCEPTABLE');
      expect(body.error).toBe('Not Acceptable');
      expect(body.message).toContain(`application/json or ${PDF_TYPE}`);
      expect(res.headers.get('X-Quire-Event-Id')).toBeNull();
    }
  });

  it('names a form field in error as the JSON body would, with the same 400s', async () => {
    const file = new File([await onePagePdf()], 'contract.pdf');
    const document = { base64: toBase64(await onePagePdf()) };
    const cases: Record<string, unknown>[] = [
      { signer: { ...signer, email: 'not-an-email' }, auditTrail },
      { signer: { ...signer, role: 'admin' }, auditTrail },
      { signer, auditTrail: [{ type: 'submit', timestamp: '2026-11-22T10:00:00' }] },
      { signer, auditTrail, eventId: 'e'.repeat(256) },
      { signer, auditTrail, level: 'B-C' },
      { signer, auditTrail, certificate: { enabled: 'yes' } },
    ];
    for (const fields of cases) {
      const json = await expectError(await send({ document, ...fields }), 400, 'VALIDATION_ERROR');
      const form = await expectError(await send(signForm(file, fields)), 400, 'VALIDATION_ERROR');
      expect(form.details, JSON.stringify(fields).slice(0, 120)).toEqual(json.details);
      expect(form.message).toBe(json.message);
    }
    // A missing field is named the same; the issue says what a form field must hold.
    const missing = await expectError(await send(signForm(file, { auditTrail })), 400, 'VALIDATION_ERROR');
    expect(missing.details).toEqual([{ field: 'signer', issue: 'Required (a text field holding JSON)' }]);
  });

  it('refuses what is not a form of the body with 400: non-JSON text, no file, two files, a file for a field, a document field', async () => {
    const pdf = await onePagePdf();
    const file = () => new File([pdf], 'contract.pdf');
    const notJson = await expectError(
      await send(signForm(file(), { signer: 'Ada Lovelace <ada@example.com>', auditTrail })),
      400,
      'VALIDATION_ERROR',
    );
    expect(notJson.details).toEqual([{ field: 'signer', issue: expect.stringContaining('must be JSON text') }]);

    const missing = await expectError(await send(signForm(undefined, { signer, auditTrail })), 400, 'VALIDATION_ERROR');
    expect(missing.details).toEqual([{ field: 'file', issue: 'Attach the document as the multipart part "file"' }]);

    const two = signForm(file(), { signer, auditTrail });
    two.append('file', file());
    const twice = await expectError(await send(two), 400, 'VALIDATION_ERROR');
    expect(twice.message).toContain('exactly one multipart part "file" is expected, and the request has 2');

    const asFile = signForm(file(), { auditTrail });
    asFile.append('signer', new File([JSON.stringify(signer)], 'signer.json'));
    const filePart = await expectError(await send(asFile), 400, 'VALIDATION_ERROR');
    expect(filePart.details?.[0]).toEqual({ field: 'signer', issue: expect.stringContaining('is a file part') });

    const repeated = signForm(file(), { signer, auditTrail });
    repeated.append('eventId', 'a');
    repeated.append('eventId', 'b');
    const again = await expectError(await send(repeated), 400, 'VALIDATION_ERROR');
    expect(again.details?.[0]).toEqual({ field: 'eventId', issue: expect.stringContaining('sent 2 times') });

    const withDocument = signForm(file(), { signer, auditTrail, document: { url: 'https://example.com/a.pdf' } });
    const unknown = await expectError(await send(withDocument), 400, 'VALIDATION_ERROR');
    expect(unknown.details?.[0]).toEqual({
      field: 'document',
      issue: expect.stringContaining('the document is the file part'),
    });
  });

  it('answers a JSON text sent as multipart/form-data with 400 (a malformed form), not 415', async () => {
    const raw = await call(
      '/v1/sign',
      withKey(await mintKey(), {
        method: 'POST',
        headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
        body: JSON.stringify({ signer, auditTrail }),
      }),
    );
    await expectError(raw, 400, 'VALIDATION_ERROR');
  });

  it('refuses an upload that is neither PDF nor DOCX with 415, as the JSON body', async () => {
    const form = signForm(new File(['just text, no document'], 'notes.pdf'), { signer, auditTrail });
    await expectError(await send(form, { Accept: PDF_TYPE }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('GET /v1/verify/key', () => {
  it('serves the service certificate, its fingerprint, validity and issuer', async () => {
    const res = await call('/v1/verify/key', withKey(await mintKey()));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    expect(body.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(body.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(typeof body.issuer).toBe('string');
    expect(Date.parse(body.notAfter ?? '')).toBeGreaterThan(Date.parse(body.notBefore ?? ''));
  });
});
