/**
 * How the HTML reader fits a page as a browser's print does (issue 26): the body's 8px margin and
 * the page's own body margins, and images with only a ratio (an SVG with a viewBox alone).
 */
import { describe, expect, it } from 'vitest';
import type { Inline } from '../../../../src/engine/model/document';
import { readHtml } from '../../../../src/engine/read/html/html-reader';
import type { ImageLoader, LoadedImage } from '../../../../src/engine/read/html/image-loader-contract';
import { checkImage } from '../../../../src/engine/read/ooxml/image-resource';
import { fakeLoader, paragraphs, pngDataUri, read } from './html-fixtures';

const LETTER_TEXT = 612 - 2 * 72;

function imagesOf(inlines: readonly Inline[] | undefined) {
  return (inlines ?? []).filter((i) => i.kind === 'image');
}

describe('readHtml: the body margin', () => {
  it("adds the UA style sheet's 8px (6pt) body margin to the page's side margins", async () => {
    const model = await read(`<p>Text <img src="${pngDataUri(2000, 100)}"></p>`);
    const margins = model.sections[0]?.page.margins;
    expect(margins).toMatchObject({ left: 78, right: 78, top: 72, bottom: 72 });
    // The text width is the page's less the body's margins: a wide image is scaled to it.
    expect(imagesOf(paragraphs(model)[0]?.inlines)[0]?.width).toBeCloseTo(LETTER_TEXT - 12);
    // The paragraphs themselves carry no indent for it.
    expect(paragraphs(model)[0]?.props.indent.left).toBe(0);
  });

  it("follows the page's body margin and padding: 0, lengths, percentages, auto", async () => {
    const marginsOf = async (css: string) =>
      (await read(`<style>body { ${css} }</style><p>Text</p>`)).sections[0]?.page.margins;
    expect(await marginsOf('margin: 0')).toMatchObject({ left: 72, right: 72 });
    expect(await marginsOf('margin: 0; padding: 0 20px 0 10px')).toMatchObject({ left: 79.5, right: 87 });
    expect(await marginsOf('margin: 0 10%')).toMatchObject({ left: 72 + 46.8, right: 72 + 46.8 });
    expect(await marginsOf('margin: 0 auto')).toMatchObject({ left: 72, right: 72 });
    // A style attribute counts as much as a sheet, and no body margin takes more than half the page.
    const attr = await readHtml('<body style="margin-left: 20in"><p>x</p></body>', { loadImages: fakeLoader });
    const { left = 0, right = 0 } = attr.sections[0]?.page.margins ?? {};
    expect(left + right).toBeCloseTo(144 + LETTER_TEXT / 2);
    expect(left).toBeGreaterThan(right);
  });

  it('keeps the body margin out of the paragraphs: a margin-left on an inner block still indents', async () => {
    const model = await read('<style>body { margin: 0 } div { margin-left: 30px }</style><div>Inner</div>');
    expect(model.sections[0]?.page.margins.left).toBe(72);
    expect(paragraphs(model)[0]?.props.indent.left).toBe(22.5);
  });
});

describe('readHtml: images with only a ratio', () => {
  /** Answers every source with one 10 × 5 PNG whose natural size the loader gives as below. */
  const loaderWith =
    (natural: { width: number; height: number; ratioOnly?: boolean }): ImageLoader =>
    async (sources) => {
      const png = Uint8Array.from(atob(pngDataUri(10, 5).split(',')[1] ?? ''), (c) => c.charCodeAt(0));
      const checked = checkImage(png);
      if (!('image' in checked)) throw new Error('fixture PNG not read');
      return new Map<string, LoadedImage>(sources.map((s) => [s, { image: checked.image, natural }]));
    };

  it('makes an image with only a ratio as wide as its container (CSS 2.1 §10.3.2)', async () => {
    const html =
      '<p><img src="a.svg"></p><p><img src="a.svg" width="120"></p><p><img src="a.svg" style="height: 30pt"></p>';
    const model = await readHtml(html, { loadImages: loaderWith({ width: 24, height: 12, ratioOnly: true }) });
    const [filled, byWidth, byHeight] = paragraphs(model).map((p) => imagesOf(p.inlines)[0]);
    expect(filled).toMatchObject({ width: LETTER_TEXT - 12, height: (LETTER_TEXT - 12) / 2 });
    // A width or height the page gives wins; the ratio gives the other.
    expect(byWidth).toMatchObject({ width: 90, height: 45 });
    expect(byHeight).toMatchObject({ width: 60, height: 30 });
  });

  it("uses the loader's natural size, not the raster's pixels, for an image that has one", async () => {
    const model = await readHtml('<p><img src="a.svg"></p>', { loadImages: loaderWith({ width: 40, height: 20 }) });
    expect(imagesOf(paragraphs(model)[0]?.inlines)[0]).toMatchObject({ width: 30, height: 15 });
  });
});

describe('readHtml: what form fields show', () => {
  it('shows an empty field’s placeholder in grey, as browsers print it; a value wins over it', async () => {
    const model = await read(
      '<p><input placeholder="Search query"> <input value="Bears" placeholder="Search query"> <textarea placeholder="Your comment"></textarea></p>',
    );
    const runs = paragraphs(model)[0]?.inlines.filter((i) => i.kind === 'text') ?? [];
    const text = runs.map((r) => r.text).join('');
    expect(text).toBe('Search query Bears Your comment');
    const hint = runs.find((r) => r.text.includes('Search'));
    expect(hint?.props.color).toBe('757575');
    expect(runs.find((r) => r.text.includes('Bears'))?.props.color).not.toBe('757575');
  });
});
