/**
 * The PDF painter: a laid-out document (pages as display lists) to PDF bytes with pdf-lib. It
 * decides nothing about position; it embeds fonts and images, writes each page's content,
 * annotations, named destinations, the outline and the document information, deterministically.
 */
import { PDFDocument, PDFName, type PDFPage, type PDFRef } from 'pdf-lib';
import type { LaidOutDocument, Page } from '../layout/display-list';
import { collectAnchors, destinationNameTree } from './destinations';
import { reserveDocumentId, stampDocumentId } from './document-id';
import { DEFAULT_PRODUCER, writeDocumentInfo } from './document-info';
import { FlateStreams } from './flate-streams';
import { linkAnnotation } from './link-annotations';
import { writeOutline } from './outline';
import { type ContentResources, pageContent } from './page-content';
import { embedFonts, type PaintFonts, writeFonts } from './pdf-fonts';
import { embedImage } from './pdf-images';

export interface PaintOptions {
  /** /Producer of the document information; 'Quire' by default. */
  producer?: string;
}

/** Embeds each image a page draws, once per key. One that cannot be read is left out. */
async function embedImages(
  pdfDoc: PDFDocument,
  streams: FlateStreams,
  doc: LaidOutDocument,
): Promise<Map<string, PDFRef>> {
  const images = new Map<string, PDFRef>();
  const tried = new Set<string>();
  for (const page of doc.pages) {
    for (const item of page.items) {
      if (item.kind !== 'image' || tried.has(item.image)) continue;
      tried.add(item.image);
      const resource = doc.images[item.image];
      if (!resource) throw new Error(`An image item uses ${item.image}, which the document's images do not have.`);
      const ref = await embedImage(pdfDoc, streams, resource);
      if (ref) images.set(item.image, ref);
    }
  }
  return images;
}

/** Resource names are short and fixed per document (/F1, /Im1…), registered per page on first use. */
function pageResources(
  pdfPage: PDFPage,
  fonts: PaintFonts,
  fontIndex: ReadonlyMap<string, number>,
  images: ReadonlyMap<string, PDFRef>,
  imageIndex: ReadonlyMap<string, number>,
): ContentResources {
  const fontNames = new Map<string, string>();
  const imageNames = new Map<string, string>();
  const fontOf = (key: string) => {
    const font = fonts.get(key);
    if (!font) throw new Error(`Font ${key} was not embedded.`);
    return font;
  };
  return {
    fontName(key) {
      let name = fontNames.get(key);
      if (!name) {
        const resource = `F${fontIndex.get(key)}`;
        pdfPage.node.setFontDictionary(PDFName.of(resource), fontOf(key).ref);
        name = `/${resource}`;
        fontNames.set(key, name);
      }
      return name;
    },
    encode: (key, text, size, write) => fontOf(key).encodeInto(text, size, write),
    imageName(key) {
      let name = imageNames.get(key);
      if (!name) {
        const image = images.get(key);
        if (!image) throw new Error(`Image ${key} was not embedded.`);
        const resource = `Im${imageIndex.get(key)}`;
        pdfPage.node.setXObject(PDFName.of(resource), image);
        name = `/${resource}`;
        imageNames.set(key, name);
      }
      return name;
    },
  };
}

function indexOf(keys: Iterable<string>): Map<string, number> {
  return new Map([...keys].map((key, i) => [key, i + 1]));
}

function withoutMissingImages(page: Page, images: ReadonlyMap<string, PDFRef>): Page {
  const missing = page.items.some((item) => item.kind === 'image' && !images.has(item.image));
  return missing
    ? { ...page, items: page.items.filter((item) => item.kind !== 'image' || images.has(item.image)) }
    : page;
}

export async function paintPdf(doc: LaidOutDocument, options: PaintOptions = {}): Promise<Uint8Array> {
  if (doc.pages.length === 0) throw new Error('A PDF needs at least one page; layout produced none.');
  // updateMetadata: false keeps pdf-lib from writing its own Producer and the current time.
  const pdfDoc = await PDFDocument.create({ updateMetadata: false });
  const { context } = pdfDoc;

  const streams = new FlateStreams(context);
  const fonts = embedFonts(pdfDoc, doc);
  const images = await embedImages(pdfDoc, streams, doc);
  const fontIndex = indexOf(fonts.keys());
  const imageIndex = indexOf(images.keys());
  const anchors = collectAnchors(doc);

  const pdfPages = doc.pages.map((page) => pdfDoc.addPage([page.width, page.height]));
  const pageRefs = pdfPages.map((pdfPage) => pdfPage.ref);
  const pageHeights = doc.pages.map((page) => page.height);

  doc.pages.forEach((page, i) => {
    const pdfPage = pdfPages[i] as PDFPage;
    const resources = pageResources(pdfPage, fonts, fontIndex, images, imageIndex);
    const content = pageContent(withoutMissingImages(page, images), resources);
    if (content.length > 0) pdfPage.node.addContentStream(streams.add(content));
    for (const item of page.items) {
      if (item.kind !== 'link') continue;
      const annotation = linkAnnotation(context, item, page.height, (name) => anchors.has(name));
      if (annotation) pdfPage.node.addAnnot(annotation);
    }
  });

  const dests = destinationNameTree(context, anchors, pageRefs, pageHeights);
  if (dests) pdfDoc.catalog.set(PDFName.of('Names'), context.obj({ Dests: dests }));

  const outline = writeOutline(context, doc.outline, pageRefs, pageHeights);
  if (outline) {
    pdfDoc.catalog.set(PDFName.of('Outlines'), outline);
    // Open with the bookmarks panel showing (ISO 32000-1 §7.7.2, PageMode).
    pdfDoc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
  }

  writeDocumentInfo(pdfDoc, doc.metadata, options.producer ?? DEFAULT_PRODUCER);
  reserveDocumentId(pdfDoc);
  await writeFonts(streams, fonts);
  await streams.done();
  const bytes = await pdfDoc.save({
    useObjectStreams: true,
    addDefaultPage: false,
    updateFieldAppearances: false,
    // pdf-lib otherwise waits for a timer (setTimeout 0) after every 50 objects it writes.
    objectsPerTick: Number.POSITIVE_INFINITY,
  });
  return stampDocumentId(bytes);
}
