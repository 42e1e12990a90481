import { zlibSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { toEmbeddableImage } from '../../../../src/engine/read/images/embeddable-image';
import { encodePng } from '../../../../src/engine/read/images/png-encoder';
import { buildPng, concat, expectEmbeds, ihdr, PNG_SIGNATURE, pixelsAsPdfLibSees, pngChunk } from './helpers';

/** RGBA8 a viewer shows for each PNG case, to compare with what pdf-lib decodes. */
function expectedRgba(width: number, height: number, rgba: (x: number, y: number) => number[]): number[] {
  const out: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out.push(...rgba(x, y));
  return out;
}

describe('PNG', () => {
  it('passes a 2×2 RGBA PNG through unchanged, with the pixels pdf-lib will embed', async () => {
    const rgba = Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 255]);
    const png = encodePng({ width: 2, height: 2, data: rgba });
    const image = toEmbeddableImage(png);
    expect(image?.format).toBe('png');
    expect(image?.bytes).toEqual(png);
    await expectEmbeds(image, 2, 2);
    expect(pixelsAsPdfLibSees(image?.bytes as Uint8Array).rgba).toEqual(Array.from(rgba));
  });

  // Each depth / colour type pdf-lib must handle, plain and Adam7-interlaced, 9×9 so that every
  // pass has pixels and rows do not end on a byte boundary.
  const cases: {
    name: string;
    bitDepth: number;
    colorType: number;
    pixel: (x: number, y: number) => number[];
    rgba: (x: number, y: number) => number[];
    before?: Uint8Array[];
  }[] = [
    {
      name: 'grey 1-bit',
      bitDepth: 1,
      colorType: 0,
      pixel: (x, y) => [(x + y) % 2],
      rgba: (x, y) => ((x + y) % 2 ? [255, 255, 255, 255] : [0, 0, 0, 255]),
    },
    {
      name: 'grey 2-bit',
      bitDepth: 2,
      colorType: 0,
      pixel: (x, y) => [(x + y) % 4],
      rgba: (x, y) => {
        const v = ((x + y) % 4) * 85;
        return [v, v, v, 255];
      },
    },
    {
      name: 'grey 16-bit',
      bitDepth: 16,
      colorType: 0,
      pixel: (x, y) => [x * 7000 + y],
      rgba: (x, y) => {
        const v = (x * 7000 + y) >> 8;
        return [v, v, v, 255];
      },
    },
    {
      name: 'palette 4-bit with tRNS',
      bitDepth: 4,
      colorType: 3,
      pixel: (x, y) => [(x * y) % 3],
      rgba: (x, y) =>
        [
          [255, 0, 0, 0],
          [0, 255, 0, 255],
          [0, 0, 255, 255],
        ][(x * y) % 3] as number[],
      before: [pngChunk('PLTE', [255, 0, 0, 0, 255, 0, 0, 0, 255]), pngChunk('tRNS', [0])],
    },
    {
      name: 'palette 1-bit',
      bitDepth: 1,
      colorType: 3,
      pixel: (x, y) => [(x * y) % 2],
      rgba: (x, y) => ((x * y) % 2 ? [0, 255, 0, 255] : [255, 0, 0, 255]),
      before: [pngChunk('PLTE', [255, 0, 0, 0, 255, 0])],
    },
    {
      name: 'RGB 8-bit',
      bitDepth: 8,
      colorType: 2,
      pixel: (x, y) => [x * 20, y * 20, 7],
      rgba: (x, y) => [x * 20, y * 20, 7, 255],
    },
    {
      name: 'RGBA 16-bit',
      bitDepth: 16,
      colorType: 6,
      pixel: (x, y) => [x * 7000, y * 7000, 1000, 65535 - x * 256],
      rgba: (x, y) => [(x * 7000) >> 8, (y * 7000) >> 8, 3, 255 - x],
    },
    {
      name: 'grey+alpha 16-bit',
      bitDepth: 16,
      colorType: 4,
      pixel: (x) => [x * 7000, 30000],
      rgba: (x) => {
        const v = (x * 7000) >> 8;
        return [v, v, v, 117];
      },
    },
  ];

  for (const c of cases) {
    for (const interlace of [false, true]) {
      it(`embeds ${c.name}${interlace ? ', interlaced' : ''} with the right pixels`, async () => {
        const png = buildPng({ width: 9, height: 9, interlace, ...c });
        const image = toEmbeddableImage(png);
        await expectEmbeds(image, 9, 9);
        expect(pixelsAsPdfLibSees(image?.bytes as Uint8Array).rgba).toEqual(expectedRgba(9, 9, c.rgba));
      });
    }
  }

  it('re-encodes interlaced low-depth PNGs that pdf-lib would decode wrong, passes the rest through', () => {
    const png = buildPng({
      width: 9,
      height: 9,
      bitDepth: 1,
      colorType: 0,
      interlace: true,
      pixel: (x, y) => [(x + y) % 2],
    });
    // pdf-lib (UPNG) inflates into a buffer too small for this stream and loses the last rows.
    const expected = expectedRgba(9, 9, (x, y) => ((x + y) % 2 ? [255, 255, 255, 255] : [0, 0, 0, 255]));
    expect(pixelsAsPdfLibSees(png).rgba).not.toEqual(expected);
    const image = toEmbeddableImage(png);
    expect(image?.bytes).not.toEqual(png);
    expect(pixelsAsPdfLibSees(image?.bytes as Uint8Array).rgba).toEqual(expected);

    // At 8 bits the extra filter bytes of the passes usually fit UPNG's slack of one byte per row
    // (16×16: 30 pass rows for 16 rows)…
    const fits = buildPng({
      width: 16,
      height: 16,
      bitDepth: 8,
      colorType: 2,
      interlace: true,
      pixel: (x, y) => [x, y, 0],
    });
    expect(toEmbeddableImage(fits)?.bytes).toEqual(fits);
    // …but not always (9×9 RGB: 262 bytes for a 261-byte buffer), and then it is re-encoded too.
    const short = buildPng({
      width: 9,
      height: 9,
      bitDepth: 8,
      colorType: 2,
      interlace: true,
      pixel: (x, y) => [x, y, 9],
    });
    // The lost byte is the last of pass 7: blue of pixel (8, 7).
    const at = (7 * 9 + 8) * 4;
    expect(pixelsAsPdfLibSees(short).rgba.slice(at, at + 4)).toEqual([8, 7, 0, 255]);
    expect(pixelsAsPdfLibSees(toEmbeddableImage(short)?.bytes as Uint8Array).rgba.slice(at, at + 4)).toEqual([
      8, 7, 9, 255,
    ]);
  });

  it('drops the APNG chunks pdf-lib refuses, keeping the default image', async () => {
    const fcTL = (sequence: number) =>
      pngChunk('fcTL', [0, 0, 0, sequence, 0, 0, 0, 2, 0, 0, 0, 2, ...new Array(8).fill(0), 0, 1, 0, 10, 0, 0]);
    const frame2 = zlibSync(Uint8Array.from([0, 0, 0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255])); // 2×2 RGB blue
    const apng = buildPng({
      width: 2,
      height: 2,
      bitDepth: 8,
      colorType: 2,
      pixel: () => [255, 0, 0],
      before: [pngChunk('acTL', [0, 0, 0, 2, 0, 0, 0, 0]), fcTL(0)],
      after: [fcTL(1), pngChunk('fdAT', concat([0, 0, 0, 2], frame2))],
    });
    const doc = await PDFDocument.create();
    await expect(doc.embedPng(apng)).rejects.toThrow(/Animated/);
    const image = toEmbeddableImage(apng);
    await expectEmbeds(image, 2, 2);
    expect(pixelsAsPdfLibSees(image?.bytes as Uint8Array).rgba).toEqual(expectedRgba(2, 2, () => [255, 0, 0, 255]));
  });

  it('returns bytes that own their buffer when given a view into a larger one', async () => {
    const png = buildPng({ width: 3, height: 1, bitDepth: 8, colorType: 0, pixel: (x) => [x * 100] });
    const container = concat([1, 2, 3], png, [4, 5]);
    const image = toEmbeddableImage(container.subarray(3, 3 + png.length));
    expect(image?.bytes.byteOffset).toBe(0);
    expect(image?.bytes.buffer.byteLength).toBe(png.length);
    await expectEmbeds(image, 3, 1);
  });

  describe('refuses', () => {
    const good = buildPng({ width: 4, height: 4, bitDepth: 8, colorType: 2, pixel: (x, y) => [x, y, 0] });

    it('a truncated file', () => {
      for (const cut of [7, 8, 20, 33, good.length - 20])
        expect(toEmbeddableImage(good.subarray(0, cut))).toBeUndefined();
    });

    it('a header that claims 100000×100000 pixels, at once and without inflating', () => {
      // Whatever the IDAT holds (here 16 MiB of zeros in 16 KiB), nothing is inflated.
      const bomb = zlibSync(new Uint8Array(16 * 1024 * 1024), { level: 9 });
      const liar = concat(PNG_SIGNATURE, ihdr(100000, 100000, 8, 6), pngChunk('IDAT', bomb), pngChunk('IEND', []));
      const start = performance.now();
      expect(toEmbeddableImage(liar)).toBeUndefined();
      expect(performance.now() - start).toBeLessThan(50);
    });

    it('width or height 0, and sizes over maxPixels', () => {
      const zero = concat(
        PNG_SIGNATURE,
        ihdr(0, 4, 8, 2),
        pngChunk('IDAT', zlibSync(new Uint8Array(0))),
        pngChunk('IEND', []),
      );
      expect(toEmbeddableImage(zero)).toBeUndefined();
      expect(toEmbeddableImage(good, { maxPixels: 15 })).toBeUndefined();
      expect(toEmbeddableImage(good, { maxPixels: 16 })).toBeDefined();
    });

    it('an IDAT stream that inflates to more (a bomb) or less than the header implies', () => {
      const header = concat(PNG_SIGNATURE, ihdr(4, 4, 8, 2));
      const bomb = concat(header, pngChunk('IDAT', zlibSync(new Uint8Array(16 * 1024 * 1024))), pngChunk('IEND', []));
      const start = performance.now();
      expect(toEmbeddableImage(bomb)).toBeUndefined();
      expect(performance.now() - start).toBeLessThan(1000); // stops after the first ~8 MiB
      const short = concat(header, pngChunk('IDAT', zlibSync(new Uint8Array(20))), pngChunk('IEND', []));
      expect(toEmbeddableImage(short)).toBeUndefined();
      const garbage = concat(header, pngChunk('IDAT', [1, 2, 3, 4, 5, 6, 7, 8]), pngChunk('IEND', []));
      expect(toEmbeddableImage(garbage)).toBeUndefined();
    });

    it('invalid IHDR fields, a missing PLTE, IHDR not first, no IDAT', () => {
      const idat = pngChunk('IDAT', zlibSync(new Uint8Array(4 * 13)));
      const end = pngChunk('IEND', []);
      expect(toEmbeddableImage(concat(PNG_SIGNATURE, ihdr(4, 4, 16, 3), idat, end))).toBeUndefined(); // 16-bit indexed
      expect(toEmbeddableImage(concat(PNG_SIGNATURE, ihdr(4, 4, 4, 2), idat, end))).toBeUndefined(); // 4-bit RGB
      expect(toEmbeddableImage(concat(PNG_SIGNATURE, ihdr(4, 4, 8, 3), idat, end))).toBeUndefined(); // no PLTE
      expect(
        toEmbeddableImage(concat(PNG_SIGNATURE, pngChunk('gAMA', [0, 0, 0, 1]), ihdr(4, 4, 8, 2), idat, end)),
      ).toBeUndefined();
      expect(toEmbeddableImage(concat(PNG_SIGNATURE, ihdr(4, 4, 8, 2), end))).toBeUndefined();
    });
  });
});
