import { MAX_IMAGE_PIXELS } from '../../../limits';

/**
 * A conversion's budgets for images, one per conversion.
 *
 * Bytes: how many bytes of decoded pixels may be handed to the painter as they are. Decoded
 * images (GIF, BMP, TIFF, WebP, metafile bitmaps) are decoded by the synchronous reader, which can
 * only compress with fflate; the painter compresses with the runtime's native zlib, about twice
 * as fast, and needs no PNG rows to filter. Holding the pixels until then costs memory, so the
 * reader takes from this budget, and past it encodes PNG as before.
 *
 * Pixels: how many pixels of images that must be inflated or decoded the conversion accepts in
 * all (MAX_IMAGE_PIXELS, src/limits.ts); past it, further such images are left out.
 */
export class PixelBudget {
  #left: number;
  #pixelsLeft: number;

  /** 16 MiB: an eighth of the isolate's 128 MB, on top of everything else a conversion holds. */
  constructor(bytes = 16 * 1024 * 1024, pixels = MAX_IMAGE_PIXELS) {
    this.#left = bytes;
    this.#pixelsLeft = pixels;
  }

  /** Whether the pixel allowance is spent: no further image that costs pixels may be read. */
  get pixelsSpent(): boolean {
    return this.#pixelsLeft <= 0;
  }

  /** Counts an image read; the one that passes the allowance is still read (at most 16 megapixels more). */
  spendPixels(pixels: number): void {
    this.#pixelsLeft -= pixels;
  }

  /** True, and the bytes are spent, when they fit in what is left. */
  take(bytes: number): boolean {
    if (bytes > this.#left) return false;
    this.#left -= bytes;
    return true;
  }
}
