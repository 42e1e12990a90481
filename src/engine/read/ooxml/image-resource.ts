import { MAX_IMAGE_PIXELS, MAX_PICTURE_PIXELS as MAX_PIXELS } from '../../../limits';
import type { ImageResource, MetafilePicture } from '../../model';
import {
  imageLimits,
  type PixelBudget,
  type PngDataCheck,
  pngDataInflates,
  readPngInfo,
  sniffImageFormat,
  toEmbeddableImage,
} from '../images';
import { isMetafile, readMetafile } from '../metafile';

/**
 * Image bytes from the package, turned into something the PDF painter embeds (src/images: PNG
 * and JPEG checked and passed through, GIF/BMP/TIFF/WebP decoded), or for EMF/WMF into drawing
 * commands (src/metafile) that layout draws. The format comes from the bytes, never from the part
 * name or content type, which writers get wrong.
 */

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
 * PNGs checked ahead, natively (png-info.ts pngDataInflates): whole when the compressed data
 * inflates to exactly the size the header implies, broken when it surely does not. checkImage then
 * need not inflate them again. What is not here is checked by checkImage as before.
 */
export type CheckedPngs = ReadonlyMap<Uint8Array, PngDataCheck>;

/** The image parts among `parts` that are PNGs, checked natively (CheckedPngs). */
export async function checkPngsAhead(parts: Iterable<Uint8Array>): Promise<CheckedPngs> {
  const checked = new Map<Uint8Array, PngDataCheck>();
  const limits = imageLimits(MAX_PIXELS);
  // No more than the reader will accept (MAX_IMAGE_PIXELS): past it, proving more is wasted work.
  let pixelsLeft = MAX_IMAGE_PIXELS;
  for (const bytes of parts) {
    if (sniffImageFormat(bytes) !== 'png') continue;
    const info = readPngInfo(bytes);
    if (!info) continue;
    // The reader reads images while its allowance is not spent, the one that spends it included.
    if (pixelsLeft <= 0) break;
    pixelsLeft -= info.width * info.height;
    const found = await pngDataInflates(bytes, limits);
    if (found) checked.set(bytes, found);
  }
  return checked;
}

/**
 * `pngChecked`: what checkPngsAhead found of the bytes (CheckedPngs). `pixels`: the conversion's
 * budgets for images (pixel-budget.ts).
 */
export function checkImage(bytes: Uint8Array, pngChecked?: PngDataCheck, pixels?: PixelBudget): ImageCheck {
  const raster = sniffImageFormat(bytes);
  // JPEGs pass through unread; every other raster costs work in proportion to its pixels.
  const costly = raster !== undefined && raster !== 'jpeg';
  if (costly && pixels?.pixelsSpent) {
    return {
      problem: `the document's PNG, GIF, BMP, TIFF and WebP images pass ${MAX_IMAGE_PIXELS / 1e6} megapixels in all, the most one conversion reads`,
    };
  }
  const image = toEmbeddableImage(bytes, { maxPixels: MAX_PIXELS, pngChecked, pixels });
  // A damaged image may have cost as much work as the largest accepted one before it failed.
  if (costly) pixels?.spendPixels(image ? image.pixelWidth * image.pixelHeight : MAX_PIXELS);
  if (image) return { image };
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
