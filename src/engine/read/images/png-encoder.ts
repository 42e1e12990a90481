/**
 * A minimal PNG writer for decoded images (GIF, BMP, TIFF, WebP): 8-bit truecolour, with an alpha
 * channel only when some pixel is not opaque, non-interlaced, filter type 0 on every row.
 *
 * The painter writes an opaque one into the PDF as it is (its IDAT stream) and splits one with
 * alpha into colour and alpha streams (src/engine/write/pdf/pdf-images.ts). Level 2: fflate's level 1 matches
 * so little that on the metafile bitmaps of the corpus it was both slower (about 10% more CPU on
 * workerd) and twice the size (352 KB against 181 KB for aspose-images-formats' 7.3 MB of
 * scanlines); higher levels gain a few percent more size for more time.
 *
 * References: PNG (Third Edition), W3C, §5.2 signature, §5.3 chunk layout, §11.2.2 IHDR,
 * §11.2.4 IDAT, §11.2.5 IEND, §7.3 filter type 0 byte before each scanline.
 */

import { zlibSync } from 'fflate';
import { concatBytes } from '../../../kit';
import type { RgbaImage } from './raster';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

let crcTable: Uint32Array | undefined;

/** CRC-32 over chunk type and data (PNG §5.3, ISO 3309 polynomial). */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = (table[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One chunk: length, type, data, CRC (PNG §5.3). */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) chunk[4 + i] = type.charCodeAt(i);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk, 4, 8 + data.length));
  return chunk;
}

/** Whether every pixel's alpha is 255. */
export function isOpaque(data: Uint8Array): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

/** Typed arrays use the platform's byte order; every runtime we deploy to is little-endian. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Rows of RGB, each after its filter type byte 0 (None), from RGBA. */
function rgbScanlines(data: Uint8Array, width: number, height: number): Uint8Array {
  const rowBytes = width * 3 + 1;
  const raw = new Uint8Array(rowBytes * height);
  // Whole pixels read as one little-endian word where the buffer allows: a third of the reads of
  // byte by byte, in the loop that touches every pixel of every decoded picture.
  const words =
    LITTLE_ENDIAN && data.byteOffset % 4 === 0
      ? new Uint32Array(data.buffer, data.byteOffset, data.length >> 2)
      : undefined;
  for (let y = 0, inp = 0; y < height; y++) {
    let out = y * rowBytes + 1;
    if (words) {
      for (let x = 0; x < width; x++, inp++) {
        const pixel = words[inp] as number;
        raw[out++] = pixel & 0xff;
        raw[out++] = (pixel >>> 8) & 0xff;
        raw[out++] = (pixel >>> 16) & 0xff;
      }
    } else {
      for (let x = 0, at = inp * 4; x < width; x++, inp++, at += 4) {
        raw[out++] = data[at] as number;
        raw[out++] = data[at + 1] as number;
        raw[out++] = data[at + 2] as number;
      }
    }
  }
  return raw;
}

/** Rows of RGBA, each after its filter type byte 0 (None). */
function rgbaScanlines(data: Uint8Array, width: number, height: number): Uint8Array {
  const rowBytes = width * 4 + 1;
  const raw = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) raw.set(data.subarray(y * width * 4, (y + 1) * width * 4), y * rowBytes + 1);
  return raw;
}

/** Encodes 8-bit RGBA as a PNG (which pdf-lib's embedPng, like the painter, accepts). */
export function encodePng(image: RgbaImage): Uint8Array {
  const { width, height, data } = image;
  const opaque = isOpaque(data);
  const raw = opaque ? rgbScanlines(data, width, height) : rgbaScanlines(data, width, height);
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = opaque ? 2 : 6; // colour type: truecolour / truecolour with alpha
  // compression 0 (deflate), filter method 0, interlace 0: already zero
  return concatBytes([
    Uint8Array.from(SIGNATURE),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlibSync(raw, { level: 2 })),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}
