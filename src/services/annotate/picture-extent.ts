/**
 * The size a picture field's drawing gets (docs/api.md "POST /v1/annotate", options.dimensions), in
 * EMU: ECMA-376 §20.1.2.1 (ST_Coordinate) counts 914 400 EMU per inch, and a CSS pixel is 1/96 in
 * (CSS Values 4 §6.2), so 1 px = 9 525 EMU.
 */
import type { PictureDimensions, PreparedPicture } from './annotate-types';

export const EMU_PER_PX = 9525;

export interface ExtentEmu {
  widthEmu: number;
  heightEmu: number;
}

/** Whole EMU, at least 1: wp:extent's cx and cy are ST_PositiveCoordinate (§20.4.3.7). */
function emu(value: number): number {
  return Math.max(1, Math.round(value));
}

function usable(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value) && value > 0;
}

/**
 * - Both sides asked: exactly those (the picture is stretched, as the caller asked).
 * - One side: that side, and the other from the picture's aspect ratio.
 * - Neither, with a placeholder (the picture the template had there): the picture fitted INSIDE
 *   the placeholder's box keeping its aspect, as Word does when a picture content control is
 *   filled: the box is the template author's layout, and nothing is cropped or distorted.
 * - Neither, no placeholder: the natural size (1 px = 1 CSS px), scaled down to `maxWidthEmu`
 *   (the text width) when wider, as Word inserts a picture.
 * Requested sizes are never capped: the caller asked for them (±1 px is what docs/api.md promises,
 * and rounding to whole EMU is far inside that).
 */
export function pictureExtentEmu(
  picture: PreparedPicture,
  dimensions: PictureDimensions | undefined,
  placeholder: { widthEmu: number; heightEmu: number } | undefined,
  maxWidthEmu: number,
): ExtentEmu {
  const aspect = picture.width > 0 && picture.height > 0 ? picture.width / picture.height : 1;
  const width = usable(dimensions?.width) ? dimensions.width : undefined;
  const height = usable(dimensions?.height) ? dimensions.height : undefined;
  if (width !== undefined && height !== undefined) {
    return { widthEmu: emu(width * EMU_PER_PX), heightEmu: emu(height * EMU_PER_PX) };
  }
  if (width !== undefined) return { widthEmu: emu(width * EMU_PER_PX), heightEmu: emu((width / aspect) * EMU_PER_PX) };
  if (height !== undefined) {
    return { widthEmu: emu(height * aspect * EMU_PER_PX), heightEmu: emu(height * EMU_PER_PX) };
  }
  if (placeholder && usable(placeholder.widthEmu) && usable(placeholder.heightEmu)) {
    const scale = Math.min(placeholder.widthEmu / picture.width, placeholder.heightEmu / picture.height);
    return { widthEmu: emu(picture.width * scale), heightEmu: emu(picture.height * scale) };
  }
  const naturalWidth = picture.width * EMU_PER_PX;
  const naturalHeight = picture.height * EMU_PER_PX;
  const scale = usable(maxWidthEmu) && naturalWidth > maxWidthEmu ? maxWidthEmu / naturalWidth : 1;
  return { widthEmu: emu(naturalWidth * scale), heightEmu: emu(naturalHeight * scale) };
}
