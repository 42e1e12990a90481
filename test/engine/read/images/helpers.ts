/**
 * Fixture builders for the image tests. Every image is written here, byte by byte or with a small
 * encoder, so the tests show exactly what each decoder is given; the few binary fixtures that need
 * a real codec (JPEG, WebP, one libtiff LZW file) are base64 literals made on this machine with
 * cjpeg / ImageMagick / cwebp / tiffcp from pixels described next to them.
 */
import UPNG from '@pdf-lib/upng';
import { zlibSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { expect } from 'vitest';
import type { EncodedImage } from '../../../../src/engine/model/document';

export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

export function concat(...parts: (Uint8Array | number[])[]): Uint8Array {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/** Embeds the resource in a fresh PDF the way the painter will, draws it, and saves. */
export async function embedInPdf(image: EncodedImage): Promise<{ width: number; height: number; pdf: Uint8Array }> {
  const doc = await PDFDocument.create();
  const embedded = image.format === 'png' ? await doc.embedPng(image.bytes) : await doc.embedJpg(image.bytes);
  const page = doc.addPage([100, 100]);
  page.drawImage(embedded, { x: 0, y: 0, width: 50, height: 50 });
  const pdf = await doc.save();
  return { width: embedded.width, height: embedded.height, pdf };
}

/** Decodes PNG bytes with pdf-lib's own PNG decoder (UPNG): the pixels pdf-lib will embed. */
export function pixelsAsPdfLibSees(png: Uint8Array): { width: number; height: number; rgba: number[] } {
  const decoded = UPNG.decode(png.slice().buffer);
  const frame = UPNG.toRGBA8(decoded)[0] as ArrayBuffer;
  return { width: decoded.width, height: decoded.height, rgba: Array.from(new Uint8Array(frame)) };
}

export async function expectEmbeds(image: EncodedImage | undefined, width: number, height: number): Promise<void> {
  expect(image).toBeDefined();
  if (!image) return;
  expect(image.pixelWidth).toBe(width);
  expect(image.pixelHeight).toBe(height);
  const embedded = await embedInPdf(image);
  expect(embedded.width).toBe(width);
  expect(embedded.height).toBe(height);
}

// ---------------------------------------------------------------- PNG (any depth, Adam7)

let crcTable: number[] | undefined;
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = [];
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable.push(c >>> 0);
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const be32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

export function pngChunk(type: string, data: Uint8Array | number[]): Uint8Array {
  const body = concat(
    Array.from(type, (c) => c.charCodeAt(0)),
    data,
  );
  return concat(be32(body.length - 4), body, be32(crc32(body)));
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function ihdr(width: number, height: number, bitDepth: number, colorType: number, interlace = 0): Uint8Array {
  return pngChunk('IHDR', [...be32(width), ...be32(height), bitDepth, colorType, 0, 0, interlace]);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Packs one row of samples at `depth` bits, MSB first (16-bit big-endian), filter type 0. */
function packRow(samples: number[], depth: number): number[] {
  const row = [0];
  if (depth === 8) row.push(...samples);
  else if (depth === 16) for (const s of samples) row.push(s >> 8, s & 255);
  else {
    let acc = 0;
    let bits = 0;
    for (const s of samples) {
      acc = (acc << depth) | s;
      bits += depth;
      if (bits === 8) {
        row.push(acc);
        acc = 0;
        bits = 0;
      }
    }
    if (bits > 0) row.push(acc << (8 - bits));
  }
  return row;
}

/** A PNG with arbitrary depth / colour type / interlacing; `pixel(x, y)` gives the samples. */
export function buildPng(options: {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace?: boolean;
  pixel: (x: number, y: number) => number[];
  before?: Uint8Array[];
  after?: Uint8Array[];
}): Uint8Array {
  const { width, height, bitDepth, colorType } = options;
  const raw: number[] = [];
  const passes = options.interlace
    ? [
        [0, 0, 8, 8],
        [4, 0, 8, 8],
        [0, 4, 4, 8],
        [2, 0, 4, 4],
        [0, 2, 2, 4],
        [1, 0, 2, 2],
        [0, 1, 1, 2],
      ]
    : [[0, 0, 1, 1]];
  for (const [x0, y0, dx, dy] of passes as [number, number, number, number][]) {
    for (let y = y0; y < height; y += dy) {
      const samples: number[] = [];
      for (let x = x0; x < width; x += dx) samples.push(...options.pixel(x, y));
      if (samples.length > 0) raw.push(...packRow(samples, bitDepth));
    }
  }
  expect(options.pixel(0, 0).length).toBe(CHANNELS[colorType]);
  return concat(
    PNG_SIGNATURE,
    ihdr(width, height, bitDepth, colorType, options.interlace ? 1 : 0),
    ...(options.before ?? []),
    pngChunk('IDAT', zlibSync(Uint8Array.from(raw))),
    ...(options.after ?? []),
    pngChunk('IEND', []),
  );
}

// ---------------------------------------------------------------- TIFF

export interface TiffEntry {
  tag: number;
  /** 3 SHORT or 4 LONG. */
  type: 3 | 4;
  values: number[];
}

/**
 * A TIFF with one IFD: header, the pixel data chunks, then the IFD (entries sorted by tag) and the
 * out-of-line values. StripOffsets/TileOffsets (or the tag given as offsetsTag) are filled in.
 */
export function buildTiff(options: {
  little?: boolean;
  entries: TiffEntry[];
  chunks: Uint8Array[];
  offsetsTag?: number;
  countsTag?: number;
}): Uint8Array {
  const little = options.little ?? true;
  const offsetsTag = options.offsetsTag ?? 273;
  const countsTag = options.countsTag ?? 279;
  const bytes: number[] = [];
  const u16 = (n: number): number[] => (little ? [n & 255, (n >> 8) & 255] : [(n >> 8) & 255, n & 255]);
  const u32 = (n: number): number[] =>
    little
      ? [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255]
      : [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  bytes.push(...(little ? [0x49, 0x49] : [0x4d, 0x4d]), ...u16(42), 0, 0, 0, 0);
  const offsets: number[] = [];
  for (const chunk of options.chunks) {
    offsets.push(bytes.length);
    bytes.push(...chunk);
    if (bytes.length % 2) bytes.push(0);
  }
  const entries = options.entries.filter((e) => e.tag !== offsetsTag && e.tag !== countsTag);
  entries.push({ tag: offsetsTag, type: 4, values: offsets });
  entries.push({ tag: countsTag, type: 4, values: options.chunks.map((c) => c.length) });
  entries.sort((a, b) => a.tag - b.tag);
  const ifdOffset = bytes.length;
  bytes.splice(4, 4, ...u32(ifdOffset));
  let extra = ifdOffset + 2 + 12 * entries.length + 4;
  const tail: number[] = [];
  bytes.push(...u16(entries.length));
  for (const entry of entries) {
    const size = entry.type === 3 ? 2 : 4;
    const encoded = entry.values.flatMap((v) => (entry.type === 3 ? u16(v) : u32(v)));
    bytes.push(...u16(entry.tag), ...u16(entry.type), ...u32(entry.values.length));
    if (size * entry.values.length <= 4) {
      bytes.push(...encoded, ...new Array(4 - encoded.length).fill(0));
    } else {
      bytes.push(...u32(extra));
      tail.push(...encoded);
      extra += encoded.length;
    }
  }
  bytes.push(...u32(0), ...tail);
  return Uint8Array.from(bytes);
}

export const short = (tag: number, ...values: number[]): TiffEntry => ({ tag, type: 3, values });
export const long = (tag: number, ...values: number[]): TiffEntry => ({ tag, type: 4, values });

/** TIFF LZW encoder (TIFF 6.0 §13), for fixtures: MSB-first, 9–12 bits, early change. */
export function tiffLzw(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let codeSize = 9;
  const emit = (code: number): void => {
    acc = (acc << codeSize) | code;
    bits += codeSize;
    while (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 255);
      bits -= 8;
    }
    acc &= (1 << bits) - 1;
  };
  let table = new Map<string, number>();
  let next = 258;
  const reset = (): void => {
    table = new Map();
    for (let i = 0; i < 256; i++) table.set(String.fromCharCode(i), i);
    next = 258;
  };
  reset();
  emit(256);
  let w = '';
  for (const byte of data) {
    const c = String.fromCharCode(byte);
    if (table.has(w + c)) {
      w += c;
      continue;
    }
    emit(table.get(w) as number);
    table.set(w + c, next++);
    // The decoder makes each entry one code later, so it widens at 511 while we widen at 512.
    if (next >= 1 << codeSize && codeSize < 12) codeSize++;
    if (next >= 4094) {
      emit(256);
      reset();
      codeSize = 9;
    }
    w = c;
  }
  if (w) emit(table.get(w) as number);
  // The decoder makes an entry after this last code too, so EOI may need the next width.
  if (next + 1 >= 1 << codeSize && codeSize < 12) codeSize++;
  emit(257);
  if (bits > 0) out.push((acc << (8 - bits)) & 255);
  return Uint8Array.from(out);
}

/** PackBits (TIFF 6.0 §9) for fixtures: runs of 3+ equal bytes as repeats, the rest as literals. */
export function packBits(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let i = 0;
  while (i < data.length) {
    let run = 1;
    while (i + run < data.length && run < 128 && data[i + run] === data[i]) run++;
    if (run >= 3) {
      out.push(257 - run, data[i] as number);
      i += run;
      continue;
    }
    let literal = 0;
    while (i + literal < data.length && literal < 128) {
      if (
        i + literal + 2 < data.length &&
        data[i + literal] === data[i + literal + 1] &&
        data[i + literal] === data[i + literal + 2]
      )
        break;
      literal++;
    }
    out.push(literal - 1, ...data.subarray(i, i + literal));
    i += literal;
  }
  return Uint8Array.from(out);
}
