// Lays a model out with the Noto fallback faces its text needs, as the converter does.
import { env } from 'cloudflare:test';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import type { LaidOutDocument } from '../../../src/engine/layout/display-list';
import { layoutDocument } from '../../../src/engine/layout/document-layout';
import { collectFontNeeds } from '../../../src/engine/layout/font-requests';
import type { DocumentModel } from '../../../src/engine/model/document';

export async function layoutWithFallback(model: DocumentModel): Promise<LaidOutDocument> {
  const { requests, fallbackFaces, fallbackCharacters } = collectFontNeeds(model);
  const fonts = await loadFontSet(requests, {
    assets: env.ASSETS,
    embedded: [],
    cache: createFontCache(),
    fallbackFaces,
    fallbackCharacters,
  });
  return layoutDocument(model, fonts, { markup: false });
}
