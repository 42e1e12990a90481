/**
 * What one request may cost: the budgets of docs/api.md's `DOCUMENT_TOO_COMPLEX`, in one place.
 *
 * Quire is a public API, and a document of a few kilobytes can ask for gigabytes (a ZIP directory
 * declaring 480 MB per part, a 1 GiB object stream, 50,000 page breaks) or minutes of CPU (one
 * 20-million-character word). An isolate has 128 MB and one JavaScript thread, so every such
 * request is refused with a clear 422 naming the budget, before it can take the isolate, and the
 * requests queued behind it, down. The values that a deployment may want to move are settings
 * (README "Configuration"); the rest are fixed here.
 *
 * Each budget is plain data handed to the stage that spends it (the package reader, layout, the
 * PDF pre-scan of /v1/sign); `Budget` is the one running account of a request's pages and time.
 */
import { ApiError } from './errors';

export interface Limits {
  /** Bytes all parts of a DOCX package may inflate to, together (MAX_INFLATED_BYTES). */
  inflatedBytes: number;
  /** Bytes its XML parts may inflate to, together (MAX_INFLATED_XML_BYTES); part of inflatedBytes. */
  inflatedXmlBytes: number;
  /** Pages one conversion may produce (MAX_PAGES). */
  pages: number;
  /**
   * Milliseconds a conversion may run, reading included, before layout stops it at the next page
   * boundary (MAX_LAYOUT_SECONDS).
   */
  layoutMs: number;
  /** Bytes /v1/sign's PDF parser may decode from object and cross-reference streams (MAX_DECODED_PDF_BYTES). */
  decodedPdfStreamBytes: number;
}

const MiB = 1024 * 1024;

/**
 * 64 MiB inflated in all, 32 MiB of it XML. Of the 318 corpus documents the largest inflates to
 * 14.6 MiB, all of it XML (184 pages, a 948-row table); media are stored compressed, so they
 * inflate to about their size in the upload (25 MiB at most). Parsed XML of dense text holds about
 * 1.5 times its size in the model (24 MiB of it: a 69 MiB heap peak, 3,267 pages), so 64 MiB of XML
 * would not fit the isolate's 128 MB beside everything else; 32 MiB does, with twice the largest
 * real document's room. 5,000 pages is eight times the longest real document seen (600 pages,
 * 0.6 s); 8 s of layout is ten times what a long document takes. pdf-lib holds what it decodes
 * from a PDF's object and cross-reference streams in one buffer per stream, grown by doubling, so
 * 16 MiB may briefly cost it 48; a real file within the object limits below decodes to a few MiB
 * (100,000 cross-reference entries are 700 KB; its object streams, at most MAX_PDF_OBJECT_TEXT_BYTES).
 */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  inflatedBytes: 64 * MiB,
  inflatedXmlBytes: 32 * MiB,
  pages: 5000,
  layoutMs: 8000,
  decodedPdfStreamBytes: 16 * MiB,
});

/**
 * Characters one paragraph may hold (its text runs together). Line breaking and painting are
 * linear in it, but a paragraph is laid out whole before any of its lines is placed; a million
 * characters is some 400 pages of one paragraph.
 */
export const MAX_PARAGRAPH_CHARACTERS = 1_000_000;

/**
 * XML nesting and elements per part. Real documents nest tables a few levels deep: a depth of a
 * few dozen elements at most. Four million elements is some 30 MiB of the tersest XML.
 */
export const MAX_XML_DEPTH = 256;
export const MAX_XML_ELEMENTS = 4_000_000;

/**
 * Pixels of one picture: decoded as RGBA that is 64 MB, half an isolate's 128 MB. A header
 * claiming more is refused before anything is decoded, and the picture left out with a warning.
 */
export const MAX_PICTURE_PIXELS = 16_000_000;

/**
 * Pixels of PNG, GIF, BMP, TIFF and WebP images one conversion checks or decodes, all together
 * (JPEGs pass through unread and do not count). Each costs work in proportion to its pixels
 * (inflating to check it, decoding, splitting alpha), before layout reaches a page boundary where
 * the time budget is read: twenty 16-megapixel PNGs of 70 KB each took 26 s and 1.3 GB. 200
 * megapixels is a hundred full-HD screenshots; images past it are left out with a warning, as a
 * damaged one is, and the text still converts.
 */
export const MAX_IMAGE_PIXELS = 200_000_000;

/**
 * Huffman-table entries /v1/sign lets pdf-lib's inflater build while it parses the PDF, all
 * streams together. pdf-lib builds a table of 2^(longest code) entries (up to 32,768) for every
 * dynamic deflate block, however little the block holds: 12 bytes can ask for one, and 1 MB of
 * such empty blocks kept it busy for 4 s. A real stream has a block per 16 KiB or more of output,
 * so even 64 MiB of it needs about 270 million entries at the very most; 256 million is about
 * half a second of pdf-lib's time.
 */
export const MAX_INFLATE_TABLE_ENTRIES = 256 * 1024 * 1024;

/**
 * Entries the cross-reference streams of a PDF to sign may declare, all together. pdf-lib makes
 * an object of each declared entry, whether the stream's data holds it or not, and keeps about
 * 170 bytes per entry: 200,000 entries are 34 MB, a quarter of an isolate. A file within the
 * 25 MiB document limit with more objects than that is one pdf-lib could not hold anyway.
 */
export const MAX_XREF_STREAM_ENTRIES = 200_000;

/**
 * Objects a PDF to sign may hold: indirect objects in the file and in its object streams
 * (ISO 32000-1 §7.3.10, §7.5.7), counted before pdf-lib parses it. pdf-lib holds every one as a
 * JavaScript object, some 600 bytes for the smallest, and parses the file twice per request: a
 * 4 MB file of one object stream declaring a million small objects took 41 s and 590 MB. A
 * 2,000-page document has 5,000 to 20,000; 100,000 small ones hold some 60 MB.
 */
export const MAX_PDF_OBJECTS = 100_000;

/**
 * Bytes of PDF object text a PDF to sign may hold: its objects as written in the file (a stream's
 * dictionary, not its data) and as decoded from its object streams. pdf-lib turns each byte of
 * that text into some 20 bytes of objects: a 651 KB file whose object stream decodes to 41 MiB of
 * small dictionaries took 12 s and 630 MB, within a 64 MiB decoding budget. 4 MiB (about 100 MB
 * of objects at that rate) is some 6,000 plain pages; a document whose 9,000 pages came to 25 MiB
 * of objects took 560 MB to sign, four times what an isolate has.
 */
export const MAX_PDF_OBJECT_TEXT_BYTES = 4 * 1024 * 1024;

/**
 * Markdown and HTML sources (POST /v1/convert): the largest text, since parsed markup takes many
 * times its size in memory and the isolate has 128 MB; and the images one document names (remote
 * or data URIs): how many are loaded, and the bytes of all of them together, which one image may
 * take whole. The route and the image loader both read these.
 */
export const MAX_MARKUP_BYTES = 5 * MiB;
export const MAX_MARKUP_IMAGES = 64;
export const MAX_MARKUP_IMAGE_BYTES = 20 * MiB;

/**
 * Fonts a caller brings (docs/api.md "Bring your own fonts"): the `fonts` parts of one request to
 * /v1/convert, and the faces one conversion may read from the FONTS R2 library. A face is parsed
 * whole by fontkit and held, parsed (about 1.3 times its bytes), for the length of the conversion,
 * beside the document's own model and the bundled faces, in an isolate of 128 MB. Brand text faces
 * are 30 KB to 1 MB each (the bundled ones: 0.08–0.8 MB); a CJK face is 5–20 MB, more than one
 * request should hold, so 8 MiB a face (and never more than MAX_DOCUMENT_BYTES). Twelve faces are
 * three families in Word's four styles; 16 MiB of them together (about 21 MB parsed) leaves the
 * document the rest of the isolate. The same 16 MiB bounds the library faces one conversion
 * reads, and a document that names more families than MAX_FONT_LIBRARY_LOOKUPS (each an R2 read,
 * a subrequest) has the rest drawn as if the library did not have them.
 */
export const MAX_FONT_BYTES = 8 * MiB;
export const MAX_REQUEST_FONTS = 12;
export const MAX_REQUEST_FONT_BYTES = 16 * MiB;
export const MAX_FONT_LIBRARY_BYTES = 16 * MiB;
export const MAX_FONT_LIBRARY_LOOKUPS = 32;

/**
 * Lines the cells of one table row may lay out to, together. A row is laid out whole before it is
 * placed or split, and a line holds some hundreds of bytes; a cell squeezed to a point's width
 * takes a line per character, so 10,000 cells of a paragraph each were 3.8 million lines (3 GB).
 * 50,000 lines is a row a thousand pages tall, some 40 MB.
 */
export const MAX_TABLE_ROW_LINES = 50_000;

/**
 * Lines one paragraph may break into. A paragraph is laid out whole before any line is placed,
 * and a line holds some hundreds of bytes: a million characters in a column two points wide were a
 * million lines and 489 MB before the page cap was reached. 50,000 lines, as for a table row, is a
 * paragraph a thousand pages long.
 */
export const MAX_PARAGRAPH_LINES = 50_000;

/** The 422 of a budget: what was exceeded, its value, and what the caller can do. */
export function tooComplex(what: string, limit: string): ApiError {
  return new ApiError(
    'DOCUMENT_TOO_COMPLEX',
    `The document is too complex to process: ${what} (the limit is ${limit}). Split it into smaller documents, or simplify it, and send it again.`,
  );
}

/** A byte count as people read it: "96 MiB", "512 KiB", "900 bytes". */
export function describeBytes(count: number): string {
  if (count >= MiB) return `${Math.round((count / MiB) * 10) / 10} MiB`;
  if (count >= 1024) return `${Math.round((count / 1024) * 10) / 10} KiB`;
  return `${count} bytes`;
}

/**
 * The running account of one conversion's pages and time. Layout calls `page()` as it finishes
 * each page; the clock is read there, so a conversion stops within a page of its deadline.
 *
 * The clock is a parameter: tests drive it, and Date.now is the one used in the worker. (workerd
 * in production advances its clock only at I/O, as a Spectre mitigation, so there the page cap
 * and the per-paragraph cap bound the work and the platform's own CPU limit is the backstop;
 * locally and in tests the clock runs.)
 */
export class Budget {
  readonly limits: Readonly<Limits>;
  readonly #now: () => number;
  readonly #started: number;
  #pages = 0;

  constructor(limits: Readonly<Limits>, now: () => number = Date.now) {
    this.limits = limits;
    this.#now = now;
    this.#started = now();
  }

  /** Counts a finished page; throws DOCUMENT_TOO_COMPLEX past the page cap or the deadline. */
  page(): void {
    this.#pages++;
    if (this.#pages > this.limits.pages) {
      throw tooComplex(
        `it lays out to more than ${this.limits.pages.toLocaleString('en-US')} pages`,
        `${this.limits.pages} pages`,
      );
    }
    this.checkTime();
  }

  /** Throws DOCUMENT_TOO_COMPLEX once the conversion has run past its time. */
  checkTime(): void {
    const elapsed = this.#now() - this.#started;
    if (elapsed > this.limits.layoutMs) {
      throw tooComplex(
        `laying it out took more than ${this.limits.layoutMs / 1000} s (stopped after ${this.#pages} pages)`,
        `${this.limits.layoutMs / 1000} s`,
      );
    }
  }
}
