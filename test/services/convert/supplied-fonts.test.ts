import { env } from 'cloudflare:test';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors';
import { requestFonts } from '../../../src/services/convert/font-library';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { buildDocx } from '../../helpers/docx-fixture';
import { bundledFont, renamedFont } from '../../helpers/font-fixture';

const STYLES =
  '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>';

/** A DOCX of one paragraph per [font, bold, text]. */
function docxIn(runs: [string, boolean, string][], extra: Parameters<typeof buildDocx>[0] = { document: '' }) {
  const body = runs
    .map(
      ([font, bold, text]) =>
        `<w:p><w:r><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}"/>${bold ? '<w:b/>' : ''}</w:rPr><w:t>${text}</w:t></w:r></w:p>`,
    )
    .join('');
  return buildDocx({ ...extra, styles: STYLES, document: `<w:body>${body}</w:body>` });
}

async function convert(document: Uint8Array, fonts: [string, Uint8Array][] = [], query = 'from=docx&to=pdf') {
  const form = new FormData();
  form.append('file', new File([document as Uint8Array<ArrayBuffer>], 'brand.docx'));
  for (const [name, bytes] of fonts) form.append('fonts', new File([bytes as Uint8Array<ArrayBuffer>], name));
  return call(`/v1/convert?${query}`, withKey(await mintKey(), { method: 'POST', body: form }));
}

/** The BaseFont names of a PDF's fonts. */
async function baseFonts(res: Response): Promise<string[]> {
  const pdf = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
  return pdf.context
    .enumerateIndirectObjects()
    .map(([, object]) => (object instanceof PDFDict ? object.get(PDFName.of('BaseFont')) : undefined))
    .filter((name) => name !== undefined)
    .map(String);
}

async function brandFont(family: string, postscript: string, file = 'LiberationSans-Regular.ttf', style = 'Regular') {
  return renamedFont(await bundledFont(file), family, style, postscript);
}

describe('fonts a caller brings', () => {
  it('draws a family the document names with the font sent in the request, for its name table’s family and style', async () => {
    const regular = await brandFont('Acme Brand', 'AcmeBrand-Regular');
    const bold = await brandFont('Acme Brand', 'AcmeBrand-Bold', 'LiberationSans-Bold.ttf', 'Bold');
    const res = await convert(
      docxIn([
        ['Acme Brand', false, 'Plain brand text'],
        ['Acme Brand', true, 'Bold brand text'],
      ]),
      [
        ['acme.ttf', regular],
        ['acme-bold.ttf', bold],
      ],
    );
    expect(res.status).toBe(200);
    // No substitution to report: the brand font itself drew the text.
    expect(res.headers.get('X-Quire-Warnings') ?? '').not.toContain('Acme Brand');
    const fonts = await baseFonts(res);
    expect(fonts.some((name) => name.endsWith('+AcmeBrand-Regular'))).toBe(true);
    expect(fonts.some((name) => name.endsWith('+AcmeBrand-Bold'))).toBe(true);
  });

  it('without the font, substitutes and says so', async () => {
    const res = await convert(docxIn([['Acme Brand', false, 'Plain brand text']]));
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Quire-Warnings')).toContain('Font "Acme Brand" is not available');
  });

  it('draws Markdown and HTML to PDF with them too', async () => {
    const font = await brandFont('Acme Html', 'AcmeHtml-Regular');
    const html = new TextEncoder().encode('<p style="font-family: \'Acme Html\', sans-serif">Brand paragraph</p>');
    const form = new FormData();
    form.append('file', new File([html], 'page.html'));
    form.append('fonts', new File([font as Uint8Array<ArrayBuffer>], 'acme.ttf'));
    const res = await call('/v1/convert?to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    expect((await baseFonts(res)).some((name) => name.endsWith('+AcmeHtml-Regular'))).toBe(true);
  });

  it('keeps fonts embedded in the DOCX first', async () => {
    const KEY = '{4C5F7E0A-1B2C-4D3E-8F90-A1B2C3D4E5F6}';
    const hex = KEY.replace(/[{}-]/g, '');
    const key: number[] = [];
    for (let i = hex.length - 2; i >= 0; i -= 2) key.push(Number.parseInt(hex.slice(i, i + 2), 16));
    const embedded = await brandFont('Acme Embedded', 'AcmeEmbedded-FromDocx');
    const obfuscated = embedded.slice();
    for (let i = 0; i < 32; i++) obfuscated[i] = (obfuscated[i] as number) ^ (key[i % 16] as number);
    const document = docxIn([['Acme Embedded', false, 'Embedded wins']], {
      document: '',
      fontTable: `<w:font w:name="Acme Embedded"><w:embedRegular r:id="rIdF1" w:fontKey="${KEY}"/></w:font>`,
      fontTableRelationships: [{ id: 'rIdF1', type: 'font', target: 'fonts/font1.odttf' }],
      extraParts: { 'word/fonts/font1.odttf': obfuscated },
    });
    const sent = await brandFont('Acme Embedded', 'AcmeEmbedded-FromRequest');
    const res = await convert(document, [['acme.ttf', sent]]);
    expect(res.status).toBe(200);
    const fonts = await baseFonts(res);
    expect(fonts.some((name) => name.endsWith('+AcmeEmbedded-FromDocx'))).toBe(true);
    expect(fonts.some((name) => name.includes('FromRequest'))).toBe(false);
  });

  it('takes the account’s fonts from the FONTS library, by family and style, after the request’s', async () => {
    await env.FONTS?.put('acme library/Regular.ttf', await brandFont('Acme Library', 'AcmeLibrary-Regular'));
    // Filed as Bold: used for bold, whatever the file's own name table says.
    await env.FONTS?.put('acme library/Bold.ttf', await brandFont('Other Name', 'AcmeLibrary-Bold'));
    const res = await convert(
      docxIn([
        ['Acme Library', false, 'From the library'],
        ['ACME  Library', true, 'Bold from the library'],
      ]),
    );
    expect(res.status).toBe(200);
    const fonts = await baseFonts(res);
    expect(fonts.some((name) => name.endsWith('+AcmeLibrary-Regular'))).toBe(true);
    expect(fonts.some((name) => name.endsWith('+AcmeLibrary-Bold'))).toBe(true);
    expect(res.headers.get('X-Quire-Warnings') ?? '').not.toContain('Acme Library');
  });

  it('warns about a library object that is not a usable font, and draws with the substitute', async () => {
    await env.FONTS?.put('acme broken/Regular.ttf', new TextEncoder().encode('not a font at all'));
    const res = await convert(docxIn([['Acme Broken', false, 'Still converted']]));
    expect(res.status).toBe(200);
    const warnings = res.headers.get('X-Quire-Warnings') ?? '';
    expect(warnings).toContain("The font library's acme broken/Regular.ttf is not used");
    expect(warnings).toContain('Font "Acme Broken" is not available');
  });

  it('answers 415 for a part that is not a TrueType font, naming it and why', async () => {
    const cff = new Uint8Array(64);
    cff.set([0x4f, 0x54, 0x54, 0x4f]); // 'OTTO'
    const notFont = await convert(docxIn([['Arial', false, 'x']]), [
      ['notes.txt', new TextEncoder().encode('hello world, no font')],
    ]);
    expect((await expectError(notFont, 415, 'UNSUPPORTED_MEDIA_TYPE')).message).toMatch(
      /Font 1 of the request \("notes.txt"\) cannot be used/,
    );
    const postscript = await convert(docxIn([['Arial', false, 'x']]), [['brand.otf', cff]]);
    expect((await expectError(postscript, 415, 'UNSUPPORTED_MEDIA_TYPE')).message).toMatch(
      /CFF \(PostScript\) outlines/,
    );
    const woff2 = new Uint8Array(64);
    woff2.set([0x77, 0x4f, 0x46, 0x32]); // 'wOF2'
    expect(
      (
        await expectError(
          await convert(docxIn([['Arial', false, 'x']]), [['brand.woff2', woff2]]),
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        )
      ).message,
    ).toMatch(/WOFF2/);
  });

  it('answers 400 for more than 8 fonts and 413 for a font past 10 MiB', async () => {
    const font = await brandFont('Acme Many', 'AcmeMany-Regular');
    const many: [string, Uint8Array][] = Array.from({ length: 9 }, (_, i) => [`f${i}.ttf`, font]);
    const tooMany = await convert(docxIn([['Arial', false, 'x']]), many);
    expect((await expectError(tooMany, 400, 'VALIDATION_ERROR')).message).toMatch(/9 fonts; at most 8/);
    const huge = new Uint8Array(10 * 1024 * 1024 + 1);
    huge.set(font);
    const tooLarge = await convert(docxIn([['Arial', false, 'x']]), [['huge.ttf', huge]]);
    expect(tooLarge.status).toBe(413);
  });

  it('says that fonts are not embedded in DOCX output', async () => {
    const font = await brandFont('Acme Docx', 'AcmeDocx-Regular');
    const form = new FormData();
    form.append('file', new File([new TextEncoder().encode('# Title\n\nText')], 'notes.md'));
    form.append('fonts', new File([font as Uint8Array<ArrayBuffer>], 'acme.ttf'));
    const res = await call('/v1/convert?to=docx', withKey(await mintKey(), { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Quire-Warnings')).toContain('not embedded in DOCX output');
  });

  it('limits one font to 10 MiB and the fonts of a request to 24 MiB together (the service, past the body limit)', async () => {
    const font = await brandFont('Acme Size', 'AcmeSize-Regular');
    const padded = (size: number) => {
      const bytes = new Uint8Array(size);
      bytes.set(font);
      return { name: 'big.ttf', bytes };
    };
    const tooLarge = (() => {
      try {
        requestFonts([padded(10 * 1024 * 1024 + 1)]);
      } catch (error) {
        return error;
      }
    })();
    expect(tooLarge).toBeInstanceOf(ApiError);
    expect((tooLarge as ApiError).code).toBe('PAYLOAD_TOO_LARGE');
    expect((tooLarge as ApiError).message).toMatch(/Font 1 of the request \("big.ttf"\) is 10485761 bytes/);
    const three = [padded(9 * 1024 * 1024), padded(9 * 1024 * 1024), padded(9 * 1024 * 1024)];
    expect(() => requestFonts(three)).toThrow(/more than 24 MiB \(25,165,824 bytes\) together/);
    // Within the limits, each is read for its own family and style.
    expect(requestFonts([{ name: 'acme.ttf', bytes: font }])).toEqual([
      { family: 'Acme Size', bold: false, italic: false, bytes: font },
    ]);
  });
});
