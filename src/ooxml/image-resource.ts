import { sniffImageFormat, toEmbeddableImage } from '../images/embeddable-image';
import type { PixelBudget } from '../images/pixel-budget';
import { pngDataInflates } from '../images/png-info';
import { imageLimits } from '../images/raster';
import { isMetafile, readMetafile } from '../metafile/read-metafile';
import type { ImageResource } from '../model/document';
import type { MetafilePicture } from '../model/metafile';

/**
 * Image bytes from the package, turned into something the PDF painter embeds (src/images: PNG
 * and JPEG checked and passed through, GIF/BMP/TIFF/WebP decoded), or for EMF/WMF into drawing
 * commands (src/metafile) that layout draws. The format comes from the bytes, never from the part
 * name or content type, which writers get wrong.
 */

/**
 * 16 megapixels: decoded as RGBA that is 64 MB, half an isolate's 128 MB, and pdf-lib decodes a
 * PNG once more when embedding it. A header claiming more is refused before anything is decoded.
 */
const MAX_PIXELS = 16_000_000;

export type ImageCheck =
  | { image: ImageResource }
  | { picture: MetafilePicture; warnings: string[] }
  | { problem: string };

/** Vector formats named in warnings: SVG (not drawn yet), and EMF/WMF too short to read. */
function vectorFormat(bytes: Uint8Array): string | undefined {
  const b = (i: number) => bytes[i] ?? -1;
  if (b(0) === 0x01 && b(1) === 0 && b(2) === 0 && b(3) === 0 && b(40) === 0x20 && b(41) === 0x45) return 'EMF';
  if ((b(0) === 0xd7 && b(1) === 0xcd && b(2) === 0xc6 && b(3) === 0x9a) || (b(0) === 1 && b(1) === 0 && b(2) === 9)) {
    return 'WMF';
  }
  if (b(0) === 0x3c || (b(0) === 0xef && b(1) === 0xbb && b(2) === 0xbf)) return 'SVG';
  return undefined;
}

/**
 * The image parts among `parts` that are PNGs whose compressed data inflates natively to exactly
 * the size their header implies (png-info.ts pngDataInflates): checkImage then need not inflate
 * them again. What cannot be proven here is simply checked by checkImage as before.
 */
export async function checkPngsAhead(parts: Iterable<Uint8Array>): Promise<Set<Uint8Array>> {
  const checked = new Set<Uint8Array>();
  const limits = imageLimits(MAX_PIXELS);
  for (const bytes of parts) {
    if (sniffImageFormat(bytes) === 'png' && (await pngDataInflates(bytes, limits))) checked.add(bytes);
  }
  return checked;
}

/**
 * `pngChecked`: the bytes are a PNG whose data checkPngsAhead proved whole. `pixels`: the
 * conversion's budget for decoded images handed to the painter as pixels.
 */
export function checkImage(bytes: Uint8Array, pngChecked = false, pixels?: PixelBudget): ImageCheck {
  const image = toEmbeddableImage(bytes, { maxPixels: MAX_PIXELS, pngChecked, pixels });
  if (image) return { image };
  const raster = sniffImageFormat(bytes);
  if (raster) {
    return { problem: `the ${raster.toUpperCase()} image is damaged, or larger than ${MAX_PIXELS / 1e6} megapixels` };
  }
  if (isMetafile(bytes)) return readMetafile(bytes, pixels);
  const vector = vectorFormat(bytes);
  return {
    problem: vector
      ? `${vector} images are not drawn yet`
      : 'its bytes are not an image format this service recognises',
  };
}
