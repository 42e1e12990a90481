/**
 * Raw DEFLATE (RFC 1951) tuned for the writer's parts. WordprocessingML repeats long runs of
 * markup, so a greedy matcher with one hash probe finds most of what a chained search would, and
 * not hashing the bytes a match covers is what makes it fast (hashing them too, as zlib does,
 * came out both slower and slightly bigger on the corpus with a single probe). fflate's deflate,
 * even at level 1, hashes and chains every input byte and was about half of writeDocx's time.
 *
 * Each block is written with its own Huffman codes (§3.2.7), or stored (§3.2.4) when that is
 * smaller, so the output is never much bigger than the input.
 */
import { type BitWriter, bitWriter, flushBits, writeBits } from './deflate-bits';
import { canonicalCodes, codeLengths } from './huffman-codes';

/** Symbols per block before its codes are written: a bound on how stale the codes get. */
const BLOCK_SYMBOLS = 1 << 15;
/** Hash table size at most (positions of the last 4-byte sequence with each hash). */
const HASH_BITS = 14;
const WINDOW = 32768;
const MIN_MATCH = 4;
const MAX_MATCH = 258;

export function deflateRaw(data: Uint8Array): Uint8Array {
  const out = bitWriter(data.length + 5 * Math.ceil(data.length / 65535 + 1) + 64);
  // A symbol: a literal byte (< 256), or a match as 256 + (length << 16 | distance).
  // Most parts are small (relationships, settings, properties): tables sized to the input.
  const symbols = new Int32Array(Math.min(BLOCK_SYMBOLS, data.length) + 1);
  const hashBits = Math.max(8, Math.min(HASH_BITS, 32 - Math.clz32(data.length)));
  const head = new Int32Array(1 << hashBits).fill(-WINDOW - 1);
  const end = data.length;
  let count = 0;
  let blockStart = 0;
  let i = 0;
  // Four bytes at a time (little-endian, any alignment): hashing and comparing in one read each.
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const lastWord = end - 4;
  while (i < end) {
    let length = 0;
    let distance = 0;
    if (i <= lastWord) {
      const word = view.getInt32(i, true);
      const h = Math.imul(word, 0x9e3779b1) >>> (32 - hashBits);
      const candidate = head[h] as number;
      head[h] = i;
      distance = i - candidate;
      if (distance <= WINDOW && view.getInt32(candidate, true) === word) {
        const limit = Math.min(MAX_MATCH, end - i);
        length = MIN_MATCH;
        while (length + 4 <= limit && view.getInt32(candidate + length, true) === view.getInt32(i + length, true)) {
          length += 4;
        }
        while (length < limit && data[candidate + length] === data[i + length]) length++;
      }
    }
    if (length >= MIN_MATCH) {
      symbols[count++] = 256 + ((length << 16) | distance);
      i += length;
    } else {
      symbols[count++] = data[i] as number;
      i++;
    }
    if (count >= BLOCK_SYMBOLS && i < end) {
      writeBlock(out, data, symbols, count, blockStart, i, false);
      count = 0;
      blockStart = i;
    }
  }
  writeBlock(out, data, symbols, count, blockStart, end, true);
  return flushBits(out);
}

// Length and distance symbols with their extra bits (RFC 1951 §3.2.5), as look-up tables.
const LENGTH_BASE = [
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];

/** The length code index (0..28) of each match length 0..258. */
const LENGTH_CODE = (() => {
  const table = new Uint8Array(MAX_MATCH + 1);
  for (let code = 0; code < 29; code++) {
    const last = code === 28 ? MAX_MATCH : (LENGTH_BASE[code + 1] as number) - 1;
    for (let length = LENGTH_BASE[code] as number; length <= last; length++) table[length] = code;
  }
  table[MAX_MATCH] = 28;
  return table;
})();

function distanceCode(distance: number): number {
  let code = 0;
  while (code < 29 && (DISTANCE_BASE[code + 1] as number) <= distance) code++;
  return code;
}

/** The distance code of distances 1..512 directly, and of larger ones by (distance - 1) >> 7. */
const DISTANCE_CODE_SMALL = (() => {
  const table = new Uint8Array(513);
  for (let d = 1; d <= 512; d++) table[d] = distanceCode(d);
  return table;
})();
const DISTANCE_CODE_LARGE = (() => {
  const table = new Uint8Array(256);
  for (let k = 0; k < 256; k++) table[k] = distanceCode((k << 7) + 1);
  return table;
})();

function distanceCodeOf(distance: number): number {
  return distance <= 512
    ? (DISTANCE_CODE_SMALL[distance] as number)
    : (DISTANCE_CODE_LARGE[(distance - 1) >> 7] as number);
}

/** Order the code length code lengths are written in (§3.2.7). */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

function writeBlock(
  out: BitWriter,
  data: Uint8Array,
  symbols: Int32Array,
  count: number,
  start: number,
  end: number,
  final: boolean,
): void {
  const litFreq = new Int32Array(286);
  const distFreq = new Int32Array(30);
  for (let k = 0; k < count; k++) {
    const symbol = symbols[k] as number;
    if (symbol < 256) litFreq[symbol] = (litFreq[symbol] as number) + 1;
    else {
      const match = symbol - 256;
      const lengthSymbol = 257 + (LENGTH_CODE[match >>> 16] as number);
      litFreq[lengthSymbol] = (litFreq[lengthSymbol] as number) + 1;
      const dc = distanceCodeOf(match & 0xffff);
      distFreq[dc] = (distFreq[dc] as number) + 1;
    }
  }
  litFreq[256] = 1;
  const litLengths = codeLengths(litFreq, 15);
  const distLengths = codeLengths(distFreq, 15);

  let litCount = 286;
  while (litCount > 257 && litLengths[litCount - 1] === 0) litCount--;
  let distCount = 30;
  while (distCount > 1 && distLengths[distCount - 1] === 0) distCount--;

  // The code lengths, run-length coded with 16 (repeat previous), 17 and 18 (runs of zeros).
  const all = new Uint8Array(litCount + distCount);
  all.set(litLengths.subarray(0, litCount));
  all.set(distLengths.subarray(0, distCount), litCount);
  const rle: number[] = [];
  const clFreq = new Int32Array(19);
  for (let k = 0; k < all.length; ) {
    const value = all[k] as number;
    let run = 1;
    while (k + run < all.length && all[k + run] === value) run++;
    k += run;
    if (value === 0) {
      while (run >= 11) {
        const n = Math.min(run, 138);
        rle.push(18, n - 11);
        clFreq[18] = (clFreq[18] as number) + 1;
        run -= n;
      }
      if (run >= 3) {
        rle.push(17, run - 3);
        clFreq[17] = (clFreq[17] as number) + 1;
        run = 0;
      }
    } else {
      rle.push(value, -1);
      clFreq[value] = (clFreq[value] as number) + 1;
      run--;
      while (run >= 3) {
        const n = Math.min(run, 6);
        rle.push(16, n - 3);
        clFreq[16] = (clFreq[16] as number) + 1;
        run -= n;
      }
    }
    for (; run > 0; run--) {
      rle.push(value, -1);
      clFreq[value] = (clFreq[value] as number) + 1;
    }
  }
  const clLengths = codeLengths(clFreq, 7);
  let clCount = 19;
  while (clCount > 4 && clLengths[CODE_LENGTH_ORDER[clCount - 1] as number] === 0) clCount--;

  // Size in bits of this block with its own codes, against storing it.
  let bits = 3 + 5 + 5 + 4 + 3 * clCount;
  for (let k = 0; k < rle.length; k += 2) {
    const symbol = rle[k] as number;
    bits += clLengths[symbol] as number;
    if (symbol === 16) bits += 2;
    else if (symbol === 17) bits += 3;
    else if (symbol === 18) bits += 7;
  }
  for (let s = 0; s < 286; s++) bits += (litFreq[s] as number) * (litLengths[s] as number);
  for (let s = 0; s < 29; s++) bits += (litFreq[257 + s] as number) * (LENGTH_EXTRA[s] as number);
  for (let s = 0; s < 30; s++)
    bits += (distFreq[s] as number) * ((distLengths[s] as number) + (DISTANCE_EXTRA[s] as number));
  const storedBits = 8 * (end - start + 5 * Math.max(1, Math.ceil((end - start) / 65535))) + 7;
  if (storedBits <= bits) {
    writeStored(out, data, start, end, final);
    return;
  }

  const litCodes = canonicalCodes(litLengths);
  const distCodes = canonicalCodes(distLengths);
  const clCodes = canonicalCodes(clLengths);
  writeBits(out, final ? 1 : 0, 1);
  writeBits(out, 2, 2);
  writeBits(out, litCount - 257, 5);
  writeBits(out, distCount - 1, 5);
  writeBits(out, clCount - 4, 4);
  for (let k = 0; k < clCount; k++) writeBits(out, clLengths[CODE_LENGTH_ORDER[k] as number] as number, 3);
  for (let k = 0; k < rle.length; k += 2) {
    const symbol = rle[k] as number;
    writeBits(out, clCodes[symbol] as number, clLengths[symbol] as number);
    if (symbol === 16) writeBits(out, rle[k + 1] as number, 2);
    else if (symbol === 17) writeBits(out, rle[k + 1] as number, 3);
    else if (symbol === 18) writeBits(out, rle[k + 1] as number, 7);
  }
  // The symbols, with the writer's state in locals: this loop is most of the encoding time.
  const bytes = out.bytes;
  let position = out.position;
  let buffer = out.buffer;
  let filled = out.count;
  for (let k = 0; k < count; k++) {
    const symbol = symbols[k] as number;
    if (symbol < 256) {
      buffer |= (litCodes[symbol] as number) << filled;
      filled += litLengths[symbol] as number;
    } else {
      const match = symbol - 256;
      const length = match >>> 16;
      const distance = match & 0xffff;
      const lc = LENGTH_CODE[length] as number;
      buffer |= (litCodes[257 + lc] as number) << filled;
      filled += litLengths[257 + lc] as number;
      const lx = LENGTH_EXTRA[lc] as number;
      buffer |= (length - (LENGTH_BASE[lc] as number)) << filled;
      filled += lx;
      // At most 7 + 15 + 5 bits so far; flushed before each distance part (up to 15 and 13 bits).
      while (filled >= 8) {
        bytes[position++] = buffer & 0xff;
        buffer >>>= 8;
        filled -= 8;
      }
      const dc = distanceCodeOf(distance);
      buffer |= (distCodes[dc] as number) << filled;
      filled += distLengths[dc] as number;
      while (filled >= 8) {
        bytes[position++] = buffer & 0xff;
        buffer >>>= 8;
        filled -= 8;
      }
      buffer |= (distance - (DISTANCE_BASE[dc] as number)) << filled;
      filled += DISTANCE_EXTRA[dc] as number;
    }
    while (filled >= 8) {
      bytes[position++] = buffer & 0xff;
      buffer >>>= 8;
      filled -= 8;
    }
  }
  out.position = position;
  out.buffer = buffer;
  out.count = filled;
  writeBits(out, litCodes[256] as number, litLengths[256] as number);
}

/** Stored blocks (§3.2.4) of at most 65535 bytes each; the last is final when `final`. */
function writeStored(out: BitWriter, data: Uint8Array, start: number, end: number, final: boolean): void {
  let position = start;
  do {
    const size = Math.min(65535, end - position);
    const last = position + size >= end;
    writeBits(out, final && last ? 1 : 0, 1);
    writeBits(out, 0, 2);
    const bytes = out.bytes;
    // Byte-align, then LEN and its complement, then the bytes themselves.
    flushToByte(out);
    bytes[out.position++] = size & 0xff;
    bytes[out.position++] = size >>> 8;
    bytes[out.position++] = ~size & 0xff;
    bytes[out.position++] = (~size >>> 8) & 0xff;
    bytes.set(data.subarray(position, position + size), out.position);
    out.position += size;
    position += size;
  } while (position < end);
}

function flushToByte(out: BitWriter): void {
  if (out.count > 0) {
    out.bytes[out.position++] = out.buffer & 0xff;
    out.buffer = 0;
    out.count = 0;
  }
}
