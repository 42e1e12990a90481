import { describe, expect, it } from 'vitest';
import { toEmbeddableImage } from '../../../../src/engine/read/images/embeddable-image';
import { imageLimits } from '../../../../src/engine/read/images/raster';
import { decodeWebp } from '../../../../src/engine/read/images/webp-decoder';
import { ANIMATED, LOSSLESS, LOSSY, SOLID } from './fixtures';
import { expectEmbeds, fromBase64, pixelsAsPdfLibSees } from './helpers';

const limits = imageLimits(undefined);

describe('WebP (libwebp in WebAssembly)', () => {
  it('decodes lossless WebP exactly, alpha included, and pdf-lib embeds the PNG', async () => {
    const image = toEmbeddableImage(fromBase64(LOSSLESS));
    expect(image?.format).toBe('png');
    await expectEmbeds(image, 2, 2);
    expect(pixelsAsPdfLibSees(image?.bytes as Uint8Array).rgba).toEqual([
      255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128,
    ]);
  });

  it('decodes lossy WebP (VP8) with an alpha chunk, and a solid colour to within a few levels', async () => {
    const lossy = decodeWebp(fromBase64(LOSSY), limits);
    expect(lossy?.width).toBe(2);
    expect(Array.from(lossy?.data ?? []).filter((_, i) => i % 4 === 3)).toEqual([255, 255, 255, 128]);
    await expectEmbeds(toEmbeddableImage(fromBase64(LOSSY)), 2, 2);

    const solid = decodeWebp(fromBase64(SOLID), limits);
    expect([solid?.width, solid?.height]).toEqual([16, 16]);
    const data = solid?.data ?? new Uint8Array(0);
    for (let i = 0; i < data.length; i += 4) {
      expect(Math.abs((data[i] as number) - 200)).toBeLessThanOrEqual(4);
      expect(Math.abs((data[i + 1] as number) - 100)).toBeLessThanOrEqual(4);
      expect(Math.abs((data[i + 2] as number) - 50)).toBeLessThanOrEqual(4);
      expect(data[i + 3]).toBe(255);
    }
  });

  it('decodes repeatedly (a fresh instance each time)', () => {
    for (let i = 0; i < 50; i++) expect(decodeWebp(fromBase64(LOSSLESS), limits)?.data[15]).toBe(128);
  });

  describe('refuses', () => {
    it('animated WebP', () => {
      expect(toEmbeddableImage(fromBase64(ANIMATED))).toBeUndefined();
    });

    it('a header that claims 16384×16384 before decoding, and maxPixels', () => {
      const bytes = fromBase64(LOSSLESS);
      // VP8L header after the 0x2f signature: 14 bits width−1, 14 bits height−1, LSB first.
      const huge = bytes.slice();
      huge.set([0xff, 0xff, 0xff, (huge[24] as number) | 0x0f], 21);
      const start = performance.now();
      expect(toEmbeddableImage(huge)).toBeUndefined();
      expect(performance.now() - start).toBeLessThan(50);
      expect(toEmbeddableImage(bytes, { maxPixels: 3 })).toBeUndefined();
    });

    it('truncated and corrupted files', () => {
      const bytes = fromBase64(LOSSY);
      for (const cut of [12, 20, 40, bytes.length - 10])
        expect(toEmbeddableImage(bytes.subarray(0, cut))).toBeUndefined();
      const corrupt = bytes.slice();
      corrupt.fill(0x55, 60, 90);
      expect(toEmbeddableImage(corrupt)).toBeUndefined();
    });
  });
});
