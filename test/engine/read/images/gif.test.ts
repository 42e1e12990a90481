import { GifReader, GifWriter } from 'omggif';
import { describe, expect, it } from 'vitest';
import { toEmbeddableImage } from '../../../../src/engine/read/images/embeddable-image';
import { decodeGif, decodeGifLzw } from '../../../../src/engine/read/images/gif-decoder';
import { imageLimits } from '../../../../src/engine/read/images/raster';
import { expectEmbeds, pixelsAsPdfLibSees } from './helpers';

const limits = imageLimits(undefined);

/** omggif's GifWriter: an independent encoder for the fixtures. */
function writeGif(
  width: number,
  height: number,
  frames: {
    x?: number;
    y?: number;
    w?: number;
    h?: number;
    pixels: number[];
    palette?: number[];
    transparent?: number;
  }[],
  globalPalette: number[] | undefined = [0xff0000, 0x00ff00, 0x0000ff, 0xffffff],
): Uint8Array {
  const buffer = new Uint8Array(1 << 20);
  const writer = new GifWriter(buffer, width, height, globalPalette ? { palette: globalPalette, loop: 0 } : {});
  for (const f of frames) {
    writer.addFrame(f.x ?? 0, f.y ?? 0, f.w ?? width, f.h ?? height, f.pixels, {
      ...(f.palette ? { palette: f.palette } : {}),
      ...(f.transparent !== undefined ? { transparent: f.transparent } : {}),
    });
  }
  return buffer.slice(0, writer.end());
}

/**
 * A GIF written by hand with "uncompressed" LZW (a clear code every 250 literals keeps codes at
 * 9 bits), so the image descriptor flags (interlace) and the code stream can be set freely.
 */
function handGif(
  width: number,
  height: number,
  indices: number[],
  options: { interlaced?: boolean; noPalette?: boolean } = {},
): Uint8Array {
  const codes: number[] = [256];
  indices.forEach((index, i) => {
    if (i > 0 && i % 250 === 0) codes.push(256);
    codes.push(index);
  });
  codes.push(257);
  const data: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const code of codes) {
    acc |= code << bits;
    bits += 9;
    while (bits >= 8) {
      data.push(acc & 255);
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) data.push(acc & 255);
  const blocks: number[] = [];
  for (let i = 0; i < data.length; i += 255) {
    const part = data.slice(i, i + 255);
    blocks.push(part.length, ...part);
  }
  const palette: number[] = [];
  for (let i = 0; i < 256; i++) palette.push(i, 255 - i, 0);
  return Uint8Array.from([
    ...[0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    options.noPalette ? 0 : 0xf7, // global colour table, 256 entries
    0,
    0,
    ...(options.noPalette ? [] : palette),
    0x2c,
    0,
    0,
    0,
    0,
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    options.interlaced ? 0x40 : 0,
    8,
    ...blocks,
    0,
    0x3b,
  ]);
}

describe('GIF', () => {
  it('decodes a 3×2 GIF to RGBA with its transparent index, and pdf-lib embeds the PNG', async () => {
    const gif = writeGif(3, 2, [{ pixels: [0, 1, 2, 3, 2, 1], transparent: 3 }]);
    const image = toEmbeddableImage(gif);
    expect(image?.format).toBe('png');
    await expectEmbeds(image, 3, 2);
    expect(pixelsAsPdfLibSees(image?.bytes as Uint8Array).rgba).toEqual([
      255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 0, 0, 0, 255, 255, 0, 255, 0, 255,
    ]);
  });

  it('takes the first frame of an animation, with its local palette and position', () => {
    const gif = writeGif(4, 4, [
      { x: 1, y: 2, w: 2, h: 1, pixels: [0, 1], palette: [0x123456, 0xabcdef] },
      { pixels: new Array(16).fill(2) },
    ]);
    const image = decodeGif(gif, limits);
    expect(image?.width).toBe(4);
    const pixel = (x: number, y: number) =>
      Array.from(image?.data.subarray((y * 4 + x) * 4, (y * 4 + x) * 4 + 4) ?? []);
    expect(pixel(1, 2)).toEqual([0x12, 0x34, 0x56, 255]);
    expect(pixel(2, 2)).toEqual([0xab, 0xcd, 0xef, 255]);
    expect(pixel(0, 0)).toEqual([0, 0, 0, 0]); // outside the first frame: transparent canvas
  });

  it('decodes long LZW streams (codes up to 12 bits, table resets) exactly', () => {
    const width = 97;
    const height = 61;
    const pixels: number[] = [];
    let seed = 7;
    for (let i = 0; i < width * height; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      pixels.push(i % 7 === 0 ? (seed >>> 16) & 255 : (i >> 3) & 255);
    }
    const palette = Array.from({ length: 256 }, (_, i) => (i << 16) | ((255 - i) << 8) | (i ^ 0x5a));
    const gif = writeGif(width, height, [{ pixels }], palette);
    const image = decodeGif(gif, limits);
    const reference = new Uint8Array(width * height * 4);
    new GifReader(gif).decodeAndBlitFrameRGBA(0, reference);
    expect(image?.data).toEqual(reference);
  });

  it('puts interlaced rows in their place (passes 0/8, 4/8, 2/4, 1/2)', () => {
    const rows = 10;
    // Row y of the image has colour index y*10; in the stream the rows come in pass order.
    const order = [0, 8, 4, 2, 6, 1, 3, 5, 7, 9];
    const gif = handGif(
      1,
      rows,
      order.map((y) => y * 10),
      { interlaced: true },
    );
    const image = decodeGif(gif, limits);
    for (let y = 0; y < rows; y++) expect(image?.data[y * 4]).toBe(y * 10);
  });

  it('keeps the decoded part of a truncated image and refuses what has no image', () => {
    const gif = handGif(10, 10, new Array(100).fill(5));
    const cut = decodeGif(gif.subarray(0, gif.length - 60), limits);
    expect(cut?.data[3]).toBe(255);
    expect(cut?.data[99 * 4 + 3]).toBe(0);
    expect(decodeGif(gif.subarray(0, 20), limits)).toBeUndefined();
    const trailerOnly = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0, 0x3b]);
    expect(toEmbeddableImage(trailerOnly)).toBeUndefined();
    expect(decodeGif(handGif(2, 1, [0, 1]), limits)).toBeDefined();
  });

  it('draws a GIF without any colour table as browsers do: its pixels black, the transparent index clear', () => {
    // No global or local table (§19, §21 leave the colours to the decoder).
    const bare = decodeGif(handGif(2, 1, [0, 1], { noPalette: true }), limits);
    expect(bare && [...bare.data]).toEqual([0, 0, 0, 255, 0, 0, 0, 255]);
    // The 1 × 1 spacer of web pages (lazy-loading placeholders): no table, index 0 transparent.
    const spacer = Uint8Array.from(atob('R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=='), (c) =>
      c.charCodeAt(0),
    );
    const image = decodeGif(spacer, limits);
    expect(image).toMatchObject({ width: 1, height: 1 });
    expect(image?.data[3]).toBe(0);
    expect(toEmbeddableImage(spacer)).toBeDefined();
  });

  it('refuses a screen or frame larger than maxPixels before allocating', () => {
    const gif = handGif(4, 4, new Array(16).fill(1));
    const huge = gif.slice();
    huge.set([0xff, 0xff, 0xff, 0xff], 6); // 65535 × 65535 logical screen
    expect(toEmbeddableImage(huge)).toBeUndefined();
    expect(toEmbeddableImage(gif, { maxPixels: 15 })).toBeUndefined();
    expect(toEmbeddableImage(gif, { maxPixels: 16 })).toBeDefined();
  });

  it('returns promptly on an LZW stream whose code table loops (omggif never returns on it)', () => {
    // Minimum code size 11 gives 12-bit codes at once. The first table cycle makes entry 4000 point
    // to entry e+1; after a clear, the invalid code 4000 makes entry e+1 point to 4000. A decoder
    // that follows prefixes without range checks then loops forever on code e+1.
    const min = 11;
    const clear = 1 << min;
    const e = clear + 2;
    const codes = [clear, 5];
    for (let next = e; next < 3999; next++) codes.push(5);
    codes.push(e + 1, 5, clear, 7, 4000, 9, e + 1, clear + 1);
    const data: number[] = [];
    let acc = 0;
    let bits = 0;
    for (const code of codes) {
      acc |= code << bits;
      bits += 12;
      while (bits >= 8) {
        data.push(acc & 255);
        acc >>>= 8;
        bits -= 8;
      }
    }
    const bytes = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 100, 0, 100, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255];
    bytes.push(0x2c, 0, 0, 0, 0, 100, 0, 100, 0, 0, min);
    for (let i = 0; i < data.length; i += 255) {
      const part = data.slice(i, i + 255);
      bytes.push(part.length, ...part);
    }
    bytes.push(0, 0x3b);
    const start = performance.now();
    // Minimum code size 11 is outside GIF's 2–8 range, so the file is refused outright…
    expect(toEmbeddableImage(Uint8Array.from(bytes))).toBeUndefined();
    // …and the LZW decoder itself stops at the out-of-range code 4000.
    const output = new Uint8Array(100 * 100);
    expect(decodeGifLzw(Uint8Array.from(data), min, output)).toBeLessThan(output.length);
    expect(performance.now() - start).toBeLessThan(100);
  });
});
