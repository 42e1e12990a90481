// Lays a model out with the Noto fallback faces its text needs, as the converter does.
import { env } from 'cloudflare:test';
import { createFontCache } from '../../src/fonts/font-cache';
import { loadFontSet } from '../../src/fonts/font-set';
import type { LaidOutDocument } from '../../src/layout/display-list';
import { layoutDocument } from '../../src/layout/document-layout';
import { collectFontNeeds } from '../../src/layout/font-requests';
import type { DocumentModel } from '../../src/model/document';

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
