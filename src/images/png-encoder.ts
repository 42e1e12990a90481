/**
 * A minimal PNG writer for decoded images (GIF, BMP, TIFF, WebP): 8-bit truecolour, with an alpha
 * channel only when some pixel is not opaque, non-interlaced, filter type 0 on every row.
 *
 * The painter writes an opaque one into the PDF as it is (its IDAT stream) and splits one with
 * alpha into colour and alpha streams (src/pdf/pdf-images.ts). Level 1 keeps the CPU cost low
 * while still shrinking flat-colour images; level 6 makes the corpus's PDFs less than 0.5% smaller.
 *
 * References: PNG (Third Edition), W3C, §5.2 signature, §5.3 chunk layout, §11.2.2 IHDR,
 * §11.2.4 IDAT, §11.2.5 IEND, §7.3 filter type 0 byte before each scanline.
 */
import { zlibSync } from 'fflate';
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

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Encodes 8-bit RGBA as a PNG (which pdf-lib's embedPng, like the painter, accepts). */
export function encodePng(image: RgbaImage): Uint8Array {
  const { width, height, data } = image;
  let opaque = true;
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] !== 255) {
      opaque = false;
      break;
    }
  }
  const channels = opaque ? 3 : 4;
  const rowBytes = width * channels + 1;
  const raw = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    let out = y * rowBytes + 1; // raw[y * rowBytes] = 0: filter type None
    let inp = y * width * 4;
    if (opaque) {
      for (let x = 0; x < width; x++, inp += 4) {
        raw[out++] = data[inp] as number;
        raw[out++] = data[inp + 1] as number;
        raw[out++] = data[inp + 2] as number;
      }
    } else {
      raw.set(data.subarray(inp, inp + width * 4), out);
    }
  }
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
    pngChunk('IDAT', zlibSync(raw, { level: 1 })),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}
