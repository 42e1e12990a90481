/**
 * Word's "single" line height for a face (ENGINE.md "Word layout facts"): what GDI reports for
 * it, tmHeight (usWinAscent + usWinDescent) plus tmExternalLeading, the part of hhea's lineGap
 * that the win extent does not already cover. Times New Roman and Arial (so Liberation Serif and
 * Sans) get 87 and 67 units of it: 12 pt "single" is Word's familiar 13.8 pt, not 13.3 pt. Calibri's
 * win extent already covers its gap. All values are per unit of size (1 pt).
 */

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
 * Bundled faces whose own vertical metrics differ from the Word font they stand in for (their
 * advance widths match, their heights do not): the real font's OS/2 win metrics, per family name.
 * Cambria's are read from the subset Word embeds in its PDFs (usWinAscent 1946, usWinDescent 455,
 * hhea lineGap 0, 2048 units per em): Caladea's 1050/250 per 1000 made every Cambria line
 * 11% taller than Word's.
 */
const STAND_IN_METRICS: Readonly<Record<string, LineMetrics>> = {
  Caladea: { ascent: 1946 / 2048, descent: 455 / 2048, lineGap: 0 },
};

export function wordLineMetrics(familyName: string, font: SfntVertical): LineMetrics {
  const standIn = STAND_IN_METRICS[familyName];
  if (standIn) return standIn;
  const upm = font.unitsPerEm;
  // Without OS/2 (rare in embedded fonts) hhea's ascender/descender are the next best thing.
  const ascent = font.winAscent ?? font.hheaAscent;
  const descent = Math.abs(font.winDescent ?? font.hheaDescent);
  const hheaExtent = font.hheaAscent + Math.abs(font.hheaDescent);
  const lineGap = Math.max(0, font.hheaLineGap - (ascent + descent - hheaExtent));
  return { ascent: ascent / upm, descent: descent / upm, lineGap: lineGap / upm };
}
