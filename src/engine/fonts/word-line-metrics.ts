/**
 * Word's "single" line height for a face (docs/engine.md "Word layout facts"): what GDI reports for
 * it, tmHeight (usWinAscent + usWinDescent) plus tmExternalLeading, the part of hhea's lineGap
 * that the win extent does not already cover. Times New Roman and Arial (so Liberation Serif and
 * Sans) get 87 and 67 units of it: 12 pt "single" is Word's familiar 13.8 pt, not 13.3 pt. Calibri's
 * win extent already covers its gap. All values are per unit of size (1 pt).
 */
import { normalizeFamilyName } from './font-substitution';

export interface LineMetrics {
  ascent: number;
  descent: number;
  /** External leading, added below the descent. */
  lineGap: number;
}

interface SfntVertical {
  unitsPerEm: number;
  winAscent?: number | undefined;
  winDescent?: number | undefined;
  hheaAscent: number;
  hheaDescent: number;
  hheaLineGap: number;
}

/**
 * Word fonts whose bundled stand-ins have other vertical metrics (their advance widths match, or
 * are scaled to match: font-substitution.ts), by normalized family name: the real fonts' GDI line
 * metrics (usWinAscent and usWinDescent of 2048; their hhea line gaps are covered by the win
 * extent, so no external leading). Cambria, Verdana and Consolas are read from the subsets Word
 * embeds in its PDFs of the corpus (reference-pdf/general); Tahoma from a Word PDF of
 * pdf-signed; Georgia, Segoe UI and Trebuchet MS from capsize's published metrics
 * (@capsizecss/metrics 4.3), which give Verdana's and Tahoma's as the subsets do. docs/fonts.md
 * lists them. Cambria's 1946 + 455 against Caladea's 1.30 em made every Cambria line 11% too tall;
 * Gelasio's 1.66 em would make Georgia's lines 46% taller than Word's.
 */
const WORD_FONT_METRICS: Readonly<Record<string, LineMetrics>> = {
  cambria: { ascent: 1946 / 2048, descent: 455 / 2048, lineGap: 0 },
  verdana: { ascent: 2059 / 2048, descent: 430 / 2048, lineGap: 0 },
  tahoma: { ascent: 2049 / 2048, descent: 423 / 2048, lineGap: 0 },
  georgia: { ascent: 1878 / 2048, descent: 449 / 2048, lineGap: 0 },
  'segoe ui': { ascent: 2210 / 2048, descent: 514 / 2048, lineGap: 0 },
  'trebuchet ms': { ascent: 1923 / 2048, descent: 455 / 2048, lineGap: 0 },
  consolas: { ascent: 1884 / 2048, descent: 514 / 2048, lineGap: 0 },
  // Lucida Console (drawn with Liberation Mono, whose advances are within 0.3% of its 1233/2048)
  // is one em tall, 1616 + 432 units (the hhea of the subset Word embeds in a PDF of pdf-signed,
  // whose win extent it equals): Liberation Mono's 1.13 em made every line of code 13% too tall.
  'lucida console': { ascent: 1616 / 2048, descent: 432 / 2048, lineGap: 0 },
  // Comic Sans MS (2257 + 597 units, the figures web font-metric override tables publish) is
  // drawn with Liberation Sans, whose lines are a fifth shorter; its widths are wider still, so
  // the height at least keeps Word's line count per page closer.
  'comic sans ms': { ascent: 2257 / 2048, descent: 597 / 2048, lineGap: 0 },
  // Symbol has no stand-in face at all (its bullets are mapped to Unicode and drawn in the
  // paragraph's face), but a line holding a Symbol bullet is as tall as Symbol: 2059 + 450 units.
  symbol: { ascent: 2059 / 2048, descent: 450 / 2048, lineGap: 0 },
};

/**
 * Family names that can normalise to a key of WORD_FONT_METRICS (normalising only trims, unquotes,
 * collapses white space and lower-cases): layout asks once per box, and nearly every name is none.
 */
const NAMES_WITH_METRICS = new RegExp(
  Object.keys(WORD_FONT_METRICS)
    .map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
    .join('|'),
  'i',
);

/** The line metrics of the Word font `family` when the face drawing it is a bundled stand-in. */
export function standInLineMetrics(family: string): LineMetrics | undefined {
  if (!NAMES_WITH_METRICS.test(family)) return undefined;
  return WORD_FONT_METRICS[normalizeFamilyName(family)];
}

export function wordLineMetrics(font: SfntVertical): LineMetrics {
  const upm = font.unitsPerEm;
  // Without OS/2 (rare in embedded fonts) hhea's ascender/descender are the next best thing.
  const ascent = font.winAscent ?? font.hheaAscent;
  const descent = Math.abs(font.winDescent ?? font.hheaDescent);
  const hheaExtent = font.hheaAscent + Math.abs(font.hheaDescent);
  const lineGap = Math.max(0, font.hheaLineGap - (ascent + descent - hheaExtent));
  return { ascent: ascent / upm, descent: descent / upm, lineGap: lineGap / upm };
}
