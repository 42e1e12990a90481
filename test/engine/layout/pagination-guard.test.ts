// Content that fits nowhere is placed anyway and said so: a header or footer never squeezes the
// body off its pages, a run of empty pages stops the flow from moving on, and what is drawn past a
// page's edge is named in X-Quire-Warnings.
import { describe, expect, it } from 'vitest';
import { EmptyPageGuard } from '../../../src/engine/layout/page-flow';
import { offPage } from '../../../src/engine/pages/off-page';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { buildDocx, type DocxParts, paragraph, tinyPng } from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';

async function convert(parts: DocxParts) {
  const form = new FormData();
  form.append('file', new File([buildDocx(parts) as Uint8Array<ArrayBuffer>], 'guard.docx'));
  const res = await call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
  expect(res.status).toBe(200);
  const pdf = new Uint8Array(await res.arrayBuffer());
  return { pdf, warnings: res.headers.get('X-Quire-Warnings') ?? '', pages: await pdfText(pdf) };
}

const body = (count: number) =>
  Array.from({ length: count }, (_, i) => paragraph(`Clause${i} of the agreement is kept.`)).join('');
const section = (margins: string, header = true) =>
  `<w:sectPr>${header ? '<w:headerReference w:type="default" r:id="rIdH"/>' : ''}<w:pgSz w:w="12240" w:h="15840"/><w:pgMar ${margins} w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>`;

describe('a header or footer taller than the page', () => {
  // 120 header lines (about 1,660 pt) on a 792 pt page: the body used to start below the sheet on
  // every page, and a document came out as pages of headers only.
  const tallHeader = Array.from({ length: 120 }, (_, i) => paragraph(`Header line ${i}`)).join('');

  it('keeps a quarter of the page for the body, draws all the body, and warns', async () => {
    const { warnings, pages } = await convert({
      document: `<w:body>${body(30)}${section('w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"')}</w:body>`,
      headers: { rIdH: tallHeader },
    });
    const text = pages.join('\n');
    for (let i = 0; i < 30; i++) expect(text).toContain(`Clause${i} of`);
    // A quarter of 648 pt is 162 pt: 30 lines of about 14 pt need three pages or so, not dozens.
    expect(pages.length).toBeLessThanOrEqual(4);
    expect(warnings).toContain('body keeps a quarter of the page');
  });

  it('does not move the body at all when the top margin is negative (§17.6.11)', async () => {
    const { pages, warnings } = await convert({
      document: `<w:body>${body(3)}${section('w:top="-1440" w:right="1440" w:bottom="1440" w:left="1440"')}</w:body>`,
      headers: { rIdH: Array.from({ length: 10 }, (_, i) => paragraph(`Header line ${i}`)).join('') },
    });
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Clause2 of');
    expect(warnings).not.toContain('quarter of the page');
  });
});

describe('a continuous section break on a page', () => {
  it('leaves the page the header of the section it starts in', async () => {
    // The body made room for section 1's header when the page began; section 2's, taller, took
    // over the page and overlapped the first lines of the body.
    const sectPr = (header: string, type = '') =>
      `<w:sectPr>${type}<w:headerReference w:type="default" r:id="${header}"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>`;
    const { pages } = await convert({
      document: `<w:body>${paragraph('In section one.')}<w:p><w:pPr>${sectPr('rIdA')}</w:pPr></w:p>${paragraph('In section two.')}${sectPr('rIdB', '<w:type w:val="continuous"/>')}</w:body>`,
      headers: {
        rIdA: paragraph('First header'),
        rIdB: Array.from({ length: 6 }, () => paragraph('Second header')).join(''),
      },
    });
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('First header');
    expect(pages[0]).not.toContain('Second header');
  });
});

describe('content past the page edge', () => {
  it('names the page of an inline picture taller than the page', async () => {
    // 1,000 pt tall on a 792 pt page: Word cuts it at the sheet's edge; so does Quire, and says so.
    const picture = `<w:r><w:drawing><wp:inline><wp:extent cx="3048000" cy="12700000"/><wp:docPr id="1" name="tall"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="tall.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="3048000" cy="12700000"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const { warnings, pages } = await convert({
      document: `<w:body>${paragraph('Before the picture.')}<w:p>${picture}</w:p>${paragraph('After the picture.')}${section('w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"', false)}</w:body>`,
      relationships: [{ id: 'rIdImg', type: 'image', target: 'media/tall.png' }],
      extraParts: { 'word/media/tall.png': tinyPng(2, 8) },
    });
    expect(pages.join('\n')).toContain('After the picture.');
    expect(warnings).toMatch(/picture larger than its page.*page 2/);
  });

  it('names the page of a text box positioned off the sheet', async () => {
    // A VML text box placed 900 pt down a 792 pt page (mso-position-vertical-relative:page).
    const box = `<w:r><w:pict><v:rect style="position:absolute;margin-left:0;margin-top:900pt;width:200pt;height:40pt;mso-position-horizontal-relative:page;mso-position-vertical-relative:page"><v:textbox><w:txbxContent><w:p><w:r><w:t>Lost in the margin</w:t></w:r></w:p></w:txbxContent></v:textbox></v:rect></w:pict></w:r>`;
    const { warnings } = await convert({
      document: `<w:body><w:p><w:r><w:t>On the page.</w:t></w:r>${box}</w:p>${section('w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"', false)}</w:body>`,
    });
    expect(warnings).toMatch(/Text that fits nowhere.*page 1/);
  });

  it('breaks the rest of a paragraph at the width of the narrower column it goes on in', async () => {
    // Unequal columns (§17.6.4): a wide first column, a narrow second. The paragraph that flows on
    // into the second column kept the first column's line width and ran off the page's right edge.
    const long = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' ');
    const { warnings, pages } = await convert({
      document: `<w:body>${paragraph(long)}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/><w:cols w:num="2" w:space="360" w:equalWidth="0"><w:col w:w="6480" w:space="360"/><w:col w:w="2520"/></w:cols></w:sectPr></w:body>`,
    });
    expect(warnings).not.toContain('Text that fits nowhere');
    const words = pages.join(' ').split(/\s+/);
    for (let i = 0; i < 2000; i++) expect(words).toContain(`w${i}`);
  });

  it('leaves out decoration and text on the page', () => {
    const page = {
      width: 100,
      height: 100,
      items: [
        { kind: 'rect' as const, x: -10, y: -10, width: 120, height: 120, fill: '000000' },
        { kind: 'text' as const, x: 10, y: 50, font: 'F', size: 10, color: '000000', text: 'in' },
        { kind: 'text' as const, x: 10, y: 150, font: 'F', size: 10, color: '000000', text: 'below' },
        { kind: 'text' as const, x: 10, y: 150, font: 'F', size: 10, color: '000000', text: '   ' },
        { kind: 'image' as const, x: -5, y: 0, width: 110, height: 100, image: 'bleed' },
        { kind: 'image' as const, x: 50, y: 50, width: 100, height: 100, image: 'cut' },
      ],
    };
    expect(offPage(page)).toEqual({ text: 1, pictures: 1 });
  });
});

describe('a one-cell table that runs for more than a thousand pages', () => {
  it('draws every page of it (an iteration cap once dropped the rest of the table)', async () => {
    // 9,000 paragraphs of 72 pt text, eight to a page: about 1,130 pages in one table row.
    const cell = Array.from(
      { length: 9000 },
      (_, i) => `<w:p><w:r><w:rPr><w:sz w:val="144"/></w:rPr><w:t>P${i}</w:t></w:r></w:p>`,
    ).join('');
    const { pages } = await convert({
      document: `<w:body><w:tbl><w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid><w:tr><w:tc>${cell}</w:tc></w:tr></w:tbl><w:p><w:r><w:t>After the table.</w:t></w:r></w:p>${section('w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"', false)}</w:body>`,
    });
    expect(pages.length).toBeGreaterThan(1004);
    expect(pages.at(-1)).toContain('After the table.');
    expect(pages.slice(-2).join(' ')).toContain('P8999');
  });
});

describe('the empty-page guard', () => {
  it('gives way after two pages in a row that took nothing while content waited', () => {
    const guard = new EmptyPageGuard();
    guard.finished(true);
    expect(guard.stuck()).toBe(false);
    guard.finished(true);
    expect(guard.stuck()).toBe(true);
    expect(guard.tripped).toBe(true);
    guard.placed();
    expect(guard.stuck()).toBe(false);
  });

  it('does not count pages left empty on purpose, or pages that took something', () => {
    const guard = new EmptyPageGuard();
    // Page breaks (not overflow) make empty pages a document asks for.
    for (let i = 0; i < 5; i++) guard.finished(false);
    expect(guard.stuck()).toBe(false);
    guard.finished(true);
    guard.placed();
    guard.finished(true);
    expect(guard.stuck()).toBe(false);
    expect(guard.tripped).toBe(false);
  });
});
