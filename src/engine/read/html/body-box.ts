/**
 * The body's horizontal margin and padding, which the reader adds to the page margins: browsers
 * give the body `margin: 8px` (HTML Living Standard §15.3.3, the UA style sheet's
 * `body { margin: 8px }`) inside the printed page's margins, and a page's own CSS may change it
 * (`body { margin: 0 }`, `body { padding: 2em }`). The body's box is the same on every page, so
 * its left and right sides are page margins in effect; its top and bottom are left to the
 * paragraphs' spacing (the body's 8px top margin collapses with its first child's, CSS 2.1 §8.3.1).
 * `auto` (a centred body) counts as 0.
 */
import type { DeclaredStyle } from './computed-style';
import { parseLength } from './css-values';

/** The UA style sheet's body margin, 8 CSS px. */
export const BODY_MARGIN = 6;

export interface BodyInset {
  left: number;
  right: number;
}

/**
 * `style`: the body's cascaded style (undefined without a body); `fontSize` for em;
 * `pageWidth`, the width between the page margins, for percentages (CSS 2.1 §8.3: of the
 * containing block's width); `defaultMargin`, the body's margin when no CSS gives one. Never more than half that width on both sides together.
 */
export function bodyInset(
  style: DeclaredStyle | undefined,
  fontSize: number,
  pageWidth: number,
  defaultMargin = BODY_MARGIN,
): BodyInset {
  const side = (name: 'left' | 'right') => {
    const length = (property: string, fallback: number) => {
      const value = style?.get(property);
      if (value === undefined) return fallback;
      return Math.max(0, parseLength(value, { fontSize }, pageWidth) ?? 0);
    };
    return length(`margin-${name}`, defaultMargin) + length(`padding-${name}`, 0);
  };
  const left = side('left');
  const right = side('right');
  const scale = left + right > pageWidth / 2 ? pageWidth / 2 / (left + right) : 1;
  return { left: left * scale, right: right * scale };
}
