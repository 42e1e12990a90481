/**
 * PNG samples → 8-bit RGBA, from an IDAT stream already inflated (and size-checked) by
 * png-info.ts. Used for the interlaced PNGs pdf-lib mis-decodes, and by the painter for PNGs it
 * cannot write into the PDF as they are (src/engine/write/pdf/pdf-images.ts); it handles every colour type and
 * depth.
 *
 * References: PNG (Third Edition), W3C: §7.2 scanlines and sample packing (most significant bits
 * first), §8.2 Adam7, §9.2–9.4 filter types 0–4 and the Paeth predictor, §11.3.2.1 tRNS,
 * §13.12 sample depth rescaling (v × 255 / (2^depth − 1)).
 */
import { type PngInfo, pngPasses } from './png-info';
import type { RgbaImage } from './raster';

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Reverses the filter of one scanline in place (§9.2); `previous` is the unfiltered row above. */
export function unfilter(filter: number, row: Uint8Array, previous: Uint8Array | undefined, bpp: number): boolean {
  const n = row.length;
  switch (filter) {
    case 0:
      return true;
    case 1:
      for (let i = bpp; i < n; i++) row[i] = ((row[i] as number) + (row[i - bpp] as number)) & 0xff;
      return true;
    case 2:
      if (previous) for (let i = 0; i < n; i++) row[i] = ((row[i] as number) + (previous[i] as number)) & 0xff;
      return true;
    case 3:
      for (let i = 0; i < n; i++) {
        const left = i >= bpp ? (row[i - bpp] as number) : 0;
        const up = previous ? (previous[i] as number) : 0;
        row[i] = ((row[i] as number) + ((left + up) >> 1)) & 0xff;
      }
      return true;
    case 4:
      for (let i = 0; i < n; i++) {
        const left = i >= bpp ? (row[i - bpp] as number) : 0;
        const up = previous ? (previous[i] as number) : 0;
        const upLeft = previous && i >= bpp ? (previous[i - bpp] as number) : 0;
        row[i] = ((row[i] as number) + paeth(left, up, upLeft)) & 0xff;
      }
      return true;
    default:
      return false;
  }
}

export function decodePngPixels(info: PngInfo, inflated: Uint8Array): RgbaImage | undefined {
  const { width, height, bitDepth, colorType, channels } = info;
  const out = new Uint8Array(width * height * 4);
  const bitsPerPixel = bitDepth * channels;
  // Filters work on bytes, with the "pixel to the left" one whole pixel (at least one byte) back.
  const filterBpp = Math.max(1, bitsPerPixel >> 3);
  const maxSample = (1 << bitDepth) - 1;
  const palette = info.palette;
  const trns = info.transparency;
  // tRNS for greyscale / truecolour: the one sample value (at image depth) that is transparent.
  const key = (i: number): number =>
    trns && trns.length >= 2 * (i + 1) ? (trns[2 * i] as number) * 256 + (trns[2 * i + 1] as number) : -1;
  const greyKey = colorType === 0 ? key(0) : -1;
  const rgbKey = colorType === 2 ? [key(0), key(1), key(2)] : undefined;
  const samples = new Array<number>(channels).fill(0);
  const to8 = (v: number): number =>
    bitDepth === 16 ? v >> 8 : bitDepth === 8 ? v : Math.round((v * 255) / maxSample);

  let at = 0;
  for (const pass of pngPasses(info)) {
    const rowBytes = Math.ceil((pass.width * bitsPerPixel) / 8);
    let previous: Uint8Array | undefined;
    for (let py = 0; py < pass.height; py++) {
      const filter = inflated[at] as number;
      const row = inflated.subarray(at + 1, at + 1 + rowBytes);
      at += 1 + rowBytes;
      if (!unfilter(filter, row, previous, filterBpp)) return undefined;
      previous = row;
      const y = pass.y0 + py * pass.dy;
      for (let px = 0; px < pass.width; px++) {
        // Read the pixel's samples at image depth (§7.2: packed MSB first; 16-bit big-endian).
        for (let s = 0; s < channels; s++) {
          const index = px * channels + s;
          if (bitDepth === 8) samples[s] = row[index] as number;
          else if (bitDepth === 16) samples[s] = (row[2 * index] as number) * 256 + (row[2 * index + 1] as number);
          else {
            const bit = index * bitDepth;
            samples[s] = ((row[bit >> 3] as number) >> (8 - bitDepth - (bit & 7))) & maxSample;
          }
        }
        const o = (y * width + pass.x0 + px * pass.dx) * 4;
        const s0 = samples[0] as number;
        switch (colorType) {
          case 0:
            out[o] = out[o + 1] = out[o + 2] = to8(s0);
            out[o + 3] = s0 === greyKey ? 0 : 255;
            break;
          case 2: {
            const s1 = samples[1] as number;
            const s2 = samples[2] as number;
            out[o] = to8(s0);
            out[o + 1] = to8(s1);
            out[o + 2] = to8(s2);
            out[o + 3] = rgbKey && s0 === rgbKey[0] && s1 === rgbKey[1] && s2 === rgbKey[2] ? 0 : 255;
            break;
          }
          case 3:
            // An index past the palette is an error (§11.2.3); show it as black rather than fail.
            out[o] = palette?.[3 * s0] ?? 0;
            out[o + 1] = palette?.[3 * s0 + 1] ?? 0;
            out[o + 2] = palette?.[3 * s0 + 2] ?? 0;
            out[o + 3] = trns?.[s0] ?? 255;
            break;
          case 4:
            out[o] = out[o + 1] = out[o + 2] = to8(s0);
            out[o + 3] = to8(samples[1] as number);
            break;
          default:
            out[o] = to8(s0);
            out[o + 1] = to8(samples[1] as number);
            out[o + 2] = to8(samples[2] as number);
            out[o + 3] = to8(samples[3] as number);
        }
      }
    }
  }
  return { width, height, data: out };
}
