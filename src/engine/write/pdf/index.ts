/**
 * Pages → PDF (front door of src/engine/write/pdf): the painter that turns the display list into a
 * pdf-lib document with subset fonts, images, links and the outline.
 */
export { type DocumentParts, PdfPainter } from './paint-pdf';
