import { zlibSync } from 'fflate';
import { decodePDFRawStream, PDFContext, PDFDocument, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors';
import { DEFAULT_LIMITS } from '../../../src/limits';
import { chargeDecode, type FilterName, PDF_LIB_FILTERS } from '../../../src/services/sign/decoded-length';
import { assertParseableStreams } from '../../../src/services/sign/pdf-parse-guard';
import { loadPdfForUpdate } from '../../../src/services/sign/pdf-source';
import { ascii, concat } from '../verify/verify-fixtures';
import { deflateZeros, lzwZeros, pdfWith, streamObject, tableBomb } from './pdf-bombs';

const MiB = 1024 * 1024;
/** A small budget, so that the bombs stay small. */
const limits = { decodedPdfStreamBytes: MiB };
const OBJSTM = '/Type /ObjStm /N 1 /First 4';

/** The ApiError assertParseableStreams throws (undefined when it passes), and how long it took. */
function scan(pdf: Uint8Array, budget = limits): { error: ApiError | undefined; ms: number } {
  const started = performance.now();
  try {
    assertParseableStreams(pdf, budget);
    return { error: undefined, ms: performance.now() - started };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { error, ms: performance.now() - started };
  }
}

function hex(bytes: Uint8Array): Uint8Array {
  return ascii(`${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}>`);
}

describe('the pre-scan of what pdf-lib decodes while parsing (/v1/sign)', () => {
  it('refuses an unreferenced object stream that inflates past the budget, without inflating it', async () => {
    const pdf = await pdfWith(streamObject(90, `${OBJSTM} /Filter /FlateDecode`, deflateZeros(8 * MiB)));
    expect(pdf.length).toBeLessThan(20_000);
    const { error, ms } = scan(pdf);
    expect(error?.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error?.message).toMatch(/object and cross-reference streams decode to more than 1 MiB \(the limit is 1 MiB/);
    // It stops counting at the budget: a MiB, not 8.
    expect(ms).toBeLessThan(2000);
  });

  it('keeps one running total: streams each within the budget are refused together', async () => {
    const half = deflateZeros(600_000);
    const one = await pdfWith(streamObject(90, `${OBJSTM} /Filter /FlateDecode`, half));
    expect(scan(one).error).toBeUndefined();
    const two = await pdfWith(
      streamObject(90, `${OBJSTM} /Filter /FlateDecode`, half),
      streamObject(91, '/Type /XRef /W [1 2 1] /Size 1 /Filter /FlateDecode', half),
    );
    expect(scan(two).error?.code).toBe('DOCUMENT_TOO_COMPLEX');
  });

  it('counts every filter pdf-lib decodes, and each stage of a chain', async () => {
    const bombs = [
      ['/Filter /LZWDecode', lzwZeros(2000)],
      ['/Filter /RunLengthDecode', new Uint8Array(20_000).fill(129)], // 2 bytes → 128 bytes
      ['/Filter /ASCII85Decode', ascii(`${'z'.repeat(300_000)}~>`)], // 1 byte → 4 zero bytes
      ['/Filter /ASCIIHexDecode', ascii('00'.repeat(1_100_000))],
      ['/Filter [/ASCIIHexDecode /FlateDecode]', hex(deflateZeros(2 * MiB))],
      ['/Filter [/FlateDecode /FlateDecode]', zlibSync(deflateZeros(4 * MiB))],
    ] as const;
    for (const [filter, data] of bombs) {
      const { error } = scan(await pdfWith(streamObject(90, `${OBJSTM} ${filter}`, data)));
      expect([filter, error?.code]).toEqual([filter, 'DOCUMENT_TOO_COMPLEX']);
    }
  });

  it('measures exactly what pdf-lib decodes, for each filter', () => {
    const account = () => ({ bytesLeft: 64 * MiB, tableEntriesLeft: 1e9 });
    const stage = (filter: 'FlateDecode' | 'LZWDecode' | 'ASCII85Decode' | 'ASCIIHexDecode' | 'RunLengthDecode') => ({
      filter,
      earlyChange: 1,
    });
    expect(chargeDecode(deflateZeros(100_000), [stage('FlateDecode')], account()).decoded).toBe(100_000);
    expect(chargeDecode(lzwZeros(100), [stage('LZWDecode')], account()).decoded).toBe(1 + (99 * 100) / 2 + 99);
    expect(chargeDecode(new Uint8Array([2, 7, 8, 9, 255, 1, 128]), [stage('RunLengthDecode')], account()).decoded).toBe(
      5,
    );
    expect(chargeDecode(ascii('z9jqo^~>'), [stage('ASCII85Decode')], account()).decoded).toBe(8);
    expect(chargeDecode(ascii('4a 6f6>'), [stage('ASCIIHexDecode')], account()).decoded).toBe(3);
    // A chain counts every stage: 2,000 bytes of hex, then what they inflate to.
    const inflated = deflateZeros(50_000);
    expect(chargeDecode(hex(inflated), [stage('ASCIIHexDecode'), stage('FlateDecode')], account()).decoded).toBe(
      inflated.length + 50_000,
    );
  });

  it('measures what pdf-lib decodes, byte for byte, over 3,000 seeded damaged streams', () => {
    let seed = 20261122;
    const random = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const byte = () => Math.floor(random() * 256);
    const sample = (filter: FilterName): Uint8Array => {
      const plain = Uint8Array.from({ length: Math.floor(random() * 3000) }, () => (random() < 0.5 ? 65 : byte()));
      if (filter === 'FlateDecode') return zlibSync(plain, { level: Math.floor(random() * 10) as 0 });
      if (filter === 'ASCIIHexDecode')
        return ascii(`${[...plain].map((b) => b.toString(16).padStart(2, '0')).join(' ')}>`);
      if (filter === 'ASCII85Decode') {
        return ascii(`${[...plain].map((b) => (b < 30 ? 'z' : String.fromCharCode(33 + (b % 85)))).join('')}~>`);
      }
      return plain;
    };
    const context = PDFContext.create();
    let compared = 0;
    for (let i = 0; i < 3000; i++) {
      const filter = PDF_LIB_FILTERS[i % PDF_LIB_FILTERS.length] as FilterName;
      const data = sample(filter);
      for (let k = Math.floor(random() * 4); k > 0 && data.length > 0; k--)
        data[Math.floor(random() * data.length)] = byte();
      const cut = random() < 0.2 ? data.subarray(0, Math.floor(random() * data.length)) : data;
      const ours = chargeDecode(cut, [{ filter, earlyChange: 1 }], { bytesLeft: 1e9, tableEntriesLeft: 1e12 }).output;
      let theirs: ReturnType<typeof decodePDFRawStream> | undefined;
      try {
        theirs = decodePDFRawStream(PDFRawStream.of(context.obj({ Filter: filter }), cut));
        expect([filter, ours]).toEqual([filter, theirs.decode().length]);
        compared++;
      } catch (error) {
        if (!(error instanceof Error) || error.name === 'AssertionError') throw error;
        // pdf-lib gave up on the damage: what it had decoded by then is no more than counted.
        expect(ours).toBeGreaterThanOrEqual((theirs as unknown as { bufferLength?: number })?.bufferLength ?? 0);
      }
    }
    expect(compared).toBeGreaterThan(2500);
  });

  it('bounds the Huffman tables pdf-lib builds for deflate blocks that decode to nothing', async () => {
    // 8,200 blocks of 12 bytes ask for 8,200 tables of 32,768 entries: over the 256 M-entry cap.
    const pdf = await pdfWith(streamObject(90, `${OBJSTM} /Filter /FlateDecode`, tableBomb(8200)));
    const { error, ms } = scan(pdf, DEFAULT_LIMITS);
    expect(error?.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error?.message).toMatch(/deflate blocks/);
    expect(ms).toBeLessThan(5000);
  });

  it('finds the streams pdf-lib finds: an indirect /Length, a /Type by reference, an escaped name, after garbage', async () => {
    const bomb = deflateZeros(2 * MiB);
    const variants = [
      // No usable /Length: pdf-lib looks for endstream, and so does the scan.
      streamObject(90, `${OBJSTM} /Filter /FlateDecode /Length 91 0 R`, bomb),
      streamObject(90, `${OBJSTM} /Filter /FlateDecode /Length 7`, bomb),
      // pdf-lib resolves a /Type given by reference.
      concat(
        ascii('91 0 obj\n/ObjStm\nendobj\n'),
        streamObject(90, '/Type 91 0 R /N 1 /First 4 /Filter /FlateDecode', bomb),
      ),
      // #53 is S: the name is /ObjStm.
      streamObject(90, '/Type /Obj#53tm /N 1 /First 4 /Filter /Fl#61teDecode', bomb),
      // An unbalanced parenthesis between objects: pdf-lib skips it, to the next `n g obj`.
      concat(ascii('(junk\n'), streamObject(90, `${OBJSTM} /Filter /FlateDecode`, bomb)),
      // Written on one line, a comment between the number and `obj`.
      concat(
        ascii('90 0%c\nobj<</Type/ObjStm/N 1/First 4/Filter/FlateDecode/Length '),
        ascii(`${bomb.length}>>stream\n`),
        bomb,
        ascii('\nendstream endobj\n'),
      ),
    ];
    for (const variant of variants) {
      expect(scan(await pdfWith(variant)).error?.code).toBe('DOCUMENT_TOO_COMPLEX');
    }
  });

  it('refuses what it cannot measure: a /Filter given by reference', async () => {
    const pdf = await pdfWith(
      concat(
        ascii('91 0 obj\n/FlateDecode\nendobj\n'),
        streamObject(90, `${OBJSTM} /Filter 91 0 R`, deflateZeros(1000)),
      ),
    );
    const { error } = scan(pdf);
    expect(error?.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error?.message).toMatch(/\/Filter as an indirect reference/);
  });

  it('does not count streams pdf-lib does not decode while parsing: content, images, unknown filters', async () => {
    const big = deflateZeros(4 * MiB);
    const pdf = await pdfWith(
      streamObject(90, '/Filter /FlateDecode', big),
      streamObject(91, '/Type /XObject /Subtype /Image /Filter /FlateDecode', big),
      streamObject(92, `${OBJSTM} /Filter /DCTDecode`, big),
    );
    expect(scan(pdf).error).toBeUndefined();
  });

  it('refuses cross-reference streams declaring more entries than pdf-lib can hold', async () => {
    const pdf = await pdfWith(streamObject(90, '/Type /XRef /W [1 2 1] /Size 300000', new Uint8Array(4)));
    const { error } = scan(pdf);
    expect(error?.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error?.message).toMatch(/declare 300,000 entries/);
  });

  it('refuses more objects than pdf-lib can hold: declared by an object stream, or written in the file', async () => {
    const declared = await pdfWith(streamObject(90, '/Type /ObjStm /N 150000 /First 4', ascii('1 0 ')));
    const written = await pdfWith(
      ascii(Array.from({ length: 100_001 }, (_, i) => `${i + 100} 0 obj null endobj\n`).join('')),
    );
    for (const pdf of [declared, written]) {
      const { error } = scan(pdf, DEFAULT_LIMITS);
      expect(error?.code).toBe('DOCUMENT_TOO_COMPLEX');
      expect(error?.message).toMatch(/more than 100,000 objects/);
    }
  });

  it('refuses more object text than pdf-lib can hold as objects: in an object stream, or in the file', async () => {
    // 60,000 dictionaries of 10 entries: 5 MiB of text, a few KB deflated, some 100 MB in pdf-lib.
    const dict = `<<${Array.from({ length: 10 }, (_, i) => `/K${i} ${i}`).join(' ')}>> `;
    let header = '';
    for (let i = 0; i < 60_000; i++) header += `${1000 + i} ${i * dict.length} `;
    const packed = zlibSync(ascii(header + dict.repeat(60_000)), { level: 9 });
    const inStream = await pdfWith(
      streamObject(90, `/Type /ObjStm /N 60000 /First ${header.length} /Filter /FlateDecode`, packed),
    );
    expect(inStream.length).toBeLessThan(300_000);
    const big = `<<${Array.from({ length: 100 }, (_, i) => `/K${i} ${i}`).join(' ')}>>`;
    const inFile = await pdfWith(
      ascii(Array.from({ length: 7000 }, (_, i) => `${i + 100} 0 obj ${big} endobj\n`).join('')),
    );
    for (const pdf of [inStream, inFile]) {
      const { error } = scan(pdf, DEFAULT_LIMITS);
      expect(error?.code).toBe('DOCUMENT_TOO_COMPLEX');
      expect(error?.message).toMatch(/more than 4 MiB of PDF text/);
    }
  });

  it('reads overlapping objects in linear time: refused as damaged, quickly', { timeout: 30_000 }, async () => {
    // Every `obj` opens a string that never closes: each would be read to the end of the file.
    // Read that way, 100,000 of them are some 75 billion bytes, minutes of work; in linear time
    // about a second. The bound leaves room for a loaded machine and none for the quadratic read.
    const pdf = await pdfWith(ascii('1 0 obj << /A ('.repeat(100_000)));
    const { error, ms } = scan(pdf);
    expect(error?.code).toBe('INVALID_DOCUMENT');
    expect(error?.message).toMatch(/overlap/);
    expect(ms).toBeLessThan(15_000);
  });

  it('lets real files through: object streams, cross-reference streams, a signed file', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 30; i++) doc.addPage([612, 792]).drawText(`Page ${i + 1}`, { x: 72, y: 700 });
    const pdf = await doc.save({ useObjectStreams: true });
    expect(scan(pdf, DEFAULT_LIMITS).error).toBeUndefined();
    const { doc: loaded } = await loadPdfForUpdate(pdf, DEFAULT_LIMITS);
    expect(loaded.getPageCount()).toBe(30);
  });
});
