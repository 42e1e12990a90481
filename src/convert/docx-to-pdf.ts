/**
 * DOCX → PDF, the whole pipeline of ENGINE.md: read the package into the document model, load
 * the fonts it uses, lay it out into pages, paint the PDF. Knows nothing of HTTP.
 */
import type { FontCache } from '../fonts/font-cache';
import { loadFontSet } from '../fonts/font-set';
import type { LaidOutDocument } from '../layout/display-list';
import { layoutDocument } from '../layout/document-layout';
import { collectFallbackFaces, collectFontRequests } from '../layout/font-requests';
import { readDocx } from '../ooxml/docx-reader';
import { checkPngsAhead } from '../ooxml/image-resource';
import { readPartsAhead } from '../ooxml/package-reader';
import { paintPdf } from '../pdf/paint-pdf';

export type RevisionMode = 'markup' | 'final' | 'original';

export interface DocxToPdfOptions {
  revisions: RevisionMode;
  /** Zip-bomb guard: the most the package may inflate to. */
  maxInflatedBytes: number;
}

export interface EngineResources {
  /** Static assets holding the bundled fonts (env.ASSETS). */
  assets: Fetcher;
  /** Parsed faces kept across requests by the isolate. */
  fontCache: FontCache;
  /** Parsed Noto fallback faces (CJK, Arabic…), kept apart: they are large (FALLBACK_FONT_CACHE_CAPACITY). */
  fallbackFontCache?: FontCache;
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
  // The model is out of reach once the pages are laid out (it lives in layOut's frame only), so
  // painting, which builds the PDF's own buffers, does not hold the model as well.
  const { laidOut, warnings } = await layOut(bytes, options, resources);
  const pdf = await paintPdf(laidOut);
  return { pdf, pages: laidOut.pages.length, warnings };
}

async function layOut(
  bytes: Uint8Array,
  options: DocxToPdfOptions,
  resources: EngineResources,
): Promise<{ laidOut: LaidOutDocument; warnings: string[] }> {
  // The reader is synchronous: the large parts are inflated natively first, and the PNGs among
  // them checked natively, so that it need not do either with fflate.
  const partsAhead = await readPartsAhead(bytes, options.maxInflatedBytes);
  const checkedPngs = await checkPngsAhead(partsAhead.values());
  const model = readDocx(bytes, {
    revisions: options.revisions,
    maxInflatedBytes: options.maxInflatedBytes,
    partsAhead,
    checkedPngs,
  });
  partsAhead.clear();
  const fonts = await loadFontSet(collectFontRequests(model), {
    assets: resources.assets,
    embedded: model.embeddedFonts,
    cache: resources.fontCache,
    fallbackFaces: collectFallbackFaces(model),
    ...(resources.fallbackFontCache ? { fallbackCache: resources.fallbackFontCache } : {}),
  });
  const laidOut = layoutDocument(model, fonts, { markup: options.revisions === 'markup' });
  return { laidOut, warnings: [...model.warnings, ...fonts.warnings] };
}
