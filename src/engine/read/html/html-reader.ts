/**
 * HTML → document model (docs/engine.md "One pipeline"): parse (html-tree.ts), read the style sheets
 * (css-rules.ts), find footnotes and link targets, load every image in one call, then walk the
 * tree into one section of blocks (block-builder.ts). Properties are resolved through the markup
 * styles' DOCX cascade (markup-styles.ts), so a DOCX written from the model reads back the same.
 */

import type { Block, DocumentModel, ImageResource, ListDefinition, Paragraph } from '../../model';
import { markupStyleCascade, PARAGRAPH_STYLES } from '../markup';
import { HtmlWalker, type LoadedImageRef, MAX_DEPTH, withLanguage } from './block-builder';
import { bodyInset } from './body-box';
import { bookmarkNames, fragmentOf } from './bookmark-names';
import { pageDeclarations, parseStyleSheets, readStyleSheets, type StyleSheetSource } from './css-rules';
import type { WalkContext } from './format-context';
import { findFootnotes } from './html-notes';
import { attribute, type Element, elementsInOrder, parseHtml, tagName, textContent } from './html-tree';
import type { ImageLoader } from './image-loader-contract';
import { FlowBuilder } from './inline-builder';
import { mediaEnvironment, PAPER_SIZES, type PaperMargins, type PaperSize, pageGeometry } from './page-geometry';
import { canvasBackground } from './print-colors';
import { RunStyles } from './run-styles';
import { documentUrls, isRelativeUrl } from './urls';

export type { ImageLoader, LoadedImage } from './image-loader-contract';

export { PAPER_SIZES, type PaperMargins, type PaperSize } from './page-geometry';

/**
 * What the caller asked for, as a browser's print dialog would: each one given wins over the
 * document's own CSS (@page), each one absent leaves it to the CSS, then to the defaults
 * (US Letter, 1 in margins, no backgrounds).
 */
export interface HtmlReadOptions {
  /** The paper; absent: the CSS @page size, else US Letter. */
  pageSize?: PaperSize;
  /** Turn whichever paper was chosen (the caller's or @page's) to landscape. */
  landscape?: boolean;
  /** Absent: the CSS @page margins, else fallbackMargins. */
  margins?: PaperMargins;
  /** The margins when neither the caller nor the CSS gives any; absent: 1 in on every side. */
  fallbackMargins?: PaperMargins;
  /** Paint backgrounds (colours behind text, cells and blocks); browsers leave them out of print unless asked. */
  printBackground?: boolean;
  /** The address relative and protocol-relative URLs resolve against (after any <base href>). */
  baseUrl?: string;
  /**
   * The body's margin when the CSS gives none, in points: absent, the browsers' 8 CSS px
   * (body-box.ts). Markdown gives 0: its page margins are the whole of its document's.
   */
  defaultBodyMargin?: number;
  /**
   * Whose defaults an element without CSS gets where HTML's and a document's differ: 'html' (the
   * default) as a browser draws it, 'markdown' as Quire's Markdown documents look (a table without
   * borders of its own gets a light grid).
   */
  source?: 'html' | 'markdown';
  /** From Markdown front matter; wins over <title>. */
  title?: string;
  loadImages: ImageLoader;
}

const MARGIN = 72;
/** More distinct images than this in one document are not loaded (each one is a fetch or a decode). */
const MAX_IMAGES = 500;

export async function readHtml(html: string, options: HtmlReadOptions): Promise<DocumentModel> {
  const source = typeof html === 'string' ? html : String(html ?? '');
  const document = parseHtml(source);
  const inOrder = elementsInOrder(document);
  const elements = inOrder.elements;
  const warnings: string[] = [];

  // One pass over the elements for what the walk needs to know ahead.
  const sheets: StyleSheetSource[] = [];
  const sources: string[] = [];
  const seenSources = new Set<string>();
  const targets = new Set<string>();
  const hrefs: string[] = [];
  let baseHref: string | undefined;
  let titleElement: Element | undefined;
  let body: Element | undefined;
  let rootElement: Element | undefined;
  for (const element of elements) {
    const tag = tagName(element);
    if (tag === 'style') {
      const media = attribute(element, 'media');
      sheets.push(media === undefined ? { text: textContent(element) } : { text: textContent(element), media });
    } else if (tag === 'title') titleElement ??= element;
    else if (tag === 'body') body ??= element;
    else if (tag === 'html') rootElement ??= element;
    else if (tag === 'base') baseHref ??= attribute(element, 'href');
    else if (tag === 'img') {
      const src = attribute(element, 'src')?.trim();
      if (src && !seenSources.has(src) && seenSources.size < MAX_IMAGES) {
        seenSources.add(src);
        sources.push(src);
      }
    } else if (tag === 'a') {
      const href = attribute(element, 'href') ?? '';
      const fragment = fragmentOf(href);
      if (fragment !== undefined) targets.add(fragment);
      else hrefs.push(href);
    }
  }
  // The page: @page rules are read at the caller's or default page (a @media around @page asks
  // about that one), the style rules at the page they give (CSS Paged Media 3 §7, media-queries.ts).
  const parsedSheets = parseStyleSheets(sheets);
  const choice = {
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    ...(options.landscape ? { landscape: true } : {}),
    ...(options.margins ? { margins: options.margins } : {}),
    fallbackMargins: options.fallbackMargins ?? { top: MARGIN, right: MARGIN, bottom: MARGIN, left: MARGIN },
    fallbackSize: PAPER_SIZES.letter,
  };
  const { page, margins } = pageGeometry(
    choice,
    pageDeclarations(parsedSheets, mediaEnvironment(pageGeometry(choice, []))),
  );
  const environment = mediaEnvironment({ page, margins });
  const textWidth = page.width - margins.left - margins.right;
  // Relative URLs resolve against <base href>, then the caller's baseUrl (urls.ts).
  const urls = documentUrls(baseHref, options.baseUrl, warnings);
  const relative = hrefs.filter((href) => isRelativeUrl(urls.resolve(href)));
  if (relative.length > 0) {
    warnings.push(
      `${relative.length === 1 ? 'a link has a relative URL' : `${relative.length} links have relative URLs`} (${shorten(relative[0] as string)}) and there is no base URL, so ${relative.length === 1 ? 'it is text, not a link' : 'they are text, not links'}; send baseUrl, the address the document's relative URLs are relative to`,
    );
  }
  const notes = findFootnotes(inOrder);
  const bookmarkIds: string[] = [];
  for (const element of elements) {
    const id = attribute(element, 'id') ?? (tagName(element) === 'a' ? attribute(element, 'name') : undefined);
    if (id === undefined || notes.items.has(id)) continue;
    if (targets.has(id) || /^h[1-6]$/.test(tagName(element))) bookmarkIds.push(id);
  }
  const bookmarks = bookmarkNames(bookmarkIds);

  // Every image in one call to the loader; failures become warnings and the alt text.
  const images: Record<string, ImageResource> = {};
  const imageRefs = new Map<string, LoadedImageRef | undefined>();
  if (sources.length > 0) {
    // Keyed by the src as written (the walker looks it up so); fetched by its absolute URL.
    const resolved = sources.map((src) => urls.resolve(src));
    let loaded: Map<string, import('./image-loader-contract').LoadedImage>;
    try {
      loaded = await options.loadImages([...new Set(resolved)]);
    } catch (error) {
      loaded = new Map();
      warnings.push(`images could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
    }
    sources.forEach((src, index) => {
      const url = resolved[index] as string;
      const entry = loaded.get(url);
      if (entry && 'image' in entry) {
        const imageId = `img${index + 1}`;
        images[imageId] = entry.image;
        const natural = entry.natural;
        imageRefs.set(src, {
          imageId,
          pixelWidth: natural?.width ?? entry.image.pixelWidth,
          pixelHeight: natural?.height ?? entry.image.pixelHeight,
          ...(natural?.ratioOnly ? { ratioOnly: true } : {}),
        });
      } else {
        imageRefs.set(src, undefined);
        warnings.push(
          `image ${index + 1} (${shorten(url)}): ${entry && 'problem' in entry ? entry.problem : 'not loaded'}`,
        );
      }
    });
  }

  const cascade = markupStyleCascade();
  const lists: Record<string, ListDefinition> = {};
  const runStyles = new RunStyles(cascade);
  const walker = new HtmlWalker({
    cascade,
    runStyles,
    rules: readStyleSheets(parsedSheets, environment),
    printBackground: options.printBackground === true,
    bookmarks,
    notes,
    images: imageRefs,
    lists,
    resolveUrl: urls.resolve,
    gridUnstyledTables: options.source === 'markdown',
  });
  // The body's side margins and padding (8px by default) narrow every page's text (body-box.ts).
  const normalSize = walker.styleFontSize(PARAGRAPH_STYLES.normal);
  const inset = bodyInset(body ? walker.styleOf(body) : undefined, normalSize, textWidth, options.defaultBodyMargin);
  const pageMargins = { ...margins, left: margins.left + inset.left, right: margins.right + inset.right };
  const context: WalkContext = {
    block: {
      styleId: PARAGRAPH_STYLES.normal,
      indentLeft: 0,
      quoteDepth: 0,
      listLevel: 0,
      tableDepth: 0,
      available: textWidth - inset.left - inset.right,
    },
    run: { delta: {} },
    whiteSpace: 'normal',
    fontSize: normalSize,
    inPre: false,
    inNote: false,
  };
  const root = body ?? (document as unknown as Element);
  const flow = new FlowBuilder(runStyles);
  // The walk starts at the body: the root element's language is the document's.
  walker.visit(
    root as never,
    rootElement && root !== rootElement ? withLanguage(rootElement, context) : context,
    flow,
    0,
  );
  const blocks = flow.finish(context.block);
  if (blocks.length === 0) {
    flow.flush(context.block, true);
  }

  // Footnotes, in the order of their first reference.
  const footnotes: Record<string, Block[]> = {};
  for (const [itemId, mark] of walker.noteMarks) {
    const item = notes.items.get(itemId);
    if (!item) continue;
    const noteContext: WalkContext = {
      ...context,
      block: { ...context.block, styleId: PARAGRAPH_STYLES.footnoteText },
      fontSize: walker.styleFontSize(PARAGRAPH_STYLES.footnoteText),
      inNote: true,
    };
    const noteBlocks = walker.flowOf(item, noteContext, Math.min(MAX_DEPTH, 4), true);
    const first = noteBlocks.find((b): b is Paragraph => b.kind === 'paragraph');
    if (first) {
      const styleId = first.props.styleId ?? PARAGRAPH_STYLES.footnoteText;
      first.inlines.unshift(
        {
          kind: 'text',
          text: mark,
          styleId: 'FootnoteReference',
          props: cascade.runProperties(undefined, styleId, 'FootnoteReference', undefined),
        },
        { kind: 'text', text: ' ', props: cascade.runProperties(undefined, styleId, undefined, undefined) },
      );
    }
    footnotes[mark] = noteBlocks;
  }

  const title = options.title ?? (titleElement ? textContent(titleElement).replace(/\s+/g, ' ').trim() : undefined);
  const model: DocumentModel = {
    properties: title ? { title } : {},
    settings: { defaultTabStop: 36, evenAndOddHeaders: false },
    sections: [
      {
        start: 'nextPage',
        page: {
          width: page.width,
          height: page.height,
          margins: { ...pageMargins, header: 36, footer: 36, gutter: 0 },
        },
        columns: { count: 1, space: 36, separator: false },
        titlePage: false,
        pageNumbering: { format: 'decimal' },
        headers: {},
        footers: {},
        blocks: flow.blocks,
      },
    ],
    images,
    embeddedFonts: [],
    notes: { footnotes, endnotes: {} },
    warnings,
  };
  if (Object.keys(lists).length > 0) model.lists = lists;
  const background = canvasBackground(
    rootElement ? walker.styleOf(rootElement) : undefined,
    body ? walker.styleOf(body) : undefined,
    options.printBackground === true,
  );
  if (background) model.background = background;
  return model;
}

function shorten(src: string): string {
  const s = src.startsWith('data:') ? `${src.slice(0, 30)}…` : src;
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}
