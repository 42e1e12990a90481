/**
 * The PDF painter: a laid-out document (pages as display lists) to PDF bytes with pdf-lib. It
 * decides nothing about position; it embeds fonts and images, writes each page's content,
 * annotations, named destinations, the outline and the document information, deterministically.
 *
 * Pages can be handed over one at a time as layout finishes them (PdfPainter), so that a long
 * document's display lists are never all alive at once: each page's content stream is written at
 * once, and the page let go of. The PDF objects themselves are made at the end, in the order a
 * painter holding every page would make them (fonts, images, pages, each page's content and
 * links…), so that the bytes are the same either way.
 */
import { zlibSync } from 'fflate';
import { PDFDocument, PDFName, type PDFPage, PDFRef } from 'pdf-lib';
import type { FontFace } from '../../fonts';
import type { LinkItem } from '../../layout';
import type { LaidOutDocument, Page } from '../../pages';
import { type DestinationTarget, destinationNameTree } from './destinations';
import { reserveDocumentId, stampDocumentId } from './document-id';
import { DEFAULT_PRODUCER, writeDocumentInfo } from './document-info';
import { FlateStreams } from './flate-streams';
import { linkAnnotation } from './link-annotations';
import { writeOutline } from './outline';
import { ContentBytes, type ContentResources, pageContent } from './page-content';
import { asFontkitFace, PaintFont, writeFonts } from './pdf-fonts';
import { embedImage } from './pdf-images';

export interface PaintOptions {
  /** /Producer of the document information; 'Quire' by default. */
  producer?: string;
}

/** A resource a page's content named, in the order it did: replayed on the page's dictionary at the end. */
type ResourceUse = { kind: 'font'; name: string; key: string } | { kind: 'image'; name: string; key: string };

/** What is kept of a painted page until the PDF is written. */
interface PaintedPage {
  width: number;
  height: number;
  content: Uint8Array;
  /** `content` is deflated already (see HELD_CONTENT_BYTES). */
  deflated: boolean;
  resources: ResourceUse[];
  links: LinkItem[];
  /** The display list, kept only when the page draws images (see PdfPainter.finish). */
  page?: Page;
}

/**
 * Page contents are held as written until the PDF is made, then deflated natively one after
 * another (flate-streams.ts). Past this many bytes held, each further page is deflated as it is
 * added, with fflate (synchronous, as layout is): a page of dense text is some 13 KB of content
 * and a fifth of that deflated, so 5,000 pages (the page budget, src/limits.ts) would otherwise
 * hold 65 MB of the isolate's 128. Below it (about 600 pages of dense text) nothing changes.
 */
const HELD_CONTENT_BYTES = 8 * 1024 * 1024;

/** The rest of a laid-out document, which the painter needs once every page is in. */
export type DocumentParts = Omit<LaidOutDocument, 'pages'>;

export class PdfPainter {
  readonly #pdfDoc: PDFDocument;
  /** Fonts get the first object numbers after the catalog's, in the order text first uses them. */
  readonly #firstFontNumber: number;
  readonly #fonts = new Map<string, PaintFont>();
  /** Image keys in the order pages first draw them; each is named as if it will embed (see finish). */
  readonly #imageOrder = new Map<string, number>();
  /** Anchors by name, first occurrence winning. */
  readonly #anchors = new Map<string, DestinationTarget>();
  readonly #pages: PaintedPage[] = [];
  /** Every page's content is written here, then copied out at its length. */
  readonly #content = new ContentBytes();
  /** Bytes of page content held as written (not deflated). */
  #held = 0;

  private constructor(pdfDoc: PDFDocument) {
    this.#pdfDoc = pdfDoc;
    this.#firstFontNumber = pdfDoc.context.largestObjectNumber + 1;
  }

  static async create(): Promise<PdfPainter> {
    // updateMetadata: false keeps pdf-lib from writing its own Producer and the current time.
    return new PdfPainter(await PDFDocument.create({ updateMetadata: false }));
  }

  get pageCount(): number {
    return this.#pages.length;
  }

  /** Paints the next page's content; `faces` holds at least every face its text uses. */
  add(page: Page, faces: Readonly<Record<string, FontFace>>): void {
    const index = this.#pages.length;
    let images = false;
    const links: LinkItem[] = [];
    for (const item of page.items) {
      if (item.kind === 'text' && item.text !== '' && !this.#fonts.has(item.font)) {
        const face = faces[item.font];
        if (!face) throw new Error(`Text uses font ${item.font}, which the document's fonts do not have.`);
        const ref = PDFRef.of(this.#firstFontNumber + this.#fonts.size);
        this.#fonts.set(item.font, new PaintFont(ref, asFontkitFace(face), item.font));
      } else if (item.kind === 'image') {
        images = true;
        if (!this.#imageOrder.has(item.image)) this.#imageOrder.set(item.image, this.#imageOrder.size + 1);
      } else if (item.kind === 'anchor' && !this.#anchors.has(item.name)) {
        this.#anchors.set(item.name, { page: index, y: item.y });
      } else if (item.kind === 'link') links.push(item);
    }
    const resources: ResourceUse[] = [];
    const content = pageContent(page, this.#resources(resources, this.#imageOrder), this.#content);
    // zlib format at zlib's default level, as CompressionStream('deflate') writes it.
    const deflated = content.length > 0 && this.#held + content.length > HELD_CONTENT_BYTES;
    if (!deflated) this.#held += content.length;
    this.#pages.push({
      width: page.width,
      height: page.height,
      content: deflated ? zlibSync(content, { level: 6 }) : content.slice(),
      deflated,
      resources,
      links,
      ...(images ? { page } : {}),
    });
  }

  /** Writes the PDF: every object, in the order a painter holding all the pages would make them. */
  async finish(doc: DocumentParts, options: PaintOptions = {}): Promise<Uint8Array> {
    if (this.#pages.length === 0) throw new Error('A PDF needs at least one page; layout produced none.');
    const pdfDoc = this.#pdfDoc;
    const { context } = pdfDoc;
    for (const font of this.#fonts.values()) {
      if (context.nextRef() !== font.ref) throw new Error('PDF objects were made before the fonts were numbered.');
    }
    const streams = new FlateStreams(context);
    const images = await this.#embedImages(streams, doc);
    // An image that cannot be read is left out of its pages, and the later ones named again.
    if (images.size < this.#imageOrder.size) this.#repaintImagePages(images);

    const pdfPages = this.#pages.map((page) => pdfDoc.addPage([page.width, page.height]));
    const pageRefs = pdfPages.map((pdfPage) => pdfPage.ref);
    const pageHeights = this.#pages.map((page) => page.height);
    const anchorExists = (name: string) => this.#anchors.has(name);
    this.#pages.forEach((page, i) => {
      const pdfPage = pdfPages[i] as PDFPage;
      for (const use of page.resources) {
        if (use.kind === 'font') pdfPage.node.setFontDictionary(PDFName.of(use.name), this.#font(use.key).ref);
        else pdfPage.node.setXObject(PDFName.of(use.name), images.get(use.key) as PDFRef);
      }
      if (page.deflated) pdfPage.node.addContentStream(streams.addDeflated(page.content));
      else if (page.content.length > 0) pdfPage.node.addContentStream(streams.add(page.content));
      for (const item of page.links) {
        const annotation = linkAnnotation(context, item, page.height, anchorExists);
        if (annotation) pdfPage.node.addAnnot(annotation);
      }
    });
    this.#pages.length = 0;

    const dests = destinationNameTree(context, this.#anchors, pageRefs, pageHeights);
    if (dests) pdfDoc.catalog.set(PDFName.of('Names'), context.obj({ Dests: dests }));

    const outline = writeOutline(context, doc.outline, pageRefs, pageHeights);
    if (outline) {
      pdfDoc.catalog.set(PDFName.of('Outlines'), outline);
      // Open with the bookmarks panel showing (ISO 32000-1 §7.7.2, PageMode).
      pdfDoc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
    }

    writeDocumentInfo(pdfDoc, doc.metadata, options.producer ?? DEFAULT_PRODUCER);
    reserveDocumentId(pdfDoc);
    await writeFonts(streams, this.#fonts);
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

  #font(key: string): PaintFont {
    const font = this.#fonts.get(key);
    if (!font) throw new Error(`Font ${key} was not embedded.`);
    return font;
  }

  /** Resource names are short and fixed per document (/F1, /Im1…), noted per page on first use. */
  #resources(uses: ResourceUse[], imageIndex: ReadonlyMap<string, number>): ContentResources {
    const fontNames = new Map<string, string>();
    const imageNames = new Map<string, string>();
    return {
      fontName: (key) => {
        let name = fontNames.get(key);
        if (!name) {
          // Fonts are numbered in the order text first uses them, as their objects are (create).
          const resource = `F${this.#font(key).ref.objectNumber - this.#firstFontNumber + 1}`;
          uses.push({ kind: 'font', name: resource, key });
          name = `/${resource}`;
          fontNames.set(key, name);
        }
        return name;
      },
      encode: (key, text, write, rightToLeft) => this.#font(key).encodeInto(text, write, rightToLeft),
      imageName: (key) => {
        let name = imageNames.get(key);
        if (!name) {
          const index = imageIndex.get(key);
          if (index === undefined) throw new Error(`Image ${key} was not embedded.`);
          const resource = `Im${index}`;
          uses.push({ kind: 'image', name: resource, key });
          name = `/${resource}`;
          imageNames.set(key, name);
        }
        return name;
      },
    };
  }

  /** Embeds each image the pages draw, once per key, in the order they first do. */
  async #embedImages(streams: FlateStreams, doc: DocumentParts): Promise<Map<string, PDFRef>> {
    const images = new Map<string, PDFRef>();
    for (const key of this.#imageOrder.keys()) {
      const resource = doc.images[key];
      if (!resource) throw new Error(`An image item uses ${key}, which the document's images do not have.`);
      const ref = await embedImage(this.#pdfDoc, streams, resource);
      if (ref) images.set(key, ref);
      // One image's planes at a time: a PNG with alpha is split into two buffers as large as its
      // pixels, held until deflated, and twenty 16-megapixel ones queued together held 1.3 GB.
      await streams.done();
    }
    return images;
  }

  /**
   * Paints the pages that draw images again without those that did not embed, naming the rest by
   * their place among the images that did. Their text comes out the same: every glyph has its
   * code already.
   */
  #repaintImagePages(images: ReadonlyMap<string, PDFRef>): void {
    const imageIndex = new Map([...images.keys()].map((key, i) => [key, i + 1]));
    for (const painted of this.#pages) {
      const { page } = painted;
      if (!page) continue;
      const kept = { ...page, items: page.items.filter((item) => item.kind !== 'image' || images.has(item.image)) };
      const resources: ResourceUse[] = [];
      painted.content = pageContent(kept, this.#resources(resources, imageIndex), this.#content).slice();
      painted.deflated = false;
      painted.resources = resources;
    }
  }
}

export async function paintPdf(doc: LaidOutDocument, options: PaintOptions = {}): Promise<Uint8Array> {
  const painter = await PdfPainter.create();
  for (const page of doc.pages) painter.add(page, doc.fonts);
  return painter.finish(doc, options);
}
