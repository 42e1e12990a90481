/**
 * Writers (front door of src/engine/write): pages → PDF and model → DOCX.
 */
export { escapeAttribute, escapeText, writeDocx, xmlChars } from './docx';
export { type DocumentParts, PdfPainter } from './pdf';
