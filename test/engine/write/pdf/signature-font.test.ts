import { env } from 'cloudflare:test';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../../src/engine/fonts/font-set';
import { substituteFamily } from '../../../../src/engine/fonts/font-substitution';
import { collectFallbackFaces, collectFontRequests } from '../../../../src/engine/layout/font-requests';
import type { TextItem } from '../../../../src/engine/layout/page-items';
import { layoutDocument } from '../../../../src/engine/pages/document-layout';
import { paintPdf } from '../../../../src/engine/write/pdf/paint-pdf';
import { signatureTextRunsXml } from '../../../../src/services/annotate/signature-text';
import { documentModel, paragraph, section, text } from '../../../helpers/model-builder';
import { pageText } from '../../../helpers/pdf-text';

describe('handwriting face of text signatures', () => {
  it('stands in for Segoe Script, Brush Script MT and Dancing Script', () => {
    expect(signatureTextRunsXml('Jane', undefined)).toContain('w:ascii="Segoe Script"');
    for (const name of ['Segoe Script', 'Brush Script MT', 'dancing script']) {
      expect(substituteFamily(name)).toEqual({ family: 'Dancing Script', match: 'similar' });
    }
  });

  it('is what the PDF engine draws a Segoe Script run with, bold too, extractable', async () => {
    const model = documentModel([
      section([
        paragraph([
          text('Jane Q. Public ', { font: 'Segoe Script', size: 22 }),
          text('Bold', { font: 'Segoe Script', size: 22, bold: true }),
          text(' printed', { font: 'Calibri', size: 11 }),
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
    expect(items.find((item) => item.text.includes('Jane'))?.font).toBe('DancingScript-Regular');
    expect(items.find((item) => item.text.includes('Bold'))?.font).toBe('DancingScript-Bold');
    expect(items.find((item) => item.text.includes('printed'))?.font).toBe('Carlito-Regular');
    const pdf = await PDFDocument.load(await paintPdf(laid));
    expect(pageText(pdf, 0)).toContain('Jane Q. Public');
  });
});
