import { strFromU8, unzipSync } from 'fflate';
import { HttpResponse, http } from 'msw';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { buildDocx, paragraph, tinyPng } from '../../helpers/docx-fixture';
import { pageContentText } from '../../helpers/pdf-inspect';
import { pdfText } from '../../helpers/pdf-text';
import { network } from '../../setup/network';
import { toBase64 } from '../input/helpers';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function annotate(body: unknown, query = '') {
  return call(
    `/v1/annotate${query}`,
    withKey(await mintKey(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** A template: a {{name}} placeholder split over runs, a tagged text control and a tagged checkbox. */
function template(): Uint8Array {
  const control = (tag: string, text: string) =>
    `<w:p><w:sdt><w:sdtPr><w:tag w:val="${tag.replaceAll('"', '&quot;')}"/><w:showingPlcHdr/></w:sdtPr><w:sdtContent><w:r><w:rPr><w:b/></w:rPr><w:t>${text}</w:t></w:r></w:sdtContent></w:sdt></w:p>`;
  return buildDocx({
    document: `<w:body>
      <w:p><w:r><w:t xml:space="preserve">Dear {{ cust</w:t></w:r><w:proofErr w:type="spellStart"/><w:r><w:rPr><w:i/></w:rPr><w:t>omer }},</w:t></w:r></w:p>
      ${control('company', 'Click here to enter text.')}
      ${control('{"fieldId":"amount","group":"totals"}', 'amount')}
      ${control('{"fieldId":"total","group":"totals"}', 'total')}
      ${paragraph('Untouched closing line.')}
    </w:body>`,
  });
}

const documentOf = (bytes: Uint8Array) => ({ base64: toBase64(bytes) });

/** `document.base64` of an answer: plain base64, as sign answers. */
function decode(base64: string): Uint8Array {
  expect(base64).not.toMatch(/^data:/);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

interface AnnotateAnswer {
  document: { base64: string; dataUri: string; contentType: string };
}

describe('POST /v1/annotate', () => {
  it('fills placeholders, controls and groups; answers plain base64 (and the deprecated data URI); untouched parts stay byte for byte', async () => {
    const bytes = template();
    const res = await annotate({
      document: documentOf(bytes),
      fields: [
        { id: 'customer', type: 'text', value: 'Ada <Lovelace> & Co' },
        { id: 'company', type: 'text', value: 'Analytical\nEngines' },
        { group: 'totals', type: 'text', value: '42.00' },
      ],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AnnotateAnswer;
    expect(body.document.contentType).toBe(DOCX_TYPE);
    // The data URI `base64` used to hold stays, deprecated, in `dataUri`: the same bytes.
    expect(body.document.dataUri).toBe(`data:${DOCX_TYPE};base64,${body.document.base64}`);
    const filled = unzipSync(decode(body.document.base64));
    const xml = strFromU8(filled['word/document.xml'] as Uint8Array);
    expect(xml).toContain('Ada &lt;Lovelace&gt; &amp; Co');
    expect(xml).not.toContain('{{');
    expect(xml).toContain('Analytical');
    expect(xml).toContain('<w:br/>');
    expect(xml.match(/42\.00/g)).toHaveLength(2);
    expect(xml).not.toContain('showingPlcHdr');
    const original = unzipSync(bytes);
    for (const [name, data] of Object.entries(original)) {
      if (name === 'word/document.xml') continue;
      expect(filled[name], name).toEqual(data);
    }
  });

  it('takes a filled document back in either of its answer forms: plain base64 or the data URI', async () => {
    const first = await annotate({
      document: documentOf(template()),
      fields: [{ id: 'company', type: 'text', value: 'A' }],
    });
    const { document } = (await first.json()) as AnnotateAnswer;
    for (const base64 of [document.base64, document.dataUri]) {
      const res = await annotate({ document: { base64 }, fields: [{ id: 'company', type: 'text', value: 'B' }] });
      expect(res.status).toBe(200);
      const xml = strFromU8(
        unzipSync(decode(((await res.json()) as AnnotateAnswer).document.base64))['word/document.xml'] as Uint8Array,
      );
      expect(xml).toContain('>B<');
    }
  });

  it('to=pdf runs the filled package through the engine', async () => {
    const res = await annotate(
      { document: documentOf(template()), fields: [{ id: 'customer', type: 'text', value: 'Grace Hopper' }] },
      '?to=pdf',
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as AnnotateAnswer;
    expect(body.document.contentType).toBe('application/pdf');
    expect(body.document.dataUri.startsWith('data:application/pdf;base64,')).toBe(true);
    const pdf = decode(body.document.base64);
    expect((await pdfText(pdf)).join('\n')).toContain('Dear Grace Hopper');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
  });

  it('a table field of 50 rows replaces the placeholder row and runs over pages in the PDF', async () => {
    const cell = (text: string) =>
      `<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr><w:p><w:pPr><w:spacing w:after="240"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>${text}</w:t></w:r></w:p></w:tc>`;
    const docx = buildDocx({
      document: `<w:body><w:tbl><w:tblPr><w:tblW w:w="8000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/><w:gridCol w:w="4000"/></w:tblGrid>
        <w:tr><w:trPr><w:tblHeader/></w:trPr>${cell('Item')}${cell('Price')}</w:tr>
        <w:tr>${cell('{{items}}')}${cell('')}</w:tr>
      </w:tbl>${paragraph('After the table.')}</w:body>`,
    });
    const rows = Array.from({ length: 50 }, (_, i) => [`Item-${i + 1}`, `${(i + 1) * 3}.00`]);
    const res = await annotate(
      { document: documentOf(docx), fields: [{ id: 'items', type: 'table', value: rows }] },
      '?to=pdf',
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { document: { base64: string } };
    const pages = await pdfText(decode(body.document.base64));
    expect(pages.length).toBeGreaterThan(1);
    const all = pages.join('\n');
    for (const [item, price] of rows) {
      expect(all).toContain(item);
      expect(all).toContain(price);
    }
    expect(all).not.toContain('{{');
    // The header row repeats on every page (w:tblHeader).
    for (const page of pages) expect(page).toContain('Item Price');
  });

  it('lists every id and group that matches nothing in one 422, and fills nothing', async () => {
    const res = await annotate({
      document: documentOf(template()),
      fields: [
        { id: 'customer', type: 'text', value: 'x' },
        { id: 'nowhere', type: 'text', value: 'x' },
        { group: 'no-such-group', type: 'text', value: 'x' },
      ],
    });
    const error = await expectError(res, 422, 'FIELD_NOT_FOUND');
    const named = JSON.stringify(error.details);
    expect(named).toContain('nowhere');
    expect(named).toContain('no-such-group');
    expect(named).not.toContain('"customer"');
  });

  it('places an image fetched through the guarded fetcher at the requested size', async () => {
    network.use(
      http.get('https://images.example/logo.png', () =>
        HttpResponse.arrayBuffer(tinyPng(20, 10).slice().buffer, { headers: { 'Content-Type': 'image/png' } }),
      ),
    );
    const res = await annotate({
      document: documentOf(template()),
      fields: [
        {
          id: 'company',
          type: 'image',
          value: 'https://images.example/logo.png',
          options: { dimensions: { width: 96 } },
        },
      ],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { document: { base64: string } };
    const filled = unzipSync(decode(body.document.base64));
    const xml = strFromU8(filled['word/document.xml'] as Uint8Array);
    // 96 CSS px = 1 in = 914400 EMU; the height keeps the 2:1 aspect.
    expect(xml).toContain('cx="914400"');
    expect(xml).toContain('cy="457200"');
    expect(Object.keys(filled).some((name) => name.startsWith('word/media/'))).toBe(true);
    expect(strFromU8(filled['[Content_Types].xml'] as Uint8Array)).toMatch(/Extension="png"/i);
  });

  it('to=pdf draws the image at the requested size: 144 × 48 CSS px is 108 × 36 pt', async () => {
    const res = await annotate(
      {
        document: documentOf(template()),
        fields: [
          {
            id: 'company',
            type: 'image',
            value: `data:image/png;base64,${toBase64(tinyPng(30, 10))}`,
            options: { dimensions: { width: 144, height: 48 } },
          },
        ],
      },
      '?to=pdf',
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { document: { base64: string } };
    const pdf = await PDFDocument.load(decode(body.document.base64));
    const placed = /(\S+) 0 0 (\S+) \S+ \S+ cm\s*\/\S+ Do/.exec(pageContentText(pdf, 0));
    expect(Number(placed?.[1])).toBeCloseTo(108, 1);
    expect(Number(placed?.[2])).toBeCloseTo(36, 1);
  });

  it('an image that cannot be decoded is 422 INVALID_DOCUMENT naming the field', async () => {
    const res = await annotate({
      document: documentOf(template()),
      fields: [
        { id: 'company', type: 'image', value: `data:image/png;base64,${toBase64(new Uint8Array([1, 2, 3, 4]))}` },
      ],
    });
    const error = await expectError(res, 422, 'INVALID_DOCUMENT');
    expect(error.message).toContain('company');
  });

  it('wrong shapes are 400 naming each field: values, id and group, options, empty fields', async () => {
    const document = documentOf(template());
    const cases: [unknown, string][] = [
      [{ document, fields: [] }, 'fields'],
      [{ document, fields: [{ id: 'a', type: 'text', value: 3 }] }, 'fields[0].value'],
      [{ document, fields: [{ id: 'a', type: 'table', value: [['x'], 'y'] }] }, 'fields[0].value'],
      [{ document, fields: [{ id: 'a', type: 'checkbox', value: 'yes' }] }, 'fields[0].value'],
      [{ document, fields: [{ id: 'a', type: 'image', value: '' }] }, 'fields[0].value'],
      [{ document, fields: [{ id: 'a', group: 'b', type: 'text', value: 'x' }] }, 'fields[0]'],
      [{ document, fields: [{ type: 'text', value: 'x' }] }, 'fields[0]'],
      [{ document, fields: [{ id: 'a', type: 'sticker', value: 'x' }] }, 'fields[0].type'],
      [
        {
          document,
          fields: [
            { id: 'a', type: 'image', value: 'https://x.example/a.png', options: { dimensions: { width: -1 } } },
          ],
        },
        'fields[0].options.dimensions.width',
      ],
      [{ fields: [{ id: 'a', type: 'text', value: 'x' }] }, 'document'],
      // Field objects and their options are strict, like the body: the unknown key is named where it is.
      [{ document, fields: [{ id: 'a', type: 'text', value: 'x', colour: 'red' }] }, 'fields[0].colour'],
      [
        { document, fields: [{ id: 'a', type: 'table', value: [['x']], options: { copyRowStyles: false } }] },
        'fields[0].options.copyRowStyles',
      ],
      [
        {
          document,
          fields: [{ id: 'a', type: 'image', value: 'https://x.example/a.png', options: { dimensions: { w: 3 } } }],
        },
        'fields[0].options.dimensions.w',
      ],
      [{ document, fields: [{ id: 'a', type: 'text', value: 'x' }], extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const error = await expectError(await annotate(body), 400, 'VALIDATION_ERROR');
      expect(
        error.details?.map((d) => d.field),
        JSON.stringify(body).slice(0, 120),
      ).toContain(field);
    }
    await expectError(await annotate('{"document":'), 400, 'VALIDATION_ERROR');

    const unknown = await expectError(
      await annotate({ document, fields: [{ id: 'a', type: 'text', value: 'x', colour: 'red', size: 3 }] }),
      400,
      'VALIDATION_ERROR',
    );
    expect(unknown.details).toEqual([
      { field: 'fields[0].colour', issue: expect.stringContaining('unknown keys "colour", "size"') },
      { field: 'fields[0].size', issue: expect.stringContaining('a field takes id or group, type, value and options') },
    ]);
    expect(unknown.message).toMatch(/^fields\[0\]\.colour: unknown keys/);
  });

  it('the OpenAPI document says fields and their options take no other keys', async () => {
    interface JsonSchema {
      additionalProperties?: unknown;
      properties?: Record<string, JsonSchema>;
    }
    const doc = (await (await call('/openapi.json')).json()) as { components: { schemas: Record<string, JsonSchema> } };
    const field = doc.components.schemas.AnnotateField;
    expect(field?.additionalProperties).toBe(false);
    const options = field?.properties?.options;
    expect(options?.additionalProperties).toBe(false);
    expect(options?.properties?.dimensions?.additionalProperties).toBe(false);
  });

  it('refuses what is not a DOCX template, and a damaged one, with a clear 4xx', async () => {
    const notDocx = await annotate({
      document: { base64: toBase64(new TextEncoder().encode('%PDF-1.7\n%%EOF\n')) },
      fields: [{ id: 'a', type: 'text', value: 'x' }],
    });
    expect(notDocx.status).toBe(415);
    const damaged = template().slice(0, 400);
    const res = await annotate({ document: documentOf(damaged), fields: [{ id: 'a', type: 'text', value: 'x' }] });
    expect([415, 422]).toContain(res.status);
  });
});

/** An annotate request as multipart/form-data: the template as `file`, `fields` as JSON text. */
function annotateForm(file: File | undefined, fields?: unknown): FormData {
  const form = new FormData();
  if (file) form.append('file', file);
  if (fields !== undefined) form.append('fields', typeof fields === 'string' ? fields : JSON.stringify(fields));
  return form;
}

async function send(body: FormData | unknown, query = '', headers: Record<string, string> = {}) {
  const form = body instanceof FormData;
  return call(
    `/v1/annotate${query}`,
    withKey(await mintKey(), {
      method: 'POST',
      headers: form ? headers : { 'Content-Type': 'application/json', ...headers },
      body: form ? body : JSON.stringify(body),
    }),
  );
}

describe('POST /v1/annotate: multipart/form-data in, the file itself out (Accept)', () => {
  const fields = [{ id: 'customer', type: 'text', value: 'Grace Hopper' }];

  it('takes the template as the file part and fields as JSON text, and answers JSON', async () => {
    const res = await send(annotateForm(new File([template()], 'offer.docx'), fields));
    expect(res.status).toBe(200);
    const body = (await res.json()) as AnnotateAnswer;
    expect(body.document.contentType).toBe(DOCX_TYPE);
    const xml = strFromU8(unzipSync(decode(body.document.base64))['word/document.xml'] as Uint8Array);
    expect(xml).toContain('Grace Hopper');
  });

  it('JSON in, DOCX out: Accept naming the DOCX type answers the file, named filled.docx', async () => {
    const res = await send({ document: documentOf(template()), fields }, '', { Accept: DOCX_TYPE });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe(DOCX_TYPE);
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="filled.docx"');
    expect(res.headers.get('Vary')).toMatch(/Accept/);
    const filled = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(strFromU8(filled['word/document.xml'] as Uint8Array)).toContain('Grace Hopper');
  });

  it('multipart in, PDF out: to=pdf with Accept: application/pdf, named after the upload, pages in a header', async () => {
    const res = await send(annotateForm(new File([template()], 'Offer – Ada.docx'), fields), '?to=pdf', {
      Accept: 'application/pdf, application/json;q=0.9',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toBe(
      `attachment; filename="Offer _ Ada.pdf"; filename*=UTF-8''${encodeURIComponent('Offer – Ada.pdf')}`,
    );
    expect(res.headers.get('X-Quire-Pages')).toBe('1');
    const pdf = new Uint8Array(await res.arrayBuffer());
    expect((await pdfText(pdf)).join('\n')).toContain('Dear Grace Hopper');
  });

  it('406 when Accept asks only for the type the other `to` gives, saying how to get it', async () => {
    const document = documentOf(template());
    const pdfForDocx = await expectError(
      await send({ document, fields }, '?to=docx', { Accept: 'application/pdf' }),
      406,
      'NOT_ACCEPTABLE',
    );
    expect(pdfForDocx.message).toContain('use to=pdf for application/pdf');
    const docxForPdf = await expectError(
      await send(annotateForm(new File([template()], 'offer.docx'), fields), '?to=pdf', { Accept: DOCX_TYPE }),
      406,
      'NOT_ACCEPTABLE',
    );
    expect(docxForPdf.message).toContain(`use to=docx for ${DOCX_TYPE}`);
    // A wildcard still takes JSON, as before.
    const any = await send({ document, fields }, '?to=docx', { Accept: 'application/pdf, */*;q=0.1' });
    expect(any.status).toBe(200);
    expect(((await any.json()) as AnnotateAnswer).document.contentType).toBe(DOCX_TYPE);
  });

  it('names a bad form field as the JSON body would; non-JSON text, no file and two files are 400', async () => {
    const file = () => new File([template()], 'offer.docx');
    const wrong = [{ id: 'a', type: 'checkbox', value: 'yes' }];
    const json = await expectError(
      await send({ document: documentOf(template()), fields: wrong }),
      400,
      'VALIDATION_ERROR',
    );
    const form = await expectError(await send(annotateForm(file(), wrong)), 400, 'VALIDATION_ERROR');
    expect(form.details).toEqual(json.details);
    expect(form.details?.[0]?.field).toBe('fields[0].value');

    const notJson = await expectError(await send(annotateForm(file(), 'customer=Grace')), 400, 'VALIDATION_ERROR');
    expect(notJson.details).toEqual([{ field: 'fields', issue: expect.stringContaining('must be JSON text') }]);

    const missing = await expectError(await send(annotateForm(undefined, fields)), 400, 'VALIDATION_ERROR');
    expect(missing.details?.map((d) => d.field)).toEqual(['file']);

    const two = annotateForm(file(), fields);
    two.append('file', file());
    const twice = await expectError(await send(two), 400, 'VALIDATION_ERROR');
    expect(twice.message).toContain('exactly one multipart part "file" is expected');

    const noFields = await expectError(await send(annotateForm(file())), 400, 'VALIDATION_ERROR');
    expect(noFields.details).toEqual([{ field: 'fields', issue: 'Required (a text field holding JSON)' }]);
  });
});
