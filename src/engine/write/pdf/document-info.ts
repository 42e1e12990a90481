/**
 * The document information dictionary (ISO 32000-1 §14.3.3) from the document's properties.
 * Dates come from the document, never from the clock (docs/engine.md "Determinism"): without them,
 * a fixed epoch is written, so the same input always gives the same bytes.
 */
import type { PDFDocument } from 'pdf-lib';
import type { LaidOutDocument } from '../../pages';

/** 1970-01-01T00:00:00Z: written when the document carries no date. */
export const FIXED_EPOCH = new Date(0);

export const DEFAULT_PRODUCER = 'Quire';

function dateOf(iso: string | undefined): Date | undefined {
  if (iso === undefined) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function writeDocumentInfo(pdfDoc: PDFDocument, metadata: LaidOutDocument['metadata'], producer: string): void {
  const { title, author, subject, keywords } = metadata;
  // DisplayDocTitle (§12.2): viewers show the title rather than the file name (PDF/UA asks it).
  if (title) pdfDoc.setTitle(title, { showInWindowTitleBar: true });
  if (author) pdfDoc.setAuthor(author);
  if (subject) pdfDoc.setSubject(subject);
  if (keywords) pdfDoc.setKeywords([keywords]);
  pdfDoc.setProducer(producer);
  const created = dateOf(metadata.created);
  const modified = dateOf(metadata.modified);
  pdfDoc.setCreationDate(created ?? modified ?? FIXED_EPOCH);
  pdfDoc.setModificationDate(modified ?? created ?? FIXED_EPOCH);
}
