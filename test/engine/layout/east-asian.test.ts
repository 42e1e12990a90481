import { describe, expect, it } from 'vitest';
import type { TextItem } from '../../../src/engine/layout/page-items';
import type { RunProperties } from '../../../src/engine/model/document';
import { documentModel, paragraph, section, text } from '../../helpers/model-builder';
import { layoutWithFallback } from './fallback-layout';

/** The text items of one line of `text` in a run with `props`. */
async function lineItems(value: string, props: Partial<RunProperties>): Promise<TextItem[]> {
  const doc = await layoutWithFallback(documentModel([section([paragraph([text(value, { size: 10, ...props })])])]));
  return (doc.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
}

describe('East Asian text', () => {
  it('sets curly quotes in a Chinese font full-width, in the face of the ideographs (§17.3.2.26 hint)', async () => {
    // The quotes' slot is hAnsi, here SimSun; or, under w:hint eastAsia, the East Asian font. Either
    // way the face of the ideographs draws them, full-width (Noto Sans SC's quotes fill a 1 em
    // cell, as SimSun's do), and the line is one item of that face.
    for (const props of [
      { font: '宋体', fontEastAsia: '宋体' },
      { font: 'Times New Roman', fontEastAsia: 'SimSun', fontHintEastAsia: true },
    ]) {
      const items = await lineItems('得“天”之', props);
      expect(items.map((i) => [i.text, i.font])).toEqual([['得“天”之', 'NotoSansSC-Regular']]);
    }
  });

  it('justifies a line of ideographs, which has no spaces, by widening the gaps between characters', async () => {
    const line = '水仙为我国十大名花之一'.repeat(6);
    const doc = await layoutWithFallback(
      documentModel([section([paragraph([text(line, { size: 10, fontEastAsia: 'SimSun' })], { align: 'both' })])]),
    );
    const items = (doc.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
    const firstLine = items.filter((i) => i.y === items[0]?.y);
    const last = firstLine[firstLine.length - 1];
    // 46 ideographs of 10 pt fit the 468 pt measure; the 8 pt left over is shared out, so the
    // line's last character ends at the right margin (540 pt), not at 532 pt.
    expect(firstLine.length).toBe(46);
    expect((last?.x ?? 0) + 10).toBeCloseTo(540, 1);
  });

  it('puts a quarter em between ideographs and Latin letters or digits unless autoSpaceDE / autoSpaceDN is off', async () => {
    const gapAfter = async (value: string, props: Parameters<typeof paragraph>[1]) => {
      const doc = await layoutWithFallback(
        documentModel([section([paragraph([text(value, { font: 'Times New Roman', size: 10 })], props)])]),
      );
      const items = (doc.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
      const [latin, cjk] = items;
      return (cjk?.x ?? 0) - (latin?.x ?? 0);
    };
    // "Ab" in Liberation Serif is 0.722 + 0.5 em; "20" is 1 em.
    expect(await gapAfter('Ab年', {})).toBeCloseTo(12.22 + 2.5, 1);
    expect(await gapAfter('Ab年', { autoSpaceLatin: false })).toBeCloseTo(12.22, 1);
    expect(await gapAfter('20年', { autoSpaceLatin: false })).toBeCloseTo(10 + 2.5, 1);
    expect(await gapAfter('20年', { autoSpaceDigits: false })).toBeCloseTo(10, 1);
  });

  it('lets full-width punctuation that may not start a line hang past the margin (§17.3.1.21)', async () => {
    // 46 ideographs of 10 pt fill the 468 pt measure; the "！" after them hangs rather than taking
    // the ideograph before it down to the next line.
    const ideographs = '水仙为我国十大名花之一'.repeat(5).slice(0, 46);
    const items = await lineItems(`${ideographs}！再见`, { fontEastAsia: 'SimSun' });
    expect(items[0]?.text).toBe(`${ideographs}！`);
    expect(items[1]?.text).toBe('再见');
  });

  it('keeps curly quotes proportional when their slot names a Latin font', async () => {
    const items = await lineItems('得“天”之', { font: 'Times New Roman', fontEastAsia: 'SimSun' });
    const quote = items.find((i) => i.text === '“');
    const after = items.find((i) => i.text.startsWith('天'));
    expect(quote?.font).toBe('LiberationSerif-Regular');
    // Times New Roman's “ is 0.444 em, not a 1 em cell.
    expect((after?.x ?? 0) - (quote?.x ?? 0)).toBeCloseTo(4.44, 1);
  });
});
