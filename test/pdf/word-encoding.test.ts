import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { FontkitFace } from '../../src/fonts/fontkit-face';
import { SHAPING_FEATURES } from '../../src/fonts/shaping';
import { encodeText } from '../../src/pdf/pdf-fonts';
import { request, testFontSet } from '../fonts/helpers';

const LINES = [
  'The quick brown fox jumps over the lazy dog.',
  'office affluent fifty flat “quoted” — naïve café 1½ 1⁄2',
  'Ærøskøbing İstanbul Ĳssel l·l Şişli Cj\u0301 i\u0307 ‘x’ a  b   c',
];

describe('encoding a word at a time', () => {
  it.each([
    ['Calibri', false, false],
    ['Calibri', true, true],
    ['Cambria', false, false],
    ['Cambria', true, true],
    ['Arial', false, true],
    ['Times New Roman', true, false],
    ['Courier New', false, false],
  ])('gives the glyphs of shaping the whole line: %s (bold %s, italic %s)', async (family, bold, italic) => {
    const face = (await testFontSet([request(family, bold, italic)])).face(request(family, bold, italic));
    if (!(face instanceof FontkitFace)) throw new Error('expected a FontkitFace');
    const pdfDoc = await PDFDocument.create();
    pdfDoc.registerFontkit(fontkit);
    const pdfFont = await pdfDoc.embedFont(face.bytes, { subset: true, features: SHAPING_FEATURES });
    // Whole lines first, so the subset's glyph numbering is fixed before words are encoded.
    const whole = LINES.map((line) => pdfFont.encodeText(face.prepareText(line)).asString());
    const byWord = LINES.map((line) => encodeText({ pdfFont, face, encoded: new Map() }, line).asString());
    expect(byWord).toEqual(whole);
  });
});
