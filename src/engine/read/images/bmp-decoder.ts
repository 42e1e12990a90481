/**
 * BMP (Windows DIB in a 'BM' file) → RGBA. Written here: the npm decoders (bmp-js, bmp-ts) read
 * through Node's Buffer, which workerd does not have without nodejs_compat, and allocate whatever
 * the header claims. The format is small enough to cover fully:
 *  - headers: BITMAPCOREHEADER (12), BITMAPINFOHEADER (40), V2/V3 (52/56), OS/2 2.x (64, only
 *    with the compressions it shares), BITMAPV4HEADER (108), BITMAPV5HEADER (124);
 *  - 1/4/8-bit palette, 16-bit (5-5-5 or bit fields), 24-bit BGR, 32-bit (BGRX or bit fields);
 *  - BI_RGB, BI_BITFIELDS and BI_ALPHABITFIELDS (masks after a 40-byte header or inside V2+),
 *    BI_RLE8 and BI_RLE4;
 *  - bottom-up (positive height) and top-down (negative height) rows.
 * BI_JPEG / BI_PNG (a whole JPEG or PNG inside the DIB) are refused: undefined.
 *
 * 32-bit BI_RGB: the fourth byte is "reserved" but many writers put alpha there; like Firefox, it
 * is used as alpha unless it is 0 for every pixel (then the image is opaque).
 *
 * References: Microsoft Win32 documentation, "BITMAPFILEHEADER", "BITMAPINFOHEADER",
 * "BITMAPV4HEADER", "BITMAPV5HEADER", "BITMAPCOREHEADER" (wingdi.h), and "Bitmap Compression"
 * (the RLE8 / RLE4 escape codes 0 end-of-line, 1 end-of-bitmap, 2 delta).
 */
import { type ImageLimits, type RgbaImage, sizeAcceptable } from './raster';

/** Typed arrays use the platform's byte order; every runtime we deploy to is little-endian. */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

const BI_RGB = 0;
const BI_RLE8 = 1;
const BI_RLE4 = 2;
const BI_BITFIELDS = 3;
const BI_ALPHABITFIELDS = 6;

export function isBmp(bytes: Uint8Array): boolean {
  return bytes.length >= 26 && bytes[0] === 0x42 && bytes[1] === 0x4d;
}

interface Channel {
  mask: number;
  shift: number;
  max: number;
}

function channel(mask: number): Channel {
  mask >>>= 0;
  if (mask === 0) return { mask: 0, shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { mask, shift, max: mask >>> shift };
}

/** Scales a masked field to 0–255; a channel with no mask reads as `absent`. */
function field(value: number, c: Channel, absent: number): number {
  if (c.max === 0) return absent;
  return Math.round((((value & c.mask) >>> c.shift) * 255) / c.max);
}

/** One row of 1/4/8-bit palette indices, most significant bits first. */
function paletteRow(
  bytes: Uint8Array,
  src: number,
  bitCount: number,
  width: number,
  palette: Uint8Array,
  data: Uint8Array,
  o: number,
): void {
  const mask = (1 << bitCount) - 1;
  for (let x = 0; x < width; x++, o += 4) {
    const bit = x * bitCount;
    const index = (((bytes[src + (bit >> 3)] as number) >> (8 - bitCount - (bit & 7))) & mask) * 3;
    data[o] = palette[index] as number;
    data[o + 1] = palette[index + 1] as number;
    data[o + 2] = palette[index + 2] as number;
    data[o + 3] = 255;
  }
}

/** One row of 24-bit BGR; `words` views the RGBA data when the platform is little-endian. */
function bgrRow(bytes: Uint8Array, src: number, width: number, data: Uint8Array, o: number, words?: Uint32Array): void {
  if (words) {
    // One store per pixel instead of four, in the loop that touches every pixel of a DIB.
    for (let x = 0, p = src, w = o >> 2; x < width; x++, p += 3, w++) {
      words[w] = 0xff000000 | ((bytes[p] as number) << 16) | ((bytes[p + 1] as number) << 8) | (bytes[p + 2] as number);
    }
    return;
  }
  for (let x = 0, p = src; x < width; x++, p += 3, o += 4) {
    data[o] = bytes[p + 2] as number;
    data[o + 1] = bytes[p + 1] as number;
    data[o + 2] = bytes[p] as number;
    data[o + 3] = 255;
  }
}

/** One row of 32-bit BGRX/BGRA; whether any fourth byte is not 0. */
function bgraRow(bytes: Uint8Array, src: number, width: number, data: Uint8Array, o: number): boolean {
  let any = 0;
  for (let x = 0, p = src; x < width; x++, p += 4, o += 4) {
    const a = bytes[p + 3] as number;
    data[o] = bytes[p + 2] as number;
    data[o + 1] = bytes[p + 1] as number;
    data[o + 2] = bytes[p] as number;
    data[o + 3] = a;
    any |= a;
  }
  return any !== 0;
}

export function decodeBmp(bytes: Uint8Array, limits: ImageLimits): RgbaImage | undefined {
  if (!isBmp(bytes)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pixelOffset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  let width: number;
  let rawHeight: number;
  let bitCount: number;
  let compression = BI_RGB;
  let coloursUsed = 0;
  let paletteEntrySize = 4;
  if (headerSize === 12) {
    width = view.getUint16(18, true);
    rawHeight = view.getInt16(20, true);
    bitCount = view.getUint16(24, true);
    paletteEntrySize = 3;
  } else if ([40, 52, 56, 64, 108, 124].includes(headerSize)) {
    if (bytes.length < 14 + 40) return undefined;
    width = view.getInt32(18, true);
    rawHeight = view.getInt32(22, true);
    bitCount = view.getUint16(28, true);
    compression = view.getUint32(30, true);
    coloursUsed = view.getUint32(46, true);
    if (headerSize === 64 && compression > BI_RLE4) return undefined; // OS/2: 3 = Huffman 1D, 4 = RLE24
  } else {
    return undefined;
  }
  const topDown = rawHeight < 0;
  const height = Math.abs(rawHeight);
  if (!sizeAcceptable(width, height, limits)) return undefined;
  if (![1, 4, 8, 16, 24, 32].includes(bitCount)) return undefined;
  const rle = compression === BI_RLE8 || compression === BI_RLE4;
  if (rle && (topDown || bitCount !== (compression === BI_RLE8 ? 8 : 4))) return undefined;
  const bitfields = compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS;
  if (!rle && !bitfields && compression !== BI_RGB) return undefined; // BI_JPEG, BI_PNG, CMYK…
  if (bitfields && bitCount !== 16 && bitCount !== 32) return undefined;

  // Colour masks.
  let red = channel(0);
  let green = channel(0);
  let blue = channel(0);
  let alpha = channel(0);
  let masksEnd = 14 + headerSize;
  if (bitfields) {
    const inHeader = headerSize >= 52;
    const at = inHeader ? 14 + 40 : 14 + headerSize;
    const count = compression === BI_ALPHABITFIELDS || headerSize >= 56 ? 4 : 3;
    if (at + 4 * count > bytes.length) return undefined;
    red = channel(view.getUint32(at, true));
    green = channel(view.getUint32(at + 4, true));
    blue = channel(view.getUint32(at + 8, true));
    if (count === 4) alpha = channel(view.getUint32(at + 12, true));
    if (!inHeader) masksEnd = at + 4 * count;
  } else if (bitCount === 16) {
    red = channel(0x7c00);
    green = channel(0x03e0);
    blue = channel(0x001f);
  }

  // Palette (1/4/8-bit): coloursUsed entries, or 2^bitCount when 0.
  let palette: Uint8Array | undefined;
  if (bitCount <= 8) {
    const entries = Math.min(coloursUsed || 1 << bitCount, 1 << bitCount);
    const end = Math.min(masksEnd + entries * paletteEntrySize, pixelOffset || bytes.length, bytes.length);
    const available = Math.floor((end - masksEnd) / paletteEntrySize);
    if (available < 1) return undefined;
    palette = new Uint8Array(256 * 3); // indices past the table read as black
    for (let i = 0; i < available; i++) {
      const p = masksEnd + i * paletteEntrySize;
      palette[3 * i] = bytes[p + 2] as number;
      palette[3 * i + 1] = bytes[p + 1] as number;
      palette[3 * i + 2] = bytes[p] as number;
    }
  }
  if (pixelOffset >= bytes.length) return undefined;
  const data = new Uint8Array(width * height * 4);
  const words = LITTLE_ENDIAN ? new Uint32Array(data.buffer) : undefined;
  const rowOf = (y: number): number => (topDown ? y : height - 1 - y);

  if (rle) {
    if (!palette) return undefined;
    decodeRle(bytes.subarray(pixelOffset), compression === BI_RLE4, width, height, palette, data);
    return { width, height, data };
  }

  // Each row is padded to a multiple of 4 bytes. Accept a file that lacks the last row's padding.
  const stride = Math.floor((bitCount * width + 31) / 32) * 4;
  const lastRow = Math.ceil((bitCount * width) / 8);
  if (pixelOffset + stride * (height - 1) + lastRow > bytes.length) return undefined;
  let anyAlpha = false;
  for (let y = 0; y < height; y++) {
    const src = pixelOffset + y * stride;
    const o = rowOf(y) * width * 4;
    // One loop per pixel layout: the layout is the same for every pixel, and deciding it once per
    // row instead of once per pixel was most of the decoder's time on large 24-bit DIBs.
    if (palette) paletteRow(bytes, src, bitCount, width, palette, data, o);
    else if (bitCount === 24) bgrRow(bytes, src, width, data, o, words);
    else if (bitCount === 32 && !bitfields) anyAlpha = bgraRow(bytes, src, width, data, o) || anyAlpha;
    else {
      for (let x = 0, p = o; x < width; x++, p += 4) {
        const value = bitCount === 16 ? view.getUint16(src + 2 * x, true) : view.getUint32(src + 4 * x, true);
        data[p] = field(value, red, 0);
        data[p + 1] = field(value, green, 0);
        data[p + 2] = field(value, blue, 0);
        data[p + 3] = field(value, alpha, 255);
      }
    }
  }
  if (bitCount === 32 && !bitfields && !anyAlpha) {
    for (let i = 3; i < data.length; i += 4) data[i] = 255;
  }
  return { width, height, data };
}

/**
 * BI_RLE8 / BI_RLE4: pairs (count, index) or escapes (0, 0 end of line; 0, 1 end of bitmap; 0, 2
 * dx dy delta; 0, n absolute run of n indices padded to 16 bits). Rows are bottom-up; pixels the
 * stream skips stay transparent. Every write is inside the image, and the loop consumes at least
 * one input byte per step, so a hostile stream ends with the input.
 */
function decodeRle(
  src: Uint8Array,
  fourBit: boolean,
  width: number,
  height: number,
  palette: Uint8Array,
  out: Uint8Array,
): void {
  let x = 0;
  let y = 0; // counted from the bottom row
  let at = 0;
  const put = (index: number): void => {
    if (x < width && y < height) {
      const o = ((height - 1 - y) * width + x) * 4;
      out[o] = palette[3 * index] as number;
      out[o + 1] = palette[3 * index + 1] as number;
      out[o + 2] = palette[3 * index + 2] as number;
      out[o + 3] = 255;
    }
    x++;
  };
  while (at + 1 < src.length && y < height) {
    const count = src[at] as number;
    const value = src[at + 1] as number;
    at += 2;
    if (count > 0) {
      const n = Math.min(count, Math.max(0, width - x));
      for (let i = 0; i < n; i++) put(fourBit ? (i & 1 ? value & 15 : value >> 4) : value);
      x += count - n;
      continue;
    }
    if (value === 0) {
      x = 0;
      y++;
    } else if (value === 1) {
      return;
    } else if (value === 2) {
      if (at + 1 >= src.length) return;
      x += src[at] as number;
      y += src[at + 1] as number;
      at += 2;
    } else {
      const bytesUsed = fourBit ? Math.ceil(value / 2) : value;
      if (at + bytesUsed > src.length) return;
      const n = Math.min(value, Math.max(0, width - x));
      for (let i = 0; i < n; i++) {
        const b = src[at + (fourBit ? i >> 1 : i)] as number;
        put(fourBit ? (i & 1 ? b & 15 : b >> 4) : b);
      }
      x += value - n;
      at += bytesUsed + (bytesUsed & 1);
    }
  }
}
