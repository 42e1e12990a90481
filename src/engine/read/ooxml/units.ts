/**
 * WordprocessingML measurements, converted to points (1/72 in), the model's unit.
 *
 * Transitional files write bare integers in a unit fixed by the attribute's type (twips for
 * ST_TwipsMeasure, half-points for ST_HpsMeasure, EMU for ST_Coordinate, eighths of a point for
 * border widths, fiftieths of a percent for ST_Pct). Strict files (and some Transitional writers)
 * may instead write an ST_UniversalMeasure such as "1.5in" or "12pt" (ECMA-376 Part 1, §22.9.2.15),
 * which is absolute whatever the attribute's unit; `measure` accepts both.
 */

export const TWIPS_PER_POINT = 20;
export const HALF_POINTS_PER_POINT = 2;
export const EIGHTHS_PER_POINT = 8;
/** English Metric Units: 914,400 per inch, so 12,700 per point (§20.1.2.1). */
export const EMU_PER_POINT = 12700;

/** Points per unit of an ST_UniversalMeasure suffix (§22.9.2.15). */
const UNIVERSAL_UNITS: Record<string, number> = {
  pt: 1,
  pc: 12,
  pi: 12,
  in: 72,
  mm: 72 / 25.4,
  cm: 72 / 2.54,
};

/**
 * A length in points from an attribute whose bare integers are in `unitsPerPoint`, or undefined
 * when the value is absent or not a number (a malformed length is ignored, never fatal).
 */
export function measure(value: string | undefined, unitsPerPoint: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (Number.isFinite(number)) return number / unitsPerPoint;
  // Digits, then an optional fraction: one way to match each number, so a failing match is
  // linear (`[0-9]*\.?[0-9]+` tries every split of a digit run: minutes for 100,000 digits).
  const match = /^\s*(-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+))\s*(pt|pc|pi|in|mm|cm)\s*$/.exec(value);
  if (!match) return undefined;
  const factor = UNIVERSAL_UNITS[match[2] as string] as number;
  const points = Number(match[1]) * factor;
  // 400 digits and a unit make Infinity, which is no length either.
  return Number.isFinite(points) ? points : undefined;
}

/** The values Word accepts for a kind of number, in points (or lines, for `LINE_MULTIPLE`). */
export interface Bounds {
  readonly min: number;
  readonly max: number;
}

/**
 * Word's largest length, 22 in (31,680 twips, 1,584 pt): the longest page side it accepts (Page
 * Setup refuses more; ECMA-376 Part 1 §17.6.13 pgSz leaves ST_TwipsMeasure unbounded), and the
 * bound of its margins (§17.6.11 pgMar), indents (§17.3.1.12 ind), tab stops (§17.3.1.37 tabs),
 * paragraph spacing and exact line heights (§17.3.1.33 spacing), character spacing and position
 * (§17.3.2.35, §17.3.2.24), columns (§17.6.4 cols), table widths, indents and row heights
 * (§17.4). A document's numbers are clamped to what Word itself would lay out when they are read:
 * a page 2^31 twips wide made a tab leader of billions of dots (a 500) and cost 330 MB.
 */
const WORD_MAX_LENGTH = 1584;

/** A page side: positive, at most 22 in (§17.6.13). Word's smallest is 0.1 in. */
export const PAGE_SIDE: Bounds = { min: 7.2, max: WORD_MAX_LENGTH };
/** A distance that may be negative: indents, tab stop positions, floating offsets (±22 in). */
export const OFFSET: Bounds = { min: -WORD_MAX_LENGTH, max: WORD_MAX_LENGTH };
/** A distance that may not: margins, spacing, column and cell widths, row heights (0–22 in). */
export const EXTENT: Bounds = { min: 0, max: WORD_MAX_LENGTH };
/** A font size: w:sz from 1 to 3,276 half-points, 0.5 to 1,638 pt (§17.3.2.38 sz; Word's largest is 1,638). */
export const FONT_SIZE: Bounds = { min: 0.5, max: 1638 };
/** Auto line spacing in lines (§17.3.1.33, w:line in 240ths): Word's "Multiple" goes to 132. */
export const LINE_MULTIPLE: Bounds = { min: 0, max: 132 };
/** A border's width (§17.3.4, w:sz in eighths of a point): Word draws 1/4 pt to 12 pt (w:sz 2–96). */
export const BORDER_WIDTH: Bounds = { min: 0.25, max: 12 };
/** A border's distance from the text (§17.3.4, w:space in points): Word allows 0–31 pt. */
export const BORDER_SPACE: Bounds = { min: 0, max: 31 };

/**
 * `value` within `bounds`, undefined kept (and NaN made undefined): the one clamp every reader of
 * a document's lengths and sizes puts them through.
 */
export function clamp(value: number | undefined, bounds: Bounds): number | undefined {
  if (value === undefined || Number.isNaN(value)) return undefined;
  return value < bounds.min ? bounds.min : value > bounds.max ? bounds.max : value;
}

export function twips(value: string | undefined): number | undefined {
  return measure(value, TWIPS_PER_POINT);
}

export function halfPoints(value: string | undefined): number | undefined {
  return measure(value, HALF_POINTS_PER_POINT);
}

export function eighthPoints(value: string | undefined): number | undefined {
  return measure(value, EIGHTHS_PER_POINT);
}

export function emu(value: string | undefined): number | undefined {
  return measure(value, EMU_PER_POINT);
}

/** Whole points (border w:space, §17.3.4: "specified in points"). */
export function points(value: string | undefined): number | undefined {
  return measure(value, 1);
}

/**
 * A percentage as a fraction (1 = 100%): ST_Pct is fiftieths of a percent as a bare integer
 * (5000 = 100%, §17.18.68 / §22.9.2.9) or "NN%" in Strict and Office 2010+ files.
 */
export function percent(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.endsWith('%')) {
    const number = Number(value.slice(0, -1));
    return Number.isFinite(number) ? number / 100 : undefined;
  }
  const number = Number(value);
  return Number.isFinite(number) ? number / 5000 : undefined;
}

/** A decimal integer attribute (counts, levels, ids), or undefined. */
export function integer(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number.parseInt(value, 10);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * ST_OnOff (§22.9.2.7): an absent w:val means on; "true", "1" and "on" are on, "false", "0" and
 * "off" are off. Strict allows only true/false, a superset we accept anyway.
 */
export function onOff(value: string | undefined): boolean {
  return value === undefined || !(value === '0' || value === 'false' || value === 'off');
}

/**
 * A 6-digit RGB colour without '#', upper case, or undefined for "auto" and anything malformed
 * (ST_HexColor, §17.18.38).
 */
export function hexColor(value: string | undefined): string | undefined {
  if (value === undefined || value.length !== 6 || !/^[0-9A-Fa-f]{6}$/.test(value)) return undefined;
  return value.toUpperCase();
}
