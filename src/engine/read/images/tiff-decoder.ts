/**
 * TIFF (baseline plus the common extensions) → RGBA of the first image (IFD 0).
 *
 * Supported: strips and tiles; chunky and planar (PlanarConfiguration 1 and 2); compression none,
 * LZW (5), PackBits (32773) and Deflate (8 and the older 32946); horizontal differencing predictor
 * (Predictor 2) at 8 and 16 bits; photometric WhiteIsZero / BlackIsZero (1, 2, 4, 8, 16 bits),
 * RGB (8, 16 bits), palette (1, 2, 4, 8 bits, ColorMap) and separated CMYK (8 bits, converted
 * naively); an extra sample as alpha (ExtraSamples 1 premultiplied, 2 straight).
 * Refused (undefined): BigTIFF, CCITT fax (2, 3, 4), JPEG-in-TIFF (6, 7), old-style LZW, YCbCr,
 * CIELab, float and signed samples, FillOrder 2.
 *
 * Written here rather than taken from npm: utif2 (the maintained UTIF.js) inflates Deflate strips
 * with pako and no output limit, prints debug output for tiled files, and finds pako through a
 * run-time `require`; here every decompressor writes into a buffer of the size the IFD implies,
 * and that size is checked against the limits before anything is allocated.
 *
 * References: TIFF Revision 6.0 (Adobe, 1992): §2 structure (header, IFD entries, field types),
 * §3–§8 baseline fields, §9 PackBits, §13 LZW (MSB-first codes, code width grows one code early),
 * §14 Differencing Predictor, §15 tiles, §16 CMYK; Adobe PageMaker 6.0 TIFF Technical Notes
 * (TN2: compression 8 "Adobe Deflate", zlib stream).
 */
import { boundedInflate } from '../../../kit';
import { type ImageLimits, type RgbaImage, sizeAcceptable } from './raster';

export function isTiff(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 8 &&
    ((bytes[0] === 0x49 && bytes[1] === 0x49 && bytes[2] === 42 && bytes[3] === 0) ||
      (bytes[0] === 0x4d && bytes[1] === 0x4d && bytes[2] === 0 && bytes[3] === 42))
  );
}

/** Field type → size in bytes (§2, Table 2; 6–12 from §2 "additional types"). */
const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
};

const Tag = {
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  Photometric: 262,
  FillOrder: 266,
  StripOffsets: 273,
  SamplesPerPixel: 277,
  RowsPerStrip: 278,
  StripByteCounts: 279,
  PlanarConfiguration: 284,
  Predictor: 317,
  ColorMap: 320,
  TileWidth: 322,
  TileLength: 323,
  TileOffsets: 324,
  TileByteCounts: 325,
  InkSet: 332,
  ExtraSamples: 338,
  SampleFormat: 339,
} as const;

class Reader {
  readonly bytes: Uint8Array;
  readonly little: boolean;
  readonly view: DataView;
  constructor(bytes: Uint8Array, little: boolean) {
    this.bytes = bytes;
    this.little = little;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u16(at: number): number {
    return this.view.getUint16(at, this.little);
  }
  u32(at: number): number {
    return this.view.getUint32(at, this.little);
  }
}

const WANTED_TAGS: ReadonlySet<number> = new Set(Object.values(Tag));

/**
 * The IFD's integer fields (BYTE, SHORT, LONG and their signed forms) among the tags this decoder
 * uses, tag → values; the first entry of a tag wins. Only those are read, so an IFD of 65535
 * entries that each point at the whole file costs no more than the ~20 tags that matter.
 */
function readIfd(r: Reader, offset: number): Map<number, number[]> | undefined {
  const { bytes } = r;
  if (offset < 8 || offset + 2 > bytes.length) return undefined;
  const count = r.u16(offset);
  if (offset + 2 + 12 * count > bytes.length) return undefined;
  const fields = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const entry = offset + 2 + 12 * i;
    const tag = r.u16(entry);
    if (!WANTED_TAGS.has(tag) || fields.has(tag)) continue;
    const type = r.u16(entry + 2);
    const n = r.u32(entry + 4);
    const size = TYPE_SIZES[type];
    if (!size || ![1, 3, 4, 6, 8, 9].includes(type)) continue; // rationals, ASCII, floats: not needed
    const total = size * n;
    const at = total <= 4 ? entry + 8 : r.u32(entry + 8);
    if (n === 0 || at + total > bytes.length) continue; // a field pointing outside the file is ignored
    const values = new Array<number>(n);
    for (let k = 0; k < n; k++) {
      const p = at + k * size;
      values[k] = type === 1 || type === 6 ? (bytes[p] as number) : type === 3 || type === 8 ? r.u16(p) : r.u32(p);
    }
    fields.set(tag, values);
  }
  return fields;
}

/** PackBits (§9): header byte n; 0..127 copy n+1 literal bytes, −1..−127 repeat next byte 1−n times. */
export function decodePackBits(src: Uint8Array, out: Uint8Array): number {
  let at = 0;
  let written = 0;
  while (at < src.length && written < out.length) {
    const n = src[at++] as number;
    if (n < 128) {
      const count = Math.min(n + 1, out.length - written, src.length - at);
      out.set(src.subarray(at, at + count), written);
      written += count;
      at += n + 1;
    } else if (n > 128) {
      if (at >= src.length) break;
      const count = Math.min(257 - n, out.length - written);
      out.fill(src[at++] as number, written, written + count);
      written += count;
    } // n === 128 (−128): no-op
  }
  return written;
}

/**
 * TIFF LZW (§13): MSB-first codes of 9–12 bits, 256 = Clear, 257 = EndOfInformation, the code width
 * growing when the next free entry reaches 511, 1023, 2047 (one code earlier than GIF). Stops at
 * the first code beyond the next free entry, so every prefix chain is strictly decreasing, and
 * once `out` is full. Returns the bytes written, or -1 for old-style (pre-6.0, LSB-first) LZW.
 */
export function decodeTiffLzw(src: Uint8Array, out: Uint8Array): number {
  if (src.length >= 2 && src[0] === 0 && ((src[1] as number) & 1) === 1) return -1;
  const prefix = new Uint16Array(4096);
  const suffix = new Uint8Array(4096);
  const stack = new Uint8Array(4097);
  for (let i = 0; i < 256; i++) suffix[i] = i;
  let codeSize = 9;
  let next = 258;
  let previous = -1;
  let first = 0;
  let bitPos = 0;
  const totalBits = src.length * 8;
  let written = 0;
  while (written < out.length && bitPos + codeSize <= totalBits) {
    // Read codeSize bits MSB-first from up to three bytes.
    const byte = bitPos >> 3;
    const window =
      (((src[byte] as number) << 16) | ((src[byte + 1] ?? 0) << 8) | (src[byte + 2] ?? 0)) >>>
      (24 - codeSize - (bitPos & 7));
    let code = window & ((1 << codeSize) - 1);
    bitPos += codeSize;
    if (code === 256) {
      codeSize = 9;
      next = 258;
      previous = -1;
      continue;
    }
    if (code === 257) break;
    if (previous === -1) {
      if (code > 255) break;
      out[written++] = code;
      previous = code;
      first = code;
      continue;
    }
    if (code > next || (code === next && next >= 4096)) break;
    const incoming = code;
    let sp = 0;
    if (code === next) {
      stack[sp++] = first;
      code = previous;
    }
    while (code > 257) {
      stack[sp++] = suffix[code] as number;
      code = prefix[code] as number;
    }
    first = code;
    stack[sp++] = first;
    if (next < 4096) {
      prefix[next] = previous;
      suffix[next] = first;
      next++;
      if (next + 1 >= 1 << codeSize && codeSize < 12) codeSize++;
    }
    previous = incoming;
    while (sp > 0 && written < out.length) out[written++] = stack[--sp] as number;
  }
  return written;
}

export function decodeTiff(bytes: Uint8Array, limits: ImageLimits): RgbaImage | undefined {
  if (!isTiff(bytes)) return undefined;
  const r = new Reader(bytes, bytes[0] === 0x49);
  const ifd = readIfd(r, r.u32(4));
  if (!ifd) return undefined;
  const one = (tag: number, fallback?: number): number | undefined => ifd.get(tag)?.[0] ?? fallback;

  const width = one(Tag.ImageWidth);
  const height = one(Tag.ImageLength);
  if (width === undefined || height === undefined || !sizeAcceptable(width, height, limits)) return undefined;
  const spp = one(Tag.SamplesPerPixel, 1) as number;
  const bitsList = ifd.get(Tag.BitsPerSample) ?? [1];
  const bps = bitsList[0] as number;
  if (!bitsList.every((b) => b === bps) || ![1, 2, 4, 8, 16].includes(bps)) return undefined;
  const compression = one(Tag.Compression, 1) as number;
  if (![1, 5, 8, 32946, 32773].includes(compression)) return undefined;
  const planar = one(Tag.PlanarConfiguration, 1) as number;
  const predictor = one(Tag.Predictor, 1) as number;
  if ((ifd.get(Tag.SampleFormat) ?? [1]).some((f) => f !== 1)) return undefined;
  if (one(Tag.FillOrder, 1) !== 1) return undefined;
  const photometric = one(Tag.Photometric, spp >= 3 ? 2 : 1) as number;
  const colourChannels = ({ 0: 1, 1: 1, 2: 3, 3: 1, 5: 4 } as Record<number, number>)[photometric];
  if (colourChannels === undefined || spp < colourChannels || spp > 8) return undefined;
  if (photometric === 3 && bps > 8) return undefined;
  if ((photometric === 2 || photometric === 5) && bps < 8) return undefined;
  if (photometric === 5 && (bps !== 8 || one(Tag.InkSet, 1) !== 1)) return undefined;
  if (planar !== 1 && planar !== 2) return undefined;
  if (predictor !== 1 && !(predictor === 2 && bps >= 8)) return undefined;
  const colourMap = ifd.get(Tag.ColorMap);
  if (photometric === 3 && (!colourMap || colourMap.length < 3 << bps)) return undefined;
  const extra = ifd.get(Tag.ExtraSamples)?.[0] ?? 0;
  const hasAlpha = spp > colourChannels && (extra === 1 || extra === 2);

  // Decoded layout: one plane of interleaved samples (chunky) or one plane per sample (planar).
  const planes = planar === 2 ? spp : 1;
  const samplesInPlane = planar === 2 ? 1 : spp;
  const bitsPerPixel = bps * samplesInPlane;
  const planeRowBytes = Math.ceil((width * bitsPerPixel) / 8);
  if (planes * planeRowBytes * height > limits.maxDecodedBytes) return undefined;

  // Chunks (strips or tiles) per plane, and their geometry.
  const tiled = ifd.has(Tag.TileWidth);
  let chunkWidth: number;
  let chunkHeight: number;
  let across: number;
  let offsets: number[] | undefined;
  let counts: number[] | undefined;
  if (tiled) {
    chunkWidth = one(Tag.TileWidth) ?? 0;
    chunkHeight = one(Tag.TileLength) ?? 0;
    if (chunkWidth <= 0 || chunkHeight <= 0 || (chunkWidth * bitsPerPixel) % 8 !== 0) return undefined;
    across = Math.ceil(width / chunkWidth);
    offsets = ifd.get(Tag.TileOffsets);
    counts = ifd.get(Tag.TileByteCounts);
  } else {
    chunkWidth = width;
    chunkHeight = Math.min(one(Tag.RowsPerStrip, height) as number, height) || height;
    across = 1;
    offsets = ifd.get(Tag.StripOffsets);
    counts = ifd.get(Tag.StripByteCounts);
  }
  const down = Math.ceil(height / chunkHeight);
  const chunkRowBytes = Math.ceil((chunkWidth * bitsPerPixel) / 8);
  const chunkBytes = chunkRowBytes * chunkHeight;
  if (chunkBytes > limits.maxDecodedBytes) return undefined;
  const perPlane = across * down;
  if (!offsets || offsets.length < perPlane * planes) return undefined;
  if (!counts && compression === 1 && !tiled && offsets.length === 1) counts = [chunkBytes];
  if (!counts || counts.length < perPlane * planes) return undefined;

  const planeData: Uint8Array[] = [];
  const chunk = new Uint8Array(chunkBytes);
  for (let p = 0; p < planes; p++) {
    const plane = new Uint8Array(planeRowBytes * height);
    planeData.push(plane);
    for (let c = 0; c < perPlane; c++) {
      const index = p * perPlane + c;
      const offset = offsets[index] as number;
      if (offset >= bytes.length) continue; // missing chunk: left blank
      const src = bytes.subarray(offset, Math.min(offset + (counts[index] as number), bytes.length));
      chunk.fill(0);
      if (compression === 1) {
        chunk.set(src.subarray(0, chunkBytes));
      } else if (compression === 32773) {
        decodePackBits(src, chunk);
      } else if (compression === 5) {
        if (decodeTiffLzw(src, chunk) < 0) return undefined;
      } else {
        const inflated = boundedInflate(src, chunkBytes);
        if (!inflated) return undefined;
        chunk.set(inflated.bytes.subarray(0, chunkBytes));
      }
      if (predictor === 2) undoHorizontalDifferencing(chunk, chunkRowBytes, chunkHeight, samplesInPlane, bps, r.little);
      // Copy the chunk's rows that fall inside the image.
      const x0 = (c % across) * chunkWidth;
      const y0 = Math.floor(c / across) * chunkHeight;
      const xByte = (x0 * bitsPerPixel) / 8;
      const rowLength = Math.min(chunkRowBytes, planeRowBytes - xByte);
      for (let y = 0; y < chunkHeight && y0 + y < height; y++) {
        plane.set(chunk.subarray(y * chunkRowBytes, y * chunkRowBytes + rowLength), (y0 + y) * planeRowBytes + xByte);
      }
    }
  }
  return toRgba(planeData, {
    width,
    height,
    bps,
    spp,
    planar: planar === 2,
    planeRowBytes,
    photometric,
    colourChannels,
    hasAlpha,
    premultiplied: extra === 1,
    colourMap,
    little: r.little,
  });
}

/** Predictor 2 (§14): each sample after the first in a row is stored as a difference. */
function undoHorizontalDifferencing(
  chunk: Uint8Array,
  rowBytes: number,
  rows: number,
  samples: number,
  bps: number,
  little: boolean,
): void {
  for (let y = 0; y < rows; y++) {
    const start = y * rowBytes;
    if (bps === 8) {
      for (let i = start + samples; i < start + rowBytes; i++) {
        chunk[i] = ((chunk[i] as number) + (chunk[i - samples] as number)) & 0xff;
      }
    } else {
      const stride = 2 * samples;
      for (let i = start + stride; i + 1 < start + rowBytes; i += 2) {
        const hi = little ? i + 1 : i;
        const lo = little ? i : i + 1;
        const value =
          (((chunk[hi] as number) << 8) | (chunk[lo] as number)) +
          (((chunk[hi - stride] as number) << 8) | (chunk[lo - stride] as number));
        chunk[hi] = (value >> 8) & 0xff;
        chunk[lo] = value & 0xff;
      }
    }
  }
}

interface Layout {
  width: number;
  height: number;
  bps: number;
  spp: number;
  planar: boolean;
  planeRowBytes: number;
  photometric: number;
  colourChannels: number;
  hasAlpha: boolean;
  premultiplied: boolean;
  colourMap: number[] | undefined;
  little: boolean;
}

function toRgba(planes: Uint8Array[], l: Layout): RgbaImage {
  const { width, height, bps } = l;
  const data = new Uint8Array(width * height * 4);
  const maxSample = bps === 16 ? 65535 : (1 << bps) - 1;
  // Sample s of pixel x in row y, at its own depth (16-bit in the file's byte order).
  const raw = (x: number, y: number, s: number): number => {
    const plane = l.planar ? (planes[s] as Uint8Array) : (planes[0] as Uint8Array);
    const index = l.planar ? x : x * l.spp + s;
    const row = y * l.planeRowBytes;
    if (bps === 8) return plane[row + index] as number;
    if (bps === 16) {
      const at = row + 2 * index;
      return l.little
        ? (plane[at] as number) | ((plane[at + 1] as number) << 8)
        : ((plane[at] as number) << 8) | (plane[at + 1] as number);
    }
    const bit = index * bps;
    return ((plane[row + (bit >> 3)] as number) >> (8 - bps - (bit & 7))) & maxSample;
  };
  const to8 = (v: number): number => (bps === 16 ? v >> 8 : bps === 8 ? v : Math.round((v * 255) / maxSample));
  const mapSize = 1 << bps;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      let red: number;
      let green: number;
      let blue: number;
      switch (l.photometric) {
        case 0: // WhiteIsZero
          red = green = blue = 255 - to8(raw(x, y, 0));
          break;
        case 1: // BlackIsZero
          red = green = blue = to8(raw(x, y, 0));
          break;
        case 3: {
          // ColorMap: all reds, then all greens, then all blues, 16-bit each (§5).
          const map = l.colourMap as number[];
          const i = raw(x, y, 0);
          red = (map[i] as number) >> 8;
          green = (map[mapSize + i] as number) >> 8;
          blue = (map[2 * mapSize + i] as number) >> 8;
          break;
        }
        case 5: {
          // Separated CMYK (§16), converted without a colour profile.
          const k = 255 - raw(x, y, 3);
          red = Math.round(((255 - raw(x, y, 0)) * k) / 255);
          green = Math.round(((255 - raw(x, y, 1)) * k) / 255);
          blue = Math.round(((255 - raw(x, y, 2)) * k) / 255);
          break;
        }
        default:
          red = to8(raw(x, y, 0));
          green = to8(raw(x, y, 1));
          blue = to8(raw(x, y, 2));
      }
      let alpha = 255;
      if (l.hasAlpha) {
        alpha = to8(raw(x, y, l.colourChannels));
        if (l.premultiplied) {
          // Associated alpha: colour was multiplied by alpha; PNG wants it straight.
          red = alpha === 0 ? 0 : Math.min(255, Math.round((red * 255) / alpha));
          green = alpha === 0 ? 0 : Math.min(255, Math.round((green * 255) / alpha));
          blue = alpha === 0 ? 0 : Math.min(255, Math.round((blue * 255) / alpha));
        }
      }
      data[o] = red;
      data[o + 1] = green;
      data[o + 2] = blue;
      data[o + 3] = alpha;
    }
  }
  return { width, height, data };
}
