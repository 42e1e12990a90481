// Where Word starts pages: rules its page starts (w:lastRenderedPageBreak) in real documents show.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontRequests } from '../../../src/engine/layout/font-requests';
import type { TextItem } from '../../../src/engine/layout/page-items';
import { layoutParagraph } from '../../../src/engine/layout/paragraph-layout';
import { layoutTableRows } from '../../../src/engine/layout/table/row-layout';
import type { Inline, Paragraph, Section } from '../../../src/engine/model/document';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { cell, documentModel, paragraph, row, runProps, section, table, text } from '../../helpers/model-builder';
import { bundledLayout } from './fallback-layout';

const layout = bundledLayout();
// Faces for the tests that lay tables out row by row, without the page flow.
const cache = createFontCache();

function texts(doc: LaidOutDocument, page: number): TextItem[] {
  return (doc.pages[page]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
}

/** The words on a page, top to bottom. */
function words(doc: LaidOutDocument, page: number): string[] {
  return texts(doc, page)
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .flatMap((t) => t.text.split(/\s+/))
    .filter(Boolean);
}

/** Calibri 11 pt single lines (13.43 pt) on a Letter page with 1 in margins: 48 fit. */
const LINES_PER_PAGE = 48;

describe('keepNext chains (§17.3.1.15)', () => {
  it('fills the pages of a chain longer than a page, moving no part of it on', async () => {
    // Sixty one-line paragraphs that each keep with the next: the chain fits no page, so Word
    // breaks it where the page is full. Weighing the chain again from each paragraph would move
    // the last page's worth to page 2 whole, leaving page 1 a fifth full.
    const chain = Array.from({ length: 60 }, (_, i) => paragraph(`item${i}`, { keepNext: true }));
    const doc = await layout(documentModel([section([...chain, paragraph('end')])]));
    expect(doc.pages).toHaveLength(2);
    expect(words(doc, 0)).toHaveLength(LINES_PER_PAGE);
    expect(words(doc, 1)[0]).toBe(`item${LINES_PER_PAGE}`);
  });

  it('starts a chain longer than a page on a new page when it does not fit the room left, and breaks it there', async () => {
    const fillers = Array.from({ length: 10 }, (_, i) => paragraph(`line${i}`));
    const chain = Array.from({ length: 60 }, (_, i) => paragraph(`item${i}`, { keepNext: true }));
    const doc = await layout(documentModel([section([...fillers, ...chain, paragraph('end')])]));
    expect(words(doc, 0)).toEqual(fillers.map((_, i) => `line${i}`));
    expect(words(doc, 1)).toHaveLength(LINES_PER_PAGE);
    expect(words(doc, 2)[0]).toBe(`item${LINES_PER_PAGE}`);
  });

  it('still moves a chain that fits a page to the next page whole', async () => {
    const fillers = Array.from({ length: 40 }, (_, i) => paragraph(`line${i}`));
    const chain = Array.from({ length: 10 }, (_, i) => paragraph(`kept${i}`, { keepNext: true }));
    const doc = await layout(documentModel([section([...fillers, ...chain, paragraph('end')])]));
    expect(words(doc, 0).at(-1)).toBe('line39');
    expect(words(doc, 1).slice(0, 2)).toEqual(['kept0', 'kept1']);
    expect(words(doc, 1).at(-1)).toBe('end');
  });
});

describe('the body between the margins', () => {
  const tight = (overrides: Partial<Section> = {}) =>
    section(
      Array.from({ length: 80 }, (_, i) => paragraph(`line${i}`)),
      {
        page: {
          width: 612,
          height: 792,
          margins: { top: 20, bottom: 20, left: 72, right: 72, header: 36, footer: 36, gutter: 0 },
        },
        ...overrides,
      },
    );

  it('keeps its margins on a page without a header or footer, whatever their distances', async () => {
    const doc = await layout(documentModel([tight()]));
    const first = texts(doc, 0).sort((a, b) => a.y - b.y)[0];
    // Calibri's baseline sits 10.47 pt below the line's top: the line starts at the 20 pt margin, not at 36 pt.
    expect(first?.y).toBeCloseTo(20 + 10.47, 1);
    // (792 - 40) / 13.43 = 55.99: 55 lines, where the distances would leave 53.
    expect(words(doc, 0)).toHaveLength(55);
  });

  it('starts below a header that reaches past the top margin', async () => {
    const doc = await layout(documentModel([tight({ headers: { default: [paragraph('Running head')] } })]));
    const body = texts(doc, 0)
      .filter((t) => t.text.startsWith('line'))
      .sort((a, b) => a.y - b.y)[0];
    // The header's line runs from its 36 pt distance to 49.43 pt; the body starts there.
    expect(body?.y).toBeCloseTo(36 + 13.43 + 10.47, 0);
  });
});

describe('the last line of a page and "multiple" line spacing', () => {
  // Calibri 11 pt at 1.15 lines: 15.45 pt a line (309 twips), 13.43 pt of it the text's own. On a
  // Letter page with 1 in margins (648 pt of body) 41 whole lines take 633.45 pt; a 42nd reaches
  // 648.9 pt, but its text only 646.88 pt: its 2 pt of spacing below may fall into the margin.
  const spaced = (count: number, first: Inline[] = []) =>
    Array.from({ length: count }, (_, i) =>
      paragraph([...(i === 0 ? first : []), text(`line${i}`)], {
        spacing: { before: 0, after: 0, line: 1.15, lineRule: 'auto' },
      }),
    );

  it("lets the spacing below the page's last line fall into the empty bottom margin", async () => {
    const doc = await layout(documentModel([section(spaced(60))]));
    expect(words(doc, 0)).toHaveLength(42);
    expect(words(doc, 1)[0]).toBe('line42');
  });

  it('keeps it off the footnotes at the foot of the page', async () => {
    // The note (6 pt before, one 13.43 pt line, under the 12 pt separator) leaves 616.57 pt: 39
    // lines take 602.55 pt, and a 40th's text would end at 615.98 pt, its spacing below over the note.
    const note = [paragraph('A note.', { spacing: { before: 6, after: 0, line: 1, lineRule: 'auto' } })];
    const reference: Inline = {
      kind: 'noteReference',
      note: 'footnote',
      id: '1',
      mark: '1',
      props: runProps({ verticalAlign: 'superscript' }),
    };
    const model = {
      ...documentModel([section(spaced(60, [reference]))]),
      notes: { footnotes: { '1': note }, endnotes: {} },
    };
    const doc = await layout(model);
    expect(words(doc, 0).filter((w) => w.startsWith('line'))).toHaveLength(39);
  });

  it('keeps it off a footer that pushed the body up', async () => {
    // A 30 pt footer line (36.62 pt tall) from its 36 pt distance reaches 72.62 pt up: the body
    // ends at 719.38 pt, where a 42nd line's text would fit and its spacing below not.
    const footer = [paragraph([text('Footer', { size: 30 })])];
    const doc = await layout(documentModel([section(spaced(60), { footers: { default: footer } })]));
    expect(words(doc, 0).filter((w) => w.startsWith('line'))).toHaveLength(41);
  });
});

describe('automatic (HTML) paragraph spacing in table cells', () => {
  const auto = {
    spacing: { before: 14, after: 14, line: 1, lineRule: 'auto' as const, beforeAuto: true, afterAuto: true },
  };

  async function rowHeights(paragraphs: Paragraph[][]): Promise<number[]> {
    const t = table(
      [200],
      paragraphs.map((blocks) => row([cell(blocks)])),
    );
    const fonts = await loadFontSet(collectFontRequests(documentModel([section([t])])), {
      assets: env.ASSETS,
      embedded: [],
      cache,
    });
    const laid = layoutTableRows(t, 400, {
      fonts,
      laid: (p: Paragraph, width: number) => layoutParagraph(p, fonts, { areaWidth: width, defaultTabStop: 36 }),
    });
    return laid.rows.map((r) => r.height);
  }

  it("adds none before a cell's first paragraph nor after its last, as a browser's cell does", async () => {
    const [one, two] = await rowHeights([[paragraph('web', auto)], [paragraph('a', auto), paragraph('b', auto)]]);
    expect(one).toBeCloseTo(13.43, 1);
    // Between two paragraphs of a cell the automatic space stays.
    expect(two).toBeCloseTo(13.43 * 2 + 14, 1);
  });

  it('keeps space given as a length at the edges of a cell', async () => {
    const fixed = { spacing: { before: 14, after: 14, line: 1, lineRule: 'auto' as const } };
    const [one] = await rowHeights([[paragraph('fixed', fixed)]]);
    expect(one).toBeCloseTo(13.43 + 28, 1);
  });
});
