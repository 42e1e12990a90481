import { PDFDocument } from 'pdf-lib';
import { ApiError } from '../../errors';
import type { Limits } from '../../limits';
import { findRevisions, ObjectReader, requireCatalog } from '../pdf-read';
import { walkPageTree } from './page-tree';
import { assertParseableStreams } from './pdf-parse-guard';

/** Where the original file's newest cross-reference section is, and its kind (ISO 32000-1 §7.5.4, §7.5.8). */
export interface OriginalXref {
  /** The offset after the last "startxref": the update trailer's /Prev (§7.5.6). */
  startxref: number;
  /** The newest section is a cross-reference stream, so the update must be one too (§7.5.8.4 says readers of either kind follow /Prev, but mixing breaks some). */
  isStream: boolean;
  /** The newest trailer's /Size: object numbers below it are taken, even those pdf-lib does not keep (xref and object streams). */
  size: number;
}

/**
 * Loads a PDF for an incremental update. Damaged and encrypted files are INVALID_DOCUMENT: an
 * encrypted file's strings and streams would have to be re-encrypted in the update (§7.6). What
 * pdf-lib would decode while parsing is measured first, against `limits.decodedPdfStreamBytes`.
 */
export async function loadPdfForUpdate(
  pdf: Uint8Array,
  limits: Pick<Limits, 'decodedPdfStreamBytes'>,
): Promise<{ doc: PDFDocument; xref: OriginalXref }> {
  assertParseableStreams(pdf, limits);
  const xref = readOriginalXref(pdf);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true, throwOnInvalidObject: false });
  } catch (error) {
    throw new ApiError('INVALID_DOCUMENT', `The PDF is damaged and cannot be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (doc.isEncrypted) throw new ApiError('INVALID_DOCUMENT', 'The PDF is encrypted; decrypt it before signing');
  const highest = Math.max(xref.size - 1, doc.context.largestObjectNumber);
  if (highest > MAX_OBJECT_NUMBER) {
    throw new ApiError(
      'INVALID_DOCUMENT',
      `The PDF is damaged: it numbers its objects up to ${highest.toLocaleString('en-US')} (its trailer's /Size or an object's number), past the ${MAX_OBJECT_NUMBER.toLocaleString('en-US')} a PDF may hold (ISO 32000-1, Annex C)`,
    );
  }
  // Before pdf-lib walks it unbounded: a tree, of a bounded size.
  walkPageTree(doc);
  let pageCount: number;
  try {
    pageCount = doc.getPageCount();
  } catch (error) {
    throw new ApiError('INVALID_DOCUMENT', 'The PDF is damaged: its page tree cannot be read', { cause: error });
  }
  if (pageCount === 0) throw new ApiError('INVALID_DOCUMENT', 'The PDF has no pages to sign');
  // Last, after the checks that say more: the file must read as verify reads it (readable-catalog.ts).
  const scan = findRevisions(pdf);
  requireCatalog(new ObjectReader(pdf, scan), scan);
  return { doc, xref };
}

/**
 * The most indirect objects a PDF holds (ISO 32000-1, Annex C, Table C.1: 8,388,607). The update
 * numbers its objects above the file's highest number, and JavaScript numbers past 2^53 are not
 * exact: a /Size of 9007199254740993 gave new objects one number between them, and a 500.
 */
const MAX_OBJECT_NUMBER = 8_388_607;

const latin1 = new TextDecoder('latin1');

/** Reads the last startxref (§7.5.5) and what it points at. */
export function readOriginalXref(pdf: Uint8Array): OriginalXref {
  const damaged = (why: string) => new ApiError('INVALID_DOCUMENT', `The PDF is damaged: ${why}`);
  if (!latin1.decode(pdf.subarray(0, 1024)).includes('%PDF-')) throw damaged('it has no %PDF header');
  const tail = latin1.decode(pdf.subarray(Math.max(0, pdf.length - 2048)));
  const at = tail.lastIndexOf('startxref');
  const match = at < 0 ? null : /^startxref\s+(\d+)/.exec(tail.slice(at));
  if (!match) throw damaged('it has no startxref at its end (truncated?)');
  const startxref = Number(match[1]);
  if (startxref <= 0 || startxref >= pdf.length) throw damaged('its startxref points outside the file');

  const section = latin1.decode(pdf.subarray(startxref, Math.min(pdf.length, startxref + 4096)));
  if (/^\s*xref/.test(section)) {
    const trailerAt = latin1.decode(pdf.subarray(startxref)).indexOf('trailer');
    const trailer =
      trailerAt < 0 ? '' : latin1.decode(pdf.subarray(startxref + trailerAt, startxref + trailerAt + 4096));
    const size = /\/Size\s+(\d+)/.exec(trailer);
    if (!size) throw damaged('its trailer has no /Size');
    return { startxref, isStream: false, size: Number(size[1]) };
  }
  if (/^\s*\d+\s+\d+\s+obj/.test(section)) {
    const dict = section.slice(0, Math.max(0, section.indexOf('stream')) || section.length);
    const size = /\/Size\s+(\d+)/.exec(dict);
    if (!/\/Type\s*\/XRef/.test(dict) || !size)
      throw damaged('its startxref does not point at a cross-reference stream');
    return { startxref, isStream: true, size: Number(size[1]) };
  }
  throw damaged('its startxref does not point at a cross-reference section');
}
