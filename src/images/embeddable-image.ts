/**
 * toEmbeddableImage: any raster image bytes → an ImageResource the painter embeds
 * (src/pdf/pdf-images.ts: PNG itself, JPEG with pdf-lib's embedJpg), or undefined. Never throws, and every path is bounded: sizes from headers are checked
 * against maxPixels before any pixel buffer exists, and every decompressor has an output ceiling.
 *
 *   PNG   → pass-through; APNG chunks dropped; interlaced low-bit-depth images re-encoded
 *           (png-info.ts explains why).
 *   JPEG  → pass-through (baseline, extended, progressive; grey, YCbCr/RGB, Adobe CMYK/YCCK).
 *   GIF, BMP, TIFF, WebP → decoded to RGBA and re-encoded as PNG.
 *   EMF, WMF, SVG and anything else → undefined (vector formats need a renderer, not a decoder).
 *
 * The format is sniffed from the bytes, never from a file name or content type: DOCX packages
 * often carry a .png that is really a JPEG.
 */
import type { ImageResource } from '../model/document';
import { decodeBmp, isBmp } from './bmp-decoder';
import { decodeGif, isGif } from './gif-decoder';
import { isJpeg, toEmbeddableJpeg } from './jpeg-info';
import { encodePng } from './png-encoder';
import { isPng, toEmbeddablePng } from './png-info';
import { type ImageLimits, imageLimits, type RgbaImage } from './raster';
import { decodeTiff, isTiff } from './tiff-decoder';
import { decodeWebp, isWebp } from './webp-decoder';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'tiff' | 'webp';

/** Which raster format the bytes are, by magic number, or undefined. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (isPng(bytes)) return 'png';
  if (isJpeg(bytes)) return 'jpeg';
  if (isGif(bytes)) return 'gif';
  if (isTiff(bytes)) return 'tiff';
  if (isWebp(bytes)) return 'webp';
  if (isBmp(bytes)) return 'bmp';
  return undefined;
}

/**
 * pdf-lib's JPEG embedder reads `new DataView(bytes.buffer)` and ignores byteOffset, and a view
 * into a larger buffer (a ZIP entry, a request body) would also keep all of it alive in the
 * document model: hand over bytes that own their buffer exactly.
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

function fromRgba(image: RgbaImage | undefined): ImageResource | undefined {
  if (!image) return undefined;
  return { format: 'png', bytes: encodePng(image), pixelWidth: image.width, pixelHeight: image.height };
}

function convert(bytes: Uint8Array, limits: ImageLimits, pngChecked: boolean): ImageResource | undefined {
  switch (sniffImageFormat(bytes)) {
    case 'png': {
      const png = toEmbeddablePng(bytes, limits, pngChecked);
      return png && { format: 'png', bytes: ownBuffer(png.bytes), pixelWidth: png.width, pixelHeight: png.height };
    }
    case 'jpeg': {
      const jpeg = toEmbeddableJpeg(bytes, limits);
      return (
        jpeg && {
          format: 'jpeg',
          bytes: ownBuffer(jpeg.bytes),
          pixelWidth: jpeg.info.width,
          pixelHeight: jpeg.info.height,
        }
      );
    }
    case 'gif':
      return fromRgba(decodeGif(bytes, limits));
    case 'bmp':
      return fromRgba(decodeBmp(bytes, limits));
    case 'tiff':
      return fromRgba(decodeTiff(bytes, limits));
    case 'webp':
      return fromRgba(decodeWebp(bytes, limits));
    default:
      return undefined;
  }
}

/** `pngChecked`: the bytes are a PNG whose data pngDataInflates proved whole, under the same limits. */
export function toEmbeddableImage(
  bytes: Uint8Array,
  options?: { maxPixels?: number; pngChecked?: boolean },
): ImageResource | undefined {
  try {
    if (!(bytes instanceof Uint8Array) || bytes.length === 0) return undefined;
    return convert(bytes, imageLimits(options?.maxPixels), options?.pngChecked ?? false);
  } catch {
    // Out-of-range reads (DataView), allocation failures: a file we cannot decode.
    return undefined;
  }
}
