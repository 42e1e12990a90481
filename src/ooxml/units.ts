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
  return Number(match[1]) * factor;
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
