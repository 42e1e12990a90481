import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { FontkitFace } from '../../src/fonts/fontkit-face';
import { SHAPING_FEATURES } from '../../src/fonts/shaping';
import { PaintFont } from '../../src/pdf/pdf-fonts';
import { request, testFontSet } from '../fonts/helpers';
import { literalBytes } from './pdf-inspect';

const LINES = [
  'The quick brown fox jumps over the lazy dog.',
  'office affluent fifty flat “quoted” — naïve café 1½ 1⁄2',
  'Ærøskøbing İstanbul Ĳssel l·l Şişli Cj\u0301 i\u0307 ‘x’ a  b   c',
];

function codesOfLiteral(body: Uint8Array): number[] {
  const bytes = literalBytes(String.fromCharCode(...body));
  const codes: number[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) codes.push(((bytes[i] as number) << 8) | (bytes[i + 1] as number));
  return codes;
}

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
    const whole = LINES.map((line) =>
      face
        .paintingFont()
        .layout(face.prepareText(line), SHAPING_FEATURES)
        .glyphs.map((glyph) => glyph.id),
    );
    const font = new PaintFont(pdfDoc.context.nextRef(), face, face.key);
    const byWord = LINES.map((line) => codesOfLiteral(font.encode(line)).map((cid) => font.glyphIds[cid]));
    expect(byWord).toEqual(whole);
  });
});
