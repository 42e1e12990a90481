/**
 * Hostile PDFs for the signer's tests, built here: streams that decode to far more than they
 * weigh, and page trees that are not trees.
 */
import { Zlib } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { ascii, concat, text } from '../verify/verify-fixtures';

const MiB = 1024 * 1024;

/** zlib (RFC 1950) of `length` zero bytes, deflated a MiB at a time (about 1,000:1). */
export function deflateZeros(length: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const zlib = new Zlib({ level: 9 }, (chunk) => parts.push(chunk));
  const zeros = new Uint8Array(Math.min(length, MiB));
  for (let left = length; left > 0; ) {
    const n = Math.min(left, zeros.length);
    left -= n;
    zlib.push(zeros.subarray(0, n), left === 0);
  }
  return concat(...parts);
}

/** `n g obj` holding a stream of `data` under the dictionary entries `entries` (its /Length added unless given). */
export function streamObject(num: number, entries: string, data: Uint8Array): Uint8Array {
  const length = /\/Length\b/.test(entries) ? '' : ` /Length ${data.length}`;
  return concat(ascii(`${num} 0 obj\n<< ${entries}${length} >>\nstream\n`), data, ascii('\nendstream\nendobj\n'));
}

/** A one-page PDF (pdf-lib, a cross-reference table) with `objects` written in before its xref: unreferenced. */
export async function pdfWith(...objects: Uint8Array[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const pdf = await doc.save({ useObjectStreams: false });
  const source = text(pdf);
  const xrefAt = source.lastIndexOf('\nxref') + 1;
  const inserted = concat(...objects);
  const tail = source.slice(xrefAt).replace(/startxref\s+\d+/, `startxref\n${xrefAt + inserted.length}`);
  return concat(pdf.subarray(0, xrefAt), inserted, ascii(tail));
}

/** A PDF of object bodies (object i + 1 is `bodies[i]`), a cross-reference table and /Root 1 0 R. */
export function rawPdf(bodies: string[]): Uint8Array {
  let source = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(source.length);
    source += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = source.length;
  source += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) source += `${String(offset).padStart(10, '0')} 00000 n \n`;
  source += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return ascii(source);
}

/** Packs bits, least significant first (deflate, RFC 1951 §3.1.1) or most significant first (LZW). */
class Bits {
  private readonly bits: number[] = [];
  lsbFirst(value: number, n: number): void {
    for (let i = 0; i < n; i++) this.bits.push((value >> i) & 1);
  }
  msbFirst(value: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.bits.push((value >> i) & 1);
  }
  bytes(lsb: boolean): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((bit, i) => {
      if (bit) out[i >> 3] = (out[i >> 3] as number) | (lsb ? 1 << (i & 7) : 0x80 >> (i & 7));
    });
    return out;
  }
}

/**
 * LZW (§7.4.4, /EarlyChange 1) of one long run of zeros: after a literal 0, every code is the one
 * about to be defined, so each decodes to one byte more than the last; `codes` codes decode to
 * about codes²/2 bytes. A clear code every 3,000 keeps the dictionary under 4,096 entries.
 */
export function lzwZeros(codes: number): Uint8Array {
  const bits = new Bits();
  let width = 9;
  let next = 258;
  let fresh = true;
  for (let i = 0; i < codes; i++) {
    if (next >= 3258) {
      bits.msbFirst(256, width);
      width = 9;
      next = 258;
      fresh = true;
    }
    if (fresh) {
      bits.msbFirst(0, width);
      fresh = false;
      continue;
    }
    bits.msbFirst(next, width);
    next++;
    if (((next + 1) & next) === 0) width = Math.min(Math.log2(next + 1) + 1, 12);
  }
  bits.msbFirst(257, width);
  return bits.bytes(false);
}

/**
 * A zlib stream of `blocks` empty dynamic deflate blocks, each declaring a 15-bit literal code:
 * twelve bytes each that make pdf-lib build a 32,768-entry table and decode nothing.
 */
export function tableBomb(blocks: number): Uint8Array {
  const bits = new Bits();
  const order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  // The code-length code: symbols 0, 1, 15 and 18 of two bits each (canonical: 00, 01, 10, 11).
  const code: Record<number, number> = { 0: 0, 1: 1, 15: 2, 18: 3 };
  for (let b = 0; b < blocks; b++) {
    bits.lsbFirst(b === blocks - 1 ? 1 : 0, 1);
    bits.lsbFirst(2, 2); // dynamic Huffman codes
    bits.lsbFirst(0, 5); // 257 literal/length codes
    bits.lsbFirst(0, 5); // 1 distance code
    bits.lsbFirst(15, 4); // 19 code-length codes
    for (const symbol of order) bits.lsbFirst(symbol in code ? 2 : 0, 3);
    bits.msbFirst(code[15] as number, 2); // literal 0: 15 bits
    bits.msbFirst(code[18] as number, 2); // literals 1–138: none
    bits.lsbFirst(138 - 11, 7);
    bits.msbFirst(code[18] as number, 2); // literals 139–255: none
    bits.lsbFirst(117 - 11, 7);
    bits.msbFirst(code[1] as number, 2); // 256, end of block: 1 bit
    bits.msbFirst(code[1] as number, 2); // distance 0: 1 bit
    bits.msbFirst(0, 1); // end of block
  }
  return concat(new Uint8Array([0x78, 0x9c]), bits.bytes(true));
}
