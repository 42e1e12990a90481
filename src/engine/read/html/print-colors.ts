/**
 * Colours on a printed page without backgrounds (CSS Color Adjust 1 §3.2 print-color-adjust:
 * economy, the initial value): the user agent may leave backgrounds out and adjust text to read on
 * white paper. Chromium darkens text too light to read on white; this does the same, after Blink's
 * TextPainterBase::TextColorForWhiteBackground (third_party/blink/renderer/core/paint/
 * text_painter_base.cc) and Color::Dark (third_party/blink/renderer/platform/graphics/color.cc).
 */

import type { DeclaredStyle } from './computed-style';
import { parseColor } from './css-values';

/** print-color-adjust, or Chromium's -webkit- name for it (CSS Color Adjust 1 §3.2). */
export function colorAdjustOf(style: DeclaredStyle): 'exact' | 'economy' | undefined {
  const v = (style.get('print-color-adjust') ?? style.get('-webkit-print-color-adjust'))?.trim().toLowerCase();
  return v === 'exact' || v === 'economy' ? v : undefined;
}

/**
 * The page's own colour, painted under everything on every page: the canvas takes the root
 * element's background, else the body's (CSS 2.1 §14.2), so a dark page is dark to its edges, not
 * a strip behind each block. Only when backgrounds print: the caller asked, or the element (or,
 * for the body, the root) has print-color-adjust: exact. Undefined for none or transparent.
 */
export function canvasBackground(
  root: DeclaredStyle | undefined,
  body: DeclaredStyle | undefined,
  printBackground: boolean,
): string | undefined {
  const exactRoot = root ? colorAdjustOf(root) === 'exact' : false;
  for (const [style, exact] of [
    [root, exactRoot],
    [body, body && colorAdjustOf(body) !== undefined ? colorAdjustOf(body) === 'exact' : exactRoot],
  ] as const) {
    const value = style?.get('background-color');
    if (value === undefined) continue;
    const color = parseColor(value);
    // The root's transparent background hands the canvas to the body's.
    if (!color) continue;
    return printBackground || exact ? color : undefined;
  }
  return undefined;
}

/** Blink's threshold: a squared RGB distance from white of 255² or less is "too light". */
const TOO_LIGHT = 65025;

/** `hex` (6 digits) as Chromium prints it on white paper: unchanged, or darkened when too light. */
export function textColorForWhiteBackground(hex: string): string {
  const r = Number.parseInt(hex.slice(0, 2), 16);
  const g = Number.parseInt(hex.slice(2, 4), 16);
  const b = Number.parseInt(hex.slice(4, 6), 16);
  if (!Number.isFinite(r + g + b)) return hex;
  const distance = (255 - r) ** 2 + (255 - g) ** 2 + (255 - b) ** 2;
  return distance > TOO_LIGHT ? hex : dark(r, g, b);
}

/** Color::Dark: white becomes #ABABAB; otherwise the brightest channel loses a third of full scale, the others in proportion. */
function dark(r: number, g: number, b: number): string {
  if (r === 255 && g === 255 && b === 255) return 'ABABAB';
  const v = Math.max(r, g, b) / 255;
  const multiplier = v === 0 ? 0 : Math.max(0, (v - 0.33) / v);
  // Blink scales by nextafterf(256, 0) and truncates: 8-bit quantisation of [0, 1].
  const channel = (c: number) =>
    Math.min(255, Math.floor(multiplier * (c / 255) * 255.99998))
      .toString(16)
      .padStart(2, '0');
  return `${channel(r)}${channel(g)}${channel(b)}`.toUpperCase();
}
