import { env } from 'cloudflare:test';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { fallbackFileName, fallbackScriptOf } from '../../../../src/engine/fonts/fallback-faces';
import { createFontCache } from '../../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../../src/engine/fonts/font-set';
import { collectFallbackFaces, collectFontRequests } from '../../../../src/engine/layout/font-requests';
import type { TextItem } from '../../../../src/engine/layout/page-items';
import { layoutDocument } from '../../../../src/engine/pages/document-layout';
import { paintPdf } from '../../../../src/engine/write/pdf/paint-pdf';
import { documentModel, paragraph, section, text } from '../../../helpers/model-builder';
import { pageText } from '../../../helpers/pdf-text';

const cp = (char: string) => char.codePointAt(0) as number;

describe('mathematical symbol fallback', () => {
  it('routes operators, arrows and mathematical letters to Noto Sans Math, which has one weight', () => {
    for (const char of ['∇', '⋯', '⋅', '→', '⟨', '⨯', '𝑥', '𝐁']) expect(fallbackScriptOf(cp(char), 'sc')).toBe('math');
    for (const char of ['é', '€', '①', '✔']) expect(fallbackScriptOf(cp(char), 'sc')).not.toBe('math');
    expect(fallbackFileName('math', true)).toBe('NotoSansMath-Regular.ttf');
  });

  it('draws symbols the run face lacks in Noto Sans Math, bold text too, extractable from the PDF', async () => {
    const model = documentModel([
      section([
        paragraph([
          text('Curl ∇×𝐁 and dots ⋯ ', { font: 'Calibri', size: 12 }),
          text('bold ∇', { font: 'Calibri', size: 12, bold: true }),
        ]),
      ]),
    ]);
    const fonts = await loadFontSet(collectFontRequests(model), {
      assets: env.ASSETS,
      embedded: [],
      cache: createFontCache(),
      fallbackFaces: collectFallbackFaces(model),
    });
    expect(fonts.warnings).toEqual([]);
    const laid = layoutDocument(model, fonts);
    const items = (laid.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
    for (const symbol of ['∇', '𝐁', '⋯']) {
      expect(items.find((item) => item.text.includes(symbol))?.font).toBe('NotoSansMath-Regular');
    }
    const text_ = pageText(await PDFDocument.load(await paintPdf(laid)), 0);
    expect(text_).toContain('𝐁');
    expect(text_).toContain('⋯');
  });
});
