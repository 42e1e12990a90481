/**
 * PNG: structural validation and the decision to pass the file through untouched.
 *
 * The painter (src/engine/write/pdf/pdf-images.ts) writes most PNGs into the PDF as they are and decodes the
 * rest itself. The bytes kept are also ones pdf-lib's embedPng renders right, which is how
 * test/images/png.test.ts checks them: it decodes every PNG with its bundled UPNG, so it accepts
 * every bit depth (1–16), colour type, tRNS and Adam7 interlacing. Two cases it gets wrong, which
 * are fixed here:
 *  - APNG (acTL chunk): it throws "Animated PNGs are not supported". The acTL/fcTL/fdAT chunks are
 *    dropped, leaving the IDAT image, which is what every non-animating viewer shows.
 *  - Interlaced images whose inflated data is longer than (rowBytes + 2) × height: UPNG inflates
 *    into a buffer of that size and silently drops the rest, so the last pass comes out wrong. Each
 *    of the 7 passes adds a filter byte per row and rounds rows up to whole bytes, so this hits
 *    most interlaced images below 8 bits and some at 8 bits (9×9 RGB: 262 bytes for 261). Those
 *    are decoded here (png-decoder.ts) and re-encoded non-interlaced.
 *
 * Bounds: the IHDR size is checked against maxPixels before anything is allocated, and the IDAT
 * stream is inflated once with a ceiling of exactly the size the IHDR implies (kit/bounded-inflate.ts),
 * which also proves that a PDF reader will find well-formed data of the right length in it.
 *
 * References: PNG (Third Edition), W3C: §5.2 signature, §5.3 chunk layout (length ≤ 2^31−1),
 * §5.6 chunk ordering, §11.2.2 IHDR (Table 11.1 allowed colour type / bit depth combinations),
 * §11.2.3 PLTE, §8.2 Adam7 passes; APNG: §11.3.6 acTL, fcTL, fdAT.
 */

import { concatBytes } from '../../../kit';
import { inflatedLength, inflateExactly } from '../zip';
import { type ImageLimits, sizeAcceptable } from './raster';

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

export interface PngChunk {
  type: string;
  /** Offset of the chunk's length field. */
  start: number;
  /** Offset just past its CRC. */
  end: number;
  /** Offset of the chunk data. */
  dataStart: number;
  dataEnd: number;
}

export interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
  /** acTL present (APNG). */
  animated: boolean;
  /** Samples per pixel of the colour type. */
  channels: number;
  palette?: Uint8Array;
  transparency?: Uint8Array;
  /** The IDAT chunks' data, in order. */
  idat: Uint8Array[];
  chunks: PngChunk[];
}

/** Table 11.1: bit depths allowed per colour type, and samples per pixel. */
const COLOUR_TYPES: Record<number, { depths: readonly number[]; channels: number }> = {
  0: { depths: [1, 2, 4, 8, 16], channels: 1 }, // greyscale
  2: { depths: [8, 16], channels: 3 }, // truecolour
  3: { depths: [1, 2, 4, 8], channels: 1 }, // indexed
  4: { depths: [8, 16], channels: 2 }, // greyscale with alpha
  6: { depths: [8, 16], channels: 4 }, // truecolour with alpha
};

const MAX_CHUNK_LENGTH = 0x7fffffff;

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

function readUint32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] as number) * 0x1000000 +
    (((bytes[at + 1] as number) << 16) | ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number))
  );
}

/**
 * Walks the chunks and validates the structure. Does not inflate anything and allocates nothing
 * proportional to the image size.
 */
export function readPngInfo(bytes: Uint8Array): PngInfo | undefined {
  if (!isPng(bytes)) return undefined;
  const chunks: PngChunk[] = [];
  const idat: Uint8Array[] = [];
  let header: Omit<PngInfo, 'animated' | 'idat' | 'chunks' | 'palette' | 'transparency'> | undefined;
  let palette: Uint8Array | undefined;
  let transparency: Uint8Array | undefined;
  let animated = false;
  let at = 8;
  while (at < bytes.length) {
    if (at + 12 > bytes.length) return undefined; // truncated chunk header
    const length = readUint32(bytes, at);
    if (length > MAX_CHUNK_LENGTH || at + 12 + length > bytes.length) return undefined; // truncated data
    const type = String.fromCharCode(
      bytes[at + 4] as number,
      bytes[at + 5] as number,
      bytes[at + 6] as number,
      bytes[at + 7] as number,
    );
    if (!/^[A-Za-z]{4}$/.test(type)) return undefined;
    const chunk: PngChunk = { type, start: at, end: at + 12 + length, dataStart: at + 8, dataEnd: at + 8 + length };
    const data = bytes.subarray(chunk.dataStart, chunk.dataEnd);
    chunks.push(chunk);
    at = chunk.end;
    if (chunks.length === 1 && type !== 'IHDR') return undefined; // §5.6: IHDR first
    switch (type) {
      case 'IHDR': {
        if (header || length !== 13) return undefined;
        const width = readUint32(data, 0);
        const height = readUint32(data, 4);
        const bitDepth = data[8] as number;
        const colorType = data[9] as number;
        const kind = COLOUR_TYPES[colorType];
        if (!kind?.depths.includes(bitDepth)) return undefined;
        // compression method 0, filter method 0, interlace 0 or 1 (§11.2.2)
        if (data[10] !== 0 || data[11] !== 0 || (data[12] !== 0 && data[12] !== 1)) return undefined;
        header = { width, height, bitDepth, colorType, interlaced: data[12] === 1, channels: kind.channels };
        break;
      }
      case 'PLTE':
        if (length === 0 || length % 3 !== 0 || length > 768) return undefined;
        palette = data;
        break;
      case 'tRNS':
        transparency = data;
        break;
      case 'IDAT':
        idat.push(data);
        break;
      case 'acTL':
        animated = true;
        break;
    }
    if (type === 'IEND') break;
  }
  if (!header || idat.length === 0) return undefined;
  if (header.colorType === 3 && !palette) return undefined; // §11.2.3: PLTE required for indexed
  return { ...header, animated, palette, transparency, idat, chunks };
}

/** The Adam7 passes (§8.2): origin and step in x and y. */
export const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The (pass) images of a PNG: width and height of each reduced image that has pixels. */
export function pngPasses(info: Pick<PngInfo, 'width' | 'height' | 'interlaced'>): {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  width: number;
  height: number;
}[] {
  const { width, height } = info;
  if (!info.interlaced) return [{ x0: 0, y0: 0, dx: 1, dy: 1, width, height }];
  return ADAM7.map(([x0, y0, dx, dy]) => ({
    x0,
    y0,
    dx,
    dy,
    width: Math.ceil((width - x0) / dx),
    height: Math.ceil((height - y0) / dy),
  })).filter((pass) => pass.width > 0 && pass.height > 0);
}

/** Bytes the inflated IDAT stream must have: one filter byte plus the packed samples per row. */
export function pngInflatedSize(info: PngInfo): number {
  const bitsPerPixel = info.bitDepth * info.channels;
  let total = 0;
  for (const pass of pngPasses(info)) total += pass.height * (1 + Math.ceil((pass.width * bitsPerPixel) / 8));
  return total;
}

/** The PNG's header, when it is one and within the limits, with the size its data must inflate to. */
export function checkedHeader(bytes: Uint8Array, limits: ImageLimits): { info: PngInfo; expected: number } | undefined {
  const info = readPngInfo(bytes);
  if (!info || !sizeAcceptable(info.width, info.height, limits)) return undefined;
  const expected = pngInflatedSize(info);
  return expected > limits.maxDecodedBytes ? undefined : { info, expected };
}

export function idatData(info: PngInfo): Uint8Array {
  return info.idat.length === 1 ? (info.idat[0] as Uint8Array) : concatBytes(info.idat);
}

/** The most inflated data checked by holding it (pngDataInflates). */
const HELD_CHECK_MAX_BYTES = 8 * 1024 * 1024;

/** What pngDataInflates found of a PNG's data. */
export type PngDataCheck = 'whole' | 'broken';

/**
 * Whether the PNG's IDAT stream inflates to exactly the size its header implies, found with the
 * runtime's native zlib (native-inflate.ts), counted as it streams (a 16-megapixel PNG inflates to
 * 64 MB, never held). 'whole': it does. 'broken': it surely does not, whoever inflates it: it
 * yields more, or ends cleanly short. Undefined: not shown here (not a PNG within `limits`, no
 * native zlib, or zlib refused what fflate reads — bytes after the stream, a wrong Adler-32):
 * toEmbeddablePng then checks it itself, and decides as it always did.
 */
export async function pngDataInflates(bytes: Uint8Array, limits: ImageLimits): Promise<PngDataCheck | undefined> {
  const header = checkedHeader(bytes, limits);
  if (!header) return undefined;
  // Most PNGs are small: held for a moment, their data is checked in one native call, three times
  // faster than counting it chunk by chunk in JavaScript; only a large one is counted as it streams.
  // A damaged one is then counted to learn whether it is surely broken.
  if (
    header.expected <= HELD_CHECK_MAX_BYTES &&
    (await inflateExactly(idatData(header.info), 'deflate', header.expected))
  ) {
    return 'whole';
  }
  const counted = await inflatedLength(idatData(header.info), 'deflate', header.expected);
  if (!counted) return undefined;
  if (counted.length > header.expected) return 'broken';
  if (counted.complete) return counted.length === header.expected ? 'whole' : 'broken';
  return undefined;
}
