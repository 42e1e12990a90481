import { env } from 'cloudflare:test';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_FONTS } from '../../../src/limits';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { buildDocx } from '../../helpers/docx-fixture';
import { brandFont, fontHeader, obfuscateFont } from '../../helpers/font-fixture';
import { pdfText } from '../../helpers/pdf-text';

/** A paragraph of one run in `font`, bold when asked. */
const run = (font: string, text: string, bold = false) =>
  `<w:p><w:r><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}"/>${bold ? '<w:b/>' : ''}</w:rPr><w:t>${text}</w:t></w:r></w:p>`;

const STYLES =
  '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/></w:rPr></w:rPrDefault></w:docDefaults>';
const docxIn = (...paragraphs: string[]) =>
  buildDocx({ styles: STYLES, document: `<w:body>${paragraphs.join('')}</w:body>` });

type Part = [name: string, value: Uint8Array | string, fileName?: string];

async function convert(document: Uint8Array, fileName: string, parts: Part[], query = '') {
  const form = new FormData();
  form.append('file', new File([document as Uint8Array<ArrayBuffer>], fileName));
  for (const [name, value, partName] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new File([value as Uint8Array<ArrayBuffer>], partName ?? 'font.ttf'));
  }
  return call(`/v1/convert${query}`, withKey(await mintKey(), { method: 'POST', body: form }));
}

/** The BaseFont of every font of a PDF, without the subset tag. */
async function baseFonts(res: Response): Promise<string[]> {
  const pdf = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
  const names = new Set<string>();
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const name = object.get(PDFName.of('BaseFont'));
    if (name) names.add(String(name).replace(/^\/([A-Z]{6}\+)?/, ''));
  }
  return [...names].sort();
}

const warningsOf = (res: Response) => res.headers.get('X-Quire-Warnings') ?? '';

/** Acme Brand, a name no bundled face has: Caladea renamed, Regular and Bold. */
const acme = (postscriptName = 'AcmeBrand-Regular') =>
  brandFont('Caladea-Regular.ttf', { family: 'Acme Brand', postscriptName });
const acmeBold = () =>
  brandFont('Caladea-Bold.ttf', { family: 'Acme Brand', subfamily: 'Bold', postscriptName: 'AcmeBrand-Bold' });

describe('POST /v1/convert with fonts parts', () => {
  it('draws the family the DOCX names with the fonts sent, matched by their name table, each style its own', async () => {
    const docx = docxIn(run('Acme Brand', 'Brand regular'), run('ACME brand', 'Brand bold', true));
    const without = await convert(docx, 'brand.docx', []);
    expect(without.status).toBe(200);
    expect(warningsOf(without)).toContain('Font "Acme Brand" is not available');
    expect(await baseFonts(without)).not.toContain('AcmeBrand-Regular');

    const res = await convert(docx, 'brand.docx', [
      ['fonts', await acme(), 'AcmeBrand-Regular.ttf'],
      ['fonts', await acmeBold(), 'AcmeBrand-Bold.ttf'],
    ]);
    expect(res.status).toBe(200);
    expect(warningsOf(res)).toBe('');
    const fonts = await baseFonts(res.clone());
    expect(fonts).toContain('AcmeBrand-Regular');
    expect(fonts).toContain('AcmeBrand-Bold');
    expect((await pdfText(new Uint8Array(await res.arrayBuffer())))[0]).toContain('Brand regular');
  });

  it('takes parts named fonts[] too', async () => {
    const res = await convert(docxIn(run('Acme Brand', 'Brand')), 'brand.docx', [['fonts[]', await acme()]]);
    expect(res.status).toBe(200);
    expect(await baseFonts(res)).toContain('AcmeBrand-Regular');
  });

  it('draws the family HTML CSS names, and says when a font sent is not named by the document', async () => {
    const html = new TextEncoder().encode(
      `<p style="font-family: 'Acme Brand', sans-serif">Brand paragraph</p><p>Plain paragraph</p>`,
    );
    const res = await convert(html, 'page.html', [
      ['fonts', await acme(), 'acme.ttf'],
      [
        'fonts',
        await brandFont('Caladea-Italic.ttf', { family: 'Other Brand', postscriptName: 'OtherBrand' }),
        'other.ttf',
      ],
    ]);
    expect(res.status).toBe(200);
    expect(warningsOf(res)).toContain(
      'fonts[1] "other.ttf" (Other Brand Regular) was not used: the document names no font "Other Brand", the family in its name table;',
    );
    expect(await baseFonts(res)).toContain('AcmeBrand-Regular');
  });

  it('keeps only the names in DOCX output, and says so', async () => {
    const md = new TextEncoder().encode('<p style="font-family: Acme Brand">Brand</p>\n\nText.');
    const res = await convert(md, 'notes.md', [['fonts', await acme(), 'acme.ttf']], '?to=docx');
    expect(res.status).toBe(200);
    expect(warningsOf(res)).toContain('The fonts sent are not embedded in DOCX output');
  });

  it("puts the DOCX's embedded font first, and says the one sent was not used", async () => {
    const key = '{4C5F7E0A-1B2C-4D3E-8F90-A1B2C3D4E5F6}';
    const embedded = await acme('AcmeEmbedded-Regular');
    const docx = buildDocx({
      document: `<w:body>${run('Acme Brand', 'Embedded brand')}</w:body>`,
      fontTable: `<w:font w:name="Acme Brand"><w:embedRegular r:id="rIdF1" w:fontKey="${key}"/></w:font>`,
      fontTableRelationships: [{ id: 'rIdF1', type: 'font', target: 'fonts/font1.odttf' }],
      extraParts: { 'word/fonts/font1.odttf': obfuscateFont(embedded, key) },
    });
    const res = await convert(docx, 'embedded.docx', [['fonts', await acme(), 'acme.ttf']]);
    expect(res.status).toBe(200);
    expect(warningsOf(res)).toContain(
      'fonts[0] "acme.ttf" (Acme Brand Regular) was not used: the document embeds its own "Acme Brand", which comes first.',
    );
    const fonts = await baseFonts(res);
    expect(fonts).toContain('AcmeEmbedded-Regular');
    expect(fonts).not.toContain('AcmeBrand-Regular');
  });
});

describe('the FONTS library (R2)', () => {
  it('draws a family the document names with the library faces under its keys, whatever their name tables say', async () => {
    await env.FONTS?.put(
      'librarybrand/Regular.ttf',
      await brandFont('Caladea-Regular.ttf', { family: 'Whatever', postscriptName: 'LibraryBrand-Regular' }),
    );
    await env.FONTS?.put(
      'librarybrand/Bold.ttf',
      await brandFont('Caladea-Bold.ttf', { family: 'Other Name', postscriptName: 'LibraryBrand-Bold' }),
    );
    const res = await convert(
      docxIn(run('Library Brand', 'From the library'), run('LIBRARY  brand', 'Bold from the library', true)),
      'lib.docx',
      [],
    );
    expect(res.status).toBe(200);
    expect(warningsOf(res)).toBe('');
    const fonts = await baseFonts(res);
    expect(fonts).toContain('LibraryBrand-Regular');
    expect(fonts).toContain('LibraryBrand-Bold');
  });

  it("puts the request's fonts before the library", async () => {
    await env.FONTS?.put(
      'firstbrand/Regular.ttf',
      await brandFont('Caladea-Regular.ttf', { family: 'First Brand', postscriptName: 'FirstBrand-Library' }),
    );
    const sent = await brandFont('Caladea-Regular.ttf', {
      family: 'First Brand',
      postscriptName: 'FirstBrand-Request',
    });
    const res = await convert(docxIn(run('First Brand', 'Sent first')), 'first.docx', [['fonts', sent]]);
    expect(res.status).toBe(200);
    const fonts = await baseFonts(res);
    expect(fonts).toContain('FirstBrand-Request');
    expect(fonts).not.toContain('FirstBrand-Library');
  });

  it('serves template fill to PDF too (every conversion that lays out)', async () => {
    await env.FONTS?.put(
      'fillbrand/Regular.ttf',
      await brandFont('Caladea-Regular.ttf', { family: 'Fill Brand', postscriptName: 'FillBrand-Regular' }),
    );
    const docx = docxIn(run('Fill Brand', 'Dear {{name}}'));
    const res = await call(
      '/v1/annotate?to=pdf',
      withKey(await mintKey(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          document: { base64: btoa(String.fromCharCode(...docx)) },
          fields: [{ id: 'name', type: 'text', value: 'Ada' }],
        }),
      }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { document: { base64: string } };
    const pdf = Uint8Array.from(atob(body.document.base64), (c) => c.charCodeAt(0));
    expect(await baseFonts(new Response(pdf))).toContain('FillBrand-Regular');
  });

  it('turns an object that is not a usable font into a warning, not a failure', async () => {
    await env.FONTS?.put('badbrand/Regular.ttf', fontHeader('wOF2'));
    const res = await convert(docxIn(run('Bad Brand', 'Still converts')), 'bad.docx', []);
    expect(res.status).toBe(200);
    expect(warningsOf(res)).toContain(
      'Font "Bad Brand" Regular in the font library (badbrand/Regular.ttf) cannot be used: it is a WOFF2 web font',
    );
    expect(warningsOf(res)).toContain('Font "Bad Brand" is not available');
    expect((await pdfText(new Uint8Array(await res.arrayBuffer())))[0]).toContain('Still converts');
  });
});

describe('POST /v1/convert refuses fonts parts it cannot use, naming the part', () => {
  const docx = docxIn(run('Acme Brand', 'x'));

  it('not a font → 415', async () => {
    const res = await convert(docx, 'a.docx', [['fonts', new TextEncoder().encode('%PDF-1.7 not a font'), 'logo.pdf']]);
    const body = await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(body.message).toMatch(/^fonts\[0\] "logo\.pdf" is not a TrueType or OpenType font/);
    expect(body.details).toEqual([{ field: 'fonts[0]', issue: expect.stringContaining('logo.pdf') }]);
  });

  it('CFF outlines, WOFF2 and collections → 415 with what to send instead', async () => {
    const res = await convert(docx, 'a.docx', [
      ['fonts', await acme(), 'fine.ttf'],
      ['fonts', fontHeader('OTTO'), 'brand.otf'],
      ['fonts', fontHeader('wOF2'), 'brand.woff2'],
      ['fonts', fontHeader('ttcf'), 'brand.ttc'],
    ]);
    const body = await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(body.message).toContain('fonts[1] "brand.otf" is an OpenType font with PostScript (CFF) outlines');
    expect(body.details?.map((detail) => detail.field)).toEqual(['fonts[1]', 'fonts[2]', 'fonts[3]']);
  });

  it('a damaged TrueType font → 422', async () => {
    const res = await convert(docx, 'a.docx', [['fonts', (await acme()).slice(0, 4000), 'cut.ttf']]);
    const body = await expectError(res, 422, 'INVALID_DOCUMENT');
    expect(body.message).toMatch(/^fonts\[0\] "cut\.ttf" is a damaged TrueType font/);
  });

  it('a font larger than a font may be → 413 (MAX_DOCUMENT_BYTES is 2 MiB in tests)', async () => {
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(await acme());
    const body = await expectError(
      await convert(docx, 'a.docx', [['fonts', big, 'big.ttf']]),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expect(body.message).toContain('fonts[0] "big.ttf" is 2 MiB (2,097,153 bytes), more than the 2 MiB');
  });

  it('fonts larger together than the fonts of a request may be → 413', async () => {
    const part = new Uint8Array(1100 * 1024);
    part.set(await acme());
    const body = await expectError(
      await convert(docx, 'a.docx', [
        ['fonts', part, 'a.ttf'],
        ['fonts', part, 'b.ttf'],
      ]),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expect(body.details?.[0]?.field).toBe('fonts');
  });

  it('too many fonts → 400; a text field → 400', async () => {
    const tiny = fontHeader('OTTO', 16);
    const many: Part[] = Array.from({ length: MAX_REQUEST_FONTS + 1 }, (_, i) => ['fonts', tiny, `f${i}.ttf`]);
    const body = await expectError(await convert(docx, 'a.docx', many), 400, 'VALIDATION_ERROR');
    expect(body.details?.[0]?.field).toBe('fonts');
    expect(body.message).toContain(`at most ${MAX_REQUEST_FONTS} fonts`);

    const text = await expectError(await convert(docx, 'a.docx', [['fonts', 'Acme Brand']]), 400, 'VALIDATION_ERROR');
    expect(text.details?.[0]?.field).toBe('fonts[0]');
  });
});
