/** Whether text holds right-to-left script (UAX #9 strong R and AL characters), cheaply. */

/** Strong right-to-left characters: Hebrew, Arabic, Syriac, Thaana, NKo… and their presentation forms. */
const RTL_CHARS = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]|\uD802[\uDC00-\uDFFF]|\uD803[\uDC00-\uDFFF]/;

/** True when `text` has a strong right-to-left character (RTL_CHARS), all of which are at U+0590 or above. */
export function hasRightToLeft(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x0590) return RTL_CHARS.test(text);
  return false;
}
