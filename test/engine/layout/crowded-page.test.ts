// A page may hold more items than a function call takes arguments: painting it must not spread
// them as arguments (a stack overflow, a 500).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontRequests } from '../../../src/engine/layout/font-requests';
import { layoutDocument } from '../../../src/engine/pages/document-layout';
import { documentModel, paragraph, section } from '../../helpers/model-builder';

describe('a crowded page', () => {
  it('paints 200,000 shaded paragraphs of exact line height 0 on one page', async () => {
    const blocks = Array.from({ length: 200_000 }, () =>
      paragraph('a', { shading: 'FF0000', spacing: { before: 0, after: 0, line: 0, lineRule: 'exact' } }),
    );
    const model = documentModel([section(blocks)]);
    const fonts = await loadFontSet(collectFontRequests(model), {
      assets: env.ASSETS,
      embedded: [],
      cache: createFontCache(),
    });
    const laid = layoutDocument(model, fonts);
    expect(laid.pages.length).toBe(1);
    const items = laid.pages[0]?.items ?? [];
    // The shading goes under the text: every rectangle before the first text.
    expect(items.filter((item) => item.kind === 'rect').length).toBe(200_000);
    expect(items.findIndex((item) => item.kind === 'text')).toBe(200_000);
  });
});
