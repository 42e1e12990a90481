/**
 * DOCX → PDF, the whole pipeline of docs/engine.md: read the package into the document model, load
 * the fonts it uses, lay it out into pages, paint the PDF. Knows nothing of HTTP.
 */
import {
  checkPngsAhead,
  collectFontNeeds,
  type DocumentModel,
  type DocumentParts,
  type FontCache,
  type FontLibrary,
  type FontSet,
  type LayoutOptions,
  layoutPages,
  loadFontSet,
  type PageSink,
  PdfPainter,
  type RevisionMode,
  readDocx,
  readPartsAhead,
  type SuppliedFont,
} from '../../engine';
import { ApiError } from '../../errors';
import { inPageRanges, type PageRange, rangesBeyond } from '../../kit';
import { Budget, type Limits } from '../../limits';
import { type FontLibraryCache, fontLibrary } from '../fonts';

/** The revision modes are the reader's (one list, read-context.ts); the route takes them from here. */
export { REVISION_MODES, type RevisionMode } from '../../engine';

export interface DocxToPdfOptions {
  revisions: RevisionMode;
  /** The pages to write (1-based, kit/page-ranges.ts); absent: all. */
  pageRanges?: readonly PageRange[];
  /** What the conversion may cost (src/limits.ts): inflated bytes, pages, time. */
  limits: Limits;
  /** The clock the time budget reads; Date.now unless a test drives it. */
  now?: () => number;
}

export interface EngineResources {
  /** Static assets holding the bundled fonts (env.ASSETS). */
  assets: Fetcher;
  /** Parsed faces kept across requests by the isolate. */
  fontCache: FontCache;
  /** Parsed CJK fallback faces, kept apart: they are large (createFallbackFontCache, bounded in bytes). */
  fallbackFontCache?: FontCache;
  /** The caller's fonts of this request (readRequestFonts), tried after the document's embedded fonts. */
  fonts?: readonly SuppliedFont[];
  /** The account's font library (the FONTS R2 bucket), tried after the request's fonts. */
  fontLibrary?: FontLibrary;
}

/** What the isolate keeps for the engine across requests (owned by the app, see src/api/app.ts). */
export interface IsolateEngine {
  fontCache: FontCache;
  fallbackFontCache?: FontCache;
  /** The font library's answers (FONTS), when the binding is there. */
  fontLibraryCache?: FontLibraryCache;
}

export interface ConvertedPdf {
  pdf: Uint8Array;
  pages: number;
  warnings: string[];
}

export async function convertDocxToPdf(
  bytes: Uint8Array,
  options: DocxToPdfOptions,
  resources: EngineResources,
): Promise<ConvertedPdf> {
  // Each page is painted as layout hands it over and its display list let go of; the model is out
  // of reach once the pages are laid out (it lives in layOut's frame only), so writing the PDF's
  // objects does not hold it as well.
  const budget = new Budget(options.limits, options.now);
  return paintAsLaidOut((sink) => layOut(bytes, options, budget, resources, sink), options.pageRanges);
}

async function layOut(
  bytes: Uint8Array,
  options: DocxToPdfOptions,
  budget: Budget,
  resources: EngineResources,
  sink: PageSink,
): Promise<{ parts: DocumentParts; warnings: string[] }> {
  // The reader is synchronous: the large parts are inflated natively first, and the PNGs among
  // them checked natively, so that it need not do either with fflate.
  const partsAhead = await readPartsAhead(bytes, options.limits);
  const checkedPngs = await checkPngsAhead(partsAhead.values());
  const model = readDocx(bytes, {
    revisions: options.revisions,
    limits: options.limits,
    partsAhead,
    checkedPngs,
  });
  partsAhead.clear();
  // The revisions mode is the reader's alone: it leaves marks in the model only under markup.
  return layOutModel(model, { budget }, resources, sink);
}

/**
 * Loads the fonts a model uses and lays it out into `sink`: the stages every source format
 * shares once its reader has made the model (DOCX here, Markdown and HTML in markup-convert.ts).
 */
export async function layOutModel(
  model: DocumentModel,
  layout: LayoutOptions,
  resources: EngineResources,
  sink: PageSink,
): Promise<{ parts: DocumentParts; warnings: string[] }> {
  const fonts = await loadModelFonts(model, resources);
  const parts = layoutPages(model, fonts, layout, sink);
  return { parts, warnings: [...model.warnings, ...fonts.warnings] };
}

/** The fonts a model uses, for layout or for measuring its HTML tables (markup-convert.ts). */
export async function loadModelFonts(model: DocumentModel, resources: EngineResources): Promise<FontSet> {
  const { requests, fallbackFaces, fallbackCharacters } = collectFontNeeds(model);
  return loadFontSet(requests, {
    assets: resources.assets,
    embedded: model.embeddedFonts,
    ...(model.declaredFonts ? { declared: model.declaredFonts } : {}),
    cache: resources.fontCache,
    fallbackFaces,
    fallbackCharacters,
    ...(resources.fallbackFontCache ? { fallbackCache: resources.fallbackFontCache } : {}),
    ...(resources.fonts ? { supplied: resources.fonts } : {}),
    ...(resources.fontLibrary ? { library: resources.fontLibrary } : {}),
  });
}

/**
 * A model to PDF bytes: layOutModel with each page painted as it is handed over, under `budget`
 * (pages and time; started when the request's conversion began).
 */
export async function modelToPdf(
  model: DocumentModel,
  resources: EngineResources,
  budget: Budget,
  pageRanges?: readonly PageRange[],
): Promise<ConvertedPdf> {
  return paintAsLaidOut((sink) => layOutModel(model, { budget }, resources, sink), pageRanges);
}

/**
 * A PDF painted page by page as `layOutInto` hands the pages to the sink it is given; with
 * `pageRanges`, only the pages they choose are painted (the others are laid out, for the page
 * numbers and the pages after them, and let go of undrawn), and the outline keeps the entries on
 * those pages. Links to a place on a page left out are dropped by the painter (no destination).
 */
async function paintAsLaidOut(
  layOutInto: (sink: PageSink) => Promise<{ parts: DocumentParts; warnings: string[] }>,
  pageRanges?: readonly PageRange[],
): Promise<ConvertedPdf> {
  const painter = await PdfPainter.create();
  /** Index in the PDF of each page painted, by its index in the layout. */
  const painted = new Map<number, number>();
  let laidOut = 0;
  const { parts, warnings } = await layOutInto((page, faces) => {
    const index = laidOut++;
    if (pageRanges && !inPageRanges(pageRanges, index + 1)) return;
    painted.set(index, painter.pageCount);
    painter.add(page, faces);
  });
  if (pageRanges) {
    // As Chromium's "page range exceeds page count", but only when nothing is left to answer with.
    const beyond = rangesBeyond(pageRanges, laidOut);
    const count = `the document has ${laidOut} page${laidOut === 1 ? '' : 's'}`;
    if (painter.pageCount === 0) {
      const issue = `chooses no page: ${count}`;
      throw new ApiError('VALIDATION_ERROR', `pageRanges: ${issue}`, { details: [{ field: 'pageRanges', issue }] });
    }
    if (beyond.length > 0) {
      warnings.push(
        `pageRanges ${beyond.join(', ')} reach${beyond.length === 1 ? 'es' : ''} past the last page (${count}); the PDF holds the pages chosen that exist`,
      );
    }
    parts.outline = parts.outline.flatMap((entry) => {
      const page = painted.get(entry.page);
      return page === undefined ? [] : [{ ...entry, page }];
    });
  }
  const pages = painter.pageCount;
  const pdf = await painter.finish(parts);
  return { pdf, pages, warnings };
}

/**
 * The engine's resources for one request: the ASSETS binding, the isolate's font caches, the font
 * library when the FONTS binding is there, and the request's own fonts.
 */
export function engineResources(
  bindings: { ASSETS: Fetcher; FONTS?: R2Bucket },
  engine: IsolateEngine,
  fonts?: readonly SuppliedFont[],
): EngineResources {
  return {
    assets: bindings.ASSETS,
    fontCache: engine.fontCache,
    ...(engine.fallbackFontCache ? { fallbackFontCache: engine.fallbackFontCache } : {}),
    ...(fonts && fonts.length > 0 ? { fonts } : {}),
    ...(bindings.FONTS && engine.fontLibraryCache
      ? { fontLibrary: fontLibrary(bindings.FONTS, engine.fontLibraryCache) }
      : {}),
  };
}
