/**
 * What every decoder in this folder produces and the limits they all obey. A decoder checks the
 * size its header claims against these limits BEFORE it allocates a pixel buffer, so a 40-byte
 * file that claims 100000×100000 pixels costs nothing.
 */

/** 8-bit RGBA, row-major, top row first, not premultiplied: what png-encoder.ts writes. */
export interface RgbaImage {
  width: number;
  height: number;
  /** width * height * 4 bytes. */
  data: Uint8Array;
}

export interface ImageLimits {
  /** Largest width * height accepted. */
  maxPixels: number;
  /**
   * Largest number of bytes any decompression step may produce (deflate, LZW, PackBits, RLE),
   * maxPixels * 4: the size of the RGBA buffer that the largest accepted image needs anyway.
   */
  maxDecodedBytes: number;
}

/**
 * 40 megapixels, the caller's default. Note that an RGBA buffer of that size is 160 MB, more than
 * a Worker isolate's 128 MB: callers that decode (the painter decodes some PNGs: those with alpha,
 * interlaced, 16-bit) should pass a smaller limit.
 */
export const DEFAULT_MAX_PIXELS = 40e6;

export function imageLimits(maxPixels: number | undefined): ImageLimits {
  const pixels =
    maxPixels !== undefined && Number.isFinite(maxPixels) && maxPixels > 0 ? Math.floor(maxPixels) : DEFAULT_MAX_PIXELS;
  return { maxPixels: pixels, maxDecodedBytes: pixels * 4 };
}

/** Width and height are positive integers and their product is within the limit. */
export function sizeAcceptable(width: number, height: number, limits: ImageLimits): boolean {
  return (
    Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 && width * height <= limits.maxPixels
  );
}
