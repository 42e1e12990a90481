import { describe, expect, it } from 'vitest';
import { PixelBudget } from '../../../../src/engine/read/images/pixel-budget';
import { encodePng } from '../../../../src/engine/read/images/png-encoder';
import { checkImage, checkPngsAhead } from '../../../../src/engine/read/ooxml/image-resource';
import { crc32 } from '../images/helpers';

function gradientPng(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([i % 251, (i >> 8) % 253, 7, 255], i);
  return encodePng({ width, height, data });
}

/** The PNG with its IDAT data cut short (and the chunk length fixed up, CRC left stale). */
function truncatedIdat(png: Uint8Array): Uint8Array {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: number[] = [...png.subarray(0, 8)];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const keep = type === 'IDAT' ? length - 8 : length;
    const chunk = new Uint8Array(12 + keep);
    new DataView(chunk.buffer).setUint32(0, keep);
    chunk.set(png.subarray(at + 4, at + 8 + keep), 4);
    out.push(...chunk);
    at += 12 + length;
  }
  return Uint8Array.from(out);
}

describe('PNG data checked ahead of the reader', () => {
  it('proves whole PNGs and leaves out damaged ones and other bytes', async () => {
    const good = gradientPng(40, 30);
    const damaged = truncatedIdat(good);
    const text = new TextEncoder().encode('<w:document/>');
    const checked = await checkPngsAhead([good, damaged, text]);
    expect(checked.get(good)).toBe('whole');
    // Cut short, zlib stops with an error: fflate decides (checkImage), as it always did.
    expect(checked.has(damaged)).toBe(false);
    expect(checked.has(text)).toBe(false);
  });

  it("finds a PNG whose data inflates past its header's size surely broken, so the reader does not inflate it again", async () => {
    const good = gradientPng(40, 30);
    // The header says 39 columns: the rows of 40 inflate to more than 39-column rows take.
    const narrower = good.slice();
    const view = new DataView(narrower.buffer);
    view.setUint32(16, 39);
    view.setUint32(29, crc32(narrower.subarray(12, 29)));
    const checked = await checkPngsAhead([narrower]);
    expect(checked.get(narrower)).toBe('broken');
    expect(checkImage(narrower, 'broken')).toHaveProperty('problem');
  });

  it("leaves out PNG and decoded images past the conversion's pixel allowance, with the reason, and keeps JPEGs", () => {
    const budget = new PixelBudget(16 * 1024 * 1024, 2000);
    const png = () => gradientPng(40, 30);
    expect(checkImage(png(), undefined, budget)).toHaveProperty('image');
    expect(checkImage(png(), undefined, budget)).toHaveProperty('image');
    const third = checkImage(png(), undefined, budget);
    expect(third).toEqual({ problem: expect.stringMatching(/pass 200 megapixels in all/) });
  });

  it('gives the same image whether or not the data was checked ahead', () => {
    const good = gradientPng(40, 30);
    expect(checkImage(good, 'whole')).toEqual(checkImage(good));
    expect(checkImage(truncatedIdat(good))).toHaveProperty('problem');
  });
});
