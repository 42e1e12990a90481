import { GifWriter } from 'omggif';
import { describe, expect, it } from 'vitest';
import { decodeBmp } from '../../../../src/engine/read/images/bmp-decoder';
import { sniffImageFormat, toEmbeddableImage } from '../../../../src/engine/read/images/embeddable-image';
import { PixelBudget } from '../../../../src/engine/read/images/pixel-budget';
import { encodePng } from '../../../../src/engine/read/images/png-encoder';
import { imageLimits } from '../../../../src/engine/read/images/raster';
import { BASE, LOSSLESS, LOSSY, PROG } from './fixtures';
import { buildPng, buildTiff, embedInPdf, fromBase64, long, short, tiffLzw } from './helpers';

function gif(): Uint8Array {
  const buffer = new Uint8Array(4096);
  const writer = new GifWriter(buffer, 4, 3, { palette: [0x000000, 0xff0000, 0x00ff00, 0x0000ff] });
  writer.addFrame(0, 0, 4, 3, [0, 1, 2, 3, 3, 2, 1, 0, 1, 1, 2, 2], { transparent: 0 });
  return buffer.slice(0, writer.end());
}

function bmp(): Uint8Array {
  // 3×2, 24-bit, bottom-up, rows padded to 12 bytes.
  const pixels = [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 9, 9, 9, 8, 8, 8, 7, 7, 7, 0, 0, 0];
  const header = [
    0x42,
    0x4d,
    78,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    54,
    0,
    0,
    0,
    40,
    0,
    0,
    0,
    3,
    0,
    0,
    0,
    2,
    0,
    0,
    0,
    1,
    0,
    24,
    0,
    ...new Array(24).fill(0),
  ];
  return Uint8Array.from([...header, ...pixels]);
}

function tiff(): Uint8Array {
  const samples = Uint8Array.from({ length: 5 * 4 * 3 }, (_, i) => (i * 29) & 255);
  return buildTiff({
    entries: [
      long(256, 5),
      long(257, 4),
      short(258, 8, 8, 8),
      short(259, 5),
      short(262, 2),
      short(277, 3),
      short(317, 2),
    ],
    chunks: [tiffLzw(samples)],
  });
}

const SAMPLES: Record<string, () => Uint8Array> = {
  png: () => encodePng({ width: 3, height: 2, data: Uint8Array.from({ length: 24 }, (_, i) => i * 10) }),
  'png-interlaced': () =>
    buildPng({ width: 5, height: 5, bitDepth: 2, colorType: 0, interlace: true, pixel: (x, y) => [(x + y) & 3] }),
  jpeg: () => fromBase64(BASE),
  'jpeg-progressive': () => fromBase64(PROG),
  gif,
  bmp,
  tiff,
  webp: () => fromBase64(LOSSLESS),
  'webp-lossy': () => fromBase64(LOSSY),
};

describe('toEmbeddableImage', () => {
  it('sniffs every supported format from its bytes, and pdf-lib embeds each result', async () => {
    for (const [name, make] of Object.entries(SAMPLES)) {
      const bytes = make();
      expect(sniffImageFormat(bytes), name).toBe(name.split('-')[0]);
      const image = toEmbeddableImage(bytes);
      expect(image, name).toBeDefined();
      expect(image?.format).toBe(name.startsWith('jpeg') ? 'jpeg' : 'png');
      const embedded = await embedInPdf(image as NonNullable<typeof image>);
      expect([embedded.width, embedded.height]).toEqual([image?.pixelWidth, image?.pixelHeight]);
    }
  });

  /** A PNG, which stays one whatever the budget. */
  const plainPng = () => encodePng({ width: 2, height: 1, data: Uint8Array.from([1, 2, 3, 255, 4, 5, 6, 255]) });

  it('keeps decoded images as pixels while the conversion budget lasts, then encodes PNG', () => {
    // The BMP is 3×2 and opaque: 18 bytes of RGB, no alpha. The GIF is 4×3 with a transparent
    // index: 36 bytes of RGB and 12 of alpha.
    const budget = new PixelBudget(18 + 48);
    const fromBmp = toEmbeddableImage(bmp(), { pixels: budget });
    expect(fromBmp?.format).toBe('pixels');
    if (fromBmp?.format !== 'pixels') throw new Error('expected pixels');
    expect(fromBmp.rgb.length).toBe(18);
    expect(fromBmp.alpha).toBeUndefined();
    const rgba = decodeBmp(bmp(), imageLimits(undefined))?.data ?? new Uint8Array(0);
    expect(Array.from(fromBmp.rgb)).toEqual(Array.from(rgba).filter((_, i) => i % 4 !== 3));
    const fromGif = toEmbeddableImage(gif(), { pixels: budget });
    if (fromGif?.format !== 'pixels') throw new Error('expected pixels');
    expect(Array.from(fromGif.alpha ?? [])).toEqual([0, 255, 255, 255, 255, 255, 255, 0, 255, 255, 255, 255]);
    // Spent: the next one is a PNG, as without a budget; PNGs and JPEGs never become pixels.
    expect(toEmbeddableImage(bmp(), { pixels: budget })?.format).toBe('png');
    expect(toEmbeddableImage(plainPng(), { pixels: new PixelBudget() })?.format).toBe('png');
  });

  it('returns undefined for empty input, random bytes and non-raster formats (SVG, EMF, WMF)', () => {
    expect(toEmbeddableImage(new Uint8Array(0))).toBeUndefined();
    expect(toEmbeddableImage(undefined as unknown as Uint8Array)).toBeUndefined();
    expect(toEmbeddableImage(new ArrayBuffer(8) as unknown as Uint8Array)).toBeUndefined();
    let seed = 1;
    for (let n = 0; n < 200; n++) {
      const bytes = Uint8Array.from({ length: 1 + (n % 64) * 7 }, () => {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        return seed >>> 24;
      });
      expect(toEmbeddableImage(bytes)).toBeUndefined();
    }
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(toEmbeddableImage(svg)).toBeUndefined();
    // EMF: EMR_HEADER record type 1 and " EMF" signature at offset 40; WMF: placeable header magic.
    const emf = new Uint8Array(108);
    emf.set([1, 0, 0, 0, 108], 0);
    emf.set([0x20, 0x45, 0x4d, 0x46], 40);
    expect(toEmbeddableImage(emf)).toBeUndefined();
    expect(toEmbeddableImage(Uint8Array.from([0xd7, 0xcd, 0xc6, 0x9a, ...new Array(40).fill(0)]))).toBeUndefined();
  });

  it('survives mutated files of every format: never throws, stays fast, and whatever it returns embeds', async () => {
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    for (const [name, make] of Object.entries(SAMPLES)) {
      const original = make();
      let accepted = 0;
      for (let round = 0; round < 150; round++) {
        let bytes = original.slice();
        const kind = random(3);
        if (kind === 0) {
          for (let k = 0, edits = 1 + random(4); k < edits; k++) bytes[random(bytes.length)] = random(256);
        } else if (kind === 1) {
          bytes = bytes.subarray(0, random(bytes.length));
        } else {
          const at = random(bytes.length);
          bytes[at] = 0xff;
          if (at + 1 < bytes.length) bytes[at + 1] = random(2) ? 0xff : 0x00;
        }
        // A mutation may make a header claim a large (but allowed) size; a 1-megapixel limit keeps
        // each round quick while every code path still runs.
        const start = performance.now();
        const image = toEmbeddableImage(bytes, { maxPixels: 1e6 });
        expect(performance.now() - start, `${name} round ${round}`).toBeLessThan(500);
        if (image) {
          accepted++;
          await expect(embedInPdf(image), `${name} round ${round}`).resolves.toBeDefined();
        }
      }
      expect(accepted, name).toBeLessThanOrEqual(150);
    }
  });
});
