// HTML and Markdown tables get their columns from their content and declared widths, as a browser
// lays them out (CSS 2.1 §17.5.2.2 automatic, §17.5.2.1 fixed table layout), in the model, so
// that the PDF and the DOCX written from the same HTML (w:tblGrid, w:tcW) have the same widths.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontNeeds } from '../../../src/engine/layout/font-requests';
import { sizeCssTables } from '../../../src/engine/layout/table/css-table-layout';
import { paragraphMinimum } from '../../../src/engine/layout/table/grid';
import type { DocumentModel, Table } from '../../../src/engine/model/document';
import { PAPER_SIZES } from '../../../src/engine/read/html/html-reader';
import { readDocx } from '../../../src/engine/read/ooxml/docx-reader';
import { DEFAULT_LIMITS } from '../../../src/limits';
import { convertMarkup } from '../../../src/services/convert/markup-convert';
import { pdfText } from '../../helpers/pdf-text';
import { read, tables } from '../read/html/html-fixtures';

const cache = createFontCache();
const engine = { assets: env.ASSETS, fontCache: cache };
/** Letter with the reader's default margins, less the body's 8px UA margin each side: the text column. */
const COLUMN = 456;

async function fontsOf(model: DocumentModel) {
  const { requests } = collectFontNeeds(model);
  return loadFontSet(requests, { assets: env.ASSETS, embedded: [], cache });
}

/** The first table of `html`, sized. */
async function sized(html: string): Promise<{ table: Table; fonts: Awaited<ReturnType<typeof fontsOf>> }> {
  const model = await read(html);
  const fonts = await fontsOf(model);
  sizeCssTables(model, fonts);
  const [table] = tables(model);
  if (!table) throw new Error('no table');
  return { table, fonts };
}

const total = (widths: number[]) => widths.reduce((a, b) => a + b, 0);

/** pandoc's planets table (headers as in its test suite): its words cannot all fit in 6.5 in. */
const PLANETS = [
  ['Name', 'Mass (10^24kg)', 'Diameter (km)', 'Density (kg/m^3)', 'Gravity (m/s^2)', 'Length of day (hours)'],
  ['Distance from Sun (10^6 km)', 'Mean temperature (C)', 'Number of moons', 'Ring system', 'Global field', 'Notes'],
];
/** Twelve short headers: a table whose words fit, though not on one line each. */
const SHORT = [
  'Name',
  'Mass',
  'Diameter',
  'Density',
  'Gravity',
  'Day',
  'Distance',
  'Temp',
  'Moons',
  'Rings',
  'Field',
  'Notes',
];
const ROWS = [
  ['Mercury', '0.330', '4,879', '5427', '3.7', '4222.6', '57.9', '167', '0', 'No', 'Yes', 'Closest to the Sun'],
  ['Jupiter', '1898', '142,984', '1326', '23.1', '9.9', '778.6', '-110', '79', 'Yes', 'Yes', 'The largest planet'],
  ['Neptune', '102', '49,528', '1638', '11.0', '16.1', '4495.1', '-200', '14', 'Yes', 'Yes', 'Farthest from the Sun'],
];
const planets = (style = '', heads = PLANETS.flat()) =>
  `<table${style}><thead><tr>${heads
    .map((h) => `<th>${h}</th>`)
    .join(
      '',
    )}</tr></thead><tbody>${ROWS.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

describe('automatic table layout (CSS 2.1 §17.5.2.2)', () => {
  it('gives a 12-column numeric table widths from its content, no word broken', async () => {
    const { table, fonts } = await sized(planets(' cellpadding="2"', SHORT));
    expect(table.cssLayout).toBeUndefined();
    expect(table.grid).toHaveLength(12);
    expect(total(table.grid)).toBeLessThanOrEqual(COLUMN + 0.01);
    // Every column is at least as wide as its widest word (its min-content width) with padding.
    table.grid.forEach((width, i) => {
      for (const row of table.rows) {
        const cell = row.cells[i];
        const paragraph = cell?.blocks[0];
        if (!cell || paragraph?.kind !== 'paragraph') continue;
        const min = paragraphMinimum(paragraph, { fonts }, false) + 2 * table.cellMargins.left;
        expect(width).toBeGreaterThanOrEqual(min - 0.01);
      }
    });
    // Not equal shares: "Notes" (long sentences) gets more than "Day" (short numbers), and the
    // table, whose content does not fit on one line a cell, fills the text column.
    expect(total(table.grid)).toBeCloseTo(COLUMN, 1);
    expect(table.grid[11]).toBeGreaterThan(2 * (table.grid[5] ?? 0));
    // Cells carry their columns' widths (w:tcW).
    expect(table.rows[1]?.cells.map((c) => c.width)).toEqual(table.grid);
  });

  it('keeps the words whole in the PDF', async () => {
    const { bytes } = await convertMarkup(
      new TextEncoder().encode(`<html><body>${planets(' border="1"')}</body></html>`),
      {
        from: 'html',
        to: 'pdf',
        pageSize: PAPER_SIZES.letter,
        images: { allowHttp: false, maxImages: 0, maxTotalBytes: 0, maxImageBytes: 0 },
        limits: DEFAULT_LIMITS,
      },
      engine,
    );
    const words = (await pdfText(bytes)).join(' ').split(/\s+/);
    for (const word of ['Mercury', 'Jupiter', 'Neptune', '142,984', '49,528', '4222.6', 'Farthest'])
      expect(words).toContain(word);
  });

  it('makes a table whose content fits narrower than the page', async () => {
    const { table } = await sized('<table><tr><td>one</td><td>two</td></tr><tr><td>three</td><td>4</td></tr></table>');
    expect(total(table.grid)).toBeLessThan(120);
    expect(table.width).toBeUndefined();
    expect(table.grid[0]).toBeGreaterThan(table.grid[1] ?? 0);
  });

  it('widens a width:100% table to the column, the extra in proportion to the content', async () => {
    const { table } = await sized(
      '<table style="width:100%"><tr><td>a</td><td>a rather longer piece of text</td></tr></table>',
    );
    expect(total(table.grid)).toBeCloseTo(COLUMN, 1);
    expect(table.grid[1]).toBeGreaterThan(3 * (table.grid[0] ?? 0));
  });

  it('shares the text column between min and max in proportion to (max − min)', async () => {
    const long = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const { table } = await sized(`<table><tr><td>Home</td><td>${long}</td></tr></table>`);
    expect(total(table.grid)).toBeCloseTo(COLUMN, 1);
    expect(table.grid[0]).toBeLessThan(60);
  });

  it('respects declared widths in px, pt and %, from cells and col elements', async () => {
    // 400px = 300pt: 150px (112.5pt), 25% (75pt), the auto column takes the rest.
    const { table } = await sized(
      '<table width="400"><tr><td style="width:150px">x</td><td width="25%">y</td><td>z</td></tr></table>',
    );
    expect(table.grid[0]).toBeCloseTo(112.5, 1);
    expect(table.grid[1]).toBeCloseTo(75, 1);
    expect(table.grid[2]).toBeCloseTo(112.5, 1);
    const cols = await sized(
      '<table style="width:300pt"><colgroup><col style="width:60pt"><col span="2" width="40"></colgroup><tr><td>a</td><td>b</td><td>c</td><td>d</td></tr></table>',
    );
    expect(cols.table.grid.slice(0, 3).map((w) => Math.round(w))).toEqual([60, 30, 30]);
    expect(total(cols.table.grid)).toBeCloseTo(300, 1);
  });

  it('spreads a spanning cell over the columns it spans', async () => {
    const heading = 'A heading much longer than the cells below it';
    const { table, fonts } = await sized(
      `<table><tr><td colspan="2">${heading}</td></tr><tr><td>x</td><td>x</td></tr></table>`,
    );
    const paragraph = table.rows[0]?.cells[0]?.blocks[0];
    if (paragraph?.kind !== 'paragraph') throw new Error('no paragraph');
    const oneLine = paragraphMinimum(paragraph, { fonts }, true) + 2 * table.cellMargins.left;
    expect(total(table.grid)).toBeCloseTo(oneLine, 1);
    expect(table.grid[0]).toBeCloseTo(table.grid[1] ?? 0, 1);
    expect(table.rows[0]?.cells[0]?.width).toBeCloseTo(oneLine, 1);
  });

  it('sizes tables nested in cells to their cell', async () => {
    const { table } = await sized(
      '<table style="width:100%"><tr><td>outer</td><td><table style="width:100%"><tr><td>in</td><td>side</td></tr></table></td></tr></table>',
    );
    const inner = table.rows[0]?.cells[1]?.blocks.find((b): b is Table => b.kind === 'table');
    expect(inner?.cssLayout).toBeUndefined();
    const cellWidth = table.grid[1] ?? 0;
    expect(total(inner?.grid ?? [])).toBeCloseTo(cellWidth - 2 * table.cellMargins.left, 1);
  });
});

describe('cells that are not displayed', () => {
  it('take no grid slot (CSS 2.1 §9.2.4 display: none)', async () => {
    // docx.js writes the cells a rowspan covers again, hidden.
    const { table } = await sized(
      '<table><tr><td rowspan="2">a</td><td>b</td></tr><tr><td style="display:none">a</td><td>c</td></tr><tr hidden><td>x</td><td>y</td><td>z</td></tr></table>',
    );
    expect(table.grid).toHaveLength(2);
    expect(table.rows).toHaveLength(2);
    expect(table.rows[1]?.cells.map((c) => c.verticalMerge ?? 'none')).toEqual(['continue', 'none']);
  });
});

describe('fixed table layout (CSS 2.1 §17.5.2.1)', () => {
  it('takes the widths of the first row and shares the rest equally, whatever the content', async () => {
    const { table } = await sized(
      '<table style="table-layout:fixed;width:400px"><tr><td style="width:100px">Supercalifragilisticexpialidocious</td><td>b</td><td>c</td></tr><tr><td style="width:300px">x</td><td>y</td><td>z</td></tr></table>',
    );
    expect(table.layout).toBe('fixed');
    expect(table.grid.map((w) => Math.round(w * 10) / 10)).toEqual([75, 112.5, 112.5]);
  });

  it('is automatic for a table of auto width', async () => {
    const { table } = await sized('<table style="table-layout:fixed"><tr><td>a</td><td>b</td></tr></table>');
    expect(table.layout).toBe('autofit');
    expect(total(table.grid)).toBeLessThan(60);
  });
});

describe('the DOCX written from HTML', () => {
  it('carries the widths the PDF is laid out with in w:tblGrid and w:tcW', async () => {
    const html = `<html><body>${planets()}<table><tr><td colspan="2">spanning both</td></tr><tr><td>a</td><td>bb</td></tr></table></body></html>`;
    const model = await read(html);
    sizeCssTables(model, await fontsOf(model));
    const { bytes } = await convertMarkup(
      new TextEncoder().encode(html),
      {
        from: 'html',
        to: 'docx',
        pageSize: PAPER_SIZES.letter,
        images: { allowHttp: false, maxImages: 0, maxTotalBytes: 0, maxImageBytes: 0 },
        limits: DEFAULT_LIMITS,
      },
      engine,
    );
    const back = tables(readDocx(bytes, { revisions: 'markup', limits: DEFAULT_LIMITS }));
    const want = tables(model);
    expect(back).toHaveLength(2);
    for (const [t, table] of back.entries()) {
      const expected = want[t] as Table;
      // Twips: within a twentieth of a point.
      for (const [i, w] of table.grid.entries()) expect(Math.abs(w - (expected.grid[i] ?? 0))).toBeLessThan(0.06);
      for (const [r, row] of table.rows.entries())
        for (const [c, cell] of row.cells.entries())
          expect(Math.abs((cell.width ?? 0) - (expected.rows[r]?.cells[c]?.width ?? 0))).toBeLessThan(0.06);
    }
    // The planets' words cannot fit in the text column: the grid is their min-content widths.
    expect(total(back[0]?.grid ?? [])).toBeGreaterThan(COLUMN);
    expect(back[1]?.rows[0]?.cells[0]?.width).toBeCloseTo(total(back[1]?.grid ?? []), 1);
  });
});
