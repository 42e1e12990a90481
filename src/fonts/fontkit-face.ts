/**
 * A FontFace over a font parsed by fontkit: the only kind the font stage makes. The painter
 * embeds its bytes and encodes text through prepareText, the same text measure shapes.
 */
import fontkit, { type Font } from '@pdf-lib/fontkit';
import { BoundedCache } from './bounded-cache';
import type { FontFace } from './font-face';
import { isDefaultIgnorable, prepareText, SHAPING_FEATURES, standInsFor, UNSHAPED_TEXT } from './shaping';

/** Widths remembered per face: enough for the distinct words of a long document. */
export const MEASURE_CACHE_CAPACITY = 4096;
/** Longer strings (whole lines) are measured but not remembered: they rarely repeat. */
const MEASURE_CACHE_MAX_LENGTH = 64;

/** Fields read here that fontkit's type declarations leave out. */
interface SfntTables {
  'OS/2'?: { winAscent?: number; winDescent?: number };
  directory?: { tables?: Record<string, unknown> };
}

export class FontkitFace implements FontFace {
  readonly key: string;
  readonly bytes: Uint8Array;
  readonly font: Font;
  readonly ascent: number;
  readonly descent: number;
  readonly underlinePosition: number;
  readonly underlineThickness: number;
  readonly #standIns: ReadonlyMap<number, number>;
  readonly #widths = new BoundedCache<string, number>(MEASURE_CACHE_CAPACITY);
  /** Advance per code point, in font units; bounded by the font's own character map. */
  readonly #advances = new Map<number, number>();

  constructor(key: string, bytes: Uint8Array, font: Font) {
    this.key = key;
    this.bytes = bytes;
    this.font = font;
    const upm = font.unitsPerEm;
    const os2 = (font as Font & SfntTables)['OS/2'];
    // Word's single line height is (usWinAscent + usWinDescent) / unitsPerEm × size (ENGINE.md);
    // without OS/2 (rare in embedded fonts) hhea's ascender/descender are the next best thing.
    this.ascent = (os2?.winAscent ?? font.ascent) / upm;
    this.descent = Math.abs(os2?.winDescent ?? font.descent) / upm;
    // post.underlinePosition: OpenType calls it the top of the stroke; many fonts put its centre.
    this.underlinePosition = font.underlinePosition / upm;
    this.underlineThickness = font.underlineThickness / upm;
    this.#standIns = standInsFor(font);
  }

  /** PostScript name, for the PDF's BaseFont; falls back to the key for nameless fonts. */
  get postscriptName(): string {
    return this.font.postscriptName || this.key;
  }

  hasGlyph(codePoint: number): boolean {
    return this.font.hasGlyphForCodePoint(codePoint) || isDefaultIgnorable(codePoint) || this.#standIns.has(codePoint);
  }

  /** The text as it is shaped and painted (see shaping.ts); the painter encodes exactly this. */
  prepareText(text: string): string {
    return prepareText(text, this.#standIns);
  }

  measure(text: string): number {
    const cacheable = text.length <= MEASURE_CACHE_MAX_LENGTH;
    if (cacheable) {
      const known = this.#widths.get(text);
      if (known !== undefined) return known;
    }
    const prepared = this.prepareText(text);
    let units = 0;
    if (UNSHAPED_TEXT.test(prepared)) {
      for (let i = 0; i < prepared.length; i++) units += this.#advance(prepared.charCodeAt(i));
    } else {
      const { glyphs } = this.font.layout(prepared, SHAPING_FEATURES);
      for (const glyph of glyphs) units += glyph.advanceWidth;
    }
    const width = units / this.font.unitsPerEm;
    if (cacheable) this.#widths.set(text, width);
    return width;
  }

  #advance(codePoint: number): number {
    let advance = this.#advances.get(codePoint);
    if (advance === undefined) {
      advance = this.font.glyphForCodePoint(codePoint).advanceWidth;
      this.#advances.set(codePoint, advance);
    }
    return advance;
  }

  /** Entries in the width cache (for tests of its bound). */
  get measuredCount(): number {
    return this.#widths.size;
  }
}

/**
 * True for an sfnt with TrueType outlines: version 0x00010000 or 'true'. CFF ('OTTO'), WOFF,
 * WOFF2 and collections are refused: fontkit subsets CFF poorly and cannot subset WOFF2
 * (TOOLCHAIN.md), and the PDF embeds TrueType (ENGINE.md "Embedding").
 */
export function isTrueTypeSfnt(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const tag = ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0);
  return tag === 0x00010000 || tag === 0x74727565; // 'true'
}

/**
 * Parses TrueType bytes into a face, or undefined when fontkit cannot read them or they are not
 * TrueType: callers skip such a font (an embedded font) or report it (a bundled one).
 */
export function parseTrueTypeFace(key: string, bytes: Uint8Array): FontkitFace | undefined {
  if (!isTrueTypeSfnt(bytes)) return undefined;
  try {
    const font = fontkit.create(bytes);
    if (!(font as Font & SfntTables).directory?.tables?.glyf || font.unitsPerEm <= 0) return undefined;
    // fontkit decodes tables lazily: shape once now so a broken cmap or GSUB fails here, not
    // in the middle of layout.
    font.layout('Ag', SHAPING_FEATURES);
    return new FontkitFace(key, bytes, font);
  } catch {
    return undefined;
  }
}
