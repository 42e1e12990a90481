import { env } from 'cloudflare:test';
import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { fallbackScriptOf } from '../../../../src/engine/fonts/fallback-faces';
import { createFontCache } from '../../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../../src/engine/fonts/font-set';
import { collectFallbackFaces, collectFontRequests } from '../../../../src/engine/layout/font-requests';
import type { TextItem } from '../../../../src/engine/layout/page-items';
import { layoutDocument } from '../../../../src/engine/pages/document-layout';
import { paintPdf } from '../../../../src/engine/write/pdf/paint-pdf';
import { documentModel, paragraph, section, text } from '../../../helpers/model-builder';
import { dict, get } from '../../../helpers/pdf-inspect';
import { pageText } from '../../../helpers/pdf-text';

const cp = (char: string) => char.codePointAt(0) as number;

describe('emoji and symbol fallback', () => {
  it('routes emoji and pictographic symbols to Noto Emoji, not arrows or Latin', () => {
    for (const char of ['🐱', '☀', '✔', '❤', '⭐', '⌚', '🀄', '🙂'])
      expect(fallbackScriptOf(cp(char), 'sc')).toBe('emoji');
    for (const char of ['→', '■', '①', 'é']) expect(fallbackScriptOf(cp(char), 'sc')).not.toBe('emoji');
  });

  it('draws an emoji the run face lacks in the emoji face, extractable from the PDF', async () => {
    const model = documentModel([section([paragraph([text('A cat 🐱 here', { font: 'Calibri', size: 12 })])])]);
    const fallbackFaces = collectFallbackFaces(model);
    expect(fallbackFaces).toEqual([{ script: 'emoji', bold: false }]);
    const fonts = await loadFontSet(collectFontRequests(model), {
      assets: env.ASSETS,
      embedded: [],
      cache: createFontCache(),
      fallbackFaces,
    });
    expect(fonts.warnings).toEqual([]);
    const laid = layoutDocument(model, fonts);
    const items = (laid.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
    expect(items.find((item) => item.text === '🐱')?.font).toBe('NotoEmoji-Regular');

    const pdf = await PDFDocument.load(await paintPdf(laid));
    expect(pageText(pdf, 0)).toContain('🐱');
    const resources = dict(pdf, pdf.getPage(0).node.get(PDFName.of('Resources')));
    const baseFonts = dict(pdf, get(pdf, resources, 'Font'))
      .entries()
      .map(([, ref]) => (get(pdf, dict(pdf, ref), 'BaseFont') as PDFName).decodeText());
    expect(baseFonts.some((name) => /^[A-Z]{6}\+NotoEmoji/.test(name))).toBe(true);
  });

  it('draws a ZWJ sequence the emoji face has as its one glyph, which extracts as the sequence', async () => {
    const family = '👨\u200d👩\u200d👧';
    const model = documentModel([section([paragraph([text(`A ${family} here`, { font: 'Calibri', size: 12 })])])]);
    const fonts = await loadFontSet(collectFontRequests(model), {
      assets: env.ASSETS,
      embedded: [],
      cache: createFontCache(),
      fallbackFaces: collectFallbackFaces(model),
    });
    const laid = layoutDocument(model, fonts);
    const items = (laid.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
    // The joiners stay in the emoji face's box, so the face's ligature for the family applies:
    // one glyph as wide as one emoji, not three.
    const box = items.find((item) => item.text === family);
    expect(box?.font).toBe('NotoEmoji-Regular');
    const emojiFace = fonts.fallback(cp('👨'), { family: 'Calibri', bold: false, italic: false });
    expect(emojiFace?.measure(family)).toBeCloseTo(emojiFace?.measure('👨') ?? 0, 9);
    const pdf = await PDFDocument.load(await paintPdf(laid));
    expect(pageText(pdf, 0)).toContain(family);
  });

  it("keeps an emoji presentation selector in the glyph's text, drawing nothing for it", async () => {
    // "⚠️": U+26A0 and VS16. The selector draws nothing but is the document's text: the glyph maps
    // back to both, as copied text and text extraction should get them.
    const warning = '\u26a0\ufe0f';
    const model = documentModel([section([paragraph([text(`Note ${warning} here`, { font: 'Calibri', size: 12 })])])]);
    const fonts = await loadFontSet(collectFontRequests(model), {
      assets: env.ASSETS,
      embedded: [],
      cache: createFontCache(),
      fallbackFaces: collectFallbackFaces(model),
    });
    const laid = layoutDocument(model, fonts);
    const items = (laid.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
    const box = items.find((item) => item.text.startsWith('\u26a0'));
    expect(box?.font).toBe('NotoEmoji-Regular');
    const emojiFace = fonts.fallback(cp('\u26a0'), { family: 'Calibri', bold: false, italic: false });
    expect(emojiFace?.measure(warning)).toBe(emojiFace?.measure('\u26a0'));
    const pdf = await PDFDocument.load(await paintPdf(laid));
    expect(pageText(pdf, 0)).toContain(warning);
  });
});
