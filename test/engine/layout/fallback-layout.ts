// Lays a model out with the Noto fallback faces its text needs, as the converter does.
import { env } from 'cloudflare:test';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontNeeds, collectFontRequests } from '../../../src/engine/layout/font-requests';
import type { DocumentModel } from '../../../src/engine/model/document';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { layoutDocument } from '../../../src/engine/pages/document-layout';

export async function layoutWithFallback(model: DocumentModel): Promise<LaidOutDocument> {
  const { requests, fallbackFaces, fallbackCharacters } = collectFontNeeds(model);
  const fonts = await loadFontSet(requests, {
    assets: env.ASSETS,
    embedded: [],
    cache: createFontCache(),
    fallbackFaces,
    fallbackCharacters,
  });
  return layoutDocument(model, fonts);
}

/**
 * Lays a model out with the bundled faces its text asks for (no Noto fallback), as most layout tests
 * do: one font cache per call of this, so a test file's layouts share parsed faces.
 */
export function bundledLayout(): (model: DocumentModel) => Promise<LaidOutDocument> {
  const cache = createFontCache();
  return async (model) =>
    layoutDocument(model, await loadFontSet(collectFontRequests(model), { assets: env.ASSETS, embedded: [], cache }));
}
