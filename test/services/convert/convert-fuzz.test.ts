import { describe, expect, it } from 'vitest';
import { type DocxBase, docxBase, makeDocxVariant } from '../../../scripts/docx-mutations.mjs';
import { parseLength } from '../../../src/engine/read/html/css-values';
import { twips } from '../../../src/engine/read/ooxml/units';
import { cssLength } from '../../../src/engine/read/ooxml/vml-shape-reader';
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

/**
 * Seeded mutations (scripts/docx-mutations.mjs, the same as `npm run convert-fuzz`) of rich DOCX
 * packages built here, each sent to POST /v1/convert: docs/api.md allows a PDF (200) or a 4xx with its
 * error body, never a 5xx. The script runs the same mutations over the corpus.
 */

const SEED = 0x2026_1128;
const VARIANTS = 200;
const HANG_MS = 20_000;
/** Requests per key: under the per-key rate limit (120 a minute). */
const PER_KEY = 100;
/** What one mutation may add, in characters: long words and thousands of copies, and 200 variants in seconds. */
const MAX_GROWTH = 1024 * 1024;

const STYLES = `<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:keepNext/><w:spacing w:before="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>
<w:style w:type="table" w:styleId="Grid"><w:name w:val="Table Grid"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0"/><w:left w:val="single" w:sz="4" w:space="0"/><w:bottom w:val="single" w:sz="4" w:space="0"/><w:right w:val="single" w:sz="4" w:space="0"/><w:insideH w:val="single" w:sz="4" w:space="0"/><w:insideV w:val="single" w:sz="4" w:space="0"/></w:tblBorders><w:tblCellMar><w:left w:w="108" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>${NOTE_STYLES}`;

const heading = (text: string) => paragraph(text, { pPr: '<w:pStyle w:val="Heading1"/>' });

const field = (instruction: string, shown: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instruction} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${shown}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;

const cell = (text: string, width: number, extra = '') =>
  `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/>${extra}</w:tcPr>${paragraph(text)}</w:tc>`;

const sectPr = (inner: string) =>
  `<w:sectPr>${inner}<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/><w:cols w:space="720"/><w:pgNumType w:start="1"/><w:docGrid w:linePitch="360"/></w:sectPr>`;

/** Tables (spans, merges, a header row), tabs with leaders, two sections, headers and footers with fields. */
function tablesAndSections(): Uint8Array {
  const rows = Array.from(
    { length: 12 },
    (_, i) => `<w:tr>${cell(`Item ${i + 1}`, 3000)}${cell(`${(i + 1) * 12}.00`, 2000)}${cell('note', 4000)}</w:tr>`,
  ).join('');
  const table = `<w:tbl><w:tblPr><w:tblStyle w:val="Grid"/><w:tblW w:w="9000" w:type="dxa"/><w:tblInd w:w="0" w:type="dxa"/><w:tblLayout w:type="fixed"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="2000"/><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:trPr><w:tblHeader/><w:trHeight w:val="400"/></w:trPr>${cell('Name', 3000)}${cell('Amount', 2000)}${cell('Remarks', 4000)}</w:tr><w:tr>${cell('Merged across', 5000, '<w:gridSpan w:val="2"/>')}${cell('top', 4000, '<w:vMerge w:val="restart"/>')}</w:tr><w:tr>${cell('a', 3000)}${cell('b', 2000)}${cell('', 4000, '<w:vMerge/>')}</w:tr>${rows}</w:tbl>`;
  const tabs = paragraph('Total\tUSD 144.00', {
    pPr: '<w:tabs><w:tab w:val="right" w:leader="dot" w:pos="9000"/></w:tabs><w:ind w:left="360" w:right="360" w:hanging="360"/>',
  });
  return buildDocx({
    styles: STYLES,
    headers: { rIdH: paragraph('Quarterly statement') },
    footers: {
      rIdF: `<w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t xml:space="preserve">Page </w:t></w:r>${field('PAGE', '1')}<w:r><w:t xml:space="preserve"> of </w:t></w:r>${field('NUMPAGES', '1')}</w:p>`,
    },
    document: `<w:body>${heading('Statement')}${paragraph('The amounts below are due within thirty days.')}${table}${tabs}<w:p><w:pPr>${sectPr('<w:headerReference w:type="default" r:id="rIdH"/><w:footerReference w:type="default" r:id="rIdF"/>')}</w:pPr></w:p>${heading('Landscape annex')}${paragraph('Two columns of terms follow. '.repeat(30))}<w:sectPr><w:footerReference w:type="default" r:id="rIdF"/><w:type w:val="nextPage"/><w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/><w:pgMar w:top="1080" w:right="1080" w:bottom="1080" w:left="1080" w:header="708" w:footer="708" w:gutter="0"/><w:cols w:num="2" w:space="708"/></w:sectPr></w:body>`,
  });
}

/** Numbered and bulleted lists, footnotes and endnotes, bookmarks with REF/PAGEREF/TOC, a hyperlink. */
function listsNotesAndFields(): Uint8Array {
  const level = (ilvl: number, format: string, text: string) =>
    `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${720 * (ilvl + 1)}" w:hanging="360"/></w:pPr></w:lvl>`;
  const numbering = `<w:abstractNum w:abstractNumId="0">${level(0, 'decimal', '%1.')}${level(1, 'lowerLetter', '%2)')}${level(2, 'lowerRoman', '%3.')}</w:abstractNum><w:abstractNum w:abstractNumId="1">${level(0, 'bullet', '•')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="3"/></w:lvlOverride></w:num>`;
  const item = (text: string, numId: number, ilvl = 0) =>
    paragraph(text, { pPr: `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>` });
  const toc = `<w:p>${field('TOC \\o "1-3" \\h', 'Contents')}</w:p>`;
  return buildDocx({
    styles: STYLES,
    numbering,
    footnotes: `${noteSeparators('footnote')}${note('footnote', '1', 'As agreed on 1 March.')}${note('footnote', '2', 'See the annex.')}`,
    endnotes: `${noteSeparators('endnote')}${note('endnote', '1', 'End of terms.')}`,
    relationships: [{ id: 'rIdLink', type: 'hyperlink', target: 'https://example.com/terms', external: true }],
    document: `<w:body>${toc}${heading('Obligations')}<w:p><w:bookmarkStart w:id="0" w:name="duties"/><w:r><w:t xml:space="preserve">The parties agree</w:t></w:r>${noteReference('footnote', '1')}<w:bookmarkEnd w:id="0"/></w:p>${item('Deliver the goods', 1)}${item('Inspect them', 1, 1)}${item('Within a week', 1, 2)}${item('Pay the invoice', 1)}${item('First bullet', 2)}${item('Second bullet', 2)}<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r>${field('REF duties \\h', 'The parties agree')}<w:r><w:t xml:space="preserve"> on page </w:t></w:r>${field('PAGEREF duties \\h', '1')}${noteReference('footnote', '2')}${noteReference('endnote', '1')}</w:p><w:p><w:hyperlink r:id="rIdLink"><w:r><w:t>Read the terms</w:t></w:r></w:hyperlink></w:p>${paragraph(`Dated ${'\u00A0'}today`)}<w:p>${field('DATE \\@ "d MMMM yyyy"', '1 March 2026')}</w:p>${sectPr('')}</w:body>`,
  });
}

/** Inline and anchored pictures, a text box, tracked changes, a content control, a page break, RTL text. */
function picturesAndRevisions(): Uint8Array {
  const inline = `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="914400" cy="685800"/><wp:docPr id="1" name="Picture 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/><a:srcRect l="0" t="0" r="0" b="0"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="685800"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
  const anchored = `<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="2" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>3200400</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="1371600" cy="914400"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="2" name="Picture 2"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="2" name="q"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg2"/></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1371600" cy="914400"/></a:xfrm></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
  const textBox = `<w:r><w:drawing><wp:anchor simplePos="0" relativeHeight="3" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="margin"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>457200</wp:posOffset></wp:positionV><wp:extent cx="1828800" cy="457200"/><wp:wrapTopAndBottom/><wp:docPr id="3" name="Text Box 3"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:txbx><w:txbxContent>${paragraph('Boxed remark')}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
  return buildDocx({
    styles: STYLES,
    relationships: [
      { id: 'rIdImg', type: 'image', target: 'media/image1.png' },
      { id: 'rIdImg2', type: 'image', target: 'media/image2.png' },
    ],
    extraParts: { 'word/media/image1.png': tinyPng(8, 6), 'word/media/image2.png': tinyPng(3, 2, [20, 90, 200]) },
    document: `<w:body>${heading('Site photos')}<w:p>${inline}<w:r><w:t xml:space="preserve"> Front view. </w:t></w:r>${anchored}</w:p><w:p>${textBox}<w:r><w:t>Text beside the box.</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">kept </w:t></w:r><w:ins w:id="1" w:author="Ada" w:date="2026-01-01T00:00:00Z"><w:r><w:t xml:space="preserve">added </w:t></w:r></w:ins><w:del w:id="2" w:author="Bob" w:date="2026-01-01T00:00:00Z"><w:r><w:delText>removed</w:delText></w:r></w:del></w:p><w:sdt><w:sdtPr><w:tag w:val="client"/><w:id w:val="77"/></w:sdtPr><w:sdtContent>${paragraph('Client name')}</w:sdtContent></w:sdt><w:p><w:r><w:br w:type="page"/></w:r></w:p><w:p><w:pPr><w:bidi/><w:jc w:val="right"/></w:pPr><w:r><w:rPr><w:rtl/><w:sz w:val="28"/><w:szCs w:val="28"/></w:rPr><w:t>\u0645\u0631\u062D\u0628\u0627 \u0628\u0643\u0645</w:t></w:r></w:p>${paragraph('Spaced out', { rPr: '<w:spacing w:val="40"/><w:w w:val="150"/><w:kern w:val="28"/><w:position w:val="6"/>' })}${sectPr('')}</w:body>`,
  });
}

/** Many short paragraphs over several pages, with keep-with-next headings and a column break. */
function longFlow(): Uint8Array {
  const body = Array.from({ length: 40 }, (_, i) =>
    i % 8 === 0
      ? heading(`Part ${i / 8 + 1}`)
      : paragraph(`Clause ${i}: the supplier shall keep records of every delivery for seven years.`, {
          pPr: '<w:spacing w:before="0" w:after="120"/><w:ind w:firstLine="720"/>',
        }),
  ).join('');
  return buildDocx({
    styles: STYLES,
    document: `<w:body>${body}<w:p><w:r><w:br w:type="column"/><w:t>After a column break</w:t></w:r></w:p><w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" w:header="567" w:footer="567" w:gutter="0"/><w:cols w:num="2" w:space="425"/></w:sectPr></w:body>`,
  });
}

async function convert(key: string, bytes: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], 'variant.docx'));
  return call('/v1/convert?from=docx&to=pdf', withKey(key, { method: 'POST', body: form }));
}

/** What is wrong with an answer, by docs/api.md: a PDF, or a 4xx whose body is the error object. */
async function contractProblem(res: Response): Promise<string | undefined> {
  if (res.status === 200) {
    const head = new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).subarray(0, 5));
    return head === '%PDF-' ? undefined : `a 200 that is not a PDF (${JSON.stringify(head)})`;
  }
  const text = await res.text();
  if (res.status >= 500 || res.status < 400) return `status ${res.status}: ${text.slice(0, 300)}`;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const key of ['code', 'error', 'message', 'requestId']) {
      if (typeof body[key] !== 'string' || !body[key]) return `${res.status} without ${key}: ${text.slice(0, 200)}`;
    }
    if (body.requestId !== res.headers.get('X-Request-Id')) return `${res.status}: requestId is not X-Request-Id`;
  } catch {
    return `${res.status} whose body is not JSON: ${text.slice(0, 200)}`;
  }
  return undefined;
}

describe('POST /v1/convert under seeded DOCX mutations', () => {
  it(`answers ${VARIANTS} mutated packages with a PDF or a 4xx error body, never a 5xx`, {
    timeout: 120_000,
  }, async () => {
    const bases: DocxBase[] = [
      docxBase('tables-sections', tablesAndSections()),
      docxBase('lists-notes-fields', listsNotesAndFields()),
      docxBase('pictures-revisions', picturesAndRevisions()),
      docxBase('long-flow', longFlow()),
    ];
    let key = await mintKey();
    // The bases themselves convert, so the mutations start from documents that work.
    for (const base of bases) expect(await contractProblem(await convert(key, base.bytes)), base.name).toBeUndefined();

    const unexpected: string[] = [];
    const statuses = new Map<number, number>();
    const times: { ms: number; what: string }[] = [];
    for (let index = 0; index < VARIANTS; index++) {
      if (index % PER_KEY === 0) key = await mintKey();
      const variant = makeDocxVariant(bases, SEED, index, { maxGrowth: MAX_GROWTH });
      const started = Date.now();
      const res = await convert(key, variant.bytes);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const problem = await contractProblem(res);
      const ms = Date.now() - started;
      // The script's hang: no answer within 20 s.
      if (ms > HANG_MS) unexpected.push(`variant ${index} (base ${variant.base}: ${variant.mutation}): ${ms} ms`);
      times.push({
        ms,
        what: `variant ${index} ${res.status} (base ${variant.base}: ${variant.mutation.slice(0, 160)})`,
      });
      if (problem) unexpected.push(`variant ${index} (base ${variant.base}: ${variant.mutation}): ${problem}`);
    }
    const slowest = times.sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.info(
      `convert-fuzz: ${JSON.stringify(Object.fromEntries(statuses))}; slowest:\n${slowest.map((t) => `  ${t.ms} ms ${t.what}`).join('\n')}`,
    );
    expect(unexpected, JSON.stringify(Object.fromEntries(statuses))).toEqual([]);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(VARIANTS / 4);
  });

  it('remakes a variant from (seed, index) alone', () => {
    const bases = [docxBase('tables-sections', tablesAndSections()), docxBase('long-flow', longFlow())];
    const once = makeDocxVariant(bases, SEED, 17);
    const again = makeDocxVariant(bases, SEED, 17);
    expect(again.mutation).toBe(once.mutation);
    expect(again.bytes).toEqual(once.bytes);
  });

  // Found by `npm run convert-fuzz` (seed 2026) and this test (variant 57): a 100,000-digit
  // w:spacing/@w:before took 118 s to answer, because the universal-measure pattern
  // `[0-9]*\.?[0-9]+` tried every split of the digit run; the length readers now match linearly.
  it('reads lengths of 200,000 digits at once (DOCX, VML and CSS readers)', () => {
    const digits = '9'.repeat(200_000);
    const started = Date.now();
    expect(twips(digits)).toBeUndefined();
    expect(twips(`${digits}x`)).toBeUndefined();
    expect(twips(`1.${digits}pt`)).toBeCloseTo(2);
    expect(cssLength(`${digits}x`)).toBeUndefined();
    expect(cssLength(`5${' '.repeat(200_000)}x`)).toBeUndefined();
    expect(cssLength('12 pt')).toBe(12);
    expect(cssLength('8')).toBe(6);
    expect(parseLength(`${digits}!`, { fontSize: 12 })).toBeUndefined();
    expect(parseLength('.5in', { fontSize: 12 })).toBe(36);
    expect(parseLength('3.em', { fontSize: 12 })).toBe(36);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('converts a paragraph whose spacing is 100,000 digits', async () => {
    const docx = buildDocx({
      styles: STYLES,
      document: `<w:body>${paragraph('Spaced', { pPr: `<w:spacing w:before="${'9'.repeat(100_000)}" w:after="1e308"/>` })}${paragraph('After')}</w:body>`,
    });
    const res = await convert(await mintKey(), docx);
    expect(await contractProblem(res)).toBeUndefined();
    expect(res.status).toBe(200);
  });

  // Found by `npm run convert-fuzz` (seed 2026, variant 1792): a header of 100,000 underlined CJK
  // characters paints some 200,000 items on one page, more than a spread call passes as arguments
  // (RangeError: Maximum call stack size exceeded, a 500).
  const UNDERLINED_CJK = paragraph('\u6587\u5B57'.repeat(50_000), {
    rPr: '<w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:b/><w:u w:val="single"/>',
  });
  // The same header repeated on 50 pages was 200,000 items on each (2 GB, no answer in 20 s):
  // what lies beyond the page's edge is not drawn, and a warning says so.
  it('draws a header of 100,000 underlined CJK characters up to the page edge, on every page', {
    timeout: 60_000,
  }, async () => {
    const pageBreak = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
    const docx = buildDocx({
      styles: STYLES,
      headers: { rIdH: UNDERLINED_CJK },
      document: `<w:body>${paragraph('Body').concat(pageBreak.repeat(49))}${sectPr('<w:headerReference w:type="default" r:id="rIdH"/>')}</w:body>`,
    });
    const res = await convert(await mintKey(), docx);
    expect(await contractProblem(res.clone())).toBeUndefined();
    expect(res.headers.get('X-Quire-Warnings')).toContain('A header is taller than its page');
    const pages = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(pages.length).toBeGreaterThanOrEqual(50);
    // A page of it: some thousands of the 100,000 characters.
    for (const text of pages) expect(text.length).toBeLessThan(20_000);
    expect(pages.at(-1)).toContain('\u6587');
  });

  it.each([
    ['the body', {}, UNDERLINED_CJK],
    [
      'a table cell',
      {},
      `<w:tbl><w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid><w:tr><w:tc>${UNDERLINED_CJK}</w:tc></w:tr></w:tbl><w:p/>`,
    ],
    [
      'a footnote',
      { footnotes: `${noteSeparators('footnote')}<w:footnote w:id="1">${UNDERLINED_CJK}</w:footnote>` },
      `<w:p>${noteReference('footnote', '1')}</w:p>`,
    ],
  ])('converts 100,000 underlined CJK characters in %s', { timeout: 60_000 }, async (_, parts, body) => {
    const docx = buildDocx({ styles: STYLES, ...parts, document: `<w:body>${body}${sectPr('')}</w:body>` });
    const res = await convert(await mintKey(), docx);
    expect(await contractProblem(res)).toBeUndefined();
  });

  // Found by `npm run convert-fuzz` (seed 7 over docx-extra, variant 1221): a row of 10,000 cells
  // each holding a 380-character paragraph, squeezed into the text column a point wide each, took
  // a line per character (3.8 million lines, gigabytes, no answer in 20 s). A row's lines are
  // counted as its cells are laid out.
  it('refuses a table row whose squeezed cells lay out to more than 50,000 lines, before laying them all out', async () => {
    const text =
      'On the Insert tab, the galleries include items that are designed to coordinate with the overall look of your document. '.repeat(
        3,
      );
    const cell = `<w:tc><w:tcPr><w:tcW w:w="9576" w:type="dxa"/></w:tcPr>${paragraph(text)}</w:tc>`;
    const docx = buildDocx({
      styles: STYLES,
      document: `<w:body><w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="9576"/></w:tblGrid><w:tr>${cell.repeat(3000)}</w:tr></w:tbl><w:p/></w:body>`,
    });
    const started = Date.now();
    const res = await convert(await mintKey(), docx);
    const body = await expectError(res, 422, 'DOCUMENT_TOO_COMPLEX');
    expect(body.message).toContain('row 1 of a table lays out to more than 50,000 lines');
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
