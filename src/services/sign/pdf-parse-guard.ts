/**
 * What pdf-lib would spend parsing a PDF to update it, measured before it runs.
 *
 * pdf-lib reads a file from its first byte to its last, and every object stream (ISO 32000-1
 * §7.5.7) and cross-reference stream (§7.5.8) it meets on the way is decoded there and then,
 * whole, referenced or not: a 1 MB file with an unreferenced object stream of 1 GiB of zeros took
 * the worker past 2 GB and down. It then loops once per object an object stream's /N declares and
 * once per entry a cross-reference stream's /Index (or /Size) declares, whatever its data holds,
 * and each entry costs it some 170 bytes that the isolate keeps. So, before pdf-lib sees the file:
 *
 * - every stream pdf-lib would decode at parse time is decoded here, by the same filters
 *   (decoded-length.ts), counting the output without holding it, against one running total for
 *   the whole file, `limits.decodedPdfStreamBytes`; past it the request is refused with 422
 *   DOCUMENT_TOO_COMPLEX;
 * - the counts such streams declare are bounded.
 *
 * Which streams those are is decided as pdf-lib decides it: an indirect object (`n g obj`) whose
 * value is a stream whose dictionary's /Type is /ObjStm or /XRef (or a reference, which pdf-lib
 * would resolve), its data found as pdf-lib finds it (a direct /Length followed by `endstream`,
 * else the scan for `endstream`). To be sure no such stream is missed, every `obj` keyword in the
 * file is examined, those inside other objects' data too, and each dictionary is read with
 * pdf-lib's own object parser; work spent reading dictionaries that overlap (which a real file's do
 * not) is bounded, so the scan is linear in the file.
 */
import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
} from 'pdf-lib';
import ByteStream from 'pdf-lib/es/core/parser/ByteStream';
import { ApiError } from '../../errors';
import {
  describeBytes,
  type Limits,
  MAX_INFLATE_TABLE_ENTRIES,
  MAX_PDF_OBJECT_TEXT_BYTES,
  MAX_PDF_OBJECTS,
  MAX_XREF_STREAM_ENTRIES,
  tooComplex,
} from '../../limits';
import {
  chargeDecode,
  type DecodeAccount,
  DecodeBudgetExceeded,
  type FilterStage,
  PDF_LIB_FILTERS,
} from './decoded-length';

/** Bytes per xref stream field: 8 addresses any file (§7.5.8.3). */
const MAX_FIELD_WIDTH = 8;
/** Objects one object stream may declare (§7.5.7 /N): more than any real file holds. */
const MAX_STREAM_OBJECTS = 8_000_000;
/**
 * Bytes of dictionaries read per byte of the file. A real file's objects do not overlap, so it
 * reads each byte about once; a file whose every `obj` opens a string or dictionary that runs to
 * the end would be read once per `obj`.
 */
const WORK_PER_BYTE = 8;

const TYPE = PDFName.of('Type');
const OBJ_STM = PDFName.of('ObjStm');
const XREF = PDFName.of('XRef');

/** pdf-lib's white space (its IsWhitespace: NUL, TAB, LF, FF, CR, space). */
function isWhite(b: number | undefined): boolean {
  return b === 0x00 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
}

function isDigit(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x39;
}

/** pdf-lib's byte reader, as its parser's constructor takes it (its types come from pdf-lib's CommonJS build). */
type ParserBytes = ConstructorParameters<typeof PDFObjectParser>[0];

/** pdf-lib's object parser over the whole file, moved to each `obj` in turn. */
class ObjectScanner extends PDFObjectParser {
  constructor(pdf: Uint8Array) {
    // The ES build's ByteStream, the one the bundle's pdf-lib uses: the same class as the one the
    // types describe, declared twice.
    super(ByteStream.of(pdf) as unknown as ParserBytes, PDFContext.create());
  }

  /**
   * The value after the `obj` keyword ending at `offset`: the stream, when it is one pdf-lib
   * decodes while parsing; the bytes of text pdf-lib would parse into objects for it (a stream's
   * dictionary, not its data); and how many bytes were read to know (up to the error, when the
   * value is malformed: pdf-lib keeps such an object as its bytes).
   */
  objectAt(offset: number): { stream: PDFRawStream | undefined; text: number; work: number } {
    const bytes = this.bytes;
    bytes.moveTo(offset);
    this.skipWhitespaceAndComments();
    const start = bytes.offset();
    let dictEnd = start;
    try {
      if (bytes.peek() !== 0x3c || bytes.peekAhead(1) !== 0x3c) {
        this.parseObject();
        return { stream: undefined, text: bytes.offset() - start, work: bytes.offset() - offset };
      }
      // The dictionary first: most objects are not streams pdf-lib decodes, and their data is
      // neither scanned nor copied.
      const dict = this.parseDict();
      dictEnd = bytes.offset();
      const text = dictEnd - start;
      if (!decodedAtParse(dict)) return { stream: undefined, text, work: dictEnd - offset };
      bytes.moveTo(start);
      const value = this.parseDictOrStream();
      const stream = value instanceof PDFRawStream ? value : undefined;
      return { stream, text, work: dictEnd - offset + bytes.offset() - start };
    } catch {
      // pdf-lib fails on this value too (a RangeError of deep nesting included).
      return { stream: undefined, text: 0, work: dictEnd - offset + Math.max(0, bytes.offset() - start) };
    }
  }
}

/** Whether pdf-lib's parser decodes a stream of this dictionary as it meets it (PDFParser.parseIndirectObject). */
function decodedAtParse(dict: PDFDict): boolean {
  const type = dict.get(TYPE);
  return type === OBJ_STM || type === XREF || type instanceof PDFRef;
}

/**
 * Refuses, before pdf-lib parses `pdf`, a file whose object and cross-reference streams would
 * decode to more than the budget or declare more objects or entries than it allows.
 */
export function assertParseableStreams(pdf: Uint8Array, limits: Pick<Limits, 'decodedPdfStreamBytes'>): void {
  const scanner = new ObjectScanner(pdf);
  const account: DecodeAccount = {
    bytesLeft: limits.decodedPdfStreamBytes,
    tableEntriesLeft: MAX_INFLATE_TABLE_ENTRIES,
  };
  const maxWork = WORK_PER_BYTE * pdf.length + 1024 * 1024;
  let work = 0;
  let objects = 0;
  let text = 0;
  let xrefEntries = 0;
  for (let at = pdf.indexOf(0x6f); at >= 0; at = pdf.indexOf(0x6f, at + 1)) {
    // pdf-lib's header is `n g obj`, white space or comments between: `obj` follows a digit or
    // white space (a comment ends at an end of line).
    if (pdf[at + 1] !== 0x62 || pdf[at + 2] !== 0x6a || !(isDigit(pdf[at - 1]) || isWhite(pdf[at - 1]))) continue;
    // Each `n g obj` is an object pdf-lib parses (a few inside other objects' data are counted too).
    if (++objects > MAX_PDF_OBJECTS) throw tooManyObjects();
    const found = scanner.objectAt(at + 3);
    work += found.work;
    text += found.text;
    if (work > maxWork) {
      throw new ApiError(
        'INVALID_DOCUMENT',
        'The PDF is damaged: its objects overlap (a string, dictionary or stream runs on into the objects after it)',
      );
    }
    const stream = found.stream;
    if (!stream) {
      if (text > MAX_PDF_OBJECT_TEXT_BYTES) throw tooMuchText();
      continue;
    }
    checkDeclaredCounts(stream.dict);
    objects += declaredObjects(stream.dict);
    if (objects > MAX_PDF_OBJECTS) throw tooManyObjects();
    xrefEntries += declaredXrefEntries(stream.dict);
    if (xrefEntries > MAX_XREF_STREAM_ENTRIES) {
      throw tooComplex(
        `its cross-reference streams declare ${xrefEntries.toLocaleString('en-US')} entries or more`,
        `${MAX_XREF_STREAM_ENTRIES.toLocaleString('en-US')} entries`,
      );
    }
    try {
      const { output } = chargeDecode(stream.contents, filterStages(stream.dict), account);
      // What an object stream decodes to, pdf-lib parses into objects (an xref stream's, into entries).
      if (stream.dict.get(TYPE) !== XREF) text += output;
      if (text > MAX_PDF_OBJECT_TEXT_BYTES) throw tooMuchText();
    } catch (error) {
      if (!(error instanceof DecodeBudgetExceeded)) throw error;
      if (error.what === 'tables') {
        throw tooComplex(
          'its object and cross-reference streams are compressed into more deflate blocks than a real file has',
          `${MAX_INFLATE_TABLE_ENTRIES.toLocaleString('en-US')} Huffman-table entries`,
        );
      }
      throw tooComplex(
        `its object and cross-reference streams decode to more than ${describeBytes(limits.decodedPdfStreamBytes)}`,
        describeBytes(limits.decodedPdfStreamBytes),
      );
    }
  }
}

/**
 * The filters pdf-lib's decodePDFRawStream applies, in order. A chain ends at a name it does not
 * know (it throws there: the stages before it are counted, as their decoders may have run). A
 * filter or LZW parameter given as an indirect reference would be resolved by pdf-lib to something
 * not known here, so it is refused: no real writer does that.
 */
function filterStages(dict: PDFDict): FilterStage[] {
  const filter = dict.get(PDFName.of('Filter'));
  const parms = dict.get(PDFName.of('DecodeParms'));
  let names: (PDFObject | undefined)[];
  let params: (PDFObject | undefined)[];
  if (filter instanceof PDFName) {
    names = [filter];
    params = [parms];
  } else if (filter instanceof PDFArray) {
    names = filter.asArray();
    params = parms instanceof PDFArray ? parms.asArray() : [];
  } else if (filter instanceof PDFRef) {
    throw indirect('/Filter');
  } else {
    return [];
  }
  const stages: FilterStage[] = [];
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    if (name instanceof PDFRef) throw indirect('/Filter');
    const filterName = PDF_LIB_FILTERS.find((known) => PDFName.of(known) === name);
    if (filterName === undefined) break;
    stages.push({ filter: filterName, earlyChange: filterName === 'LZWDecode' ? earlyChange(params[i]) : 1 });
  }
  return stages;
}

/** LZW's /EarlyChange as pdf-lib reads it (§7.4.4.3, Table 9): 1 unless a number is given. */
function earlyChange(params: PDFObject | undefined): number {
  if (params instanceof PDFRef) throw indirect('/DecodeParms');
  if (params instanceof PDFDict) {
    const value = params.get(PDFName.of('EarlyChange'));
    if (value instanceof PDFRef) throw indirect('/DecodeParms');
    if (value instanceof PDFNumber) return value.asNumber();
  }
  return 1;
}

function indirect(key: string): ApiError {
  return tooComplex(
    `an object or cross-reference stream gives its ${key} as an indirect reference, so what it decodes to cannot be measured before it is decoded`,
    `${key} written in the stream's dictionary`,
  );
}

function numbers(value: PDFObject | undefined, key: string): number[] | undefined {
  if (value instanceof PDFRef) throw damaged(`a cross-reference stream gives its /${key} as an indirect reference`);
  if (!(value instanceof PDFArray)) return undefined;
  return value.asArray().map((item) => {
    if (item instanceof PDFRef) throw damaged(`a cross-reference stream gives its /${key} as an indirect reference`);
    return item instanceof PDFNumber ? item.asNumber() : Number.NaN;
  });
}

/**
 * Entries a cross-reference stream dictionary makes pdf-lib read: the second of each /Index pair,
 * else /Size (§7.5.8.2, Table 17, whose values shall be direct objects). 0 for other streams.
 */
function declaredXrefEntries(dict: PDFDict): number {
  if (dict.get(TYPE) === OBJ_STM || !dict.has(PDFName.of('W'))) return 0;
  const index = numbers(dict.get(PDFName.of('Index')), 'Index');
  const size = dict.get(PDFName.of('Size'));
  if (size instanceof PDFRef) throw damaged('a cross-reference stream gives its /Size as an indirect reference');
  const counts = index ? index.filter((_, i) => i % 2 === 1) : [size instanceof PDFNumber ? size.asNumber() : 0];
  return counts.reduce(
    (sum, count) => sum + (Number.isFinite(count) && count >= 0 ? count : Number.POSITIVE_INFINITY),
    0,
  );
}

/** The objects an object stream declares (§7.5.7 /N): pdf-lib parses that many, or until its data ends. */
function declaredObjects(dict: PDFDict): number {
  const n = dict.get(PDFName.of('N'));
  return dict.get(TYPE) !== XREF && n instanceof PDFNumber && n.asNumber() > 0 ? n.asNumber() : 0;
}

function tooMuchText(): ApiError {
  return tooComplex(
    `its objects come to more than ${describeBytes(MAX_PDF_OBJECT_TEXT_BYTES)} of PDF text, in the file and in its object streams`,
    `${describeBytes(MAX_PDF_OBJECT_TEXT_BYTES)} of objects`,
  );
}

function tooManyObjects(): ApiError {
  return tooComplex(
    `it holds more than ${MAX_PDF_OBJECTS.toLocaleString('en-US')} objects`,
    `${MAX_PDF_OBJECTS.toLocaleString('en-US')} objects`,
  );
}

/** /N of an object stream and /W of a cross-reference stream, which pdf-lib loops over. */
function checkDeclaredCounts(dict: PDFDict): void {
  const n = dict.get(PDFName.of('N'));
  if (n instanceof PDFNumber && !(n.asNumber() >= 0 && n.asNumber() <= MAX_STREAM_OBJECTS)) {
    throw damaged(`an object stream declares /N ${n.asNumber()}, more than any real file`);
  }
  if (dict.get(TYPE) === OBJ_STM) return;
  const widths = numbers(dict.get(PDFName.of('W')), 'W');
  if (widths?.some((width) => !(Number.isInteger(width) && width >= 0 && width <= MAX_FIELD_WIDTH))) {
    throw damaged(`a cross-reference stream declares field widths /W [${widths.join(' ')}], more than any real file`);
  }
}

function damaged(why: string): ApiError {
  return new ApiError('INVALID_DOCUMENT', `The PDF is damaged: ${why}`);
}
