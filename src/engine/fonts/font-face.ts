import type { EastAsianVariant } from './fallback-faces';

/**
 * What layout knows of a font: metrics and measuring, nothing about files or PDF. The font stage
 * (src/fonts) makes these from bundled, embedded or fallback faces; the painter embeds `bytes`.
 * All measurements are for a 1 pt size unless a size is given; multiply by the size in points.
 */
export interface FontFace {
  /** Unique within one conversion, e.g. "Carlito-Bold"; display-list text items refer to it. */
  key: string;
  /** The font file (TrueType glyf outlines), for embedding. */
  bytes: Uint8Array;
  /** OS/2 usWinAscent / unitsPerEm: Word's line height uses win metrics (docs/engine.md). */
  ascent: number;
  /** OS/2 usWinDescent / unitsPerEm, positive. */
  descent: number;
  /** GDI's external leading / unitsPerEm, which Word adds below the descent (word-line-metrics.ts). */
  lineGap: number;
  /** Underline position (negative = below baseline) and thickness, per 1 pt. */
  underlinePosition: number;
  underlineThickness: number;
  /** True when the face has a glyph for the code point. */
  hasGlyph(codePoint: number): boolean;
  /**
   * True when every UTF-16 unit of `text` is below `limit` (at most U+D800, so each is a code
   * point) and the face has a glyph for each from U+0020 up: hasGlyph over a word at once.
   */
  hasGlyphsBelow(text: string, limit: number): boolean;
  /**
   * Advance width of `text` at 1 pt, with the same shaping the painter will use; with `end`, of
   * `text.slice(0, end)`, without slicing when it need not.
   */
  measure(text: string, end?: number): number;
  /**
   * measure(text) into `widths[0]` and measure(text, head) into `widths[1]`, the same numbers,
   * in one pass over plain text: a word is measured with and without its trailing spaces.
   */
  measureWithHead(text: string, head: number, widths: Float64Array): void;
  /**
   * How far the glyphs of `text` reach above the baseline (`top`) and below it (`bottom`,
   * negative when they go under it), at 1 pt: the union of their glyph boxes (TrueType glyf
   * headers). Undefined when the text draws no ink (spaces) or the face cannot tell.
   */
  inkBounds?(text: string): { top: number; bottom: number } | undefined;
}

export interface FontRequest {
  family: string;
  bold: boolean;
  italic: boolean;
}

/**
 * The faces one conversion uses, loaded up front (font files come asynchronously from static
 * assets) so that layout itself is synchronous.
 */
export interface FontSet {
  /** The face for a family and style, after substitution (Calibri → Carlito …); never fails. */
  face(request: FontRequest): FontFace;
  /**
   * A face that has `codePoint`, preferring `preferred`'s style, or undefined (notdef). `variant`
   * picks the CJK face tried first for ideographs (the run's East Asian font or language,
   * fallback-faces.ts eastAsianVariant). A character no face has is remembered for `warnings`,
   * unless `probe` says the caller only asks (and draws nothing of it).
   */
  fallback(
    codePoint: number,
    preferred: FontRequest,
    variant?: EastAsianVariant,
    probe?: boolean,
  ): FontFace | undefined;
  /**
   * What the font stage could not provide, for X-Quire-Warnings: a fallback face missing from the
   * assets, and the characters no face has (complete once layout is done).
   */
  readonly warnings: readonly string[];
}
