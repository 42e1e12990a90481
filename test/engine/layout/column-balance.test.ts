import { describe, expect, it } from 'vitest';
import {
  type BalanceBlock,
  type BalanceLine,
  type BalanceParagraph,
  balancedHeight,
  fitsColumns,
} from '../../../src/engine/layout/column-balance';
import type { TextItem } from '../../../src/engine/layout/page-items';
import type { Columns, Paragraph } from '../../../src/engine/model/document';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { documentModel, paragraph, section } from '../../helpers/model-builder';
import { bundledLayout } from './fallback-layout';

/** A paragraph of `lines` lines `height` tall, the same at every width. */
function fixed(lines: number, height = 10, extra: Partial<BalanceParagraph> = {}): BalanceParagraph {
  const all: BalanceLine[] = Array.from({ length: lines }, () => ({ height }));
  return paragraphOf(() => all, extra);
}

/** A balanced paragraph with these lines, no spacing, one line needed at a column's start. */
function paragraphOf(lines: BalanceParagraph['lines'], extra: Partial<BalanceParagraph> = {}): BalanceParagraph {
  return {
    kind: 'paragraph',
    lines,
    from: 0,
    placed: [],
    before: 0,
    after: 0,
    minimumStart: 1,
    widowControl: false,
    ...extra,
  };
}

/**
 * A paragraph of `length` points of text broken into lines 10 pt tall at the width it is laid out
 * at: the lines already placed keep their widths, the rest fills lines of the new width.
 */
function text(length: number): BalanceParagraph {
  return paragraphOf((width, placed) => {
    const done = placed.reduce((sum, w) => sum + w, 0);
    const rest = Math.max(0, length - done);
    return Array.from({ length: placed.length + Math.ceil(rest / width) }, () => ({ height: 10 }));
  });
}

describe('balancedHeight', () => {
  it('evens out lines over equal columns', () => {
    expect(balancedHeight([fixed(12)], [100, 100, 100], 500)).toBeCloseTo(40, 0);
    expect(balancedHeight([fixed(4), fixed(3)], [100, 100], 500)).toBeCloseTo(40, 0);
  });

  it('measures each column at its own width (w:equalWidth="0")', () => {
    // 1000 pt of text: at 100 pt it is 10 lines, at 200 pt 5. Four narrow lines leave 600 pt,
    // three wide lines: the columns balance at four lines, where one width for both made five.
    expect(balancedHeight([text(1000)], [100, 200], 500)).toBeCloseTo(40, 0);
    expect(balancedHeight([text(1000)], [100, 100], 500)).toBeCloseTo(50, 0);
    // The wide column first: four wide lines (800 pt) leave two narrow ones; three (600 pt) would
    // leave four.
    expect(balancedHeight([text(1000)], [200, 100], 500)).toBeCloseTo(40, 0);
  });

  it('starts the next column after a column break', () => {
    const broken: BalanceBlock = {
      ...fixed(1),
      lines: () => [{ height: 10, breakAfter: 'column' }],
    };
    // One line, a column break, then six lines: the second column holds all six.
    expect(balancedHeight([broken, fixed(6)], [100, 100], 500)).toBeCloseTo(60, 0);
  });

  it('gives up when the content does not fit the page or breaks it', () => {
    expect(balancedHeight([fixed(30)], [100, 100], 100)).toBeUndefined();
    const paged: BalanceBlock = { ...fixed(1), lines: () => [{ height: 10, breakAfter: 'page' }] };
    expect(balancedHeight([paged, fixed(2)], [100, 100], 500)).toBeUndefined();
  });

  it('goes on from a paragraph part placed on an earlier page', () => {
    const part: BalanceParagraph = { ...fixed(10), from: 6, placed: [100, 100, 100, 100, 100, 100] };
    expect(balancedHeight([part], [100, 100], 500)).toBeCloseTo(20, 0);
  });

  it('keeps widows and orphans as the flow does', () => {
    // Three lines under widow control in two columns: two and one would leave a widow, so the
    // column must hold all three.
    expect(fitsColumns([fixed(3, 10, { widowControl: true })], [100, 100], 20)).toBe(false);
    expect(fitsColumns([fixed(3, 10, { widowControl: false })], [100, 100], 20)).toBe(true);
  });

  it('counts the space between paragraphs, not at the top of a column', () => {
    const spaced = (lines: number) => fixed(lines, 10, { before: 5, after: 5 });
    // 2 + 2 lines with 5 pt between: one column of 45, or two of 20 (the space falls at the top).
    expect(balancedHeight([spaced(2), spaced(2)], [100, 100], 500)).toBeCloseTo(20, 0);
    // A section that starts below another on the page keeps its first space before.
    expect(balancedHeight([spaced(2), spaced(2)], [100, 100], 500, true)).toBeCloseTo(25, 0);
  });
});

const layout = bundledLayout();

function texts(doc: LaidOutDocument, page: number, prefix: string): TextItem[] {
  return (doc.pages[page]?.items ?? []).filter((i): i is TextItem => i.kind === 'text' && i.text.startsWith(prefix));
}

/** Lines of text starting with `prefix` on a page, per column (by x), left to right. */
function columnCounts(doc: LaidOutDocument, page: number, prefix: string): number[] {
  const lines = new Map<number, Set<number>>();
  for (const t of texts(doc, page, prefix)) {
    const key = Math.round(t.x / 10);
    const set = lines.get(key) ?? new Set<number>();
    set.add(Math.round(t.y));
    lines.set(key, set);
  }
  return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, ys]) => ys.size);
}

const two: Columns = { count: 2, space: 36, separator: false };
const items = (prefix: string, count: number): Paragraph[] =>
  Array.from({ length: count }, (_, i) => paragraph(`${prefix}${i}`));

describe('balanced columns on the page', () => {
  it('balances the last page of a section that runs over several pages', async () => {
    // 130 one-line paragraphs fill both columns of page 1 and leave some thirty lines for page 2,
    // which Word splits in two even halves above the next section.
    const doc = await layout(
      documentModel([
        section(items('item', 130), { columns: two }),
        section([paragraph('after')], { start: 'continuous' }),
      ]),
    );
    expect(doc.pages).toHaveLength(2);
    const first = columnCounts(doc, 0, 'item');
    expect(first).toHaveLength(2);
    const last = columnCounts(doc, 1, 'item');
    expect(last).toHaveLength(2);
    const [left = 0, right = 0] = last;
    expect(left - right).toBeGreaterThanOrEqual(0);
    expect(left - right).toBeLessThanOrEqual(1);
    expect([...first, ...last].reduce((a, b) => a + b, 0)).toBe(130);
    // The next section starts below them on the same page.
    const after = texts(doc, 1, 'after')[0];
    const lowest = Math.max(...texts(doc, 1, 'item').map((t) => t.y));
    expect(after?.y).toBeGreaterThan(lowest);
  });

  it('does not balance a last section that no continuous break follows', async () => {
    const doc = await layout(documentModel([section(items('item', 130), { columns: two })]));
    const first = columnCounts(doc, 0, 'item').reduce((a, b) => a + b, 0);
    expect(columnCounts(doc, 1, 'item')).toEqual([130 - first]);
  });

  it('balances columns of unequal width at their own widths', async () => {
    // A narrow column (120 pt) and a wide one (324 pt): one long paragraph takes many more lines
    // in the narrow one; balanced, both end at about the same height.
    const unequal: Columns = {
      count: 2,
      space: 24,
      separator: false,
      widths: [
        { width: 120, space: 24 },
        { width: 324, space: 0 },
      ],
    };
    const words = Array.from({ length: 220 }, (_, i) => `w${i}`).join(' ');
    const doc = await layout(
      documentModel([
        section([paragraph(words)], { columns: unequal }),
        section([paragraph('after')], { start: 'continuous' }),
      ]),
    );
    expect(doc.pages).toHaveLength(1);
    const words0 = texts(doc, 0, 'w');
    const narrow = words0.filter((t) => t.x < 72 + 120);
    const wide = words0.filter((t) => t.x >= 72 + 144);
    expect(narrow.length).toBeGreaterThan(0);
    expect(wide.length).toBeGreaterThan(0);
    const bottom = (ts: TextItem[]) => Math.max(...ts.map((t) => t.y));
    // Within two lines of each other (measured at one width, the narrow column ran far below).
    expect(Math.abs(bottom(narrow) - bottom(wide))).toBeLessThan(2 * 13.43 + 0.5);
    // Every word is on the page, in order.
    expect(words0.map((t) => t.text).join(' ')).toContain('w219');
  });

  it('does not count the empty paragraph that holds the section break', async () => {
    // Four lines and the section break's empty paragraph: two and two, the mark below them.
    const doc = await layout(
      documentModel([
        section([...items('item', 4), paragraph([])], { columns: two }),
        section([paragraph('after')], { start: 'continuous' }),
      ]),
    );
    expect(columnCounts(doc, 0, 'item')).toEqual([2, 2]);
    // A last paragraph with text counts like any other: five lines make three and two.
    const counted = await layout(
      documentModel([
        section(items('item', 5), { columns: two }),
        section([paragraph('after')], { start: 'continuous' }),
      ]),
    );
    expect(columnCounts(counted, 0, 'item')).toEqual([3, 2]);
  });
});
