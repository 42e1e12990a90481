/**
 * Points (the model's unit) into the integer units WordprocessingML attributes take: twips for
 * ST_TwipsMeasure / ST_SignedTwipsMeasure, half-points for ST_HpsMeasure, eighths of a point for
 * border widths (§17.3.4), EMU for DrawingML extents (§20.1.2.1), fiftieths of a percent for ST_Pct.
 */
import { EIGHTHS_PER_POINT, EMU_PER_POINT, HALF_POINTS_PER_POINT, TWIPS_PER_POINT } from '../../read';

export function toTwips(points: number): number {
  return Math.round(points * TWIPS_PER_POINT);
}

export function toHalfPoints(points: number): number {
  return Math.round(points * HALF_POINTS_PER_POINT);
}

export function toEighthPoints(points: number): number {
  return Math.round(points * EIGHTHS_PER_POINT);
}

export function toEmu(points: number): number {
  return Math.round(points * EMU_PER_POINT);
}

/** A fraction (1 = 100 %) as ST_Pct's fiftieths of a percent (§17.18.68). */
export function toFiftiethsOfPercent(fraction: number): number {
  return Math.round(fraction * 5000);
}

/** Line spacing of lineRule auto: a multiple of single spacing in 240ths of a line (§17.3.1.33). */
export function toLineUnits(multiple: number): number {
  return Math.round(multiple * 240);
}
