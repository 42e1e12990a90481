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
 * nearly, their heights do not), by normalized family name: the real fonts' GDI line metrics, read
 * from the subsets Word embeds in its PDFs of the corpus (reference-pdf/general). Cambria's
 * 1946 + 455 of 2048 units against Caladea's 1.30 em made every Cambria line 11% too tall;
 * Verdana's (2059 + 430) are taller than Liberation Sans'. Consolas (1884 + 514) is left out on
 * purpose: its stand-in, Liberation Mono, is 9% wider (0.600 em against 0.550), so code wraps into
 * more lines than in Word, and giving those lines Consolas' height too made pages longer than Word's
 * (getting-started-russian kept 7 of Word's 12 page starts with it, 12 without).
 */
const WORD_FONT_METRICS: Readonly<Record<string, LineMetrics>> = {
  cambria: { ascent: 1946 / 2048, descent: 455 / 2048, lineGap: 0 },
  verdana: { ascent: 2059 / 2048, descent: 430 / 2048, lineGap: 0 },
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
