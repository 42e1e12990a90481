import { describe, expect, it } from 'vitest';
import { decodeBmp } from '../../../../src/engine/read/images/bmp-decoder';
import { toEmbeddableImage } from '../../../../src/engine/read/images/embeddable-image';
import { imageLimits } from '../../../../src/engine/read/images/raster';
import { expectEmbeds, pixelsAsPdfLibSees } from './helpers';

const limits = imageLimits(undefined);
const le16 = (n: number) => [n & 255, (n >> 8) & 255];
const le32 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];

/**
 * Pixel rows as a BMP stores them: `value(x, y)` is the raw pixel (palette index or packed bits),
 * rows padded to 4 bytes, bottom-up unless topDown.
 */
function rows(
  width: number,
  height: number,
  bpp: number,
  value: (x: number, y: number) => number,
  topDown = false,
): number[] {
  const out: number[] = [];
  const stride = Math.floor((bpp * width + 31) / 32) * 4;
  for (let i = 0; i < height; i++) {
    const y = topDown ? i : height - 1 - i;
    const row = new Array<number>(stride).fill(0);
    for (let x = 0; x < width; x++) {
      const v = value(x, y);
      if (bpp < 8) {
        const bit = x * bpp;
        row[bit >> 3] = (row[bit >> 3] as number) | (v << (8 - bpp - (bit & 7)));
      } else {
        const bytes = bpp === 8 ? [v] : bpp === 16 ? le16(v) : bpp === 24 ? le32(v).slice(0, 3) : le32(v);
        row.splice((x * bpp) / 8, bytes.length, ...bytes);
      }
    }
    out.push(...row);
  }
  return out;
}

/** BITMAPFILEHEADER + a DIB header of `headerSize` bytes + masks + palette + pixels. */
function buildBmp(o: {
  headerSize?: number;
  width: number;
  height: number;
  bpp: number;
  compression?: number;
  masks?: number[];
  palette?: [number, number, number][];
  pixels: number[];
}): Uint8Array {
  const headerSize = o.headerSize ?? 40;
  const dib: number[] =
    headerSize === 12
      ? [...le32(12), ...le16(o.width), ...le16(o.height), ...le16(1), ...le16(o.bpp)]
      : [
          ...le32(headerSize),
          ...le32(o.width),
          ...le32(o.height),
          ...le16(1),
          ...le16(o.bpp),
          ...le32(o.compression ?? 0),
          ...le32(o.pixels.length),
          ...le32(2835),
          ...le32(2835),
          ...le32(o.palette?.length ?? 0),
          ...le32(0),
        ];
  let masks: number[] = [];
  if (o.masks && headerSize === 40) masks = o.masks.flatMap(le32);
  if (headerSize > 40) {
    const inHeader = (o.masks ?? []).flatMap(le32);
    dib.push(...inHeader, ...new Array(headerSize - 40 - inHeader.length).fill(0));
  }
  const palette = (o.palette ?? []).flatMap(([r, g, b]) => (headerSize === 12 ? [b, g, r] : [b, g, r, 0]));
  const offset = 14 + dib.length + masks.length + palette.length;
  return Uint8Array.from([
    0x42,
    0x4d,
    ...le32(offset + o.pixels.length),
    0,
    0,
    0,
    0,
    ...le32(offset),
    ...dib,
    ...masks,
    ...palette,
    ...o.pixels,
  ]);
}

const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const WHITE: [number, number, number] = [255, 255, 255];
const QUADS = [RED, GREEN, BLUE, WHITE];
/** 2×2: red, green / blue, white (top row first). */
const quadIndex = (x: number, y: number) => y * 2 + x;

function rgbaOf(image: { data: Uint8Array } | undefined): number[][] {
  const out: number[][] = [];
  const data = image?.data ?? new Uint8Array(0);
  for (let i = 0; i < data.length; i += 4) out.push(Array.from(data.subarray(i, i + 4)));
  return out;
}
const opaque = (colours: [number, number, number][]) => colours.map((c) => [...c, 255]);

describe('BMP', () => {
  it('decodes a 24-bit bottom-up BMP written byte by byte, and pdf-lib embeds the PNG', async () => {
    const bgr = (c: [number, number, number]) => (c[0] << 16) | (c[1] << 8) | c[2];
    const bmp = buildBmp({
      width: 2,
      height: 2,
      bpp: 24,
      pixels: rows(2, 2, 24, (x, y) => bgr(QUADS[quadIndex(x, y)] as [number, number, number])),
    });
    const image = toEmbeddableImage(bmp);
    await expectEmbeds(image, 2, 2);
    expect(pixelsAsPdfLibSees(image?.bytes as Uint8Array).rgba).toEqual(opaque(QUADS).flat());
  });

  it('reads top-down rows (negative height)', () => {
    const bmp = buildBmp({
      width: 2,
      height: -2,
      bpp: 8,
      palette: QUADS,
      pixels: rows(2, 2, 8, quadIndex, true),
    });
    expect(rgbaOf(decodeBmp(bmp, limits))).toEqual(opaque(QUADS));
  });

  it('decodes 1-, 4- and 8-bit palette images, including a 12-byte core header', () => {
    for (const bpp of [1, 4, 8]) {
      const width = 11; // rows that end mid-byte and need padding
      const palette = bpp === 1 ? [RED, BLUE] : QUADS;
      const index = (x: number, y: number) => (x + y) % palette.length;
      for (const headerSize of [40, 12]) {
        const bmp = buildBmp({ headerSize, width, height: 3, bpp, palette, pixels: rows(width, 3, bpp, index) });
        const expected: [number, number, number][] = [];
        for (let y = 0; y < 3; y++)
          for (let x = 0; x < width; x++) expected.push(palette[index(x, y)] as [number, number, number]);
        expect(rgbaOf(decodeBmp(bmp, limits))).toEqual(opaque(expected));
      }
    }
  });

  it('decodes 16-bit 5-5-5 (BI_RGB) and 5-6-5 (BI_BITFIELDS)', () => {
    const rgb555 = buildBmp({ width: 2, height: 1, bpp: 16, pixels: rows(2, 1, 16, (x) => (x ? 0x001f : 0x7c00)) });
    expect(rgbaOf(decodeBmp(rgb555, limits))).toEqual([
      [255, 0, 0, 255],
      [0, 0, 255, 255],
    ]);
    const rgb565 = buildBmp({
      width: 2,
      height: 1,
      bpp: 16,
      compression: 3,
      masks: [0xf800, 0x07e0, 0x001f],
      pixels: rows(2, 1, 16, (x) => (x ? 0x07e0 : 0x8410)),
    });
    expect(rgbaOf(decodeBmp(rgb565, limits))).toEqual([
      [132, 130, 132, 255],
      [0, 255, 0, 255],
    ]);
  });

  it('32-bit BI_RGB: uses the fourth byte as alpha unless it is 0 everywhere', () => {
    const withAlpha = buildBmp({
      width: 2,
      height: 1,
      bpp: 32,
      pixels: rows(2, 1, 32, (x) => (x ? 0x80ff0000 : 0xff0000ff)),
    });
    expect(rgbaOf(decodeBmp(withAlpha, limits))).toEqual([
      [0, 0, 255, 255],
      [255, 0, 0, 128],
    ]);
    const noAlpha = buildBmp({
      width: 2,
      height: 1,
      bpp: 32,
      pixels: rows(2, 1, 32, (x) => (x ? 0x00ff0000 : 0x000000ff)),
    });
    expect(rgbaOf(decodeBmp(noAlpha, limits))).toEqual([
      [0, 0, 255, 255],
      [255, 0, 0, 255],
    ]);
  });

  it('32-bit BI_BITFIELDS with an alpha mask in a V5 header (124 bytes)', async () => {
    const bmp = buildBmp({
      headerSize: 124,
      width: 2,
      height: 1,
      bpp: 32,
      compression: 3,
      masks: [0x0000ff00, 0x00ff0000, 0xff000000, 0x000000ff], // R, G, B, A in unusual places
      pixels: rows(2, 1, 32, (x) => (x ? 0x00ff0040 : 0xff0000ff)),
    });
    expect(rgbaOf(decodeBmp(bmp, limits))).toEqual([
      [0, 0, 255, 255],
      [0, 255, 0, 64],
    ]);
    await expectEmbeds(toEmbeddableImage(bmp), 2, 1);
  });

  it('decodes RLE8 and RLE4 (runs, absolute runs, end of line, delta, end of bitmap)', () => {
    // 4×2, bottom row first: RLE8 row 0 (bottom) = run of 3 × index 1 then absolute [2];
    // end of line; row 1 (top) = delta (2, 0) then run of 2 × index 3; end of bitmap.
    const rle8 = [3, 1, 0, 3, 2, 2, 2, 0, 0, 0, 0, 2, 2, 0, 2, 3, 0, 1];
    const bmp8 = buildBmp({ width: 4, height: 2, bpp: 8, compression: 1, palette: QUADS, pixels: rle8 });
    const skipped = [0, 0, 0, 0];
    expect(rgbaOf(decodeBmp(bmp8, limits))).toEqual([
      skipped,
      skipped,
      [255, 255, 255, 255],
      [255, 255, 255, 255],
      [0, 255, 0, 255],
      [0, 255, 0, 255],
      [0, 255, 0, 255],
      [0, 0, 255, 255],
    ]);
    // RLE4: a run of 4 alternating 1,2 (byte 0x12), then an absolute run of 3 nibbles 3,0,1.
    const rle4 = [4, 0x12, 0, 3, 0x30, 0x10, 0, 1];
    const bmp4 = buildBmp({ width: 7, height: 1, bpp: 4, compression: 2, palette: QUADS, pixels: rle4 });
    expect(rgbaOf(decodeBmp(bmp4, limits))).toEqual(opaque([GREEN, BLUE, GREEN, BLUE, WHITE, RED, GREEN]));
  });

  describe('refuses', () => {
    const good = buildBmp({ width: 2, height: 2, bpp: 8, palette: QUADS, pixels: rows(2, 2, 8, quadIndex) });

    it('truncated pixel data and headers', () => {
      expect(decodeBmp(good, limits)).toBeDefined();
      expect(toEmbeddableImage(good.subarray(0, good.length - 5))).toBeUndefined();
      expect(toEmbeddableImage(good.subarray(0, 30))).toBeUndefined();
    });

    it('huge or zero sizes before allocating, and maxPixels', () => {
      const huge = good.slice();
      huge.set(le32(100000), 18);
      huge.set(le32(100000), 22);
      const start = performance.now();
      expect(toEmbeddableImage(huge)).toBeUndefined();
      expect(performance.now() - start).toBeLessThan(20);
      const zero = good.slice();
      zero.set(le32(0), 18);
      expect(toEmbeddableImage(zero)).toBeUndefined();
      expect(toEmbeddableImage(good, { maxPixels: 3 })).toBeUndefined();
    });

    it('BI_JPEG / BI_PNG payloads, unknown header sizes and bit counts', () => {
      const jpeg = good.slice();
      jpeg.set(le32(4), 30);
      expect(toEmbeddableImage(jpeg)).toBeUndefined();
      const header = good.slice();
      header.set(le32(41), 14);
      expect(toEmbeddableImage(header)).toBeUndefined();
      const bits = good.slice();
      bits.set(le16(7), 28);
      expect(toEmbeddableImage(bits)).toBeUndefined();
    });
  });
});
