import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontRequests } from '../../../src/engine/layout/font-requests';
import type { LineItem, RectItem, TextItem } from '../../../src/engine/layout/page-items';
import { layoutParagraph } from '../../../src/engine/layout/paragraph-layout';
import { layoutTableRows, tableRows } from '../../../src/engine/layout/table/row-layout';
import type { Block, DocumentModel, Paragraph, Table, TableRow } from '../../../src/engine/model/document';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { paragraph as docxParagraph } from '../../helpers/docx-fixture';
import { cell, documentModel, filler, table as modelTable, paragraph, row, section } from '../../helpers/model-builder';
import { readParts } from '../read/ooxml/model-queries';
import { bundledLayout } from './fallback-layout';

const layout = bundledLayout();
// Faces for the tests that lay tables out row by row, without the page flow.
const cache = createFontCache();

const SINGLE = { style: 'single', width: 0.5, space: 0 };

const table = (grid: number[], rows: TableRow[], overrides: Partial<Table> = {}): Table =>
  modelTable(grid, rows, {
    borders: { top: SINGLE, left: SINGLE, bottom: SINGLE, right: SINGLE, insideH: SINGLE, insideV: SINGLE },
    ...overrides,
  });

function model(blocks: Block[]): DocumentModel {
  return documentModel([section(blocks as never)]);
}

function texts(doc: LaidOutDocument, page: number): TextItem[] {
  return (doc.pages[page]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
}

function words(doc: LaidOutDocument, page: number): string[] {
  return texts(doc, page)
    .map((t) => t.text)
    .join(' ')
    .split(/\s+/)
    .filter(Boolean);
}

const BODY_BOTTOM = 792 - 72;

const NO_DISTANCE = { topFromText: 0, bottomFromText: 0, leftFromText: 0, rightFromText: 0 };

describe('table layout', () => {
  it('flows a long table over three pages and repeats its header row on each', async () => {
    const rows = [row([cell('Region'), cell('Total')], { isHeader: true })];
    for (let i = 1; i <= 130; i++) rows.push(row([cell(`Row${i}`), cell(`${i * 10}`)]));
    const doc = await layout(model([table([234, 234], rows)]));
    expect(doc.pages.length).toBeGreaterThanOrEqual(3);
    for (let page = 0; page < doc.pages.length; page++) {
      const first = texts(doc, page).sort((a, b) => a.y - b.y || a.x - b.x);
      expect(first[0]?.text).toBe('Region');
      expect(first[1]?.text).toBe('Total');
      for (const item of first) expect(item.y).toBeLessThanOrEqual(BODY_BOTTOM + 0.01);
    }
    // Every data row once, in order, side by side with its value.
    const all = doc.pages.flatMap((_, p) => words(doc, p)).filter((w) => w !== 'Region' && w !== 'Total');
    expect(all.slice(0, 4)).toEqual(['Row1', '10', 'Row2', '20']);
    expect(all.filter((w) => w.startsWith('Row')).length).toBe(130);
  });

  it('puts cells side by side on one baseline', async () => {
    const doc = await layout(model([table([100, 100, 100], [row([cell('left'), cell('middle'), cell('right')])])]));
    const items = texts(doc, 0);
    const ys = new Set(items.map((t) => t.y.toFixed(2)));
    expect(ys.size).toBe(1);
    const xs = items.map((t) => t.x);
    // The first cell's text starts at the margin; its left cell margin hangs outside (§17.4.51).
    expect(xs[0]).toBeCloseTo(72, 1);
    expect(xs[1]).toBeCloseTo(172, 1);
    expect(xs[2]).toBeCloseTo(272, 1);
  });

  it('splits a vertically merged cell across a page break and keeps its text in order', async () => {
    const rows: TableRow[] = [];
    for (let i = 0; i < 30; i++) rows.push(row([cell(`Filler${i}`), cell('x')]));
    const merged = filler(400, 'merged');
    rows.push(row([cell(merged, { verticalMerge: 'restart' }), cell('first')]));
    for (let i = 0; i < 6; i++) rows.push(row([cell([], { verticalMerge: 'continue' }), cell(`next${i}`)]));
    const doc = await layout(model([table([300, 168], rows)]));
    expect(doc.pages.length).toBeGreaterThanOrEqual(2);
    const mergedWords = doc.pages.flatMap((_, p) =>
      texts(doc, p)
        .filter((t) => t.x < 372)
        .flatMap((t) => t.text.split(/\s+/))
        .filter((w) => w && !w.startsWith('Filler')),
    );
    expect(mergedWords).toEqual(merged.split(' '));
    // The merge continues on the second page, and nothing runs below the body.
    expect(words(doc, 1).some((w) => w === 'merged' || w === 'alpha')).toBe(true);
    for (let p = 0; p < doc.pages.length; p++) {
      for (const item of texts(doc, p)) expect(item.y).toBeLessThanOrEqual(BODY_BOTTOM + 0.01);
    }
    // No border is drawn inside the merged region on the first page: one line per region edge only.
    const rules = (doc.pages[0]?.items ?? []).filter((i): i is LineItem => i.kind === 'line');
    expect(rules.length).toBeGreaterThan(0);
  });

  it('grows no row of a merged region whose lines fit it: a row holds only its own lines of the merged cell', async () => {
    // Three lines in the merged cell, one per row, beside one-line cells: every row stays one line.
    const merged = [paragraph(''), paragraph(''), paragraph('1')];
    const rows = [
      row([cell(merged, { verticalMerge: 'restart' }), cell('first')]),
      row([cell([], { verticalMerge: 'continue' }), cell('second')]),
      row([cell([], { verticalMerge: 'continue' }), cell('third')]),
    ];
    const items = texts(await layout(model([table([100, 368], rows, { borders: {} })])), 0);
    const y = (word: string) => items.find((t) => t.text === word)?.y ?? 0;
    // One Calibri line (13.43 pt) a row, the merged cell's last line beside the last row's.
    expect(y('second') - y('first')).toBeCloseTo(13.43, 1);
    expect(y('third') - y('second')).toBeCloseTo(13.43, 1);
    expect(y('1')).toBeCloseTo(y('third'), 5);
  });

  it('splits a row taller than a page, and moves a cantSplit row whole', async () => {
    const long = filler(1500, 'tall');
    const doc = await layout(model([table([468], [row([cell(long)])])]));
    expect(doc.pages.length).toBeGreaterThanOrEqual(2);
    const all = doc.pages.flatMap((_, p) => words(doc, p));
    expect(all).toEqual(long.split(' '));

    const kept = await layout(
      model([paragraph(filler(500)), table([468], [row([cell(filler(120, 'kept'))], { cantSplit: true })])]),
    );
    const onFirst = words(kept, 0).filter((w) => w === 'kept').length;
    const onSecond = words(kept, 1).filter((w) => w === 'kept').length;
    expect(onFirst === 0 || onSecond === 0).toBe(true);
  });

  it('widens an autofit column for an unbreakable word and takes the room from the other', async () => {
    const word = 'Pneumonoultramicroscopicsilicovolcanoconiosis';
    const doc = await layout(model([table([60, 408], [row([cell(word), cell('short text')])])]));
    const items = texts(doc, 0);
    const long = items.find((t) => t.text === word);
    const other = items.find((t) => t.text.startsWith('short'));
    expect(long).toBeDefined();
    expect(other).toBeDefined();
    // The word stays on one line and the second column starts after it.
    expect(other?.x ?? 0).toBeGreaterThan((long?.x ?? 0) + 200);
    // A fixed table keeps its grid: the second column starts where the grid says.
    const fixed = await layout(model([table([60, 408], [row([cell(word), cell('short text')])], { layout: 'fixed' })]));
    const fixedOther = texts(fixed, 0).find((t) => t.text.startsWith('short'));
    expect(fixedOther?.x).toBeCloseTo(72 + 60, 1);
  });

  it('squeezes a wide autofit table into the text column, unless its tblW is in twips', async () => {
    // 468 pt of text column; the grid asks 100 + 460 pt.
    const wide = (overrides: Partial<Table>) => table([100, 460], [row([cell('left'), cell('right')])], overrides);
    const secondX = async (t: Table) => texts(await layout(model([t])), 0).find((i) => i.text === 'right')?.x ?? 0;
    // Without an absolute width it keeps inside the column: the first column gives up its share.
    expect(await secondX(wide({}))).toBeLessThan(72 + 100 - 5);
    // tblW 560 pt (§17.4.63): Word keeps it and lets the table run into the right margin.
    expect(await secondX(wide({ width: { type: 'dxa', value: 560 } }))).toBeCloseTo(72 + 100, 1);
  });

  it('lays out a nested table inside its cell, cells side by side', async () => {
    const inner = table([80, 80], [row([cell('innerA'), cell('innerB')])]);
    const doc = await layout(model([table([300, 168], [row([cell([paragraph('outer'), inner]), cell('side')])])]));
    const items = texts(doc, 0);
    const a = items.find((t) => t.text === 'innerA');
    const b = items.find((t) => t.text === 'innerB');
    const outer = items.find((t) => t.text === 'outer');
    expect(a?.y).toBeCloseTo(b?.y ?? 0, 2);
    expect((b?.x ?? 0) - (a?.x ?? 0)).toBeCloseTo(80, 1);
    expect(a?.y ?? 0).toBeGreaterThan(outer?.y ?? 0);
    expect(items.find((t) => t.text === 'side')?.y).toBeCloseTo(outer?.y ?? 0, 2);
  });

  it('lays out a table in a header as a table: cells side by side, borders drawn', async () => {
    const header = table([234, 234], [row([cell('Company'), cell('Report')])]);
    const doc = await layout(documentModel([section([paragraph('body')], { headers: { default: [header] } })]));
    const items = texts(doc, 0);
    const company = items.find((t) => t.text === 'Company');
    const report = items.find((t) => t.text === 'Report');
    expect(company?.y).toBeCloseTo(report?.y ?? 0, 2);
    expect((report?.x ?? 0) - (company?.x ?? 0)).toBeCloseTo(234, 1);
    expect(company?.y ?? 0).toBeLessThan(72);
    const rules = (doc.pages[0]?.items ?? []).filter((i): i is LineItem => i.kind === 'line');
    expect(rules.some((l) => l.y1 < 72)).toBe(true);
  });

  it('adds no automatic (HTML) space before the paragraph at the top of a page', async () => {
    const auto = { before: 14, after: 14, line: 1, lineRule: 'auto' as const, beforeAuto: true, afterAuto: true };
    const doc = await layout(model([paragraph('top', { spacing: auto }), paragraph('next', { spacing: auto })]));
    const top = texts(doc, 0).find((t) => t.text === 'top');
    const next = texts(doc, 0).find((t) => t.text === 'next');
    expect((top?.y ?? 0) - 72).toBeLessThan(14);
    // Between paragraphs the automatic space stays.
    expect((next?.y ?? 0) - (top?.y ?? 0)).toBeGreaterThan(14);
  });

  it('places a floating table by its anchor: right-aligned to the margin, or at an offset', async () => {
    const floating = (position: Table['floating']) =>
      layout(model([table([100], [row([cell('float')])], position ? { floating: position } : {})]));
    const right = await floating({
      horizontalAnchor: 'margin',
      verticalAnchor: 'text',
      xAlign: 'right',
      ...NO_DISTANCE,
    });
    const rightText = texts(right, 0).find((t) => t.text === 'float');
    // The table's right edge on the right margin (612 - 72): its text starts one cell margin inside.
    expect(rightText?.x).toBeCloseTo(612 - 72 - 100 + 5.4, 1);
    const offset = await floating({
      horizontalAnchor: 'page',
      verticalAnchor: 'page',
      x: 200,
      y: 300,
      ...NO_DISTANCE,
    });
    const offsetText = texts(offset, 0).find((t) => t.text === 'float');
    expect(offsetText?.x).toBeCloseTo(205.4, 1);
    expect(offsetText?.y).toBeGreaterThan(300);
    expect(offsetText?.y).toBeLessThan(320);
  });

  it('wraps the following text beside a floating table, then below it', async () => {
    const floating = table([150], [row([cell(filler(40, 'cell'))])], {
      floating: {
        horizontalAnchor: 'margin',
        verticalAnchor: 'text',
        xAlign: 'left',
        ...NO_DISTANCE,
        rightFromText: 9,
      },
    });
    const body = paragraph(filler(400, 'body'));
    const doc = await layout(model([floating, body]));
    const items = texts(doc, 0);
    const cellTexts = items.filter((t) => t.text.includes('cell'));
    const bodyTexts = items.filter((t) => t.text.includes('body'));
    const tableBottom = Math.max(...cellTexts.map((t) => t.y));
    // Beside the table the body starts right of it (table 150 pt from the margin, 9 pt away)…
    const beside = bodyTexts.filter((t) => t.y < tableBottom);
    expect(beside.length).toBeGreaterThan(0);
    for (const t of beside) expect(t.x).toBeGreaterThanOrEqual(72 - 5.4 + 150 + 9 - 0.01);
    // …its first line level with the table's first, and below the table back at the margin.
    expect(Math.min(...bodyTexts.map((t) => t.y))).toBeLessThan(Math.min(...cellTexts.map((t) => t.y)) + 14);
    expect(bodyTexts.some((t) => t.y > tableBottom + 5 && Math.abs(t.x - 72) < 0.5)).toBe(true);
  });

  it('shades cells and draws the resolved borders, the heavier border winning a shared edge', async () => {
    const thick = { style: 'single', width: 3, space: 0, color: 'FF0000' };
    const doc = await layout(
      model([
        table(
          [200, 200],
          [row([cell('a', { shading: 'DDEEFF', borders: { bottom: thick } }), cell('b')]), row([cell('c'), cell('d')])],
        ),
      ]),
    );
    const items = doc.pages[0]?.items ?? [];
    const fills = items.filter((i): i is RectItem => i.kind === 'rect' && i.fill === 'DDEEFF');
    expect(fills.length).toBe(1);
    const red = items.filter((i): i is LineItem => i.kind === 'line' && i.color === 'FF0000');
    expect(red.length).toBeGreaterThan(0);
    expect(red.every((l) => l.y1 === l.y2 && l.width === 3)).toBe(true);
  });

  it('with cell spacing, boxes every cell inside the table frame and gives each edge its room', async () => {
    const rows = [row([cell('a'), cell('b')]), row([cell('c'), cell('d')])];
    const collapsed = await layout(model([table([200, 200], rows)]));
    const spaced = await layout(model([table([200, 200], rows, { cellSpacing: 2 })]));
    const horizontal = (doc: LaidOutDocument) =>
      (doc.pages[0]?.items ?? []).filter((i): i is LineItem => i.kind === 'line' && i.y1 === i.y2);
    // Collapsed: three shared horizontal edges per column (top, middle, bottom).
    expect(horizontal(collapsed).length).toBe(6);
    // Separate (§17.4.44): each of the four cells draws its top and bottom, plus the frame's two.
    expect(horizontal(spaced).length).toBe(10);
    // Row 2's text sits lower: two cell edges and the spacing between the rows take room.
    const y = (doc: LaidOutDocument, word: string) => texts(doc, 0).find((t) => t.text === word)?.y ?? 0;
    const pitchCollapsed = y(collapsed, 'c') - y(collapsed, 'a');
    const pitchSpaced = y(spaced, 'c') - y(spaced, 'a');
    expect(pitchSpaced - pitchCollapsed).toBeCloseTo(0.5 + 2 * 2, 1);
    // Shading stays inside the cell's box, off the spacing around it.
    const shaded = await layout(
      model([table([200, 200], [row([cell('s', { shading: 'FFC000' }), cell('t')])], { cellSpacing: 4 })]),
    );
    const fill = (shaded.pages[0]?.items ?? []).find((i): i is RectItem => i.kind === 'rect' && i.fill === 'FFC000');
    const edges = (shaded.pages[0]?.items ?? []).filter((i): i is LineItem => i.kind === 'line' && i.y1 === i.y2);
    const boxTop = Math.min(...edges.filter((l) => l.x1 > 72 - 5.4 + 1).map((l) => l.y1));
    expect(fill?.y).toBeCloseTo(boxTop, 1);
    // Zero spacing still means separate borders: each row holds its own top and bottom edge.
    const zero = await layout(model([table([200, 200], rows, { cellSpacing: 0 })]));
    expect(y(zero, 'c') - y(zero, 'a') - pitchCollapsed).toBeCloseTo(0.5, 1);
  });

  it('turns btLr and tbRl cell text, the row as tall as the text is long', async () => {
    const doc = await layout(
      model([
        table(
          [60, 60, 200],
          [
            row([
              cell('Upwards', { textDirection: 'btLr' }),
              cell('Downwards', { textDirection: 'tbRl' }),
              cell('plain'),
            ]),
          ],
        ),
      ]),
    );
    const items = texts(doc, 0);
    const up = items.find((t) => t.text === 'Upwards');
    const down = items.find((t) => t.text === 'Downwards');
    const plain = items.find((t) => t.text === 'plain');
    expect(up?.angle).toBe(90);
    expect(down?.angle).toBe(-90);
    expect(plain?.angle ?? 0).toBe(0);
    // Inside their columns: btLr starts at the bottom of the left cell, tbRl at the top of the next.
    expect(up?.x).toBeGreaterThan(72 - 5.4);
    expect(up?.x).toBeLessThan(72 - 5.4 + 60);
    expect(down?.x).toBeGreaterThan(72 - 5.4 + 60);
    expect(down?.x).toBeLessThan(72 - 5.4 + 120);
    expect(up?.y ?? 0).toBeGreaterThan(down?.y ?? 0);
    // The row is as tall as "Downwards" is long (about 50 pt at 11 pt), so the borders reach below it.
    const bottom = Math.max(
      ...(doc.pages[0]?.items ?? []).filter((i): i is LineItem => i.kind === 'line').map((l) => Math.max(l.y1, l.y2)),
    );
    expect(bottom - 72).toBeGreaterThan(45);
    expect(up?.y ?? 0).toBeLessThanOrEqual(bottom);
  });

  it('centres a merged cell over its rows without making the rows taller', async () => {
    const plain = await layout(model([table([200, 200], [row([cell('a'), cell('b')]), row([cell('c'), cell('d')])])]));
    const merged = await layout(
      model([
        table(
          [200, 200],
          [
            row([cell('m', { verticalMerge: 'restart', verticalAlign: 'center' }), cell('b')]),
            row([cell([], { verticalMerge: 'continue' }), cell('d')]),
          ],
        ),
      ]),
    );
    const y = (doc: LaidOutDocument, word: string) => texts(doc, 0).find((t) => t.text === word)?.y ?? 0;
    // Row 2 starts where it does without the merge: the centred line straddles the two rows.
    expect(y(merged, 'd')).toBeCloseTo(y(plain, 'd'), 2);
    expect(y(merged, 'm')).toBeGreaterThan(y(merged, 'b'));
    expect(y(merged, 'm')).toBeLessThan(y(merged, 'd'));
  });

  it('moves a row whose atLeast height does not fit in the room left, instead of splitting it', async () => {
    const rows: TableRow[] = [];
    for (let i = 0; i < 30; i++) rows.push(row([cell(`Filler${i}`)]));
    const tall = filler(200, 'tall');
    rows.push(row([cell(tall)], { height: { rule: 'atLeast', value: 400 } }));
    const doc = await layout(model([table([468], rows)]));
    expect(doc.pages.length).toBe(2);
    // The whole row, from its first word, is on page 2.
    expect(words(doc, 0).some((w) => w === 'tall')).toBe(false);
    const expected = tall.split(' ').filter((w) => w === 'tall').length;
    expect(expected).toBeGreaterThan(0);
    expect(words(doc, 1).filter((w) => w === 'tall').length).toBe(expected);
  });

  it('keeps an absolute tblW wider than the text column, centred across the margins', async () => {
    const wide = table([300, 300], [row([cell('left'), cell('right')])], {
      width: { type: 'dxa', value: 600 },
      align: 'center',
    });
    const doc = await layout(model([wide]));
    const left = texts(doc, 0).find((t) => t.text === 'left');
    const right = texts(doc, 0).find((t) => t.text === 'right');
    // Text column 468 pt from x 72; the 600 pt table starts 66 pt left of the margin.
    expect(left?.x).toBeCloseTo(72 - 66 + 5.4, 1);
    expect(right?.x).toBeCloseTo(72 - 66 + 300 + 5.4, 1);
  });
});

const TABLE_STYLES = `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="table" w:styleId="Banded"><w:name w:val="Banded"/>
  <w:pPr><w:spacing w:after="0"/></w:pPr>
  <w:tblPr><w:tblStyleRowBandSize w:val="1"/>
    <w:tblBorders><w:top w:val="single" w:sz="8" w:color="000000"/><w:insideH w:val="single" w:sz="4" w:color="808080"/></w:tblBorders>
  </w:tblPr>
  <w:tblStylePr w:type="firstRow"><w:rPr><w:b/></w:rPr><w:tcPr><w:shd w:val="clear" w:fill="1F4E79"/></w:tcPr></w:tblStylePr>
  <w:tblStylePr w:type="band1Horz"><w:tcPr><w:shd w:val="clear" w:fill="DEEAF6"/></w:tcPr></w:tblStylePr>
  <w:tblStylePr w:type="firstCol"><w:rPr><w:i/></w:rPr></w:tblStylePr>
</w:style>`;

function tr(...texts: string[]): string {
  return `<w:tr>${texts.map((t) => `<w:tc>${docxParagraph(t)}</w:tc>`).join('')}</w:tr>`;
}

describe('reading tables', () => {
  it('applies a table style: first row, banded rows and first column as tblLook selects', () => {
    const read = (look: string) =>
      readParts({
        document: `<w:body><w:tbl><w:tblPr><w:tblStyle w:val="Banded"/><w:tblW w:w="5000" w:type="pct"/>${look}</w:tblPr>
          <w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>
          ${tr('H1', 'H2')}${tr('a1', 'b1')}${tr('a2', 'b2')}${tr('a3', 'b3')}</w:tbl></w:body>`,
        styles: TABLE_STYLES,
      });
    const model = read('<w:tblLook w:firstRow="1" w:firstColumn="1" w:noVBand="1"/>');
    const t = model.sections[0]?.blocks[0] as Table;
    expect(t.kind).toBe('table');
    expect(t.width).toEqual({ type: 'pct', value: 1 });
    expect(t.borders.top?.width).toBe(1);
    expect(t.rows.map((r) => r.cells[1]?.shading)).toEqual(['1F4E79', 'DEEAF6', undefined, 'DEEAF6']);
    const runOf = (r: number, c: number) => {
      const block = t.rows[r]?.cells[c]?.blocks[0];
      const inline = block?.kind === 'paragraph' ? block.inlines[0] : undefined;
      return inline?.kind === 'text' ? inline.props : undefined;
    };
    expect(runOf(0, 1)?.bold).toBe(true);
    expect(runOf(1, 1)?.bold).toBe(false);
    expect(runOf(1, 0)?.italic).toBe(true);
    expect(runOf(1, 1)?.italic).toBe(false);
    // The old hexadecimal form: 0x0020 first row only, banding on.
    const hex = read('<w:tblLook w:val="0020"/>');
    const h = hex.sections[0]?.blocks[0] as Table;
    expect(h.rows.map((r) => r.cells[0]?.shading)).toEqual(['1F4E79', 'DEEAF6', undefined, 'DEEAF6']);
  });

  it('reads cell margins, vertical alignment, merges and row options', () => {
    const model = readParts({
      document: `<w:body><w:tbl><w:tblPr><w:tblLayout w:type="fixed"/><w:jc w:val="center"/>
        <w:tblCellMar><w:left w:w="0" w:type="dxa"/><w:top w:w="40" w:type="dxa"/></w:tblCellMar></w:tblPr>
        <w:tblGrid><w:gridCol w:w="1000"/><w:gridCol w:w="1000"/><w:gridCol w:w="1000"/></w:tblGrid>
        <w:tr><w:trPr><w:gridBefore w:val="1"/><w:cantSplit/><w:tblHeader/><w:trHeight w:val="400" w:hRule="exact"/></w:trPr>
          <w:tc><w:tcPr><w:gridSpan w:val="2"/><w:vMerge w:val="restart"/><w:vAlign w:val="center"/><w:tcMar><w:left w:w="200" w:type="dxa"/></w:tcMar><w:textDirection w:val="btLr"/><w:noWrap/></w:tcPr>${docxParagraph('x')}</w:tc></w:tr>
        <w:tr><w:tc><w:tcPr><w:gridSpan w:val="999999999"/></w:tcPr>${docxParagraph('y')}</w:tc></w:tr>
      </w:tbl></w:body>`,
    });
    const t = model.sections[0]?.blocks[0] as Table;
    expect(t.layout).toBe('fixed');
    expect(t.align).toBe('center');
    expect(t.cellMargins).toEqual({ top: 2, left: 0, bottom: 0, right: 5.4 });
    const first = t.rows[0];
    expect(first?.isHeader && first.cantSplit).toBe(true);
    expect(first?.height).toEqual({ value: 20, rule: 'exact' });
    expect(first?.cells[0]?.placeholder).toBe(true);
    const merged = first?.cells[1];
    expect(merged).toMatchObject({ span: 2, verticalMerge: 'restart', verticalAlign: 'center', textDirection: 'btLr' });
    expect(merged?.margins).toEqual({ left: 10 });
    expect(merged?.noWrap).toBe(true);
    // A damaged span is clamped to Word's column limit rather than sizing arrays by it.
    expect(t.rows[1]?.cells[0]?.span).toBeLessThanOrEqual(64);
  });

  it('lays out damaged tables without hanging: huge spans and heights', async () => {
    const model = readParts({
      document: `<w:body><w:tbl><w:tblGrid><w:gridCol w:w="99999999"/></w:tblGrid>
        <w:tr><w:trPr><w:trHeight w:val="999999999"/></w:trPr><w:tc><w:tcPr><w:gridSpan w:val="2147483647"/></w:tcPr>${docxParagraph('still here')}</w:tc></w:tr>
        <w:tr><w:trPr><w:trHeight w:val="999999999" w:hRule="exact"/></w:trPr><w:tc>${docxParagraph('and here')}</w:tc></w:tr>
      </w:tbl></w:body>`,
    });
    const doc = await layout(model);
    expect(doc.pages.length).toBeLessThan(10);
    const all = doc.pages.flatMap((_, p) => words(doc, p));
    expect(all).toContain('still');
  });
});

describe('row heights and the borders between rows (§17.4.81)', () => {
  async function heights(t: Table): Promise<number[]> {
    const fonts = await loadFontSet(collectFontRequests(model([t])), { assets: env.ASSETS, embedded: [], cache });
    const laid = layoutTableRows(t, 300, {
      fonts,
      laid: (p: Paragraph, width: number) => layoutParagraph(p, fonts, { areaWidth: width, defaultTabStop: 36 }),
    });
    return laid.rows.map((r) => r.height);
  }

  it('adds the rules a row takes room for on top of its at-least height, as on top of its content', async () => {
    // 0.5 pt rules: each row takes its top edge, the last its bottom edge as well.
    const atLeast = { rule: 'atLeast' as const, value: 30 };
    const rows = [
      row([cell('a')], { height: atLeast }),
      row([cell('b')], { height: atLeast }),
      row([cell('c')], { height: atLeast }),
    ];
    expect(await heights(table([200], rows))).toEqual([30.5, 30.5, 31]);
    // Content taller than the minimum: the rule comes on top of it once, not twice.
    const auto = [row([cell('d')]), row([cell('e')])];
    const [first, last] = await heights(table([200], auto));
    expect(first).toBeCloseTo(13.43 + 0.5, 1);
    expect(last).toBeCloseTo(13.43 + 1, 1);
    // Exact heights stay what they say.
    const exact = [row([cell('f')], { height: { rule: 'exact', value: 30 } })];
    expect(await heights(table([200], exact))).toEqual([30]);
  });
});

describe('rows laid out as they are taken', () => {
  it('hands each row out once nothing after it can change it, the same rows as laying the table out at once', async () => {
    const merged = [paragraph(filler(40))];
    const rows: TableRow[] = [row([cell('alone'), cell('a')])];
    rows.push(row([cell(merged, { verticalMerge: 'restart' }), cell('first')]));
    for (let i = 0; i < 3; i++) rows.push(row([cell([], { verticalMerge: 'continue' }), cell(`next${i}`)]));
    rows.push(row([cell(merged, { verticalMerge: 'restart' }), cell('single-row region')]));
    rows.push(row([cell('after'), cell('z')]));
    const t = table([100, 200], rows);
    const fonts = await loadFontSet(collectFontRequests(model([t])), { assets: env.ASSETS, embedded: [], cache });
    const context = {
      fonts,
      laid: (p: Paragraph, width: number) => layoutParagraph(p, fonts, { areaWidth: width, defaultTabStop: 36 }),
    };
    const whole = layoutTableRows(t, 300, context);
    const lazy = tableRows(t, 300, context);
    const laidBefore: number[] = [];
    let laidCount = 0;
    const counting = {
      fonts,
      laid: (p: Paragraph, width: number) => {
        laidCount++;
        return context.laid(p, width);
      },
    };
    const counted = tableRows(t, 300, counting);
    const taken = [];
    for (let next = counted.rows.next(); !next.done; next = counted.rows.next()) {
      laidBefore.push(laidCount);
      taken.push(next.value);
    }
    // The first row comes out once the second is laid, before the merged region below is.
    expect(laidBefore[0]).toBeLessThan(laidBefore[laidBefore.length - 1] ?? 0);
    expect(counted.count).toBe(rows.length);
    const lazyRows = [];
    for (let next = lazy.rows.next(); !next.done; next = lazy.rows.next()) lazyRows.push(next.value);
    expect(lazyRows).toEqual(whole.rows);
    expect(taken).toEqual(whole.rows);
    expect({ ...lazy, rows: undefined, count: undefined }).toEqual({ ...whole, rows: undefined, count: undefined });
  });
});
