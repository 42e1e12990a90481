import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import type { FontSet } from '../../../src/engine/fonts/font-face';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFallbackFaces, collectFontRequests } from '../../../src/engine/layout/font-requests';
import { shrinkAdmits } from '../../../src/engine/layout/line-breaker';
import type { TextItem } from '../../../src/engine/layout/page-items';
import { layoutParagraph } from '../../../src/engine/layout/paragraph-layout';
import type { DocumentModel } from '../../../src/engine/model/document';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { layoutDocument } from '../../../src/engine/pages/document-layout';
import { documentModel, filler, paragraph, runProps, section, text } from '../../helpers/model-builder';

let cache: ReturnType<typeof createFontCache>;
beforeAll(() => {
  cache = createFontCache();
});

async function fontsFor(model: DocumentModel): Promise<FontSet> {
  return loadFontSet(collectFontRequests(model), { assets: env.ASSETS, embedded: [], cache });
}

async function layout(model: DocumentModel): Promise<LaidOutDocument> {
  return layoutDocument(model, await fontsFor(model));
}

function textsOf(doc: LaidOutDocument, page: number): TextItem[] {
  return (doc.pages[page]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
}

function pageText(doc: LaidOutDocument, page: number): string {
  return textsOf(doc, page)
    .map((t) => t.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Baselines of the body lines on a page, top to bottom. */
function baselines(doc: LaidOutDocument, page: number): number[] {
  return [...new Set(textsOf(doc, page).map((t) => Math.round(t.y * 100) / 100))].sort((a, b) => a - b);
}

describe('line layout', () => {
  it('uses Word single line height for Calibri 11 pt (13.43 pt)', async () => {
    const doc = await layout(documentModel([section([paragraph(filler(120))])]));
    const lines = baselines(doc, 0);
    expect(lines.length).toBeGreaterThan(3);
    expect((lines[2] ?? 0) - (lines[1] ?? 0)).toBeCloseTo(13.43, 1);
  });

  it("adds Times New Roman's external leading as Word does (12 pt → 13.8 pt)", async () => {
    const serif = { font: 'Times New Roman', size: 12 };
    const body = paragraph([text(filler(150), serif)]);
    body.markProps = runProps(serif);
    const lines = baselines(await layout(documentModel([section([body])])), 0);
    expect(lines.length).toBeGreaterThan(3);
    expect((lines[2] ?? 0) - (lines[1] ?? 0)).toBeCloseTo(13.8, 2);
  });

  it('makes a line a whole number of twips, as Word lays out (Times New Roman 12 pt at 1.15 → 317 twips)', async () => {
    const serif = { font: 'Times New Roman', size: 12 };
    const body = paragraph([text(filler(150), serif)], {
      spacing: { before: 0, after: 0, line: 1.15, lineRule: 'auto' },
    });
    body.markProps = runProps(serif);
    const model = documentModel([section([body])]);
    const laid = layoutParagraph(body, await fontsFor(model), { areaWidth: 468, defaultTabStop: 36 });
    // 1.15 × 13.799 pt = 15.868 pt unrounded; 40 such lines would be 0.7 pt taller than Word's.
    expect(laid.lines[1]?.height).toBe(317 / 20);
  });

  it('adds multiple line spacing in proportion to the font, not to an inline picture', async () => {
    const picture = paragraph([{ kind: 'image', imageId: 'x', width: 188.25, height: 77.25, props: runProps() }], {
      spacing: { before: 0, after: 0, line: 1.15, lineRule: 'auto' },
    });
    const model = documentModel([section([picture])]);
    const laid = layoutParagraph(picture, await fontsFor(model), { areaWidth: 468, defaultTabStop: 36 });
    // Word: 77.25 + 0.15 × 13.43 (Calibri 11 pt single), not 1.15 × 77.25.
    expect(laid.lines[0]?.height).toBeCloseTo(77.25 + 0.15 * 13.43, 1);
  });

  it('snaps auto line heights to whole pitches of the document grid, multiples of them for multiple spacing', async () => {
    const grid = { areaWidth: 468, defaultTabStop: 36, lineGrid: 15.6 };
    const body = (props: Parameters<typeof paragraph>[1] = {}) => paragraph(filler(150), props);
    const fonts = await fontsFor(documentModel([section([body()])]));
    const height = (p: ReturnType<typeof body>, context: typeof grid | { areaWidth: number; defaultTabStop: number }) =>
      layoutParagraph(p, fonts, context).lines[1]?.height;
    // Calibri 11 pt is 13.43 pt: one pitch; 1.5 lines are 1.5 pitches (§17.6.5).
    expect(height(body(), grid)).toBeCloseTo(15.6, 5);
    expect(height(body({ spacing: { before: 0, after: 0, line: 1.5, lineRule: 'auto' } }), grid)).toBeCloseTo(23.4, 5);
    // Off the grid: w:snapToGrid off (§17.3.1.32), exact heights, no grid at all.
    expect(height(body({ snapToGrid: false }), grid)).toBeCloseTo(13.43, 1);
    expect(height(body({ spacing: { before: 0, after: 0, line: 12, lineRule: 'exact' } }), grid)).toBe(12);
    expect(height(body(), { areaWidth: 468, defaultTabStop: 36 })).toBeCloseTo(13.43, 1);
  });

  it("measures CJK lines against the grid at Word's CJK line height, not the taller Noto face's", async () => {
    const cjk = (size: number) => paragraph([text('蜀道之难难于上青天'.repeat(8), { size, fontEastAsia: 'SimSun' })]);
    const model = documentModel([section([cjk(12), cjk(22)])]);
    const fonts = await loadFontSet(collectFontRequests(model), {
      assets: env.ASSETS,
      embedded: [],
      cache,
      fallbackFaces: collectFallbackFaces(model),
    });
    const grid = { areaWidth: 468, defaultTabStop: 36, lineGrid: 15.6 };
    // SimSun 12 pt is 15.6 pt in Word (1.3 em): one pitch, though Noto Sans SC's 1.45 em is 17.4 pt.
    expect(layoutParagraph(cjk(12), fonts, grid).lines[0]?.height).toBeCloseTo(15.6, 5);
    expect(layoutParagraph(cjk(22), fonts, grid).lines[0]?.height).toBeCloseTo(31.2, 5);
    // Page flow lays a section's paragraphs out on its grid.
    const onGrid = documentModel([section([cjk(12)], { page: { ...section([]).page, lineGrid: 18 } })]);
    const lines = baselines(await layoutDocument(onGrid, fonts), 0);
    expect((lines[1] ?? 0) - (lines[0] ?? 0)).toBeCloseTo(18, 5);
  });

  it('gives a line with a Symbol bullet the ascent of Symbol, though the bullet is drawn in the text face', async () => {
    const serif = { font: 'Times New Roman', size: 11 };
    const item = (metricsFont?: string) => {
      const p = paragraph([text('Item', serif)]);
      p.markProps = runProps(serif);
      p.label = {
        text: '•',
        props: runProps(serif),
        suffix: 'tab',
        align: 'left',
        ...(metricsFont ? { metricsFont } : {}),
      };
      return p;
    };
    const model = documentModel([section([item('Symbol'), item()])]);
    const fonts = await fontsFor(model);
    const context = { areaWidth: 468, defaultTabStop: 36 };
    const [symbol, plain] = [item('Symbol'), item()].map(
      (p) => layoutParagraph(p, fonts, context).lines[0]?.height ?? 0,
    );
    // Symbol's 2059 units of ascent (of 2048) against Times New Roman's 1825; the descent and
    // external leading stay Times New Roman's (443 + 87): Word's own PDFs show list lines taller.
    expect(plain).toBeCloseTo(13.8 * (11 / 12), 2);
    expect(symbol).toBeCloseTo(Math.round(((2059 + 443 + 87) / 2048) * 11 * 20) / 20, 2);
  });

  it("gives Cambria lines Cambria's height though Caladea draws them (14 pt → 16.40 pt)", async () => {
    const serif = { font: 'Cambria', size: 14 };
    const body = paragraph([text(filler(150), serif)]);
    body.markProps = runProps(serif);
    const lines = baselines(await layout(documentModel([section([body])])), 0);
    // (1946 + 455) / 2048 × 14 = 16.41 pt, laid out as a whole number of twips: 328, 16.40 pt.
    expect((lines[2] ?? 0) - (lines[1] ?? 0)).toBeCloseTo(16.4, 2);
  });

  it('breaks greedily within the text width and keeps words whole', async () => {
    const doc = await layout(documentModel([section([paragraph(filler(200))])]));
    const items = textsOf(doc, 0);
    for (const item of items) expect(item.x).toBeGreaterThanOrEqual(72 - 0.01);
    const words = pageText(doc, 0).split(/\s+/);
    expect(words.every((w) => /^[a-z]+$/.test(w))).toBe(true);
    expect(words.length).toBe(200);
  });

  it('justifies every line but the last to the right margin', async () => {
    const doc = await layout(documentModel([section([paragraph(filler(120), { align: 'both' })])]));
    const items = textsOf(doc, 0);
    const lines = baselines(doc, 0);
    const lastOf = (y: number) => items.filter((i) => Math.abs(i.y - y) < 0.01).sort((a, b) => b.x - a.x)[0];
    const firstLineEnd = lastOf(lines[0] ?? 0);
    expect(firstLineEnd).toBeDefined();
    // The last word of a justified line ends at the right margin (612 − 72).
    const face = doc.fonts[firstLineEnd?.font ?? ''];
    const end = (firstLineEnd?.x ?? 0) + (face?.measure(firstLineEnd?.text ?? '') ?? 0) * 11;
    expect(end).toBeCloseTo(540, 0);
  });
});

describe("Word 2013's justification (compatibilityMode 15): spaces shrink to take one more word", () => {
  /** Lines (their texts) of a justified paragraph of `words`, with the setting on or off. */
  async function justifiedLines(words: string, shrinking: boolean) {
    const model = documentModel([section([paragraph(words, { align: 'both' })])]);
    if (shrinking) model.settings.justifyByShrinking = true;
    const doc = await layout(model);
    const items = textsOf(doc, 0);
    return { doc, items, lines: baselines(doc, 0).map((y) => items.filter((i) => Math.abs(i.y - y) < 0.01)) };
  }

  it('takes a word that fits with its spaces shrunk, and draws them shrunk within the margins', async () => {
    const words = filler(400, 'shrink');
    const plain = await justifiedLines(words, false);
    const shrunk = await justifiedLines(words, true);
    // Some lines hold a word more: the first ten lines hold more words than without shrinking.
    const words10 = (run: { lines: TextItem[][] }) =>
      run.lines.slice(0, 10).reduce((sum, line) => sum + line.length, 0);
    expect(words10(shrunk)).toBeGreaterThan(words10(plain));
    for (const line of shrunk.lines) {
      const last = [...line].sort((a, b) => b.x - a.x)[0] as TextItem;
      const end = last.x + (shrunk.doc.fonts[last.font]?.measure(last.text.trimEnd()) ?? 0) * last.size;
      // Every line ends at the right margin at most (612 − 72), and no word overlaps the one before.
      expect(end).toBeLessThanOrEqual(540 + 0.01);
      const byX = [...line].sort((a, b) => a.x - b.x);
      for (let i = 1; i < byX.length; i++) {
        const prev = byX[i - 1] as TextItem;
        const width = (shrunk.doc.fonts[prev.font]?.measure(prev.text.trimEnd()) ?? 0) * prev.size;
        expect((byX[i] as TextItem).x).toBeGreaterThan(prev.x + width);
      }
    }
  });

  it('leaves paragraphs that are not justified as they were', async () => {
    const words = filler(400, 'shrink');
    const left = documentModel([section([paragraph(words)])]);
    const leftShrinking = documentModel([section([paragraph(words)])]);
    leftShrinking.settings.justifyByShrinking = true;
    expect(baselines(await layout(leftShrinking), 0)).toEqual(baselines(await layout(left), 0));
  });

  it('shrinks to three quarters of the spaces at most, and only when stretching would look worse', () => {
    // 10 pt of spaces, the word 1 pt too long: spaces at 90%; the line without it would stretch
    // its 7.5 pt of spaces by 2 pt (1.27 times): shrinking wins (1 + 0.27 / 1.7 ≥ 1 / 0.9).
    expect(shrinkAdmits(1, 10, 2.5, 2)).toBe(true);
    // 2 pt too long (80%) against a stretch of 1.53 times: past 1.5, shrinking always wins.
    expect(shrinkAdmits(2, 10, 2.5, 4)).toBe(true);
    // 3 pt too long: 70% is below the floor.
    expect(shrinkAdmits(3, 10, 2.5, 30)).toBe(false);
    // 2 pt too long, but the line without the word stretches its spaces by only 4%: stretch.
    expect(shrinkAdmits(2, 10, 2.5, 0.3)).toBe(false);
    // A line without spaces cannot shrink.
    expect(shrinkAdmits(0.1, 0, 0, 5)).toBe(false);
  });
});

describe('pagination', () => {
  it('moves a paragraph’s last line with the one before it (widow control)', async () => {
    // Fill the page so that a 4-line paragraph has 3 lines left on the first page.
    const probe = await layout(documentModel([section([paragraph(filler(40))])]));
    const lineHeight = (baselines(probe, 0)[1] ?? 0) - (baselines(probe, 0)[0] ?? 0);
    const bodyLines = Math.floor((792 - 144) / lineHeight);
    const fillers = Array.from({ length: bodyLines - 3 }, (_, i) => paragraph(`line ${i}`, { widowControl: true }));
    const four = paragraph(filler(60, 'widow'), { widowControl: true });
    const withControl = await layout(documentModel([section([...fillers, four])]));
    const withoutControl = await layout(
      documentModel([section([...fillers, { ...four, props: { ...four.props, widowControl: false } }])]),
    );
    const linesOfFour = (doc: LaidOutDocument, page: number) =>
      baselines(doc, page).filter((y) =>
        textsOf(doc, page).some((t) => Math.abs(t.y - y) < 0.01 && /widow|alpha|bravo/.test(t.text)),
      ).length;
    expect(linesOfFour(withoutControl, 1)).toBe(1);
    expect(linesOfFour(withControl, 1)).toBe(2);
    expect(withControl.pages).toHaveLength(2);
  });

  it('moves a three-line paragraph whole when only two of its lines fit (widow and orphan control)', async () => {
    const probe = await layout(documentModel([section([paragraph(filler(40))])]));
    const lineHeight = (baselines(probe, 0)[1] ?? 0) - (baselines(probe, 0)[0] ?? 0);
    const bodyLines = Math.floor((792 - 144) / lineHeight);
    const fillers = Array.from({ length: bodyLines - 2 }, (_, i) => paragraph(`line ${i}`));
    const three = paragraph(filler(40, 'widow'));
    const probeThree = await layout(documentModel([section([three])]));
    expect(baselines(probeThree, 0)).toHaveLength(3);
    const doc = await layout(documentModel([section([...fillers, three])]));
    const linesOf = (page: number) =>
      baselines(doc, page).filter((y) =>
        textsOf(doc, page).some((t) => Math.abs(t.y - y) < 0.01 && /widow|alpha|bravo/.test(t.text)),
      ).length;
    expect(linesOf(0)).toBe(0);
    expect(linesOf(1)).toBe(3);
  });

  it('counts the space after the previous paragraph when it asks room for two lines (no orphan)', async () => {
    // 46 lines of 13.43 pt leave 30.3 pt: the 10 pt gap and one line, not two.
    const fillers = Array.from({ length: 46 }, (_, i) => paragraph(`line ${i}`));
    fillers[45] = paragraph('line 45', { spacing: { before: 0, after: 10, line: 1, lineRule: 'auto' } });
    const next = paragraph(filler(80, 'orphan'));
    const doc = await layout(documentModel([section([...fillers, next])]));
    expect(pageText(doc, 0)).toContain('line 45');
    expect(pageText(doc, 0)).not.toMatch(/alpha|bravo|charlie/);
    expect(pageText(doc, 1).split(' ')[0]).toBe(filler(80, 'orphan').split(' ')[0]);
  });

  it('drops space before at the top of a page the text overflowed to, not after a page break', async () => {
    const spaced = { spacing: { before: 24, after: 0, line: 1, lineRule: 'auto' as const } };
    const fillers = Array.from({ length: 48 }, (_, i) => paragraph(`line ${i}`));
    const overflowed = await layout(documentModel([section([...fillers, paragraph('Overflowed heading', spaced)])]));
    const broken = await layout(
      documentModel([section([paragraph('first'), paragraph('Broken heading', { ...spaced, pageBreakBefore: true })])]),
    );
    const firstBaseline = (doc: LaidOutDocument) => baselines(doc, 1)[0] ?? 0;
    expect(pageText(overflowed, 1)).toBe('Overflowed heading');
    expect(pageText(broken, 1)).toBe('Broken heading');
    // Calibri 11 pt: the baseline sits 10.47 pt below the line's top.
    expect(firstBaseline(overflowed)).toBeCloseTo(72 + 10.47, 1);
    expect(firstBaseline(broken)).toBeCloseTo(72 + 24 + 10.47, 1);
  });

  it('keeps a keepNext heading with the paragraph after it', async () => {
    const probe = await layout(documentModel([section([paragraph('x')])]));
    const lineHeight = 13.43;
    expect(probe.pages).toHaveLength(1);
    const bodyLines = Math.floor((792 - 144) / lineHeight);
    const fillers = Array.from({ length: bodyLines - 1 }, (_, i) => paragraph(`line ${i}`));
    const heading = paragraph('Heading kept with next', { keepNext: true, outlineLevel: 0 });
    const body = paragraph(filler(30, 'body'));
    const doc = await layout(documentModel([section([...fillers, heading, body])]));
    expect(pageText(doc, 0)).not.toContain('Heading');
    expect(pageText(doc, 1)).toContain('Heading kept with next');
    expect(doc.outline[0]).toMatchObject({ title: 'Heading kept with next', level: 0, page: 1 });
  });

  it('starts a new page at a page break and at pageBreakBefore', async () => {
    const doc = await layout(
      documentModel([
        section([
          paragraph([text('before'), { kind: 'break', type: 'page', props: runProps() }, text('after')]),
          paragraph('own page', { pageBreakBefore: true }),
        ]),
      ]),
    );
    expect(doc.pages).toHaveLength(3);
    expect(pageText(doc, 0)).toBe('before');
    expect(pageText(doc, 1)).toBe('after');
    expect(pageText(doc, 2)).toBe('own page');
  });

  it('leaves the line before a page break on the last line of a page, keep rules notwithstanding', async () => {
    const lineHeight = 13.43;
    const bodyLines = Math.floor((792 - 144) / lineHeight);
    const fillers = Array.from({ length: bodyLines - 1 }, (_, i) => paragraph(`line ${i}`));
    // One line of room left: the break's line fits there; what follows it starts page 2 anyway,
    // so keepNext and widow control must not push the break's line over too (no blank page).
    const broken = paragraph([text('tail'), { kind: 'break', type: 'page', props: runProps() }, text('Index')], {
      keepNext: true,
      widowControl: true,
    });
    const doc = await layout(documentModel([section([...fillers, broken, paragraph('entry')])]));
    expect(doc.pages).toHaveLength(2);
    expect(pageText(doc, 0)).toContain('tail');
    expect(pageText(doc, 1)).toBe('Index entry');
  });

  it('balances the columns of a section that a continuous section break follows', async () => {
    const three = { count: 3, space: 18, separator: false };
    const lines = Array.from({ length: 12 }, (_, i) => paragraph(`item${i}`));
    const columnsOf = (doc: LaidOutDocument) => {
      const xs = new Map<number, number>();
      for (const t of textsOf(doc, 0).filter((t) => t.text.startsWith('item'))) {
        const key = Math.round(t.x);
        xs.set(key, (xs.get(key) ?? 0) + 1);
      }
      return [...xs.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
    };
    const balanced = await layout(
      documentModel([section(lines, { columns: three }), section([paragraph('after')], { start: 'continuous' })]),
    );
    expect(columnsOf(balanced)).toEqual([4, 4, 4]);
    // The next section starts below the balanced columns, on the same page.
    const after = textsOf(balanced, 0).find((t) => t.text === 'after');
    const lowest = Math.max(
      ...textsOf(balanced, 0)
        .filter((t) => t.text.startsWith('item'))
        .map((t) => t.y),
    );
    expect(after?.y).toBeGreaterThan(lowest);
    expect(balanced.pages).toHaveLength(1);
    // Without a continuous break after it, the last section's columns fill one by one.
    const unbalanced = await layout(documentModel([section(lines, { columns: three })]));
    expect(columnsOf(unbalanced)).toEqual([12]);
  });

  it('gives a paragraph ending in a line break an empty last line for its mark', async () => {
    const br = { kind: 'break' as const, type: 'line' as const, props: runProps() };
    const plain = await layout(documentModel([section([paragraph('one'), paragraph('two')])]));
    const broken = await layout(documentModel([section([paragraph([text('one'), br, br]), paragraph('two')])]));
    // Two breaks: two empty lines after "one" (the second holds the paragraph mark).
    const gap = (doc: LaidOutDocument) => (baselines(doc, 0)[1] ?? 0) - (baselines(doc, 0)[0] ?? 0);
    expect(gap(broken) - gap(plain)).toBeCloseTo(2 * 13.43, 1);
  });

  it('stops a tab at the hanging indent when it comes before the next custom stop', async () => {
    // TOC entry: "A.<tab>Title<tab>14", hanging indent at 45 pt, a right dot stop at 440 pt.
    const tabs = [{ position: 440, align: 'right' as const, leader: 'dot' as const }];
    const tab = { kind: 'tab' as const, props: runProps() };
    const entry = paragraph([text('A.'), tab, text('Title'), tab, text('14')], {
      tabs,
      indent: { left: 45, right: 0, firstLine: -45 },
    });
    const doc = await layout(documentModel([section([entry])]));
    const title = textsOf(doc, 0).find((t) => t.text === 'Title');
    expect(title?.x).toBeCloseTo(72 + 45, 1);
  });

  it('sends text after an absolute position tab (w:ptab) to the margins or indents, whatever the stops', async () => {
    const ptab = (align: 'left' | 'center' | 'right', relativeTo: 'margin' | 'indent' = 'margin') => ({
      kind: 'tab' as const,
      props: runProps(),
      absolute: { align, relativeTo, leader: 'none' as const },
    });
    // A footer whose style's stops (centre 234, right 468 of a 6.5 in text area) are not where
    // the ptabs go; the paragraph is indented 36 pt on the right.
    const entry = paragraph([text('Left'), ptab('center'), text('Middle'), ptab('right', 'indent'), text('Right')], {
      tabs: [
        { position: 100, align: 'center', leader: 'none' },
        { position: 200, align: 'right', leader: 'none' },
      ],
      indent: { left: 0, right: 36, firstLine: 0 },
    });
    const doc = await layout(documentModel([section([entry])]));
    const item = (value: string) => textsOf(doc, 0).find((t) => t.text === value);
    const width = (value: string) => {
      const t = item(value);
      return t ? (doc.fonts[t.font]?.measure(t.text) ?? 0) * t.size : 0;
    };
    expect((item('Middle')?.x ?? 0) + width('Middle') / 2).toBeCloseTo(72 + 468 / 2, 1);
    expect((item('Right')?.x ?? 0) + width('Right')).toBeCloseTo(72 + 468 - 36, 1);
    expect(item('Right')?.y).toBeCloseTo(item('Left')?.y ?? 0, 2);
  });

  it('takes an absolute position tab whose point the line has passed to that point on the next line', async () => {
    const ptab = {
      kind: 'tab' as const,
      props: runProps(),
      absolute: { align: 'left' as const, relativeTo: 'margin' as const, leader: 'none' as const },
    };
    const doc = await layout(documentModel([section([paragraph([text('Some words'), ptab, text('again')])])]));
    const again = textsOf(doc, 0).find((t) => t.text === 'again');
    const first = textsOf(doc, 0).find((t) => t.text.startsWith('Some'));
    expect(again?.x).toBeCloseTo(72, 1);
    expect((again?.y ?? 0) - (first?.y ?? 0)).toBeCloseTo(13.43, 1);
  });

  it('keeps text at a right tab set beyond the right margin on its line, running into the margin', async () => {
    // 468 pt of text width; the right tab at 500 pt is 32 pt into the right margin.
    const tabs = [{ position: 500, align: 'right' as const, leader: 'dot' as const }];
    const entry = paragraph([text(filler(12, 'entry')), { kind: 'tab', props: runProps() }, text('71')], { tabs });
    const doc = await layout(documentModel([section([entry])]));
    const number = textsOf(doc, 0).find((t) => t.text === '71');
    const first = textsOf(doc, 0)[0];
    expect(number?.y).toBeCloseTo(first?.y ?? 0, 2);
    expect(number?.x ?? 0).toBeGreaterThan(72 + 468 - 12);
  });

  it('underlines tabs across their width, trailing ones too, as the fill-in lines of forms', async () => {
    // "Name:" then two underlined tabs: a centre stop at 207.65 pt and a right stop at 415.3 pt.
    const tabs = [
      { position: 207.65, align: 'center' as const, leader: 'none' as const },
      { position: 415.3, align: 'right' as const, leader: 'none' as const },
    ];
    const underlined = runProps({ underline: 'single' });
    const tab = { kind: 'tab' as const, props: underlined };
    const form = paragraph([text('Name:', { underline: 'single' }), tab, tab], { tabs });
    const doc = await layout(documentModel([section([form])]));
    const lines = (doc.pages[0]?.items ?? []).filter((i) => i.kind === 'line');
    const right = Math.max(...lines.map((l) => (l.kind === 'line' ? Math.max(l.x1, l.x2) : 0)));
    expect(right).toBeCloseTo(72 + 415.3, 1);

    // Underlining words only leaves the tabs bare.
    const wordsOnly = { kind: 'tab' as const, props: runProps({ underline: 'words' }) };
    const bare = paragraph([text('Name:', { underline: 'words' }), wordsOnly, wordsOnly], { tabs });
    const plain = await layout(documentModel([section([bare])]));
    const longest = Math.max(
      ...(plain.pages[0]?.items ?? []).map((l) => (l.kind === 'line' ? Math.max(l.x1, l.x2) : 0)),
    );
    expect(longest).toBeLessThan(72 + 60);
  });
});

describe('headers and footers', () => {
  it('prints PAGE and NUMPAGES in a footer and a first-page header only on page 1', async () => {
    const props = runProps();
    const footer = [
      paragraph([
        text('Page '),
        { kind: 'field', field: 'PAGE', cached: '1', props },
        text(' of '),
        { kind: 'field', field: 'NUMPAGES', cached: '1', props },
      ]),
    ];
    const model = documentModel([
      section(
        Array.from({ length: 120 }, (_, i) => paragraph(`body line ${i}`)),
        {
          titlePage: true,
          headers: { first: [paragraph('FIRST HEADER')], default: [paragraph('Running header')] },
          footers: { default: footer, first: footer },
        },
      ),
    ]);
    const doc = await layout(model);
    expect(doc.pages.length).toBe(3);
    expect(pageText(doc, 0)).toContain('FIRST HEADER');
    expect(pageText(doc, 1)).not.toContain('FIRST HEADER');
    expect(pageText(doc, 1)).toContain('Running header');
    for (let p = 0; p < 3; p++) expect(pageText(doc, p)).toContain(`Page ${p + 1} of 3`);
  });
  it("makes room below a header for its last paragraph's space after, as Word does, but not below a footer's", async () => {
    const spacing = (after: number) => ({ before: 0, after, line: 1, lineRule: 'auto' as const });
    const fourLines = (after: number) => [
      paragraph('Header one'),
      paragraph('Header two'),
      paragraph('Header three'),
      paragraph('Header four', { spacing: spacing(after) }),
    ];
    const bodyTop = async (after: number) => {
      const model = documentModel([
        section([paragraph('Body text')], {
          headers: { default: fourLines(after) },
          footers: { default: fourLines(after) },
        }),
      ]);
      const doc = await layout(model);
      return textsOf(doc, 0).find((item) => item.text.startsWith('Body'))?.y ?? 0;
    };
    const [without, with48] = [await bodyTop(0), await bodyTop(48)];
    // Four lines from the header distance (36 pt) end below the 72 pt top margin: the body starts
    // below them, and 48 pt further down when the last one has 48 pt after.
    expect(with48 - without).toBeCloseTo(48, 1);
  });

  // Pages are painted while the flow goes on; one whose fields need the whole document waits.
  it('prints NUMPAGES, SECTIONPAGES and a forward PAGEREF in the body once the flow has ended', async () => {
    const props = runProps();
    const body = (i: number) => paragraph(`body line ${i}`);
    const model = documentModel([
      section([
        paragraph([text('first page, PAGE '), { kind: 'field', field: 'PAGE', cached: '9', props }]),
        ...Array.from({ length: 60 }, (_, i) => body(i)),
        paragraph([
          text('of '),
          { kind: 'field', field: 'NUMPAGES', cached: '9', props },
          text(' section '),
          { kind: 'field', field: 'SECTIONPAGES', cached: '9', props },
          text(' target on '),
          { kind: 'field', field: 'PAGEREF', argument: 'target', cached: '9', props },
        ]),
        ...Array.from({ length: 60 }, (_, i) => body(i)),
        paragraph([{ kind: 'bookmark', name: 'target' }, text('the target')]),
        paragraph([text('back on '), { kind: 'field', field: 'PAGEREF', argument: 'target', cached: '9', props }]),
      ]),
    ]);
    const doc = await layout(model);
    expect(doc.pages.length).toBe(3);
    expect(pageText(doc, 0)).toContain('first page, PAGE 1');
    expect(pageText(doc, 1)).toContain('of 3 section 3 target on 3');
    expect(pageText(doc, 2)).toContain('back on 3');
  });
});
