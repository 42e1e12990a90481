import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { FontkitFace } from '../../../src/engine/fonts/fontkit-face';
import { SHAPING_FEATURES } from '../../../src/engine/fonts/shaping';
import { request, testFontSet } from './helpers';

const SAMPLES = [
  'Hello, world',
  'office affluent fifty flat', // ligature candidates: must not ligate in either
  'AVATAR Wave Tour', // kerning candidates: neither kerns
  'Ærøskøbing — “quoted” naïve café 1½ 1⁄2',
  'a\u00a0b co\u00adop x\u2011y',
];

describe('measure equals what the painter draws', () => {
  it.each([
    ['Calibri', false, false],
    ['Calibri', true, true],
    ['Cambria', false, true],
    ['Arial', true, false],
    ['Times New Roman', false, false],
    ['Courier New', false, false],
  ])('%s (bold %s, italic %s): FontFace.measure × size == pdf-lib widthOfTextAtSize', async (family, bold, italic) => {
    const face = (await testFontSet([request(family, bold, italic)])).face(request(family, bold, italic));
    if (!(face instanceof FontkitFace)) throw new Error('expected a FontkitFace');
    const pdfDoc = await PDFDocument.create();
    pdfDoc.registerFontkit(fontkit);
    // The painter's embedding: subset, same features (src/engine/write/pdf/pdf-fonts.ts).
    const pdfFont = await pdfDoc.embedFont(face.bytes, { subset: true, features: SHAPING_FEATURES });
    for (const text of SAMPLES) {
      const painted = pdfFont.widthOfTextAtSize(face.prepareText(text), 11);
      expect(face.measure(text) * 11, text).toBeCloseTo(painted, 9);
    }
  });

  it('depends on the features: with fontkit defaults, "office" would ligate and paint narrower', async () => {
    const face = (await testFontSet([request('Calibri')])).face(request('Calibri'));
    const pdfDoc = await PDFDocument.create();
    pdfDoc.registerFontkit(fontkit);
    const withDefaults = await pdfDoc.embedFont(face.bytes, { subset: true });
    expect(withDefaults.widthOfTextAtSize('office', 11)).not.toBeCloseTo(face.measure('office') * 11, 3);
  });
});
