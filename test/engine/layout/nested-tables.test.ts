// Tables nested in table cells split across pages like the rows around them (ECMA-376 §17.4.6:
// without w:cantSplit a row may break across pages), at any depth, their header rows repeated;
// what still cannot be placed as the document asks is said in a warning naming the table and row.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontRequests } from '../../../src/engine/layout/font-requests';
import { layoutParagraph } from '../../../src/engine/layout/paragraph-layout';
import { sizeCssTables } from '../../../src/engine/layout/table/css-table-layout';
import { paragraphMinimum, tableGrid } from '../../../src/engine/layout/table/grid';
import { tableRows } from '../../../src/engine/layout/table/row-layout';
import { flowTable, RowWindow, type TableFlowTarget } from '../../../src/engine/layout/table/table-pagination';
import type { Paragraph, Table, TableRow } from '../../../src/engine/model/document';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { buildDocx } from '../../helpers/docx-fixture';
import { cell, documentModel, table as modelTable, paragraph, row, section } from '../../helpers/model-builder';
import { pdfText } from '../../helpers/pdf-text';

const WORDS = Array.from({ length: 2400 }, (_, i) => `w${i}x`);

async function convert(bytes: Uint8Array, name: string): Promise<{ pages: string[]; warnings: string }> {
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
  const from = name.split('.').pop();
  const res = await call(`/v1/convert?from=${from}&to=pdf`, withKey(await mintKey(), { method: 'POST', body: form }));
  expect(res.status).toBe(200);
  return {
    pages: await pdfText(new Uint8Array(await res.arrayBuffer())),
    warnings: res.headers.get('X-Quire-Warnings') ?? '',
  };
}

function missingWords(pages: string[], words: string[]): string[] {
  const drawn = new Set(pages.join(' ').split(/\s+/));
  return words.filter((word) => !drawn.has(word));
}

// ---- HTML -------------------------------------------------------------------------------------

function nestedHtml(depth: number, inner: string): string {
  let cell = inner;
  for (let i = 0; i < depth; i++) cell = `<table><tr><td>${cell}</td></tr></table>`;
  return `<html><body><table><tr><td>left</td><td>${cell}</td></tr></table></body></html>`;
}

// ---- DOCX -------------------------------------------------------------------------------------

const BORDERS =
  '<w:tblBorders><w:top w:val="single" w:sz="4"/><w:left w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:right w:val="single" w:sz="4"/><w:insideH w:val="single" w:sz="4"/><w:insideV w:val="single" w:sz="4"/></w:tblBorders>';
const SECTION =
  '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>';

function docxTable(grid: number[], rows: string[]): string {
  const cols = grid.map((w) => `<w:gridCol w:w="${w}"/>`).join('');
  return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/>${BORDERS}</w:tblPr><w:tblGrid>${cols}</w:tblGrid>${rows.join('')}</w:tbl>`;
}

function docxRow(cells: string[], trPr = ''): string {
  return `<w:tr>${trPr ? `<w:trPr>${trPr}</w:trPr>` : ''}${cells.map((c) => `<w:tc>${c}</w:tc>`).join('')}</w:tr>`;
}

const docxParagraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** A cell's content nested `depth` tables deep (a cell ends in a paragraph, §17.4.66). */
function nestedDocx(depth: number, inner: string): Uint8Array {
  let cell = inner;
  let width = 6000;
  for (let i = 0; i < depth; i++) {
    cell = `${docxTable([width], [docxRow([cell])])}<w:p/>`;
    width -= 400;
  }
  const body = docxTable([2000, 7000], [docxRow([docxParagraph('left'), cell])]);
  return buildDocx({ document: `<w:body>${body}<w:p/>${SECTION}</w:body>` });
}

describe('a table nested in a cell, taller than a page', () => {
  for (const depth of [1, 2]) {
    it(`keeps every word from HTML, nested ${depth} deep`, async () => {
      const html = nestedHtml(depth, `<p>${WORDS.join(' ')}</p>`);
      const { pages } = await convert(new TextEncoder().encode(html), 'nested.html');
      expect(pages.length).toBeGreaterThan(3);
      expect(missingWords(pages, WORDS)).toEqual([]);
    });

    it(`keeps every word from DOCX, nested ${depth} deep`, async () => {
      const { pages, warnings } = await convert(nestedDocx(depth, docxParagraph(WORDS.join(' '))), 'nested.docx');
      expect(pages.length).toBeGreaterThan(3);
      expect(missingWords(pages, WORDS)).toEqual([]);
      expect(warnings).not.toContain('cut');
    });
  }

  it("continues the nested table's rows on the next pages under its header row (DOCX w:tblHeader)", async () => {
    const rows = [docxRow([docxParagraph('NestedHead')], '<w:tblHeader/>')];
    for (let i = 0; i < 150; i++) rows.push(docxRow([docxParagraph(`item${i}x`)]));
    const inner = `${docxTable([6000], rows)}<w:p/>`;
    const body = docxTable([2000, 7000], [docxRow([docxParagraph('left'), inner])]);
    const { pages } = await convert(buildDocx({ document: `<w:body>${body}<w:p/>${SECTION}</w:body>` }), 'head.docx');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(page).toContain('NestedHead');
    const items = Array.from({ length: 150 }, (_, i) => `item${i}x`);
    expect(missingWords(pages, items)).toEqual([]);
  });

  it('continues an HTML nested table under its <thead> row', async () => {
    const body = Array.from({ length: 150 }, (_, i) => `<tr><td>item${i}x</td></tr>`).join('');
    const html = nestedHtml(0, '').replace(
      '<td></td>',
      `<td><table><thead><tr><th>NestedHead</th></tr></thead><tbody>${body}</tbody></table></td>`,
    );
    const { pages } = await convert(new TextEncoder().encode(html), 'head.html');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const page of pages) expect(page).toContain('NestedHead');
    expect(
      missingWords(
        pages,
        Array.from({ length: 150 }, (_, i) => `item${i}x`),
      ),
    ).toEqual([]);
  });
});

// ---- Warnings, through the table flow --------------------------------------------------------------

let cache: ReturnType<typeof createFontCache>;
beforeAll(() => {
  cache = createFontCache();
});

const table = (grid: number[], rows: TableRow[], overrides: Partial<Table> = {}): Table =>
  modelTable(grid, rows, { layout: 'fixed', ...overrides });

const lines = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => paragraph(`${prefix} line ${i}`));

/** A page of `height` points as the table flow sees it; returns the warnings and the pages used. */
async function flow(t: Table, height = 300): Promise<{ warnings: string[]; pages: number }> {
  const fonts = await loadFontSet(collectFontRequests(documentModel([section([t])])), {
    assets: env.ASSETS,
    embedded: [],
    cache,
  });
  const context = {
    fonts,
    laid: (p: Paragraph, width: number) => layoutParagraph(p, fonts, { areaWidth: width, defaultTabStop: 36 }),
  };
  let y = 0;
  let pages = 1;
  const warnings: string[] = [];
  const target: TableFlowTarget = {
    remaining: () => height - y,
    fullHeight: () => height,
    atColumnTop: () => y === 0,
    columnX: () => 0,
    cursor: () => y,
    verdict: (h) => (h <= height - y + 0.01 ? 'fits' : y === 0 ? 'force' : 'advance'),
    place: (h) => {
      y += h;
    },
    advance: () => {
      y = 0;
      pages++;
    },
    area: () => ({ pageWidth: 612, marginLeft: 72, marginRight: 72, bodyTop: 72, columnX: 0, columnWidth: 468 }),
    warn: (message) => warnings.push(message),
  };
  flowTable(new RowWindow(tableRows(t, 468, context)), target);
  return { warnings, pages };
}

describe('table content that cannot be placed as asked is said so', () => {
  it('splits a cantSplit row taller than the page, with a warning naming the table and row', async () => {
    const t = table([400], [row([cell('Quarterly results')]), row([cell(lines(60, 'tall'))], { cantSplit: true })]);
    const { warnings, pages } = await flow(t);
    expect(pages).toBeGreaterThan(2);
    expect(warnings).toEqual([expect.stringMatching(/^The table beginning "Quarterly results", row 2: .*w:cantSplit/)]);
  });

  it('splits a cantSplit row of a nested table taller than the page, and says so', async () => {
    const inner = table([380], [row([cell(lines(60, 'deep'))], { cantSplit: true })]);
    const t = table([400], [row([cell([paragraph('Outer'), inner, paragraph('')])])]);
    const { warnings, pages } = await flow(t);
    expect(pages).toBeGreaterThan(2);
    expect(warnings).toEqual([expect.stringMatching(/row 1: .*w:cantSplit/)]);
  });

  it('warns of a single line taller than the page, placed and cut at the foot of the page', async () => {
    const tall = paragraph('One enormous line', { spacing: { before: 0, after: 0, line: 500, lineRule: 'exact' } });
    const t = table([400], [row([cell('Header words')]), row([cell([tall])])]);
    const { warnings } = await flow(t);
    expect(warnings).toEqual([
      expect.stringMatching(/^The table beginning "Header words", row 2: content taller than the page/),
    ]);
  });

  it('warns of an exact row height that cuts its content (drawn cut, as Word does)', async () => {
    const t = table([400], [row([cell(lines(5, 'cut'))], { height: { rule: 'exact', value: 20 } })]);
    const { warnings, pages } = await flow(t);
    expect(pages).toBe(1);
    expect(warnings).toEqual([expect.stringMatching(/row 1: the row's exact height \(w:hRule="exact"\) cuts off/)]);
  });

  it('warns of an exact row height in a nested table, naming the outer row', async () => {
    const inner = table([380], [row([cell(lines(5, 'cut'))], { height: { rule: 'exact', value: 20 } })]);
    const t = table([400], [row([cell('First')]), row([cell([inner, paragraph('')])])]);
    const { warnings } = await flow(t);
    expect(warnings).toEqual([expect.stringMatching(/row 2: a table nested in the row has a row whose exact height/)]);
  });

  it('says nothing of rows that fit, or split where they may', async () => {
    const inner = table([380], [row([cell(lines(60, 'fine'))])]);
    const t = table([400], [row([cell(lines(60, 'plain'))]), row([cell([inner, paragraph('')])])]);
    const { warnings, pages } = await flow(t);
    expect(pages).toBeGreaterThan(2);
    expect(warnings).toEqual([]);
  });
});

/** What tableGrid needs to measure a table's content: the faces its text asks for, and a paragraph layout. */
async function gridContext(t: Table) {
  const fonts = await loadFontSet(collectFontRequests(documentModel([section([t])])), {
    assets: env.ASSETS,
    embedded: [],
    cache,
  });
  return {
    fonts,
    laid: (p: Paragraph, width: number) => layoutParagraph(p, fonts, { areaWidth: width, defaultTabStop: 36 }),
  };
}

describe('HTML columns sized from their content (CSS 2.1 §17.5.2.2)', () => {
  it('keeps a sidebar of short links narrow beside a column of long paragraphs', async () => {
    const long = paragraph(Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '));
    const t = table([234, 234], [row([cell('Home'), cell([long])])], {
      layout: 'autofit',
      cssLayout: { algorithm: 'auto', columns: [undefined, undefined], available: 468 },
    });
    const context = await gridContext(t);
    // Without content sizing (a DOCX grid), the grid's widths hold.
    expect(tableGrid({ ...t, cssLayout: undefined }, 468, context).columns[0]).toBeCloseTo(234, 0);
    sizeCssTables(documentModel([section([t])]), context.fonts);
    expect(t.cssLayout).toBeUndefined();
    const { columns } = tableGrid(t, 468, context);
    expect(columns[0]).toBeLessThan(60);
    expect((columns[0] ?? 0) + (columns[1] ?? 0)).toBeCloseTo(468, 0);
  });
});

describe('Word autofit tables narrower than their content (ECMA-376 §17.4.63 tblW)', () => {
  it('grow past their preferred width rather than squeeze what cannot break', async () => {
    // A DOCX table of tblW 160 pt over a grid of 2 × 80 pt, each column holding a word about
    // 96 pt long: Word widens the table for the words (a row of spacer pictures 11070 twips wide
    // in a table of tblW 11055 kept every column, and so the text cell's width, at the grid's).
    const word = 'Incomprehensibilities';
    const t = table([80, 80], [row([cell(word), cell(word)]), row([cell('below', { span: 2 })])], {
      layout: 'autofit',
      width: { type: 'dxa', value: 160 },
    });
    const context = await gridContext(t);
    const { columns } = tableGrid(t, 468, context);
    const wordWidth = paragraphMinimum(paragraph(word), context, false);
    expect(wordWidth).toBeGreaterThan(80);
    for (const column of columns) expect(column).toBeGreaterThanOrEqual(wordWidth - 0.01);
    // Room to spare: the preferred width holds, as before.
    const roomy = tableGrid({ ...t, width: { type: 'dxa', value: 400 } }, 468, context).columns;
    expect(roomy.reduce((a, b) => a + b, 0)).toBeCloseTo(400, 1);
  });
});

describe('HTML tables wider than the text column', () => {
  const HEADS = ['Temperatures', 'Circumference', 'Gravitational', 'Declassified', 'Atmospheres', 'Revolutions'];
  const wideTable = (overrides: Partial<Table>) =>
    modelTable(
      HEADS.map(() => 78),
      [row(HEADS.map((word) => cell(`${word}${word}`)))],
      { layout: 'autofit', ...overrides },
    );

  it('widens into both margins, centred, rather than breaking words, where it may', async () => {
    const t = wideTable({ widensIntoMargins: true });
    const context = await gridContext(t);
    const squeezed = tableGrid(t, 468, context);
    const squeezedWidth = squeezed.columns.reduce((a, b) => a + b, 0);
    // Nested, or in newspaper columns (no spill): squeezed into the column as before.
    expect(squeezedWidth).toBeLessThan(480);
    const wide = tableGrid(t, 468, context, 60);
    const width = wide.columns.reduce((a, b) => a + b, 0);
    expect(width).toBeGreaterThan(squeezedWidth + 20);
    expect(width).toBeLessThanOrEqual(468 + 120 + 0.5);
    expect(wide.left).toBeCloseTo((468 - width) / 2, 3);
    expect(wide.left).toBeGreaterThanOrEqual(-60.5);
    // A DOCX table keeps Word's autofit: squeezed into the column whatever the margins.
    expect(tableGrid({ ...t, widensIntoMargins: undefined }, 468, context, 60).columns).toEqual(squeezed.columns);
  });

  it('keeps every word of a wide HTML table whole and on the paper', async () => {
    // Eight columns of twelve-letter words need more than the 6.5-inch column, less than the paper.
    const heads = [...HEADS, 'Observations', 'Inclinations'];
    const html = `<html><body><table border="1"><tr>${heads.map((w) => `<th>${w}</th>`).join('')}</tr><tr>${heads.map((w) => `<td>${w.toLowerCase()}</td>`).join('')}</tr></table></body></html>`;
    const { pages, warnings } = await convert(new TextEncoder().encode(html), 'wide.html');
    expect(missingWords(pages, [...heads, ...heads.map((w) => w.toLowerCase())])).toEqual([]);
    expect(warnings).toBe('');
  });

  it('brings a table width past the text column into it, its text kept', async () => {
    const left = Array.from({ length: 40 }, (_, i) => `left${i}`);
    const right = Array.from({ length: 40 }, (_, i) => `right${i}`);
    const html = `<html><body><table width="1200" align="center"><tr><td width="900">${left.join(' ')}</td><td width="300">${right.join(' ')}</td></tr></table></body></html>`;
    const { pages, warnings } = await convert(new TextEncoder().encode(html), 'wide.html');
    expect(missingWords(pages, [...left, ...right])).toEqual([]);
    expect(warnings).toBe('');
  });
});
