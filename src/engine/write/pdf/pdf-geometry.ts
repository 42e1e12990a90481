/**
 * Display-list coordinates (points from the top-left, y down) to PDF user space (points from the
 * bottom-left, y up: ISO 32000-1 §8.3.2.3), rounded to 1/1000 pt to keep content streams short.
 */

export function round(value: number): number {
  return Math.round(value * 1000) / 1000 || 0;
}

/** The PDF y of a display-list y on a page of `pageHeight`. */
export function pdfY(pageHeight: number, y: number): number {
  return round(pageHeight - y);
}

/** A display-list box as a PDF rectangle [llx lly urx ury] (§7.9.5). */
export function pdfRect(pageHeight: number, box: { x: number; y: number; width: number; height: number }): number[] {
  return [round(box.x), pdfY(pageHeight, box.y + box.height), round(box.x + box.width), pdfY(pageHeight, box.y)];
}
