/**
 * Text of a painted PDF page through its fonts' ToUnicode maps: what a reader's "copy text" gets.
 * Enough for our own PDFs (Type0 fonts, hex strings shown with Tj).
 */
import { PDFDocument, PDFName } from 'pdf-lib';
import { dict, get, pageContentText, shownText, streamText, toUnicodeMap } from './pdf-inspect';

export function pageText(doc: PDFDocument, pageIndex: number): string {
  const page = doc.getPage(pageIndex).node;
  const resources = dict(doc, page.get(PDFName.of('Resources')));
  const fonts = dict(doc, get(doc, resources, 'Font'));
  const maps = new Map<string, Map<number, string>>();
  for (const [name, ref] of fonts.entries()) {
    const font = dict(doc, ref);
    const cmap = get(doc, font, 'ToUnicode');
    maps.set(name.asString().slice(1), cmap ? toUnicodeMap(streamText(doc, cmap)) : new Map());
  }
  return shownText(pageContentText(doc, pageIndex))
    .map(({ font, codes }) => codes.map((code) => maps.get(font)?.get(code) ?? '\uFFFD').join(''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((_, i) => pageText(doc, i));
}
