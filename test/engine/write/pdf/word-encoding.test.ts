import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { FontkitFace } from '../../../../src/engine/fonts/fontkit-face';
import { SHAPING_FEATURES } from '../../../../src/engine/fonts/shaping';
import { PaintFont } from '../../../../src/engine/write/pdf/pdf-fonts';
import { shownText } from '../../../helpers/pdf-inspect';
import { fallbackFaceFor, request, testFontSet } from '../../fonts/helpers';

const LINES = [
  'The quick brown fox jumps over the lazy dog.',
  'office affluent fifty flat “quoted” — naïve café 1½ 1⁄2',
  'Ærøskøbing İstanbul Ĳssel l·l Şişli Cj\u0301 i\u0307 ‘x’ a  b   c',
];

/** The codes a string body shows, as page content frames it: `(` body `) Tj`. */
function codesOfLiteral(body: Uint8Array): number[] {
  return shownText(`(${String.fromCharCode(...body)}) Tj`).flatMap((shown) => shown.codes);
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
    // A mark GPOS moves (the acute on C, the dot on i) is drawn as a shifted copy of its glyph.
    const glyphOf = (cid: number) => {
      const id = font.glyphIds[cid] as number;
      return id < 0 ? font.shiftedGlyphs[-1 - id]?.glyphId : id;
    };
    const byWord = LINES.map((line) => codesOfLiteral(font.encode(line)).map(glyphOf));
    expect(byWord).toEqual(whole);
  });

  it('draws right-to-left text last word first, its brackets mirrored (UAX #9 L4), each glyph keeping its text', async () => {
    const face = (await testFontSet([request('Arial')])).face(request('Arial'));
    if (!(face instanceof FontkitFace)) throw new Error('expected a FontkitFace');
    const font = new PaintFont((await PDFDocument.create()).context.nextRef(), face, face.key);
    const encodeRtl = (text: string) => {
      const codes: number[] = [];
      font.encodeInto(
        text,
        (bytes, length = bytes.length) => codes.push(...codesOfLiteral(bytes.slice(0, length))),
        true,
      );
      return codes;
    };
    // "(שלום) עולם": visual order, left to right: עולם, a space, then the bracketed word with its
    // closing bracket leftmost, drawn with the glyph of "(", and its opening one drawn as ")".
    const codes = encodeRtl('(שלום) עולם');
    const glyphs = codes.map((cid) => font.glyphIds[cid]);
    const glyph = (char: string) => face.glyphId(char.codePointAt(0) as number);
    expect(glyphs).toEqual([...'םלוע', ' ', '(', ...'םולש', ')'].map(glyph));
    // The first bracket drawn is the closing one: its glyph is "(", its text stays ")" (ToUnicode),
    // so its CID is not the one "(" drawn left to right gets.
    expect(codes[5]).not.toBe(codesOfLiteral(font.encode('('))[0]);
    const measured = face.measure('(שלום) עולם') * 1000;
    let advance = 0;
    for (const cid of codes) advance += face.glyphAdvance(font.glyphIds[cid] as number) * (1000 / face.font.unitsPerEm);
    expect(advance).toBeCloseTo(measured, 6);
  });

  it('shows a mark GPOS moves as a copy of its glyph shifted in the font, at the pen', async () => {
    const face = await fallbackFaceFor('hebrew', 'ש');
    const font = new PaintFont((await PDFDocument.create()).context.nextRef(), face, face.key);
    const word = 'בְּרֵאשִׁית';
    const run = face.shape(face.prepareText(word));
    const body = String.fromCharCode(...font.encode(word));
    // One string: no operator between the glyphs.
    expect(body).not.toMatch(/\) T[jJ]|Ts/);
    // Every glyph shown once, in order; each moved one as a shifted copy of itself.
    const cids = codesOfLiteral(font.encode(word));
    expect(cids).toHaveLength(run.glyphIds.length);
    const shifts = run.shifts ?? [];
    cids.forEach((cid, i) => {
      const id = font.glyphIds[cid] as number;
      const moved = shifts[2 * i] !== 0 || shifts[2 * i + 1] !== 0;
      if (!moved) expect(id).toBe(run.glyphIds[i]);
      else
        expect(font.shiftedGlyphs[-1 - id]).toEqual({
          glyphId: run.glyphIds[i],
          dx: shifts[2 * i],
          dy: shifts[2 * i + 1],
        });
    });
    expect(cids.some((cid) => (font.glyphIds[cid] as number) < 0)).toBe(true);
  });
});
