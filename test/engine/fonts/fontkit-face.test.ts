import { describe, expect, it } from 'vitest';
import { FontkitFace } from '../../../src/engine/fonts/fontkit-face';
import { SHAPING_FEATURES } from '../../../src/engine/fonts/shaping';
import { fallbackFaceFor, request, testFontSet } from './helpers';

async function faceOf(family: string): Promise<FontkitFace> {
  const face = (await testFontSet([request(family)])).face(request(family));
  if (!(face instanceof FontkitFace)) throw new Error('expected a FontkitFace');
  return face;
}

/** The width fontkit's shaping gives, in em: what measuring must match. */
function shapedWidth(face: FontkitFace, text: string): number {
  const prepared = face.prepareText(text);
  const { glyphs } = face.paintingFont().layout(prepared, SHAPING_FEATURES);
  return glyphs.reduce((sum, glyph) => sum + glyph.advanceWidth, 0) / face.font.unitsPerEm;
}

describe('FontkitFace', () => {
  it('measures plain, prepared and shaped text as shaping would', async () => {
    for (const family of ['Calibri', 'Arial', 'Cambria']) {
      const face = await faceOf(family);
      for (const text of [
        'Plain words, “quotes” – and 10 €',
        'Кириллица и ёлка',
        'no\u00a0break\u00adsoft',
        'cafe\u0301 Ω≈',
        'שלום עולם',
        'نوع الدولية ',
        'النساء.',
        '中文（測試）',
      ]) {
        expect(face.measure(text)).toBeCloseTo(shapedWidth(face, text), 12);
      }
    }
  });

  it('tells text the font has no glyphs for (and spaces) from text it must shape', async () => {
    const face = await faceOf('Calibri');
    expect(face.shapesToNotdefs('نوع')).toBe(true);
    expect(face.shapesToNotdefs('نوع الدولية ')).toBe(true);
    expect(face.shapesToNotdefs('中文')).toBe(true);
    expect(face.shapesToNotdefs('(نوع')).toBe(false);
    expect(face.shapesToNotdefs('abc')).toBe(false);
    expect(face.shapesToNotdefs('   ')).toBe(false);
    expect(face.shapesToNotdefs('')).toBe(false);
  });

  it('looks glyphs and advances up as fontkit does', async () => {
    const face = await faceOf('Arial');
    for (const char of 'Aé€ж\u0627') {
      const glyph = face.font.glyphForCodePoint(char.codePointAt(0) as number);
      expect(face.glyphId(char.codePointAt(0) as number)).toBe(glyph.id);
      expect(face.glyphAdvance(glyph.id)).toBe(glyph.advanceWidth);
    }
    expect(face.glyphId(0x627)).toBe(0);
  });

  it('gives the painter a view of the font with a glyph cache of its own', async () => {
    const face = await faceOf('Cambria');
    face.measure('\u0237 dotless'); // reaches glyphs through the measuring font
    const view = face.paintingFont() as unknown as { _glyphs: Record<number, unknown> };
    expect(Object.keys(view._glyphs)).toEqual([]);
    const run = face.paintingFont().layout('j\u0301', SHAPING_FEATURES);
    // The dotless j reached by shaping carries the code point that reached it in this view.
    expect(run.glyphs[0]?.codePoints).toEqual([0x6a]);
  });

  it('shapes with the joiners, keeping their text, and gives each glyph of a two-glyph lam–alef its own letter', async () => {
    const face = await fallbackFaceFor('arabic', 'م');
    // Persian "می‌شود": the ZWNJ keeps ی from joining ش, so ی takes its final form.
    const withZwnj = face.shape(face.prepareText('می\u200cشود'));
    const joined = face.shape(face.prepareText('میشود'));
    expect(withZwnj.glyphIds).not.toEqual(joined.glyphIds);
    // Visual order: د و ش, then ی with the ZWNJ before it, then م; read as a right-to-left run,
    // the text is the word again.
    expect(withZwnj.texts.join('')).toBe('دوش\u200cیم');
    expect([...withZwnj.texts.join('')].reverse().join('')).toBe('می\u200cشود');
    expect(face.measure('می\u200cشود')).toBeCloseTo(withZwnj.advance / face.font.unitsPerEm, 12);
    // Lam–alef, two glyphs in this face (alef on the left, lam on the right): each is its own
    // letter, so the word read right to left, as a reader reorders a right-to-left line, is the
    // word. (Text spread over a one-glyph ligature left to right reads "ال" there: pdftotext's
    // text of Word's and LibreOffice's PDFs.)
    const lamAlef = face.shape(face.prepareText('بنغلاديش'));
    expect(lamAlef.texts.join('')).toBe([...'بنغلاديش'].reverse().join(''));
    // A joiner in Latin text is shaped too, and draws nothing.
    const latin = await faceOf('Calibri');
    expect(latin.measure('a\u200cb')).toBeCloseTo(latin.measure('ab'), 12);
    // Its text goes with the wider glyph beside it (a poppler-friendly share of the width).
    expect(latin.shape(latin.prepareText('a\u200cb')).texts).toEqual(['a', '\u200cb']);
    expect(latin.shape(latin.prepareText('m\u200ci')).texts).toEqual(['m\u200c', 'i']);
  });

  it('keeps where GPOS puts a mark on its base, and where it puts the dots split off a letter', async () => {
    const face = await fallbackFaceFor('hebrew', 'ש');
    // Hebrew: niqqud (no advance) moved onto their letters, in whole font units; the letters stay.
    const run = face.shape(face.prepareText('בְּרֵאשִׁית'));
    const shifts = run.shifts ?? [];
    expect(shifts).toHaveLength(2 * run.glyphIds.length);
    expect(shifts.every(Number.isInteger)).toBe(true);
    const moved = run.glyphIds.filter((_, i) => shifts[2 * i] !== 0 || shifts[2 * i + 1] !== 0);
    expect(moved.length).toBeGreaterThan(0);
    for (const id of moved) expect(face.glyphAdvance(id)).toBe(0);
    // Each moved mark keeps its own text.
    run.texts.forEach((text, i) => {
      if (shifts[2 * i] !== 0 || shifts[2 * i + 1] !== 0) expect(text).toMatch(/^\p{M}$/u);
    });
    // The advance is measuring's: marks add nothing.
    expect(face.measure('בְּרֵאשִׁית')).toBeCloseTo(run.advance / face.font.unitsPerEm, 12);
    // Arabic without harakat: the dots Noto draws as glyphs of their own (no text) are shifted
    // where GPOS puts them; the letters stay.
    const arabic = await fallbackFaceFor('arabic', 'م');
    const dotted = arabic.shape(arabic.prepareText('بنغلاديش'));
    const dots = dotted.shifts ?? [];
    expect(dots).toHaveLength(2 * dotted.glyphIds.length);
    dotted.texts.forEach((text, i) => {
      if (text !== '') expect([dots[2 * i], dots[2 * i + 1]]).toEqual([0, 0]);
    });
    expect(dotted.texts.some((text, i) => text === '' && (dots[2 * i] !== 0 || dots[2 * i + 1] !== 0))).toBe(true);
    expect(arabic.shape(arabic.prepareText('بِسْمِ')).shifts).toBeDefined();
    // fontkit cannot read this face's anchor for a stacked Quranic mark (U+06DA): the word is
    // shaped without mark positioning instead of failing the conversion.
    const quranic = arabic.shape(arabic.prepareText('ٱللَّهِۚ'));
    expect(quranic.glyphIds.length).toBeGreaterThan(0);
    expect(quranic.shifts?.some((shift) => shift !== 0) ?? false).toBe(false);
  });
});
