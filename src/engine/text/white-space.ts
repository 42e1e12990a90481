/**
 * JavaScript's white space (the characters `\s` matches: WhiteSpace and LineTerminator,
 * ECMA-262 §22.2.2.9) tested a UTF-16 unit at a time. Layout asks this of every word it measures
 * and paints; a loop over the units allocates nothing and stops at the first answer, where the
 * regular expressions it replaces (/^\s+$/, /\s+$/, /\S/) scan the whole word, some from every
 * position.
 */

/** True for a UTF-16 unit `\s` matches. */
export function isWhiteSpace(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (unit < 0xa0) return false;
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/** /^\s+$/.test(text): not empty, and white space only. */
export function isAllWhiteSpace(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) if (!isWhiteSpace(text.charCodeAt(i))) return false;
  return true;
}

/** /\S/.test(text): some unit is not white space. */
export function hasNonWhiteSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isWhiteSpace(text.charCodeAt(i))) return true;
  return false;
}

/** Where the white space at the end of `text` starts (/\s+$/'s index); `text.length` when there is none. */
export function trailingWhiteSpaceStart(text: string): number {
  let start = text.length;
  while (start > 0 && isWhiteSpace(text.charCodeAt(start - 1))) start--;
  return start;
}
