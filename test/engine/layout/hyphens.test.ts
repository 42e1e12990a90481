// Soft and non-breaking hyphens (w:softHyphen U+00AD, w:noBreakHyphen U+2011; ECMA-376 §17.3.3.29,
// §17.3.3.18): a soft hyphen draws nothing unless the line breaks at it, where it shows as a hyphen;
// a non-breaking hyphen always shows and never breaks.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import type { FontSet } from '../../../src/engine/fonts/font-face';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontRequests } from '../../../src/engine/layout/font-requests';
import { type LaidParagraph, layoutParagraph } from '../../../src/engine/layout/paragraph-layout';
import type { Paragraph } from '../../../src/engine/model/document';
import { documentModel, paragraph, section } from '../../helpers/model-builder';

let cache: ReturnType<typeof createFontCache>;
beforeAll(() => {
  cache = createFontCache();
});

async function fontsFor(p: Paragraph): Promise<FontSet> {
  return loadFontSet(collectFontRequests(documentModel([section([p])])), { assets: env.ASSETS, embedded: [], cache });
}

function lineTexts(laid: LaidParagraph): string[] {
  return laid.lines.map((line) => line.fragments.map((f) => f.text).join(''));
}

/** The width of `text` in the paragraph's face (Calibri 11 pt, model-builder's default). */
function width(fonts: FontSet, text: string): number {
  return fonts.face({ family: 'Calibri', bold: false, italic: false }).measure(text) * 11;
}

describe('hyphens', () => {
  it('shows a soft hyphen as a hyphen where the line breaks at it, in the text too', async () => {
    const p = paragraph('aaaa extra\u00adordinary');
    const fonts = await fontsFor(p);
    // Room for "aaaa extra-" but not for the whole word.
    const areaWidth = width(fonts, 'aaaa extra-') + 1;
    const laid = layoutParagraph(p, fonts, { areaWidth, defaultTabStop: 36 });
    expect(lineTexts(laid)).toEqual(['aaaa extra-', 'ordinary']);
    const first = laid.lines[0]?.fragments.at(-1);
    expect((first?.x ?? 0) + (first?.width ?? 0)).toBeCloseTo(width(fonts, 'aaaa extra-'), 1);
  });

  it('does not break at a soft hyphen when the hyphen it would show does not fit', async () => {
    const p = paragraph('aaaa extra\u00adordinary');
    const fonts = await fontsFor(p);
    const areaWidth = width(fonts, 'aaaa extra') + 0.2;
    expect(lineTexts(layoutParagraph(p, fonts, { areaWidth, defaultTabStop: 36 }))).toEqual([
      'aaaa ',
      'extra-',
      'ordinary',
    ]);
  });

  it('draws nothing for a soft hyphen inside a line', async () => {
    const p = paragraph('co\u00adop and more');
    const fonts = await fontsFor(p);
    const laid = layoutParagraph(p, fonts, { areaWidth: 400, defaultTabStop: 36 });
    expect(lineTexts(laid)).toEqual(['co\u00adop and more']);
    const last = laid.lines[0]?.fragments.at(-1);
    expect((last?.x ?? 0) + (last?.width ?? 0)).toBeCloseTo(width(fonts, 'coop and more'), 1);
  });

  it('never breaks at a non-breaking hyphen, and measures it as a hyphen', async () => {
    const p = paragraph('aaaa two\u2011column');
    const fonts = await fontsFor(p);
    // Room for "aaaa two-" and for "two-column", not for both.
    const areaWidth = width(fonts, 'two-column') + 1;
    const laid = layoutParagraph(p, fonts, { areaWidth, defaultTabStop: 36 });
    expect(lineTexts(laid)).toEqual(['aaaa ', 'two\u2011column']);
    const word = laid.lines[1]?.fragments[0];
    expect(word?.width).toBeCloseTo(width(fonts, 'two-column'), 1);
  });
});
