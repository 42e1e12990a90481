import { describe, expect, it } from 'vitest';
import type { TextItem } from '../../../src/engine/layout/page-items';
import { documentModel, paragraph, section, text } from '../../helpers/model-builder';
import { layoutWithFallback } from './fallback-layout';

const margins = { top: 90, right: 72, bottom: 90, left: 72, header: 36, footer: 36, gutter: 0 };

describe('vertical sections (tbRl)', () => {
  it('runs lines top to bottom from the right margin: ideographs upright, Latin turned clockwise', async () => {
    const model = documentModel([
      section([paragraph([text('蜀道难 Tang', { font: 'Times New Roman', size: 20 })])], {
        page: { width: 842, height: 595, margins, vertical: true },
      }),
    ]);
    const doc = await layoutWithFallback(model);
    const page = doc.pages[0];
    expect(page?.width).toBe(842);
    expect(page?.height).toBe(595);
    const items = (page?.items ?? []).filter((i): i is TextItem => i.kind === 'text' && i.text.trim() !== '');
    const chars = ['蜀', '道', '难'].map((c) => items.find((i) => i.text === c) as TextItem);
    for (const char of chars) {
      expect(char.angle).toBeUndefined();
      // One column near the right margin, inside the page.
      expect(char.x).toBeCloseTo(chars[0]?.x ?? 0, 3);
      expect(char.x).toBeGreaterThan(842 - 72 - 40);
      expect(char.x).toBeLessThan(842 - 72);
    }
    // Stacked downwards from the top margin, a cell apart.
    expect(chars[0]?.y).toBeGreaterThan(90);
    expect((chars[1]?.y ?? 0) - (chars[0]?.y ?? 0)).toBeCloseTo(20, 0);
    expect((chars[2]?.y ?? 0) - (chars[1]?.y ?? 0)).toBeCloseTo(20, 0);
    const latin = items.find((i) => i.text.includes('Tang'));
    expect(latin?.angle).toBe(-90);
    expect(latin?.y).toBeGreaterThan(chars[2]?.y ?? 0);
  });

  it('draws 、。， in their vertical forms, inside their own cell', async () => {
    const model = documentModel([
      section([paragraph([text('蜀道，难。', { size: 20 })])], {
        page: { width: 842, height: 595, margins, vertical: true },
      }),
    ]);
    const items = ((await layoutWithFallback(model)).pages[0]?.items ?? []).filter(
      (i): i is TextItem => i.kind === 'text',
    );
    expect(items.map((i) => i.text)).toEqual(['蜀', '道', '\ufe10', '难', '\ufe12']);
    // Each character a cell below the one before: the comma no longer reaches up into 道's cell.
    const ys = items.map((i) => i.y);
    for (let i = 1; i < ys.length; i++) expect((ys[i] ?? 0) - (ys[i - 1] ?? 0)).toBeCloseTo(20, 0);
    expect(items[2]?.x).toBeCloseTo(items[1]?.x ?? 0, 3);
  });

  it('starts a new page when a continuous section changes the page or its direction', async () => {
    const model = documentModel([
      section([paragraph('vertical')], { page: { width: 842, height: 595, margins, vertical: true } }),
      section([paragraph('horizontal')], { start: 'continuous' }),
    ]);
    const doc = await layoutWithFallback(model);
    expect(doc.pages.map((p) => [p.width, p.height])).toEqual([
      [842, 595],
      [612, 792],
    ]);
  });
});
