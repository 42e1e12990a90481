/** Display-list colours ("RRGGBB") as DeviceRGB components in 0…1 (ISO 32000-1 §8.6.4.3). */

export type Rgb = readonly [number, number, number];

const BLACK: Rgb = [0, 0, 0];

/** Colours already converted: documents use a handful, and every text item names one. */
const known = new Map<string, Rgb>();
const KNOWN_LIMIT = 1024;

/** Anything but six hex digits paints black: the painter decides nothing, but never fails on colour. */
export function rgbOf(hex: string): Rgb {
  const cached = known.get(hex);
  if (cached) return cached;
  if (!/^[0-9a-fA-F]{6}$/.test(hex)) return BLACK;
  const channel = (offset: number) =>
    Math.round((Number.parseInt(hex.slice(offset, offset + 2), 16) / 255) * 10000) / 10000;
  const rgb: Rgb = [channel(0), channel(2), channel(4)];
  if (known.size >= KNOWN_LIMIT) known.clear();
  known.set(hex, rgb);
  return rgb;
}

export function sameRgb(a: Rgb, b: Rgb): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}
