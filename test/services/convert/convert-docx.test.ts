import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import {
  buildDocx,
  NOTE_STYLES,
  note,
  noteReference,
  noteSeparators,
  paragraph,
  tinyPng,
} from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';

async function convert(bytes: Uint8Array, query = 'from=docx&to=pdf', name = 'contract.docx') {
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
  return call(`/v1/convert?${query}`, withKey(await mintKey(), { method: 'POST', body: form }));
}

const heading = (text: string) => paragraph(text, { pPr: '<w:pStyle w:val="Heading1"/>' });
const STYLES = `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/><w:widowControl/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>`;

describe('POST /v1/convert docx → pdf', () => {
  it('answers a PDF with selectable text, a clickable link, an outline and the core properties', async () => {
    const docx = buildDocx({
      styles: STYLES,
      coreProperties: { title: 'Master Agreement', creator: 'Ada Lovelace', subject: 'Terms' },
      relationships: [{ id: 'rIdLink', type: 'hyperlink', target: 'https://example.com/terms', external: true }],
      document: `<w:body>${heading('Scope of work')}${paragraph('The supplier delivers the services described below.')}<w:p><w:hyperlink r:id="rIdLink"><w:r><w:t>Read the terms</w:t></w:r></w:hyperlink></w:p></w:body>`,
    });
    const res = await convert(docx);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="contract.pdf"');
    expect(res.headers.get('X-Quire-Pages')).toBe('1');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const [text] = await pdfText(bytes);
    expect(text).toContain('Scope of work');
    expect(text).toContain('The supplier delivers the services described below.');

    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe('Master Agreement');
    expect(doc.getAuthor()).toBe('Ada Lovelace');
    expect(doc.getSubject()).toBe('Terms');
    const annots = doc.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray);
    const uris = annots.asArray().map((ref) => {
      const action = doc.context.lookup(ref, PDFDict).lookup(PDFName.of('A'), PDFDict);
      const uri = action.lookup(PDFName.of('URI'));
      return uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText() : String(uri);
    });
    expect(uris).toContain('https://example.com/terms');
    expect(doc.catalog.get(PDFName.of('Outlines'))).toBeDefined();
  });

  it('prints PAGE and NUMPAGES in a footer on every page', async () => {
    const field = (name: string) =>
      `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${name} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    const body = Array.from({ length: 110 }, (_, i) => paragraph(`Clause ${i + 1} of the agreement.`)).join('');
    const docx = buildDocx({
      styles: STYLES,
      footers: {
        rIdF: `<w:p><w:r><w:t xml:space="preserve">Page </w:t></w:r>${field('PAGE')}<w:r><w:t xml:space="preserve"> of </w:t></w:r>${field('NUMPAGES')}</w:p>`,
      },
      document: `<w:body>${body}<w:sectPr><w:footerReference w:type="default" r:id="rIdF"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720"/></w:sectPr></w:body>`,
    });
    const res = await convert(docx);
    expect(res.status).toBe(200);
    const pages = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const [i, text] of pages.entries()) expect(text).toContain(`Page ${i + 1} of ${pages.length}`);
  });

  it.each([
    ['markup', ['kept', 'added', 'removed']],
    ['final', ['kept', 'added']],
    ['original', ['kept', 'removed']],
  ] as const)('prints tracked changes with revisions=%s', async (mode, expected) => {
    const docx = buildDocx({
      document: `<w:body><w:p><w:r><w:t xml:space="preserve">kept </w:t></w:r><w:ins w:id="1" w:author="Ada" w:date="2026-01-01T00:00:00Z"><w:r><w:t xml:space="preserve">added </w:t></w:r></w:ins><w:del w:id="2" w:author="Bob" w:date="2026-01-01T00:00:00Z"><w:r><w:delText>removed</w:delText></w:r></w:del></w:p></w:body>`,
    });
    const res = await convert(docx, `from=docx&to=pdf&revisions=${mode}`);
    expect(res.status).toBe(200);
    const [text] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    for (const word of ['kept', 'added', 'removed']) {
      if (expected.includes(word as never)) expect(text).toContain(word);
      else expect(text).not.toContain(word);
    }
  });

  it('prints footnotes at the foot of the page and endnotes after the body, with their marks', async () => {
    const run = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const docx = buildDocx({
      styles: `${STYLES}${NOTE_STYLES}`,
      document: `<w:body><w:p>${run('The supplier warrants the goods')}${noteReference('footnote', '1')}${run(' and the services')}${noteReference('footnote', '2')}${run('.')}</w:p><w:p>${run('Payment is due in thirty days')}${noteReference('endnote', '1')}${run('.')}</w:p></w:body>`,
      footnotes: `${noteSeparators('footnote')}${note('footnote', '1', 'For twelve months from delivery.')}${note('footnote', '2', 'Services as listed in schedule B.')}`,
      endnotes: `${noteSeparators('endnote')}${note('endnote', '1', 'From the date of the invoice.')}`,
    });
    const res = await convert(docx);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('X-Quire-Warning-Count') ?? 0)).toBe(0);
    const [text = ''] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    // Marks in the body (1, 2 and the endnote's i), and each note's text after its own mark.
    expect(text).toContain('The supplier warrants the goods 1 and the services 2 .');
    expect(text).toContain('Payment is due in thirty days i .');
    expect(text).toMatch(/i From the date of the invoice\./);
    expect(text).toMatch(/1 For twelve months from delivery\..*2 Services as listed in schedule B\./);
    // The endnote follows the body; the footnotes sit at the foot of the page, after it.
    expect(text.indexOf('From the date of the invoice.')).toBeLessThan(text.indexOf('For twelve months'));
  });

  it('embeds an inline picture', async () => {
    const docx = buildDocx({
      relationships: [{ id: 'rIdImg', type: 'image', target: 'media/image1.png' }],
      extraParts: { 'word/media/image1.png': tinyPng(4, 3) },
      document: `<w:body><w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="685800"/><wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p></w:body>`,
    });
    const res = await convert(docx);
    expect(res.status).toBe(200);
    const doc = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    const resources = doc.getPage(0).node.Resources();
    expect(resources?.lookup(PDFName.of('XObject'))).toBeDefined();
  });
});

describe('POST /v1/convert refuses bad input with the error body', () => {
  const zip = (parts: Record<string, string>) =>
    buildDocx({ document: '<w:body/>', omit: ['word/document.xml', ...Object.keys(parts)], extraParts: parts });

  it('a ZIP that is not OOXML → 415', async () => {
    const res = await convert(buildDocx({ document: '<w:body/>', omit: ['word/document.xml', '[Content_Types].xml'] }));
    await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a corrupt ZIP → 422', async () => {
    const bytes = buildDocx({ document: `<w:body>${paragraph('x')}</w:body>` });
    const corrupt = bytes.slice();
    corrupt.fill(0, corrupt.length - 60, corrupt.length - 10);
    await expectError(await convert(corrupt), 422, 'INVALID_DOCUMENT');
  });

  it('an encrypted (OLE) .docx → 422', async () => {
    const ole = new Uint8Array(1024);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const name = 'EncryptedPackage';
    for (let i = 0; i < name.length; i++) ole[600 + i * 2] = name.charCodeAt(i);
    const body = await expectError(await convert(ole), 422, 'INVALID_DOCUMENT');
    expect(body.message).toMatch(/password/);
  });

  it('an XML bomb (entity expansion) → 422', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&c;</w:t></w:r></w:p></w:body></w:document>`;
    const body = await expectError(await convert(buildDocx({ document: bomb })), 422, 'INVALID_DOCUMENT');
    expect(body.message).toMatch(/DTD|DOCTYPE/i);
  });

  it('a zip bomb (an XML part inflating past the 32 MiB XML budget) → 422 DOCUMENT_TOO_COMPLEX, without inflating it all', async () => {
    // 40 MiB of spaces deflates to ~40 KiB.
    const huge = `<w:body><w:p><w:r><w:t>${' '.repeat(40 * 1024 * 1024)}</w:t></w:r></w:p></w:body>`;
    const body = await expectError(await convert(buildDocx({ document: huge })), 422, 'DOCUMENT_TOO_COMPLEX');
    expect(body.message).toMatch(/XML parts expand to more than 32 MiB/);
  });

  it('a DOCX without word/document.xml → 415', async () => {
    await expectError(await convert(zip({ 'word/other.xml': '<x/>' })), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a PDF sent as docx → 415', async () => {
    await expectError(await convert(new TextEncoder().encode('%PDF-1.7\n%…')), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('an image that lies about its size is left out, and the document still converts', async () => {
    const png = tinyPng(2, 2);
    const liar = png.slice();
    new DataView(liar.buffer).setUint32(16, 100000); // IHDR width
    new DataView(liar.buffer).setUint32(20, 100000); // IHDR height
    const docx = buildDocx({
      relationships: [{ id: 'rIdImg', type: 'image', target: 'media/image1.png' }],
      extraParts: { 'word/media/image1.png': liar },
      document: `<w:body>${paragraph('Before the picture.')}<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="p"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p></w:body>`,
    });
    const res = await convert(docx);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('X-Quire-Warning-Count'))).toBeGreaterThanOrEqual(1);
    const [text] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('Before the picture.');
  });

  it('a missing file part → 400, an unsupported pair → 400, a planned pair → 501', async () => {
    const key = await mintKey();
    const empty = new FormData();
    empty.append('other', 'x');
    const missing = await call('/v1/convert?from=docx', withKey(key, { method: 'POST', body: empty }));
    const body = await expectError(missing, 400, 'VALIDATION_ERROR');
    expect(body.details?.[0]?.field).toBe('file');
    const docx = buildDocx({ document: `<w:body>${paragraph('x')}</w:body>` });
    const pair = await expectError(await convert(docx, 'from=docx&to=docx'), 400, 'VALIDATION_ERROR');
    expect(pair.message).toContain('docx→pdf');
    // Bytes that are not the format `from` names: 415, whatever the file is called.
    await expectError(await convert(docx, 'from=md&to=pdf', 'a.md'), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('JSON instead of multipart → 415', async () => {
    const res = await call(
      '/v1/convert',
      withKey(await mintKey(), { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } }),
    );
    await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('names in X-Quire-Warnings the fonts drawn with other metrics, and embeds their stand-ins', async () => {
    const run = (font: string, text: string) =>
      `<w:p><w:r><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}"/></w:rPr><w:t>${text}</w:t></w:r></w:p>`;
    const docx = buildDocx({
      styles: STYLES,
      fontTable: '<w:font w:name="inherit"><w:altName w:val="Times New Roman"/><w:family w:val="roman"/></w:font>',
      document: `<w:body>${run('Verdana', 'Verdana text')}${run('Georgia', 'Georgia text')}${run('inherit', 'Pasted text')}${run('Open Sans', 'Open Sans text')}${paragraph('Calibri text')}</w:body>`,
    });
    const res = await convert(docx);
    expect(res.status).toBe(200);
    const warnings = res.headers.get('X-Quire-Warnings') ?? '';
    expect(warnings).toContain('Font "Verdana" is not available: drawn with DejaVu Sans');
    // Metric-compatible, the font itself, or where Word sends it (the font table's w:altName): no warning.
    for (const quiet of ['Georgia', 'inherit', 'Open Sans', 'Calibri']) expect(warnings).not.toContain(`"${quiet}"`);
    const pdf = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
    const fonts = pdf.context
      .enumerateIndirectObjects()
      .map(([, object]) => (object instanceof PDFDict ? object.get(PDFName.of('BaseFont')) : undefined))
      .filter((name) => name !== undefined)
      .map(String);
    for (const face of ['DejaVuSans', 'Gelasio', 'LiberationSerif', 'OpenSans', 'Carlito']) {
      expect(fonts.some((name) => name.includes(face))).toBe(true);
    }
  });
});
