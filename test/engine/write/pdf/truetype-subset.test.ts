import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { subsetTrueType } from '../../../../src/engine/write/pdf/truetype-subset';
import { bundledBytes } from '../../fonts/helpers';

/** Sum of big-endian uint32s over `length` bytes from `start`, zero-padded (OpenType checksum). */
function checksum(bytes: Uint8Array, start: number, length: number): number {
  let sum = 0;
  for (let at = start; at < start + length; at += 4) {
    let word = 0;
    for (let k = 0; k < 4; k++) word = word * 256 + (at + k < start + length ? (bytes[at + k] as number) : 0);
    sum = (sum + word) % 2 ** 32;
  }
  return sum;
}

interface DecodedGlyph {
  id: number;
  advanceWidth: number;
  path: { toSVG(): string };
  _decode(): { numberOfContours: number; components?: { glyphID: number }[] } | null;
}

describe('subsetTrueType', () => {
  it('keeps the asked glyphs first, in order, with their outlines and metrics, and adds components', async () => {
    const bytes = await bundledBytes('LiberationSans-Regular.ttf');
    const font = fontkit.create(bytes);
    const glyph = (cp: number) => font.glyphForCodePoint(cp) as unknown as DecodedGlyph;
    // "é" and "Å" are composites (base letter + accent); "A" is simple and also Å's base.
    const asked = [0, glyph(0x41).id, glyph(0xe9).id, glyph(0xc5).id, glyph(0x20).id];
    const subset = subsetTrueType(bytes, asked);
    const parsed = fontkit.create(subset);

    const original = asked.map((id) => font.getGlyph(id) as unknown as DecodedGlyph);
    const components = new Set(
      original.flatMap((g) => g._decode()?.components?.map((c) => c.glyphID) ?? []).filter((id) => !asked.includes(id)),
    );
    expect(parsed.numGlyphs).toBe(asked.length + components.size);
    asked.forEach((id, i) => {
      const copy = parsed.getGlyph(i) as unknown as DecodedGlyph;
      expect(copy.path.toSVG()).toBe((font.getGlyph(id) as unknown as DecodedGlyph).path.toSVG());
      expect(copy.advanceWidth).toBe((font.getGlyph(id) as unknown as DecodedGlyph).advanceWidth);
    });
    // Å's base "A" is glyph 1 of the subset already; é's "e" and both accents come after.
    const aring = (parsed.getGlyph(3) as unknown as DecodedGlyph)._decode();
    expect(aring?.numberOfContours).toBeLessThan(0);
    expect(aring?.components?.[0]?.glyphID).toBe(1);
    expect(aring?.components?.every((c) => c.glyphID < parsed.numGlyphs)).toBe(true);
    expect(parsed.unitsPerEm).toBe(font.unitsPerEm);
  });

  it('writes a shifted copy of a glyph as a composite of the glyph moved by the shift', async () => {
    const bytes = await bundledBytes('LiberationSans-Regular.ttf');
    const font = fontkit.create(bytes);
    const dot = font.glyphForCodePoint(0x2e) as unknown as DecodedGlyph & { bbox: { minX: number; minY: number } };
    // Glyph 1: the copy of "." 120 units right and 300 up; "." itself is appended as its component.
    const subset = subsetTrueType(bytes, [0, -1], [{ glyphId: dot.id, dx: 120, dy: 300 }]);
    const parsed = fontkit.create(subset);
    expect(parsed.numGlyphs).toBe(3);
    const copy = parsed.getGlyph(1) as unknown as DecodedGlyph & { bbox: { minX: number; minY: number } };
    expect(copy._decode()?.components?.map((c) => c.glyphID)).toEqual([2]);
    expect(copy.bbox.minX).toBe(dot.bbox.minX + 120);
    expect(copy.bbox.minY).toBe(dot.bbox.minY + 300);
    // It advances as the glyph does.
    expect(copy.advanceWidth).toBe(dot.advanceWidth);
  });

  it('writes a well-formed table directory with valid checksums', async () => {
    const bytes = await bundledBytes('Carlito-Bold.ttf');
    const font = fontkit.create(bytes);
    const subset = subsetTrueType(bytes, [0, font.glyphForCodePoint(0x48).id, font.glyphForCodePoint(0xe9).id]);
    const view = new DataView(subset.buffer, subset.byteOffset, subset.byteLength);
    expect(view.getUint32(0)).toBe(0x00010000);
    const numTables = view.getUint16(4);
    const tags: string[] = [];
    for (let i = 0; i < numTables; i++) {
      const at = 12 + 16 * i;
      tags.push(String.fromCharCode(...subset.subarray(at, at + 4)));
      const offset = view.getUint32(at + 8);
      const length = view.getUint32(at + 12);
      expect(offset % 4).toBe(0);
      if (tags[i] !== 'head') expect(view.getUint32(at + 4)).toBe(checksum(subset, offset, length));
    }
    expect(tags).toEqual(['cvt ', 'fpgm', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'prep']);
    // head.checksumAdjustment makes the whole file sum to 0xB1B0AFBA.
    expect(checksum(subset, 0, subset.length)).toBe(0xb1b0afba);
    expect(subset.length).toBeLessThan(bytes.length / 10);
  });
});
