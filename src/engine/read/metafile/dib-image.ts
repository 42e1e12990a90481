/**
 * A device-independent bitmap from a metafile record (a BITMAPINFO and its bits, [MS-WMF]
 * §2.2.2.9 DeviceIndependentBitmap) → an embeddable image, through the project's BMP decoder:
 * a DIB is a BMP file without its 14-byte BITMAPFILEHEADER, so one is put in front.
 */

import type { ImageResource } from '../../model';
import { type PixelBudget, toEmbeddableImage } from '../images';

/** 4 megapixels per bitmap: metafiles carry small bitmaps, and several may be in one picture. */
const MAX_PIXELS = 4_000_000;

export function dibToImage(info: Uint8Array, bits: Uint8Array, pixels?: PixelBudget): ImageResource | undefined {
  if (info.length < 12) return undefined;
  const file = new Uint8Array(14 + info.length + bits.length);
  const view = new DataView(file.buffer);
  file[0] = 0x42;
  file[1] = 0x4d;
  view.setUint32(2, file.length, true);
  view.setUint32(10, 14 + info.length, true);
  file.set(info, 14);
  file.set(bits, 14 + info.length);
  return toEmbeddableImage(file, { maxPixels: MAX_PIXELS, pixels });
}

/**
 * A packed DIB (BITMAPINFO immediately followed by the bits, as META_STRETCHDIB and
 * META_DIBBITBLT carry it): where the colour table ends is worked out from the header.
 */
export function packedDibToImage(dib: Uint8Array, pixels?: PixelBudget): ImageResource | undefined {
  if (dib.length < 12) return undefined;
  const view = new DataView(dib.buffer, dib.byteOffset, dib.byteLength);
  const headerSize = view.getUint32(0, true);
  let infoSize: number;
  if (headerSize === 12) {
    const bits = view.getUint16(10, true);
    infoSize = 12 + (bits <= 8 ? 3 << bits : 0);
  } else {
    if (headerSize < 40 || dib.length < 40) return undefined;
    const bits = view.getUint16(14, true);
    const compression = view.getUint32(16, true);
    const used = view.getUint32(32, true);
    const colours = used > 0 && used <= 256 ? used : bits <= 8 ? 1 << bits : 0;
    // BI_BITFIELDS masks follow a 40-byte header (three DWORDs).
    infoSize = headerSize + (headerSize === 40 && compression === 3 ? 12 : 0) + colours * 4;
  }
  if (infoSize > dib.length) return undefined;
  return dibToImage(dib.subarray(0, infoSize), dib.subarray(infoSize), pixels);
}
