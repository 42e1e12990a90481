// Lays a model out with the Noto fallback faces its text needs, as the converter does.
import { env } from 'cloudflare:test';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontNeeds } from '../../../src/engine/layout/font-requests';
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
