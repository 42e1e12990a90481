/**
 * How text becomes glyphs, shared by measuring (FontFace.measure) and painting (src/pdf), so the
 * width layout measures is the width the PDF shows. Both run fontkit's `layout` with
 * SHAPING_FEATURES on the text `prepareText` returns; the painter draws each glyph with its
 * advance width (the /W array), so measuring sums advance widths too. GPOS moves only marks
 * (mark, mkmk), which have no advance: the painter places them, measuring need not.
 */
import type { Font, TypeFeatures } from '@pdf-lib/fontkit';

/**
 * Scripts where the substitutions left on (ccmp, locl, rlig) never fire on precomposed text:
 * Latin, Greek, Cyrillic, punctuation, currency and letterlike symbols; CJK punctuation, kana (not
 * the combining voicing marks), unified ideographs, Hangul syllables and fullwidth forms, which
 * horizontal CJK faces draw one glyph each (vert/vrt2 only apply to vertical text, off here). Such
 * text is one glyph per
 * character at its cmap advance, so it is measured by adding advances, about a hundred times
 * faster than fontkit's full shaping; anything else (combining marks, other scripts) is shaped.
 */
export const UNSHAPED_TEXT =
  /^[\u0020-\u024F\u0370-\u03FF\u0400-\u04FF\u2000-\u200B\u200E-\u206F\u20A0-\u20BF\u2100-\u214F\u3000-\u3029\u3030-\u303F\u3041-\u3096\u309B-\u30FF\u4E00-\u9FFF\uAC00-\uD7A3\uFF01-\uFF5E]*$/;

/**
 * Features switched off, on top of fontkit's defaults (ccmp, locl and rlig stay on):
 * - liga, clig, dlig, calt: Word sets no ligatures unless w14:ligatures asks (Word 2010+), and
 *   one glyph per character keeps PDF Tc (character spacing) per character, as Word applies it;
 * - kern: Word kerns only under w:kern;
 * - frac, numr, dnom: fontkit would turn "1⁄2" into fraction glyphs, which Word does not;
 * - rclt, curs: contextual forms and cursive attachment, which would move glyphs with an
 *   advance (the painter draws each at its advance width).
 * mark and mkmk stay on: they place combining marks (Arabic harakat, Hebrew niqqud) on their
 * base, as Word does, and change no advance (FontkitFace.shape keeps where they go, ShapedRun.shifts).
 */
export const SHAPING_FEATURES: TypeFeatures = {
  liga: false,
  clig: false,
  dlig: false,
  calt: false,
  rclt: false,
  kern: false,
  frac: false,
  numr: false,
  dnom: false,
  curs: false,
};

/**
 * SHAPING_FEATURES as a new object, for one call of fontkit's `layout`: fontkit keeps the object
 * it is given as the run's features and marks every feature its shaping plan applied in it
 * (fontkit 1.x GlyphRun and OTLayoutEngine.setup), so a shared object would gather init, medi,
 * fina, isol… from the first Arabic word, and every later call would ask for them too (as global
 * features, for text of other scripts): shaping would depend on what the isolate shaped before.
 */
export function shapingFeatures(): TypeFeatures {
  return { ...SHAPING_FEATURES };
}

/**
 * Unicode default-ignorable code points, the same list fontkit hides (as HarfBuzz and Uniscribe
 * do). fontkit swaps each for the space glyph with a zero advance, but pdf-lib paints glyphs with
 * their own advance, so each would show as a space: they are removed before shaping instead, but
 * for the joiners (isJoiner), which shaping needs.
 */
export function isDefaultIgnorable(codePoint: number): boolean {
  const cp = codePoint;
  return (
    cp === 0x00ad ||
    cp === 0x034f ||
    cp === 0x061c ||
    (cp >= 0x17b4 && cp <= 0x17b5) ||
    (cp >= 0x180b && cp <= 0x180e) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    (cp >= 0xfff0 && cp <= 0xfff8) ||
    (cp >= 0x1bca0 && cp <= 0x1bca3) ||
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe0fff)
  );
}

/**
 * The joiners ZWNJ (U+200C) and ZWJ (U+200D): default ignorables that are kept for shaping, since
 * they decide how the letters around them join (Unicode §23.2; Persian writes "می‌شود" with a
 * ZWNJ inside the word, so that the two parts do not join). fontkit hides them after shaping;
 * FontkitFace.shape drops their glyphs and puts their text on a neighbouring glyph's, so that
 * copied and searched text keeps them.
 */
export function isJoiner(codePoint: number): boolean {
  return codePoint === 0x200c || codePoint === 0x200d;
}

/**
 * Variation selectors (Unicode §23.4): default ignorables that choose a glyph variant of the
 * character before them, the emoji presentation (U+FE0F) or an ideographic variant (VS17–VS256).
 * They are kept after a character for shaping, which looks the pair up in the cmap's variation
 * sequences and gives the glyph both as its text, so that copied text keeps the sequence.
 */
export function isVariationSelector(codePoint: number): boolean {
  return (
    (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef) ||
    (codePoint >= 0x180b && codePoint <= 0x180d)
  );
}

/**
 * Characters Word draws with another character's glyph when the font lacks them: Carlito has no
 * U+00A0 (Calibri's is the space glyph) and no bundled face has U+2011. Applied only when the
 * face lacks the character and has its stand-in. The PDF's text then reads a plain space/hyphen.
 */
const STAND_INS: ReadonlyMap<number, number> = new Map([
  [0x00a0, 0x0020], // no-break space → space
  [0x2011, 0x002d], // non-breaking hyphen → hyphen-minus
  [0x2010, 0x002d], // hyphen → hyphen-minus
]);

/** Stand-ins that apply to one font, computed once per face. */
export function standInsFor(font: Pick<Font, 'hasGlyphForCodePoint'>): ReadonlyMap<number, number> {
  const applicable = new Map<number, number>();
  for (const [from, to] of STAND_INS) {
    if (!font.hasGlyphForCodePoint(from) && font.hasGlyphForCodePoint(to)) applicable.set(from, to);
  }
  return applicable;
}

/**
 * Text as shaped and painted: composed (NFC), default ignorables removed but for the joiners
 * (isJoiner) and a variation selector right after a character (isVariationSelector), stand-ins
 * applied. Composing matters because a face may have no mark positioning for a pair: "e" +
 * U+0301 draws well in every face as the single glyph "é".
 */
export function prepareText(text: string, standIns: ReadonlyMap<number, number>): string {
  // Fast path: everything below U+00A0 is already composed, neither ignorable nor stood in for.
  let plain = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0xa0) {
      plain = false;
      break;
    }
  }
  if (plain) return text;
  let out = '';
  // Whether the last character kept may take a variation selector: a character drawn, not a
  // space, a joiner or another selector (a selector with nothing to select shapes to a space).
  let selectable = false;
  for (const char of text.normalize('NFC')) {
    const cp = char.codePointAt(0) ?? 0;
    if (isDefaultIgnorable(cp) && !isJoiner(cp)) {
      if (selectable && isVariationSelector(cp)) out += char;
      selectable = false;
      continue;
    }
    const standIn = standIns.get(cp);
    out += standIn === undefined ? char : String.fromCodePoint(standIn);
    selectable = cp !== 0x20 && !isJoiner(cp);
  }
  return out;
}
