import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { toEmbeddableImage } from '../../../../src/engine/read/images/embeddable-image';
import { readJpegInfo } from '../../../../src/engine/read/images/jpeg-info';
import { BASE, CMYK, GRAY, PROG } from './fixtures';
import { concat, expectEmbeds, fromBase64 } from './helpers';

/** Offsets of the marker segments before SOS in BASE (APP0, DQT, DQT, SOF0, DHT×4, SOS). */
const SOF0_AT = 158;

/** Removes the segment starting at `at` (marker + length + payload). */
function withoutSegment(bytes: Uint8Array, at: number): Uint8Array {
  const length = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
  return concat(bytes.subarray(0, at), bytes.subarray(at + 2 + length));
}

describe('JPEG', () => {
  it('passes baseline, progressive and greyscale JPEGs through with their size', async () => {
    for (const [text, components, progressive] of [
      [BASE, 3, false],
      [PROG, 3, true],
      [GRAY, 1, false],
    ] as const) {
      const jpeg = fromBase64(text);
      const image = toEmbeddableImage(jpeg);
      expect(image?.format).toBe('jpeg');
      expect(image?.bytes).toEqual(jpeg);
      await expectEmbeds(image, 4, 4);
      expect(readJpegInfo(jpeg)).toMatchObject({ width: 4, height: 4, components, progressive });
    }
  });

  it('passes an Adobe CMYK (YCCK) JPEG through: pdf-lib writes the /Decode inversion Adobe CMYK needs', async () => {
    const jpeg = fromBase64(CMYK);
    expect(readJpegInfo(jpeg)).toMatchObject({ components: 4, adobeTransform: 2 });
    const image = toEmbeddableImage(jpeg);
    await expectEmbeds(image, 4, 4);
    const pdf = new TextDecoder('latin1').decode((await embedPdf(image?.bytes as Uint8Array)).slice(0, 4000));
    expect(pdf).toMatch(/\/ColorSpace \/DeviceCMYK/);
    expect(pdf).toMatch(/\/Decode \[ 1 0 1 0 1 0 1 0 \]/);
  });

  it('refuses a 4-component JPEG without the Adobe segment (plain CMYK would print as a negative)', () => {
    const jpeg = fromBase64(CMYK);
    expect(jpeg[2]).toBe(0xff);
    expect(jpeg[3]).toBe(0xee); // APP14 Adobe first
    expect(toEmbeddableImage(withoutSegment(jpeg, 2))).toBeUndefined();
  });

  it('rewrites headers pdf-lib cannot walk (fill bytes), leaving the scan untouched', async () => {
    const jpeg = fromBase64(BASE);
    // 0xff fill bytes before the SOF0 marker are legal (T.81 §B.1.1.2), but pdf-lib misreads them.
    const padded = concat(jpeg.subarray(0, SOF0_AT), [0xff, 0xff, 0xff], jpeg.subarray(SOF0_AT));
    const doc = await PDFDocument.create();
    await expect(doc.embedJpg(padded)).rejects.toThrow();
    const image = toEmbeddableImage(padded);
    expect(image?.bytes).toEqual(jpeg);
    await expectEmbeds(image, 4, 4);
  });

  it('returns bytes that own their buffer (pdf-lib reads bytes.buffer from offset 0)', async () => {
    const jpeg = fromBase64(BASE);
    const view = concat([9, 9, 9, 9], jpeg).subarray(4);
    const doc = await PDFDocument.create();
    await expect(doc.embedJpg(view)).rejects.toThrow(/SOI/);
    const image = toEmbeddableImage(view);
    expect(image?.bytes.byteOffset).toBe(0);
    await expectEmbeds(image, 4, 4);
  });

  describe('refuses', () => {
    const jpeg = fromBase64(BASE);
    const patched = (at: number, ...values: number[]): Uint8Array => {
      const copy = jpeg.slice();
      copy.set(values, at);
      return copy;
    };

    it('a JPEG without a frame header', () => {
      expect(toEmbeddableImage(withoutSegment(jpeg, SOF0_AT))).toBeUndefined();
    });

    it('a file truncated before the scan, or inside a segment', () => {
      for (const cut of [3, 10, SOF0_AT + 5, SOF0_AT + 19, 600])
        expect(toEmbeddableImage(jpeg.subarray(0, cut))).toBeUndefined();
      expect(toEmbeddableImage(concat([0xff, 0xd8, 0xff, 0xd9]))).toBeUndefined(); // SOI EOI
    });

    it('lossless, hierarchical and arithmetic frames, and 12-bit samples', () => {
      for (const marker of [0xc3, 0xc5, 0xc9, 0xca])
        expect(toEmbeddableImage(patched(SOF0_AT + 1, marker))).toBeUndefined();
      expect(toEmbeddableImage(patched(SOF0_AT + 4, 12))).toBeUndefined();
    });

    it('height 0 (DNL), two components, and absurd sizes', () => {
      expect(toEmbeddableImage(patched(SOF0_AT + 5, 0, 0))).toBeUndefined();
      expect(toEmbeddableImage(patched(SOF0_AT + 9, 2))).toBeUndefined();
      const huge = patched(SOF0_AT + 5, 0xff, 0xff, 0xff, 0xff); // 65535 × 65535
      expect(toEmbeddableImage(huge)).toBeUndefined();
      expect(toEmbeddableImage(huge, { maxPixels: 65535 * 65535 })).toBeDefined();
      expect(toEmbeddableImage(jpeg, { maxPixels: 15 })).toBeUndefined();
    });
  });
});

async function embedPdf(jpeg: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpeg);
  doc.addPage([10, 10]).drawImage(image, { x: 0, y: 0 });
  return doc.save({ useObjectStreams: false });
}
