/**
 * What pdf-lib's stream filters would make of a stream, measured before pdf-lib runs them.
 *
 * pdf-lib decodes every object stream and cross-reference stream it meets while it parses a file
 * (ISO 32000-1 §7.5.7, §7.5.8), whole and into one growing buffer, with whatever /Filter chain the
 * stream names: 1 MB of deflate becomes 1 GiB, and a megabyte of empty deflate blocks that each
 * declare a 15-bit Huffman code keeps it building tables for seconds without producing a byte.
 * Here each filter is run as pdf-lib runs it (node_modules/pdf-lib/cjs/core/streams/: the same
 * block structure, the same leniency about damaged data, the same points where it gives up), but
 * the output is only counted, charged to the request's account, and decoding stops as soon as the
 * account is overdrawn. Only a stage whose output feeds another filter is kept (and it is within
 * the account). Exactness matters: a looser model (fflate's inflater, a ratio) can be told apart
 * from pdf-lib's by a hostile file, which then decodes in pdf-lib what was counted as small here.
 *
 * The filters are those pdf-lib's decodePDFRawStream knows: FlateDecode (§7.4.4; pdf-lib applies
 * no /Predictor, so neither does this), LZWDecode (§7.4.4, /EarlyChange), ASCII85Decode (§7.4.3),
 * ASCIIHexDecode (§7.4.2) and RunLengthDecode (§7.4.5). A name it does not know makes pdf-lib
 * throw before decoding anything.
 */

/** What the pre-scan may still spend: decoded bytes, and Huffman-table entries built to get them. */
export interface DecodeAccount {
  bytesLeft: number;
  tableEntriesLeft: number;
}

/** The account is overdrawn: `what` says which part. */
export class DecodeBudgetExceeded extends Error {
  readonly what: 'bytes' | 'tables';
  constructor(what: 'bytes' | 'tables') {
    super(`decode budget exceeded (${what})`);
    this.what = what;
  }
}

export type FilterName = 'FlateDecode' | 'LZWDecode' | 'ASCII85Decode' | 'ASCIIHexDecode' | 'RunLengthDecode';

export const PDF_LIB_FILTERS: readonly FilterName[] = [
  'FlateDecode',
  'LZWDecode',
  'ASCII85Decode',
  'ASCIIHexDecode',
  'RunLengthDecode',
];

/** One filter of a chain; `earlyChange` is LZW's /EarlyChange (pdf-lib's default 1). */
export interface FilterStage {
  filter: FilterName;
  earlyChange: number;
}

/**
 * Runs `stages` over `data` as pdf-lib would, charging every stage's output to `account`. Returns
 * the bytes all stages produced together (`decoded`) and the length of what comes out of the last
 * (`output`, the data itself when there is no filter): what pdf-lib then parses. Throws
 * DecodeBudgetExceeded when the account runs out (or when a filter would never stop, as pdf-lib
 * would not). A stage that fails the way pdf-lib fails ends the chain: what it produced until then
 * is counted, and a later stage reads that much as if it were the whole input (pdf-lib would read
 * the same bytes, then fail).
 */
export function chargeDecode(
  data: Uint8Array,
  stages: readonly FilterStage[],
  account: DecodeAccount,
): { decoded: number; output: number } {
  let input = data;
  let decoded = 0;
  for (let i = 0; i < stages.length; i++) {
    const stage = stages[i] as FilterStage;
    const out = new Output(i < stages.length - 1, account);
    let failed = false;
    try {
      runFilter(stage, new Input(input), out);
    } catch (error) {
      if (error instanceof DecodeBudgetExceeded) throw error;
      // pdf-lib's decoder throws here too: its chain ends with what was produced so far.
      failed = true;
    }
    decoded += out.length;
    if (i === stages.length - 1 || (failed && out.length === 0)) return { decoded, output: out.length };
    input = out.bytes();
  }
  return { decoded, output: data.length };
}

function runFilter(stage: FilterStage, input: Input, out: Output): void {
  switch (stage.filter) {
    case 'FlateDecode':
      inflate(input, out);
      return;
    case 'LZWDecode':
      lzw(input, out, stage.earlyChange);
      return;
    case 'ASCII85Decode':
      ascii85(input, out);
      return;
    case 'ASCIIHexDecode':
      asciiHex(input, out);
      return;
    case 'RunLengthDecode':
      runLength(input, out);
      return;
  }
}

/** pdf-lib's Stream over the stage's input: getByte() is -1 past the end. */
class Input {
  readonly data: Uint8Array;
  pos = 0;
  constructor(data: Uint8Array) {
    this.data = data;
  }
  getByte(): number {
    return this.pos < this.data.length ? (this.data[this.pos++] as number) : -1;
  }
  getBytes(length: number): Uint8Array {
    const end = Math.min(this.pos + length, this.data.length);
    const bytes = this.data.subarray(this.pos, end);
    this.pos = end;
    return bytes;
  }
  peekByte(): number {
    return this.pos < this.data.length ? (this.data[this.pos] as number) : -1;
  }
}

/**
 * A stage's output: counted against the account, and kept only when another stage reads it.
 * Positions past what was written read as 0, as pdf-lib's zero-filled buffer does.
 */
class Output {
  length = 0;
  private buffer: Uint8Array;
  private readonly keep: boolean;
  private readonly account: DecodeAccount;

  constructor(keep: boolean, account: DecodeAccount) {
    this.keep = keep;
    this.account = account;
    this.buffer = new Uint8Array(keep ? 4096 : 0);
  }

  /**
   * Counts `n` more bytes; returns the position they start at. Bytes kept for the next stage are
   * charged twice, decoded and held, so what the scan itself holds stays within half the budget.
   */
  private grow(n: number): number {
    this.account.bytesLeft -= this.keep ? 2 * n : n;
    if (this.account.bytesLeft < 0) throw new DecodeBudgetExceeded('bytes');
    const at = this.length;
    this.length += n;
    if (this.keep && this.length > this.buffer.length) {
      let size = this.buffer.length * 2;
      while (size < this.length) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.buffer.subarray(0, at));
      this.buffer = next;
    }
    return at;
  }

  /** A Huffman table of `entries` about to be built. */
  chargeTable(entries: number): void {
    this.account.tableEntriesLeft -= entries;
    if (this.account.tableEntriesLeft < 0) throw new DecodeBudgetExceeded('tables');
  }

  byte(value: number): void {
    const at = this.grow(1);
    if (this.keep) this.buffer[at] = value;
  }

  /** `n` bytes from `source` (fewer when it is shorter: the rest stay 0). */
  bytesFrom(source: Uint8Array, n: number): void {
    const at = this.grow(n);
    if (this.keep) this.buffer.set(source.subarray(0, Math.min(n, source.length)), at);
  }

  /** `n` copies of `value`. */
  run(value: number, n: number): void {
    const at = this.grow(n);
    if (this.keep) this.buffer.fill(value, at, at + n);
  }

  /** An LZ77 match: `n` bytes copied from `distance` back (before the start reads 0, as in pdf-lib). */
  copy(distance: number, n: number): void {
    const at = this.grow(n);
    if (!this.keep) return;
    const buffer = this.buffer;
    for (let k = 0; k < n; k++) {
      const from = at + k - distance;
      buffer[at + k] = from >= 0 ? (buffer[from] as number) : 0;
    }
  }

  /** A sequence held in `source[0..n)`; indexes past its end read 0 (pdf-lib's LZW). */
  sequence(source: Uint8Array, n: number): void {
    const at = this.grow(n);
    if (!this.keep) return;
    for (let j = 0; j < n; j++) this.buffer[at + j] = j < source.length ? (source[j] as number) : 0;
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

// ---------------------------------------------------------------------------------------------
// FlateDecode: pdf-lib's FlateStream (pdf.js, after xpdf), RFC 1950 header and RFC 1951 blocks.

const CODE_LENGTH_ORDER = new Int32Array([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);
/** Length codes 257–285 (RFC 1951 §3.2.5): extra bits << 16 | base length. */
const LENGTH_DECODE = new Int32Array([
  0x00003, 0x00004, 0x00005, 0x00006, 0x00007, 0x00008, 0x00009, 0x0000a, 0x1000b, 0x1000d, 0x1000f, 0x10011, 0x20013,
  0x20017, 0x2001b, 0x2001f, 0x30023, 0x3002b, 0x30033, 0x3003b, 0x40043, 0x40053, 0x40063, 0x40073, 0x50083, 0x500a3,
  0x500c3, 0x500e3, 0x00102, 0x00102, 0x00102,
]);
/** Distance codes 0–29: extra bits << 16 | base distance. */
const DIST_DECODE = new Int32Array([
  0x00001, 0x00002, 0x00003, 0x00004, 0x10005, 0x10007, 0x20009, 0x2000d, 0x30011, 0x30019, 0x40021, 0x40031, 0x50041,
  0x50061, 0x60081, 0x600c1, 0x70101, 0x70181, 0x80201, 0x80301, 0x90401, 0x90601, 0xa0801, 0xa0c01, 0xb1001, 0xb1801,
  0xc2001, 0xc3001, 0xd4001, 0xd6001,
]);

type HuffmanTable = { codes: Int32Array; maxLen: number };

/** The fixed codes of RFC 1951 §3.2.6, built the way the dynamic ones are. */
const FIXED_TABLES = (() => {
  const lit = new Uint8Array(288);
  lit.fill(8, 0, 144);
  lit.fill(9, 144, 256);
  lit.fill(7, 256, 280);
  lit.fill(8, 280, 288);
  // pdf-lib's fixed distance table has no entry for the two unused codes 30 and 31 (it fails on them).
  const dist = new Uint8Array(30).fill(5);
  return { lit: huffmanTable(lit), dist: huffmanTable(dist) };
})();

/**
 * pdf-lib's generateHuffmanTable: entries (length << 16 | symbol) indexed by the bit-reversed code;
 * codes are not checked for completeness, and an over-full code overwrites earlier entries.
 */
function huffmanTable(lengths: Uint8Array): HuffmanTable {
  const n = lengths.length;
  let maxLen = 0;
  for (let i = 0; i < n; ++i) if ((lengths[i] as number) > maxLen) maxLen = lengths[i] as number;
  const size = 1 << maxLen;
  const codes = new Int32Array(size);
  for (let len = 1, code = 0, skip = 2; len <= maxLen; ++len, code <<= 1, skip <<= 1) {
    for (let val = 0; val < n; ++val) {
      if (lengths[val] !== len) continue;
      let code2 = 0;
      let t = code;
      for (let i = 0; i < len; ++i) {
        code2 = (code2 << 1) | (t & 1);
        t >>= 1;
      }
      for (let i = code2; i < size; i += skip) codes[i] = (len << 16) | val;
      ++code;
    }
  }
  return { codes, maxLen };
}

class FlateError extends Error {}

function inflate(input: Input, out: Output): void {
  const cmf = input.getByte();
  const flg = input.getByte();
  if (cmf === -1 || flg === -1) throw new FlateError('header');
  if ((cmf & 0x0f) !== 0x08) throw new FlateError('method');
  if (((cmf << 8) + flg) % 31 !== 0) throw new FlateError('FCHECK');
  if (flg & 0x20) throw new FlateError('FDICT');
  let codeBuf = 0;
  let codeSize = 0;

  const getBits = (bits: number): number => {
    while (codeSize < bits) {
      const b = input.getByte();
      if (b === -1) throw new FlateError('Bad encoding');
      codeBuf |= b << codeSize;
      codeSize += 8;
    }
    const value = codeBuf & ((1 << bits) - 1);
    codeBuf >>= bits;
    codeSize -= bits;
    return value;
  };
  const getCode = (table: HuffmanTable): number => {
    while (codeSize < table.maxLen) {
      const b = input.getByte();
      // A premature end: the code may still be whole in what is held.
      if (b === -1) break;
      codeBuf |= b << codeSize;
      codeSize += 8;
    }
    const code = table.codes[codeBuf & ((1 << table.maxLen) - 1)] as number;
    const codeLen = code >> 16;
    if (codeLen < 1 || codeSize < codeLen) throw new FlateError('Bad encoding');
    codeBuf >>= codeLen;
    codeSize -= codeLen;
    return code & 0xffff;
  };
  const table = (lengths: Uint8Array): HuffmanTable => {
    let maxLen = 0;
    for (const length of lengths) if (length > maxLen) maxLen = length;
    // Charged before it is built: a table costs pdf-lib its size whatever the block holds.
    out.chargeTable(1 << maxLen);
    return huffmanTable(lengths);
  };

  let eof = false;
  while (!eof) {
    let hdr = getBits(3);
    if (hdr & 1) eof = true;
    hdr >>= 1;
    if (hdr === 0) {
      // A stored block (§3.2.4): LEN, NLEN, then LEN bytes; pdf-lib counts LEN even when the data
      // runs out, and lets a zero LEN with a zero NLEN through.
      const b0 = input.getByte();
      const b1 = input.getByte();
      const b2 = input.getByte();
      const b3 = input.getByte();
      if (b0 === -1 || b1 === -1 || b2 === -1 || b3 === -1) throw new FlateError('Bad block header');
      const blockLen = b0 | (b1 << 8);
      const check = b2 | (b3 << 8);
      if (check !== (~blockLen & 0xffff) && (blockLen !== 0 || check !== 0))
        throw new FlateError('Bad uncompressed block length');
      codeBuf = 0;
      codeSize = 0;
      if (blockLen === 0) {
        if (input.peekByte() === -1) eof = true;
      } else {
        const available = input.data.length - input.pos;
        out.bytesFrom(input.getBytes(blockLen), blockLen);
        if (available < blockLen) eof = true;
      }
      continue;
    }
    let lit: HuffmanTable;
    let dist: HuffmanTable;
    if (hdr === 1) {
      lit = FIXED_TABLES.lit;
      dist = FIXED_TABLES.dist;
    } else if (hdr === 2) {
      const numLitCodes = getBits(5) + 257;
      const numDistCodes = getBits(5) + 1;
      const numCodeLenCodes = getBits(4) + 4;
      const codeLenCodeLengths = new Uint8Array(CODE_LENGTH_ORDER.length);
      for (let i = 0; i < numCodeLenCodes; ++i) codeLenCodeLengths[CODE_LENGTH_ORDER[i] as number] = getBits(3);
      const codeLenTable = table(codeLenCodeLengths);
      const codes = numLitCodes + numDistCodes;
      const codeLengths = new Uint8Array(codes);
      let len = 0;
      let i = 0;
      while (i < codes) {
        const code = getCode(codeLenTable);
        let bitsLength: number;
        let bitsOffset: number;
        let what: number;
        if (code === 16) {
          bitsLength = 2;
          bitsOffset = 3;
          what = len;
        } else if (code === 17) {
          bitsLength = 3;
          bitsOffset = 3;
          what = len = 0;
        } else if (code === 18) {
          bitsLength = 7;
          bitsOffset = 11;
          what = len = 0;
        } else {
          codeLengths[i++] = len = code;
          continue;
        }
        let repeat = getBits(bitsLength) + bitsOffset;
        while (repeat-- > 0) codeLengths[i++] = what;
      }
      lit = table(codeLengths.subarray(0, numLitCodes));
      dist = table(codeLengths.subarray(numLitCodes, codes));
    } else {
      throw new FlateError('Unknown block type');
    }
    for (;;) {
      let code1 = getCode(lit);
      if (code1 < 256) {
        out.byte(code1);
        continue;
      }
      if (code1 === 256) break;
      code1 = LENGTH_DECODE[code1 - 257] as number;
      let code2 = code1 >> 16;
      if (code2 > 0) code2 = getBits(code2);
      const length = (code1 & 0xffff) + code2;
      // Distance symbols 30 and 31 have no entry: pdf-lib reads undefined there, a distance of 0.
      code1 = DIST_DECODE[getCode(dist)] as number;
      code2 = code1 >> 16;
      if (code2 > 0) code2 = getBits(code2);
      const distance = (code1 & 0xffff) + code2;
      out.copy(distance, length);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// LZWDecode: pdf-lib's LZWStream (pdf.js), 512 codes a block, with its handling of codes it has
// not defined yet (the sequence grows by its first byte) and of the end of the data (the rest of
// the block reads as code 0).

const LZW_BLOCK = 512;
/** A run of steps that neither read input nor write output: pdf-lib would never stop. */
const MAX_IDLE_STEPS = 1 << 16;

function lzw(input: Input, out: Output, earlyChange: number): void {
  const maxDictionary = 4096;
  const dictionaryValues = new Uint8Array(maxDictionary);
  const dictionaryLengths = new Uint16Array(maxDictionary);
  const dictionaryPrevCodes = new Uint16Array(maxDictionary);
  const currentSequence = new Uint8Array(maxDictionary);
  for (let i = 0; i < 256; ++i) {
    dictionaryValues[i] = i;
    dictionaryLengths[i] = 1;
  }
  let codeLength = 9;
  let nextCode = 258;
  let prevCode: number | null | undefined;
  let currentSequenceLength = 0;
  let cachedData = 0;
  let bitsCached = 0;
  let eof = false;
  let idle = 0;
  const readBits = (n: number): number | null => {
    while (bitsCached < n) {
      const c = input.getByte();
      if (c === -1) {
        eof = true;
        return null;
      }
      cachedData = (cachedData << 8) | c;
      bitsCached += 8;
    }
    bitsCached -= n;
    return (cachedData >>> bitsCached) & ((1 << n) - 1);
  };
  const lengthOf = (code: number | null | undefined): number =>
    code === null || code === undefined ? Number.NaN : (dictionaryLengths[code] ?? Number.NaN);

  while (!eof) {
    for (let i = 0; i < LZW_BLOCK; i++) {
      const before = input.pos;
      const code = readBits(codeLength);
      const hasPrev = currentSequenceLength > 0;
      if (!code || code < 256) {
        currentSequence[0] = code ?? 0;
        currentSequenceLength = 1;
      } else if (code >= 258) {
        if (code < nextCode) {
          // A code past the dictionary (only after an odd /EarlyChange) has no length: pdf-lib's
          // undefined, which writes nothing and makes the next code start afresh.
          currentSequenceLength = dictionaryLengths[code] ?? Number.NaN;
          for (let j = currentSequenceLength - 1, q = code; j >= 0; j--) {
            currentSequence[j] = dictionaryValues[q] ?? 0;
            q = dictionaryPrevCodes[q] ?? 0;
          }
        } else {
          currentSequence[currentSequenceLength++] = currentSequence[0] as number;
        }
      } else if (code === 256) {
        codeLength = 9;
        nextCode = 258;
        currentSequenceLength = 0;
        continue;
      } else {
        eof = true;
        break;
      }
      if (hasPrev) {
        dictionaryPrevCodes[nextCode] = prevCode ?? 0;
        dictionaryLengths[nextCode] = lengthOf(prevCode) + 1;
        dictionaryValues[nextCode] = currentSequence[0] as number;
        nextCode++;
        codeLength =
          (nextCode + earlyChange) & (nextCode + earlyChange - 1)
            ? codeLength
            : Math.min(Math.log(nextCode + earlyChange) / Math.LN2 + 1, 12) | 0;
      }
      prevCode = code;
      if (currentSequenceLength > 0) out.sequence(currentSequence, currentSequenceLength);
      idle = input.pos === before && !(currentSequenceLength > 0) ? idle + 1 : 0;
      if (idle > MAX_IDLE_STEPS) throw new DecodeBudgetExceeded('bytes');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// ASCII85Decode, ASCIIHexDecode, RunLengthDecode: pdf-lib's streams of those names (pdf.js).

function isAscii85Space(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function ascii85(input: Input, out: Output): void {
  const group = new Uint8Array(5);
  const word = new Uint8Array(4);
  for (;;) {
    let c = input.getByte();
    while (isAscii85Space(c)) c = input.getByte();
    if (c === -1 || c === 0x7e) return;
    if (c === 0x7a) {
      out.run(0, 4);
      continue;
    }
    group[0] = c;
    let i: number;
    for (i = 1; i < 5; ++i) {
      c = input.getByte();
      while (isAscii85Space(c)) c = input.getByte();
      group[i] = c;
      if (c === -1 || c === 0x7e) break;
    }
    const partial = i < 5;
    const produced = i - 1;
    for (; i < 5; ++i) group[i] = 0x21 + 84;
    let t = 0;
    for (i = 0; i < 5; ++i) t = t * 85 + ((group[i] as number) - 0x21);
    for (i = 3; i >= 0; --i) {
      word[i] = t & 0xff;
      t >>= 8;
    }
    out.bytesFrom(word, produced);
    if (partial) return;
  }
}

function asciiHex(input: Input, out: Output): void {
  let firstDigit = -1;
  for (;;) {
    const bytes = input.getBytes(8000);
    if (bytes.length === 0) return;
    for (const ch of bytes) {
      let digit: number;
      if (ch >= 0x30 && ch <= 0x39) digit = ch & 0x0f;
      else if ((ch >= 0x41 && ch <= 0x46) || (ch >= 0x61 && ch <= 0x66)) digit = (ch & 0x0f) + 9;
      else if (ch === 0x3e) {
        // '>' ends the data; a lone last digit counts as its high nibble.
        if (firstDigit >= 0) out.byte(firstDigit << 4);
        return;
      } else continue;
      if (firstDigit < 0) firstDigit = digit;
      else {
        out.byte((firstDigit << 4) | digit);
        firstDigit = -1;
      }
    }
  }
}

function runLength(input: Input, out: Output): void {
  for (;;) {
    const header = input.getBytes(2);
    if (header.length < 2 || header[0] === 128) return;
    const n = header[0] as number;
    if (n < 128) {
      out.byte(header[1] as number);
      if (n > 0) out.bytesFrom(input.getBytes(n), n);
    } else {
      out.run(header[1] as number, 257 - n);
    }
  }
}
