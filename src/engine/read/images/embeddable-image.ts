/**
 * toEmbeddableImage: any raster image bytes → an ImageResource the painter embeds
 * (src/engine/write/pdf/pdf-images.ts: PNG itself, JPEG with pdf-lib's embedJpg), or undefined. Never throws, and every path is bounded: sizes from headers are checked
 * against maxPixels before any pixel buffer exists, and every decompressor has an output ceiling.
 *
 *   PNG   → pass-through; APNG chunks dropped; interlaced low-bit-depth images re-encoded
 *           (png-info.ts explains why).
 *   JPEG  → pass-through (baseline, extended, progressive; grey, YCbCr/RGB, Adobe CMYK/YCCK).
 *   GIF, BMP, TIFF, WebP → decoded to RGBA, then kept as RGB and alpha for the painter while the
 *           conversion's PixelBudget lasts, else re-encoded as PNG.
 *   EMF, WMF, SVG and anything else → undefined (vector formats need a renderer, not a decoder).
 *
 * The format is sniffed from the bytes, never from a file name or content type: DOCX packages
 * often carry a .png that is really a JPEG.
 */

import { boundedInflate, concatBytes } from '../../../kit';
import type { EncodedImage, ImageResource } from '../../model';
import { decodeBmp, isBmp } from './bmp-decoder';
import { decodeGif, isGif } from './gif-decoder';
import { isJpeg, toEmbeddableJpeg } from './jpeg-info';
import type { PixelBudget } from './pixel-budget';
import { decodePngPixels } from './png-decoder';
import { encodePng, isOpaque } from './png-encoder';
import { checkedHeader, idatData, isPng, type PngDataCheck, type PngInfo } from './png-info';
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

/** RGBA as the painter's pixels when `budget` has room for them, else as a PNG (fflate). */
function fromRgba(image: RgbaImage | undefined, budget: PixelBudget | undefined): ImageResource | undefined {
  if (!image) return undefined;
  const { width, height, data } = image;
  const pixels = width * height;
  const opaque = isOpaque(data);
  if (!budget?.take(pixels * (opaque ? 3 : 4))) {
    return { format: 'png', bytes: encodePng(image), pixelWidth: width, pixelHeight: height };
  }
  const rgb = new Uint8Array(pixels * 3);
  const alpha = opaque ? undefined : new Uint8Array(pixels);
  for (let i = 0, j = 0, k = 0; i < pixels; i++, j += 4, k += 3) {
    rgb[k] = data[j] as number;
    rgb[k + 1] = data[j + 1] as number;
    rgb[k + 2] = data[j + 2] as number;
    if (alpha) alpha[i] = data[j + 3] as number;
  }
  return { format: 'pixels', rgb, ...(alpha ? { alpha } : {}), pixelWidth: width, pixelHeight: height };
}

function convert(
  bytes: Uint8Array,
  limits: ImageLimits,
  pngChecked: PngDataCheck | undefined,
  budget: PixelBudget | undefined,
): ImageResource | undefined {
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
      return fromRgba(decodeGif(bytes, limits), budget);
    case 'bmp':
      return fromRgba(decodeBmp(bytes, limits), budget);
    case 'tiff':
      return fromRgba(decodeTiff(bytes, limits), budget);
    case 'webp':
      return fromRgba(decodeWebp(bytes, limits), budget);
    default:
      return undefined;
  }
}

/**
 * `pngChecked`: what pngDataInflates found of the PNG's data, under the same limits (png-info.ts).
 * `pixels`: the conversion's budget for decoded images kept as pixels (without one, PNG).
 */
export function toEmbeddableImage(
  bytes: Uint8Array,
  options?: { maxPixels?: number; pngChecked?: PngDataCheck | undefined; pixels?: undefined },
): EncodedImage | undefined;
export function toEmbeddableImage(
  bytes: Uint8Array,
  options: { maxPixels?: number; pngChecked?: PngDataCheck | undefined; pixels?: PixelBudget | undefined },
): ImageResource | undefined;
export function toEmbeddableImage(
  bytes: Uint8Array,
  options?: { maxPixels?: number; pngChecked?: PngDataCheck | undefined; pixels?: PixelBudget | undefined },
): ImageResource | undefined {
  try {
    if (!(bytes instanceof Uint8Array) || bytes.length === 0) return undefined;
    return convert(bytes, imageLimits(options?.maxPixels), options?.pngChecked, options?.pixels);
  } catch {
    // Out-of-range reads (DataView), allocation failures: a file we cannot decode.
    return undefined;
  }
}

/** The buffer UPNG inflates into (pdf-lib 1.17.1, UPNG.decode._decompress): (bpl + 1 + interlace) × h. */
function upngInflateBuffer(info: PngInfo): number {
  const bytesPerLine = Math.ceil((info.width * info.bitDepth * info.channels) / 8);
  return (bytesPerLine + 1 + (info.interlaced ? 1 : 0)) * info.height;
}

export interface EmbeddablePng {
  bytes: Uint8Array;
  width: number;
  height: number;
}

/**
 * Returns PNG bytes pdf-lib's embedPng renders correctly, or undefined for a malformed, truncated
 * or too large file. `dataChecked`: what pngDataInflates found of the data, under the same limits.
 */
export function toEmbeddablePng(
  bytes: Uint8Array,
  limits: ImageLimits,
  dataChecked?: PngDataCheck,
): EmbeddablePng | undefined {
  // Surely broken: inflating it again here would only find the same.
  if (dataChecked === 'broken') return undefined;
  const header = checkedHeader(bytes, limits);
  if (!header) return undefined;
  const { info, expected } = header;
  const mustDecode = info.interlaced && expected > upngInflateBuffer(info);
  let inflated: { bytes: Uint8Array; length: number } | undefined;
  if (dataChecked !== 'whole' || mustDecode) {
    inflated = boundedInflate(idatData(info), expected, { keep: mustDecode });
    if (!inflated || inflated.length !== expected) return undefined;
  }
  const { width, height } = info;
  if (mustDecode && inflated) {
    const pixels = decodePngPixels(info, inflated.bytes);
    return pixels ? { bytes: encodePng(pixels), width, height } : undefined;
  }
  if (info.animated) {
    const kept = [bytes.subarray(0, 8)];
    for (const chunk of info.chunks) {
      if (chunk.type !== 'acTL' && chunk.type !== 'fcTL' && chunk.type !== 'fdAT') {
        kept.push(bytes.subarray(chunk.start, chunk.end));
      }
    }
    return { bytes: concatBytes(kept), width, height };
  }
  return { bytes, width, height };
}
