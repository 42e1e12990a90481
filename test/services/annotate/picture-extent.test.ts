import { describe, expect, it } from 'vitest';
import type { PreparedPicture } from '../../../src/services/annotate/annotate-types';
import { EMU_PER_PX, pictureExtentEmu } from '../../../src/services/annotate/picture-extent';

function picture(width: number, height: number): PreparedPicture {
  return { media: { bytes: new Uint8Array(), extension: 'png', contentType: 'image/png' }, width, height };
}

/** 6.5 in of text width, Letter with 1 in margins. */
const TEXT_WIDTH = 6.5 * 914_400;
const px = (emu: number) => emu / EMU_PER_PX;

describe('pictureExtentEmu', () => {
  it('counts 9525 EMU to the CSS px (914 400 EMU per inch, 96 px per inch)', () => {
    expect(EMU_PER_PX * 96).toBe(914_400);
  });

  it('takes both sides as asked, even past the text width', () => {
    const extent = pictureExtentEmu(picture(300, 100), { width: 1000, height: 50 }, undefined, TEXT_WIDTH);
    expect(extent).toEqual({ widthEmu: 1000 * 9525, heightEmu: 50 * 9525 });
  });

  it('keeps the aspect ratio from one side', () => {
    const byWidth = pictureExtentEmu(picture(300, 100), { width: 150 }, undefined, TEXT_WIDTH);
    expect(byWidth).toEqual({ widthEmu: 150 * 9525, heightEmu: 50 * 9525 });
    const byHeight = pictureExtentEmu(picture(300, 100), { height: 25 }, { widthEmu: 1, heightEmu: 1 }, TEXT_WIDTH);
    expect(byHeight).toEqual({ widthEmu: 75 * 9525, heightEmu: 25 * 9525 });
    // Fractions stay within a pixel and come out in whole EMU.
    const odd = pictureExtentEmu(picture(7, 3), { width: 10 }, undefined, TEXT_WIDTH);
    expect(Number.isInteger(odd.heightEmu)).toBe(true);
    expect(Math.abs(px(odd.heightEmu) - 30 / 7)).toBeLessThan(1);
  });

  it('fits inside a placeholder, keeping the aspect, when no size is asked', () => {
    const placeholder = { widthEmu: 200 * 9525, heightEmu: 200 * 9525 };
    expect(pictureExtentEmu(picture(400, 100), undefined, placeholder, TEXT_WIDTH)).toEqual({
      widthEmu: 200 * 9525,
      heightEmu: 50 * 9525,
    });
    expect(pictureExtentEmu(picture(10, 40), {}, placeholder, TEXT_WIDTH)).toEqual({
      widthEmu: 50 * 9525,
      heightEmu: 200 * 9525,
    });
  });

  it('uses the natural size, scaled down to the text width, with neither', () => {
    expect(pictureExtentEmu(picture(120, 40), undefined, undefined, TEXT_WIDTH)).toEqual({
      widthEmu: 120 * 9525,
      heightEmu: 40 * 9525,
    });
    const wide = pictureExtentEmu(picture(1248, 200), undefined, undefined, TEXT_WIDTH);
    expect(wide.widthEmu).toBe(TEXT_WIDTH);
    expect(wide.heightEmu).toBe(Math.round((200 * 9525 * TEXT_WIDTH) / (1248 * 9525)));
  });
});
