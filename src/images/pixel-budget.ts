/**
 * How many bytes of decoded pixels one conversion may hand to the painter as they are. Decoded
 * images (GIF, BMP, TIFF, WebP, metafile bitmaps) are decoded by the synchronous reader, which can
 * only compress with fflate; the painter compresses with the runtime's native zlib, about twice
 * as fast, and needs no PNG rows to filter. Holding the pixels until then costs memory, so the
 * reader takes from this budget, one per conversion, and past it encodes PNG as before.
 */
export class PixelBudget {
  #left: number;

  /** 16 MiB: an eighth of the isolate's 128 MB, on top of everything else a conversion holds. */
  constructor(bytes = 16 * 1024 * 1024) {
    this.#left = bytes;
  }

  /** True, and the bytes are spent, when they fit in what is left. */
  take(bytes: number): boolean {
    if (bytes > this.#left) return false;
    this.#left -= bytes;
    return true;
  }
}
