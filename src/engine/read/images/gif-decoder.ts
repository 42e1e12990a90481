/**
 * GIF (87a/89a) → RGBA of the first image, as a viewer that does not animate shows it: the first
 * frame on a transparent canvas of the logical screen's size, its transparent index (Graphic
 * Control Extension) as alpha 0.
 *
 * Written here rather than taken from npm: omggif, the usual small decoder, follows a code-table
 * chain without checking that codes are in range, and a crafted 6 KB file makes that chain a cycle,
 * so decodeAndBlitFrameRGBA never returns (test/images/gif.test.ts keeps that file). This LZW
 * decoder only accepts a code up to the next free table slot, so every prefix points to a smaller
 * code and each string is at most 4096 bytes; output stops at width × height indices.
 *
 * References: GIF89a specification (CompuServe, 1990): §17 header, §18 logical screen descriptor,
 * §19 global colour table, §20 image descriptor, §21 local colour table, §22 table-based image
 * data (sub-blocks), §23 graphic control extension, Appendix E interlaced images, Appendix F
 * variable-length-code LZW.
 */
import { concatBytes } from '../../../kit';
import { type ImageLimits, type RgbaImage, sizeAcceptable } from './raster';

export function isGif(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 6 &&
    bytes[0] === 0x47 &&
    bytes[1] === 0x49 &&
    bytes[2] === 0x46 &&
    bytes[3] === 0x38 &&
    (bytes[4] === 0x37 || bytes[4] === 0x39) &&
    bytes[5] === 0x61
  );
}

/** Reads a sequence of data sub-blocks (§15) starting at `at`; returns their data and the end. */
function readSubBlocks(bytes: Uint8Array, at: number, keep: boolean): { data: Uint8Array; end: number } | undefined {
  const parts: Uint8Array[] = [];
  for (;;) {
    if (at >= bytes.length) return undefined;
    const size = bytes[at] as number;
    at++;
    if (size === 0) break;
    if (at + size > bytes.length) {
      // Truncated image data: keep what is there (viewers show the rows they have).
      if (keep) parts.push(bytes.subarray(at));
      at = bytes.length;
      break;
    }
    if (keep) parts.push(bytes.subarray(at, at + size));
    at += size;
  }
  return { data: concatBytes(parts), end: at };
}

/**
 * Variable-length-code LZW (Appendix F): LSB-first codes, starting at minCodeSize + 1 bits, growing
 * to 12, with clear and end-of-information codes. Writes up to `output.length` indices and returns
 * how many were written. Stops at the first invalid code (what was decoded so far is kept).
 */
export function decodeGifLzw(data: Uint8Array, minCodeSize: number, output: Uint8Array): number {
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const prefix = new Uint16Array(4096);
  const suffix = new Uint8Array(4096);
  const stack = new Uint8Array(4097);
  for (let i = 0; i < clear; i++) suffix[i] = i;
  let codeSize = minCodeSize + 1;
  let codeMask = (1 << codeSize) - 1;
  let available = clear + 2;
  let previous = -1;
  let first = 0;
  let bits = 0;
  let bitCount = 0;
  let read = 0;
  let written = 0;
  const limit = output.length;
  while (written < limit) {
    while (bitCount < codeSize) {
      if (read >= data.length) return written;
      bits |= (data[read++] as number) << bitCount;
      bitCount += 8;
    }
    let code = bits & codeMask;
    bits >>>= codeSize;
    bitCount -= codeSize;
    if (code === clear) {
      codeSize = minCodeSize + 1;
      codeMask = (1 << codeSize) - 1;
      available = clear + 2;
      previous = -1;
      continue;
    }
    if (code === end) return written;
    if (previous === -1) {
      // First code after a clear: must be a root (single index).
      if (code >= clear) return written;
      output[written++] = code;
      previous = code;
      first = code;
      continue;
    }
    // A code may name an existing entry, or the one about to be made (KwKwK); anything above
    // is corrupt. This is what keeps every prefix chain strictly decreasing.
    if (code > available || (code === available && available >= 4096)) return written;
    const incoming = code;
    let sp = 0;
    if (code === available) {
      stack[sp++] = first;
      code = previous;
    }
    while (code > end) {
      stack[sp++] = suffix[code] as number;
      code = prefix[code] as number;
    }
    first = suffix[code] as number;
    stack[sp++] = first;
    if (available < 4096) {
      prefix[available] = previous;
      suffix[available] = first;
      available++;
      if ((available & codeMask) === 0 && available < 4096) {
        codeSize++;
        codeMask = (1 << codeSize) - 1;
      }
    }
    previous = incoming;
    while (sp > 0 && written < limit) output[written++] = stack[--sp] as number;
  }
  return written;
}

export function decodeGif(bytes: Uint8Array, limits: ImageLimits): RgbaImage | undefined {
  if (!isGif(bytes) || bytes.length < 13) return undefined;
  const u16 = (at: number): number => (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
  const screenWidth = u16(6);
  const screenHeight = u16(8);
  const screenFlags = bytes[10] as number;
  let at = 13;
  let globalPalette: Uint8Array | undefined;
  if (screenFlags & 0x80) {
    const size = 3 * (2 << (screenFlags & 7));
    if (at + size > bytes.length) return undefined;
    globalPalette = bytes.subarray(at, at + size);
    at += size;
  }
  let transparentIndex = -1;
  while (at < bytes.length) {
    const introducer = bytes[at++] as number;
    if (introducer === 0x3b) return undefined; // trailer before any image
    if (introducer === 0x21) {
      const label = bytes[at++];
      if (label === 0xf9 && bytes[at] === 4 && at + 5 < bytes.length) {
        // Graphic Control Extension (§23): packed, delay (2), transparent colour index.
        transparentIndex = (bytes[at + 1] as number) & 1 ? (bytes[at + 4] as number) : -1;
      }
      const skipped = readSubBlocks(bytes, at, false);
      if (!skipped) return undefined;
      at = skipped.end;
      continue;
    }
    if (introducer !== 0x2c || at + 9 > bytes.length) return undefined;
    // Image descriptor (§20).
    const left = u16(at);
    const top = u16(at + 2);
    const width = u16(at + 4);
    const height = u16(at + 6);
    const flags = bytes[at + 8] as number;
    at += 9;
    let palette = globalPalette;
    if (flags & 0x80) {
      const size = 3 * (2 << (flags & 7));
      if (at + size > bytes.length) return undefined;
      palette = bytes.subarray(at, at + size);
      at += size;
    }
    // No colour table at all (§19, §21: the decoder may then use its own): the 1 × 1 spacer GIFs of
    // web pages have none, only a transparent index. Browsers draw those pixels transparent and
    // the rest black; an empty palette does the same below (an index past it is opaque black).
    palette ??= new Uint8Array(0);
    // A first frame outside a (often 0×0) logical screen enlarges the canvas, as browsers do.
    const canvasWidth = Math.max(screenWidth, left + width);
    const canvasHeight = Math.max(screenHeight, top + height);
    if (!sizeAcceptable(width, height, limits) || !sizeAcceptable(canvasWidth, canvasHeight, limits)) return undefined;
    const minCodeSize = bytes[at++];
    if (minCodeSize === undefined || minCodeSize < 1 || minCodeSize > 8) return undefined;
    const blocks = readSubBlocks(bytes, at, true);
    if (!blocks) return undefined;
    // Each code is at least minCodeSize + 1 bits and stands for at most 4096 indices: a frame
    // larger than its data could ever fill is a file lying about its size.
    if (width * height > Math.floor((blocks.data.length * 8) / (minCodeSize + 1)) * 4096) return undefined;
    const indices = new Uint8Array(width * height);
    const decoded = decodeGifLzw(blocks.data, minCodeSize, indices);
    if (decoded === 0) return undefined;
    // Interlaced rows come in four passes (Appendix E): 0, 4, 2, 1 mod 8/8/4/2.
    const rows: number[] = [];
    if (flags & 0x40) {
      for (const [start, step] of [
        [0, 8],
        [4, 8],
        [2, 4],
        [1, 2],
      ] as const) {
        for (let y = start; y < height; y += step) rows.push(y);
      }
    } else {
      for (let y = 0; y < height; y++) rows.push(y);
    }
    const colours = palette.length / 3;
    const data = new Uint8Array(canvasWidth * canvasHeight * 4);
    for (let i = 0; i < decoded; i++) {
      const index = indices[i] as number;
      if (index === transparentIndex) continue;
      const row = rows[Math.floor(i / width)] as number;
      const o = ((top + row) * canvasWidth + left + (i % width)) * 4;
      if (index < colours) {
        data[o] = palette[3 * index] as number;
        data[o + 1] = palette[3 * index + 1] as number;
        data[o + 2] = palette[3 * index + 2] as number;
      }
      data[o + 3] = 255;
    }
    return { width: canvasWidth, height: canvasHeight, data };
  }
  return undefined;
}
