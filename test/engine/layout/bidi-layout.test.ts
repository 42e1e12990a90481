import bidiFactory from 'bidi-js';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { allAtRightToLeftLevel } from '../../../src/engine/layout/bidi-reorder';
import type { TextItem } from '../../../src/engine/layout/page-items';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { paintPdf } from '../../../src/engine/write/pdf/paint-pdf';
import { documentModel, paragraph, runProps, section, text } from '../../helpers/model-builder';
import { pageText } from '../../helpers/pdf-text';
import { layoutWithFallback } from './fallback-layout';

function texts(doc: LaidOutDocument): TextItem[] {
  return (doc.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text' && i.text.trim() !== '');
}

/** Letter page, 72 pt margins: the text area runs from x = 72 to x = 540. */
const RIGHT_EDGE = 540;

describe('bidirectional lines (UAX #9)', () => {
  it('sets a right-to-left paragraph from the right margin, in visual order', async () => {
    // What the reader makes of a w:bidi paragraph with the default jc: visual right alignment.
    const model = documentModel([
      section([
        paragraph(
          [text('שלום עולם', { font: 'Arial', size: 12 }), text(' ומלואו', { font: 'Arial', size: 12, bold: true })],
          {
            rtl: true,
            align: 'right',
          },
        ),
      ]),
    ]);
    const doc = await layoutWithFallback(model);
    const items = texts(doc);
    // Visual order, left to right: the last word (bold, its own item) leftmost, the first rightmost.
    expect(items.map((item) => item.text.trim())).toEqual(['ומלואו', 'שלום עולם']);
    const [last, first] = items as [TextItem, TextItem];
    expect(last.x).toBeLessThan(first.x);
    // The first word ends at the right margin: its item's width is measured by its face.
    const face = doc.fonts[first.font];
    const end = first.x + (face?.measure(first.text) ?? 0) * first.size;
    expect(end).toBeCloseTo(RIGHT_EDGE, 0);
  });

  it('keeps a right-to-left line at its start edge when a tab ends where a zero-width run sits', async () => {
    // A running header: title, a tab to a right stop, then a field result that is only a ZWNJ.
    const tab = { kind: 'tab' as const, props: runProps() };
    const model = documentModel([
      section([
        paragraph([text('שלום', { font: 'Arial', size: 12 }), tab, text('\u200c', { font: 'Arial', size: 12 })], {
          rtl: true,
          align: 'right',
          tabs: [{ position: 300, align: 'right', leader: 'none' }],
        }),
      ]),
    ]);
    const doc = await layoutWithFallback(model);
    const title = texts(doc).find((item) => item.text.includes('שלום'));
    const face = title ? doc.fonts[title.font] : undefined;
    // The title ends at the right margin, not a tab's width further right.
    expect((title?.x ?? 0) + (face?.measure('שלום') ?? 0) * (title?.size ?? 0)).toBeCloseTo(RIGHT_EDGE, 0);
  });

  it('keeps a left-to-right phrase in reading order inside a right-to-left paragraph', async () => {
    const model = documentModel([
      section([paragraph([text('שלום Hello World עולם', { font: 'Arial', size: 12 })], { rtl: true, align: 'right' })]),
    ]);
    const words = texts(await layoutWithFallback(model)).map((item) => item.text.trim());
    // Items keep logical order inside; the Latin phrase reads left to right between the words.
    expect(words).toEqual(['עולם', 'Hello World', 'שלום']);
  });

  it('paints the words of a right-to-left line right to left, the first rightmost', async () => {
    // One face for letters and spaces (Liberation Sans has Hebrew): the line is one item, in
    // logical order; the painter draws its words last first, so that the first is rightmost.
    const model = documentModel([
      section([paragraph([text('אחת שתיים שלוש', { font: 'Arial', size: 12 })], { rtl: true, align: 'right' })]),
    ]);
    const doc = await layoutWithFallback(model);
    const [item] = texts(doc);
    expect(item?.text).toBe('אחת שתיים שלוש');
    expect(item?.rtl).toBe(true);
    const face = item ? doc.fonts[item.font] : undefined;
    expect((item?.x ?? 0) + (face?.measure(item?.text ?? '') ?? 0) * 12).toBeCloseTo(RIGHT_EDGE, 0);
    const pdf = await PDFDocument.load(await paintPdf(doc));
    // pageText reads the glyphs in the order they are drawn, left to right: the whole line reversed.
    expect(pageText(pdf, 0)).toBe([...'אחת שתיים שלוש'].reverse().join(''));
  });

  it('reads numbers apart by a space in a right-to-left run right to left, as UAX #9 N1 says', async () => {
    // "ارا6300 4 ع": the digits follow Arabic letters, so they are Arabic numbers (W2) and the space
    // between them resolves to R (N1). Right to left: ارا, 6300, 4, ع; so left to right on the
    // page: ع, 4, 6300, ارا (LibreOffice and Word agree).
    const model = documentModel([
      section([
        paragraph([text('ارا6300 4 ع', { font: 'Arial', size: 12, rtl: true })], { rtl: true, align: 'right' }),
      ]),
    ]);
    const items = texts(await layoutWithFallback(model)).sort((a, b) => a.x - b.x);
    const numbers = items.filter((item) => /\d/.test(item.text)).map((item) => item.text.trim());
    expect(numbers).toEqual(['4', '6300']);
  });

  it('sets a right-to-left table of contents entry as Word does: the number at the left margin, the dots up to it', async () => {
    // A w:bidi TOC entry: title, a tab to a right (end) stop with dot leader at the text width,
    // the page number as a PAGEREF field (Word's cached result, 1). Stops of a bidi paragraph are measured from
    // the right margin: the stop is the left margin, where the number ends (its leading edge).
    const arial = { font: 'Arial', size: 12 };
    const model = documentModel([
      section([
        paragraph([{ kind: 'bookmark', name: 'target' }, text('יעד', arial)], { rtl: true, align: 'right' }),
        paragraph(
          [
            text('פרק ראשון', arial),
            { kind: 'tab', props: runProps(arial) },
            { kind: 'field', field: 'PAGEREF', argument: 'target', cached: '1', props: runProps(arial) },
          ],
          { rtl: true, align: 'right', tabs: [{ position: 468, align: 'right', leader: 'dot' }] },
        ),
      ]),
    ]);
    const doc = await layoutWithFallback(model);
    const items = (doc.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
    const number = items.find((item) => item.text === '1');
    const dots = items.find((item) => /^\.+$/.test(item.text));
    // PAGEREF shows the bookmark's page (1), drawn left to right, its left edge at the left margin.
    expect(number?.x).toBeCloseTo(72, 1);
    expect(number?.rtl).toBeUndefined();
    const face = number ? doc.fonts[number.font] : undefined;
    const numberEnd = (number?.x ?? 0) + (face?.measure('1') ?? 0) * 12;
    // The leader runs from the number to the title.
    expect(dots?.x).toBeCloseTo(numberEnd, 1);
    expect(dots?.x ?? 0).toBeLessThan(items.find((item) => item.text.includes('פרק'))?.x ?? 0);
  });

  it('keeps the digits of a field result in order in a right-to-left line', async () => {
    const arial = { font: 'Arial', size: 12 };
    const model = documentModel([
      section([
        paragraph(
          [
            text('עמוד', arial),
            { kind: 'tab', props: runProps(arial) },
            { kind: 'field', field: 'NUMPAGES', cached: '9', props: runProps(arial) },
          ],
          { rtl: true, align: 'right' },
        ),
        ...Array.from({ length: 11 }, () => paragraph([text('x', arial)], { pageBreakBefore: true })),
      ]),
    ]);
    const doc = await layoutWithFallback(model);
    const pdf = await PDFDocument.load(await paintPdf(doc));
    // Drawn left to right on the page: "12", then the Hebrew word (reversed by pageText's order).
    expect(pageText(pdf, 0).replace(/\s+/g, '')).toBe(`12${[...'עמוד'].reverse().join('')}`);
  });

  it('shows a PAGEREF to a page numbered in Arabic letters as that page shows its number', async () => {
    const arial = { font: 'Arial', size: 12 };
    const front = section(
      [
        paragraph([text('مقدمه', arial)], { rtl: true, align: 'right' }),
        paragraph([{ kind: 'bookmark', name: 'front' }, text('x', arial)], { pageBreakBefore: true }),
      ],
      { pageNumbering: { format: 'arabicAbjad', start: 1 } },
    );
    const body = section([
      paragraph(
        [
          text('فهرست', arial),
          { kind: 'tab', props: runProps(arial) },
          { kind: 'field', field: 'PAGEREF', argument: 'front', cached: '2', props: runProps(arial) },
        ],
        { rtl: true, align: 'right' },
      ),
    ]);
    const doc = await layoutWithFallback(documentModel([front, body]));
    const texts = (doc.pages[2]?.items ?? []).filter((i): i is TextItem => i.kind === 'text').map((i) => i.text);
    // Page 2 of the front matter is ب in abjad order.
    expect(texts.join('')).toContain('\u200cب');
  });

  it('reverses a Hebrew phrase inside a left-to-right paragraph, and leaves Latin lines alone', async () => {
    const model = documentModel([
      section([
        paragraph([text('Say שלום עולם today', { font: 'Arial', size: 12 })]),
        paragraph([text('Plain text only', { font: 'Arial', size: 12 })]),
      ]),
    ]);
    const items = texts(await layoutWithFallback(model));
    const first = items.filter((item) => item.y === items[0]?.y).map((item) => item.text.trim());
    // The Hebrew phrase is one item in logical order, placed between the Latin words.
    expect(first).toEqual(['Say', 'שלום עולם', 'today']);
    const second = items.filter((item) => item.y !== items[0]?.y);
    expect(second.map((item) => item.x)).toEqual([...second.map((item) => item.x)].sort((a, b) => a - b));
    expect(second[0]?.x).toBe(72);
  });

  it('gives complex-script characters the szCs size and East Asian text its autospace', async () => {
    const model = documentModel([
      section([
        paragraph([text('Total مرحبا', { font: 'Times New Roman', size: 8, sizeComplex: 15 })]),
        paragraph([text('2007年', { font: 'Times New Roman', size: 10 })]),
      ]),
    ]);
    const items = texts(await layoutWithFallback(model));
    expect(items.find((item) => item.text.includes('Total'))?.size).toBe(8);
    expect(items.find((item) => item.text.includes('مرحبا'))?.size).toBe(15);
    const year = items.find((item) => item.text === '2007');
    const nian = items.find((item) => item.text === '年');
    expect(year?.font).toBe('LiberationSerif-Regular');
    expect(nian?.font).toBe('NotoSansSC-Regular');
    // "2007" is 4 × 0.5 em wide in Liberation Serif; 年 starts a quarter em (2.5 pt) later.
    expect((nian?.x ?? 0) - (year?.x ?? 0)).toBeCloseTo(20 + 2.5, 1);
  });
});

describe('lines of a right-to-left paragraph that skip the bidi algorithm', () => {
  // Arabic and Hebrew words with their punctuation, spaces, marks and separators but no digits or
  // left-to-right letters: the whole algorithm puts every character at the paragraph's level 1.
  const atParagraphLevel = [
    ['مرحبا بالعالم، كيف حالك؟'],
    ['שלום, עולם!', ' (ומלואו) '],
    ['بِسْمِ اللَّهِ', '\uFFFC', 'الرحمن.'],
    ['% - + / :'],
  ];
  const notAtParagraphLevel = [['مرحبا 2024'], ['שלום world'], ['عدد ١٢٣'], ['\u202Bكلمة\u202C'], ['می\u200Cخواهم']];

  it('are exactly those the algorithm puts at level 1 throughout', () => {
    const bidi = bidiFactory();
    for (const texts of [...atParagraphLevel, ...notAtParagraphLevel]) {
      const { levels } = bidi.getEmbeddingLevels(texts.join(''), 'rtl');
      const allOne = Array.from(levels).every((level) => level === 1);
      expect(allAtRightToLeftLevel(texts, bidi)).toBe(atParagraphLevel.includes(texts));
      if (atParagraphLevel.includes(texts)) expect(allOne).toBe(true);
    }
  });
});
