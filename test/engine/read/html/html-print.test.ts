import { env } from 'cloudflare:test';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../../src/engine/fonts/font-set';
import { collectFallbackFaces, collectFontRequests } from '../../../../src/engine/layout/font-requests';
import type { DocumentModel } from '../../../../src/engine/model/document';
import { layoutDocument } from '../../../../src/engine/pages/document-layout';
import { type HtmlReadOptions, PAPER_SIZES, readHtml } from '../../../../src/engine/read/html/html-reader';
import { mediaMatches } from '../../../../src/engine/read/html/media-queries';
import { textColorForWhiteBackground } from '../../../../src/engine/read/html/print-colors';
import { paintPdf } from '../../../../src/engine/write/pdf/paint-pdf';
import { pageContentText } from '../../../helpers/pdf-inspect';
import { pageText } from '../../../helpers/pdf-text';
import { fakeLoader, paragraphs, tables, texts } from './html-fixtures';

function read(html: string, options: Partial<HtmlReadOptions> = {}): Promise<DocumentModel> {
  return readHtml(html, { loadImages: fakeLoader, ...options });
}

const pageOf = (model: DocumentModel) => model.sections[0]?.page;
const colorOf = (model: DocumentModel, i: number) => texts(paragraphs(model)[i])[0]?.props.color;

/** Letter with 1 in margins: a 624 × 864 CSS px content box on an 816 × 1056 px page. */
const LETTER = { width: 624, height: 864, pageWidth: 816, pageHeight: 1056 };

describe('readHtml: print media queries', () => {
  it('matches media types as a printed page: print, all and none, not screen or speech', () => {
    expect(mediaMatches('print', LETTER)).toBe(true);
    expect(mediaMatches('all', LETTER)).toBe(true);
    expect(mediaMatches('', LETTER)).toBe(true);
    expect(mediaMatches('only print', LETTER)).toBe(true);
    expect(mediaMatches('PRINT', LETTER)).toBe(true);
    expect(mediaMatches('screen', LETTER)).toBe(false);
    expect(mediaMatches('speech', LETTER)).toBe(false);
    expect(mediaMatches('tty', LETTER)).toBe(false);
    expect(mediaMatches('not screen', LETTER)).toBe(true);
    expect(mediaMatches('not print', LETTER)).toBe(false);
    expect(mediaMatches('screen, print', LETTER)).toBe(true);
    // A malformed query in a list is `not all`; the others still count (Media Queries 4 §3.2).
    expect(mediaMatches('screen and junk, print', LETTER)).toBe(true);
    expect(mediaMatches('print and (', LETTER)).toBe(false);
  });

  it('evaluates features against the page content box in CSS px', () => {
    expect(mediaMatches('(min-width: 600px)', LETTER)).toBe(true);
    expect(mediaMatches('(max-width: 600px)', LETTER)).toBe(false);
    expect(mediaMatches('print and (max-width: 7in)', LETTER)).toBe(true);
    expect(mediaMatches('(width > 40em)', LETTER)).toBe(false);
    expect(mediaMatches('(400px <= width < 700px)', LETTER)).toBe(true);
    expect(mediaMatches('(height >= 800px)', LETTER)).toBe(true);
    expect(mediaMatches('(orientation: portrait)', LETTER)).toBe(true);
    expect(mediaMatches('(orientation: landscape)', LETTER)).toBe(false);
    expect(mediaMatches('(min-aspect-ratio: 1/1)', LETTER)).toBe(false);
    expect(mediaMatches('(color)', LETTER)).toBe(true);
    expect(mediaMatches('(monochrome)', LETTER)).toBe(false);
    expect(mediaMatches('(prefers-color-scheme: light)', LETTER)).toBe(true);
    expect(mediaMatches('(prefers-color-scheme: dark)', LETTER)).toBe(false);
    expect(mediaMatches('(hover: hover)', LETTER)).toBe(false);
    expect(mediaMatches('(hover: none) and (pointer: none)', LETTER)).toBe(true);
    expect(mediaMatches('(any-pointer: fine)', LETTER)).toBe(false);
    expect(mediaMatches('not (color)', LETTER)).toBe(false);
    expect(mediaMatches('(monochrome) or (color)', LETTER)).toBe(true);
    // Unknown features do not match, negated or not.
    expect(mediaMatches('(fancy-feature)', LETTER)).toBe(false);
    expect(mediaMatches('not (fancy-feature)', LETTER)).toBe(false);
    expect(mediaMatches('(max-width: 100furlongs)', LETTER)).toBe(false);
  });

  it('applies @media, <style media>, @supports and @layer rules that match a printed page', async () => {
    const model = await read(`<style>
      p { color: red; }
      @media screen { .a { color: blue; } }
      @media print and (min-width: 500px) { .b { color: green; } }
      @media (max-width: 500px) { .c { color: blue; } }
      @media (prefers-color-scheme: dark) { .d { color: blue; } }
      @supports (display: grid) { .e { color: green; } }
      @layer base { .f { color: green; } }
      @layer base, other;
    </style>
    <style media="screen">.g { color: blue; }</style>
    <style media="print">.h { color: green; }</style>
    <p class="a">a</p><p class="b">b</p><p class="c">c</p><p class="d">d</p><p class="e">e</p><p class="f">f</p>
    <p class="g">g</p><p class="h">h</p>`);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => colorOf(model, i))).toEqual([
      'FF0000',
      '008000',
      'FF0000',
      'FF0000',
      '008000',
      '008000',
      'FF0000',
      '008000',
    ]);
  });

  it('asks width queries about the page the caller or @page chose', async () => {
    const html = `<style>@media (max-width: 500px) { p { color: green; } } p { color: red }</style><p>x</p>`;
    // red is later in the sheet: a green here would come from !important only, so ask the other way.
    const narrow = `<style>p { color: red } @media (max-width: 500px) { p { color: green; } }</style><p>x</p>`;
    expect(colorOf(await read(html), 0)).toBe('FF0000');
    expect(colorOf(await read(narrow), 0)).toBe('FF0000');
    expect(colorOf(await read(narrow, { pageSize: { width: 400, height: 600 } }), 0)).toBe('008000');
    expect(colorOf(await read(`<style>@page { size: A5 }</style>${narrow}`), 0)).toBe('008000');
  });
});

describe('readHtml: @page', () => {
  it('takes size keywords, orientation and lengths', async () => {
    const a4 = pageOf(await read('<style>@page { size: A4 }</style><p>x</p>'));
    expect(a4?.width).toBeCloseTo(595.3, 0);
    expect(a4?.height).toBeCloseTo(841.9, 0);
    const a4Landscape = pageOf(await read('<style>@page { size: a4 landscape }</style><p>x</p>'));
    expect(a4Landscape?.width).toBeCloseTo(841.9, 0);
    const legal = pageOf(await read('<style>@page { size: legal }</style><p>x</p>'));
    expect(legal).toMatchObject({ width: 612, height: 1008 });
    const lengths = pageOf(await read('<style>@page { size: 5in 7in }</style><p>x</p>'));
    expect(lengths).toMatchObject({ width: 360, height: 504 });
    const square = pageOf(await read('<style>@page { size: 6in }</style><p>x</p>'));
    expect(square).toMatchObject({ width: 432, height: 432 });
    const landscapeOnly = pageOf(await read('<style>@page { size: landscape }</style><p>x</p>'));
    expect(landscapeOnly).toMatchObject({ width: 792, height: 612 });
    const jis = pageOf(await read('<style>@page { size: JIS-B5 }</style><p>x</p>'));
    expect(jis?.width).toBeCloseTo((182 * 72) / 25.4, 3);
    // Junk, and page selectors, leave the default.
    const junk = pageOf(await read('<style>@page { size: huge } @page :first { size: A3 }</style><p>x</p>'));
    expect(junk).toMatchObject({ width: 612, height: 792 });
  });

  it('takes margins: shorthand, sides, percentages of the page', async () => {
    // The body's UA margin (8px) is the page's too (body-box.ts): set to 0 to see @page's alone.
    const page = pageOf(
      await read('<style>body { margin: 0 } @page { margin: 1cm 2cm; margin-top: 0.5in }</style><p>x</p>'),
    );
    expect(page?.margins.top).toBe(36);
    expect(page?.margins.bottom).toBeCloseTo(28.35, 2);
    expect(page?.margins.left).toBeCloseTo(56.69, 2);
    const percent = pageOf(await read('<style>body { margin: 0 } @page { margin: 10% }</style><p>x</p>'));
    expect(percent?.margins.left).toBeCloseTo(61.2, 5);
    expect(percent?.margins.top).toBeCloseTo(79.2, 5);
    // A side @page leaves alone comes from the fallback.
    const one = pageOf(
      await read('<style>body { margin: 0 } @page { margin-left: 0 }</style><p>x</p>', {
        fallbackMargins: { top: 30, right: 30, bottom: 30, left: 30 },
      }),
    );
    expect(one?.margins).toMatchObject({ top: 30, right: 30, bottom: 30, left: 0 });
    // @page inside @media print counts; inside @media screen it does not.
    const media = pageOf(
      await read('<style>@media print { @page { size: A5 } } @media screen { @page { size: A3 } }</style><p>x</p>'),
    );
    expect(media?.width).toBeCloseTo(419.5, 0);
  });

  it("lets the caller's options win, and the caller's landscape turn whichever paper won", async () => {
    const css = '<style>body { margin: 0 } @page { size: A4; margin: 0.5in }</style><p>x</p>';
    const caller = pageOf(
      await read(css, { pageSize: PAPER_SIZES.letter, margins: { top: 10, right: 20, bottom: 30, left: 40 } }),
    );
    expect(caller).toMatchObject({ width: 612, height: 792, margins: { top: 10, right: 20, bottom: 30, left: 40 } });
    const landscape = pageOf(await read(css, { landscape: true }));
    expect(landscape?.width).toBeCloseTo(841.9, 0);
    expect(landscape?.margins.top).toBe(36);
    const both = pageOf(await read(css, { pageSize: PAPER_SIZES.letter, landscape: true }));
    expect(both).toMatchObject({ width: 792, height: 612 });
    // The caller's paper wins over @page's orientation too.
    const portrait = pageOf(
      await read('<style>body { margin: 0 } @page { size: landscape }</style>', {
        pageSize: { width: 500, height: 700 },
      }),
    );
    expect(portrait).toMatchObject({ width: 500, height: 700 });
  });
});

describe('readHtml: page breaks (CSS Fragmentation 3 §3)', () => {
  it('breaks before and after blocks, with the legacy aliases', async () => {
    const model = await read(`<p>0</p><p style="break-before: page">1</p><p style="page-break-before: always">2</p>
      <p style="break-after: right">3</p><p>4</p><p style="page-break-after: always">5</p><p>6</p>
      <p style="break-before: recto">7</p><p style="break-before: auto">8</p><p style="break-before: column">9</p>`);
    expect(paragraphs(model).map((p) => p.props.pageBreakBefore)).toEqual([
      false,
      true,
      true,
      false,
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
  });

  it('keeps with the next block for avoid, and keeps a block together for break-inside: avoid', async () => {
    const model = await read(`<h2 style="break-after: avoid">H</h2><p>a</p>
      <p>b</p><p style="page-break-before: avoid">c</p>
      <div style="break-inside: avoid"><p>d1</p><p>d2</p></div><p>e</p>
      <div style="page-break-inside: avoid"><p>f</p></div><p style="break-after: avoid-page">g</p><p>h</p>`);
    const ps = paragraphs(model);
    const by = (t: string) => ps.find((p) => texts(p)[0]?.text === t)?.props;
    expect(by('H')?.keepNext).toBe(true);
    expect(by('a')?.keepNext).toBe(false);
    expect(by('b')?.keepNext).toBe(true);
    expect(by('d1')).toMatchObject({ keepNext: true, keepLines: true });
    expect(by('d2')).toMatchObject({ keepNext: false, keepLines: true });
    expect(by('e')).toMatchObject({ keepNext: false, keepLines: false });
    expect(by('f')).toMatchObject({ keepNext: false, keepLines: true });
    expect(by('g')?.keepNext).toBe(true);
  });

  it('breaks around lists, list items and tables, and keeps table rows whole', async () => {
    const model = await read(`<p>0</p><ul style="break-before: page"><li>1</li><li style="break-before: page">2</li>
      <li style="break-inside: avoid">3<p>3b</p></li></ul>
      <table style="break-after: page"><tr style="page-break-inside: avoid"><td>t</td></tr><tr><td>u</td></tr></table>
      <p>4</p>`);
    const ps = paragraphs(model);
    const by = (t: string) => ps.find((p) => texts(p)[0]?.text === t)?.props;
    expect(by('1')?.pageBreakBefore).toBe(true);
    expect(by('2')?.pageBreakBefore).toBe(true);
    expect(by('3')).toMatchObject({ keepLines: true, keepNext: true });
    expect(by('3b')).toMatchObject({ keepLines: true });
    expect(by('4')?.pageBreakBefore).toBe(true);
    expect(tables(model)[0]?.rows.map((r) => r.cantSplit)).toEqual([true, false]);
  });
});

describe('readHtml: backgrounds in print (CSS Color Adjust 1 §3)', () => {
  const html = `<body style="background: #222; color: #eee">
    <p style="background-color: #ff0">block</p>
    <p>text <span style="background-color: #0f0; color: black">span</span> <mark>marked</mark></p>
    <table><tr style="background: #00f"><td bgcolor="red">cell</td><td>row</td></tr></table>
    <div style="-webkit-print-color-adjust: exact"><p style="background-color: #ff0">kept <span style="background: #0f0">kept span</span></p></div>
    <p style="border-bottom: 1px solid #f00; background: #ff0">bordered</p>
  </body>`;

  it('leaves backgrounds out by default, keeps borders, keeps exact ones (inherited)', async () => {
    const model = await read(html);
    const ps = paragraphs(model);
    expect(ps[0]?.props.shading).toBeUndefined();
    const inlineRuns = texts(ps[1]);
    expect(inlineRuns.every((r) => r.props.shading === undefined && r.props.highlight === undefined)).toBe(true);
    const row = tables(model)[0]?.rows[0];
    expect(row?.cells.map((c) => c.shading)).toEqual([undefined, undefined]);
    const kept = ps.find((p) => texts(p)[0]?.text.startsWith('kept'));
    expect(kept?.props.shading).toBe('FFFF00');
    expect(texts(kept).find((r) => r.text.includes('kept span'))?.props.shading).toBe('00FF00');
    const bordered = ps.find((p) => texts(p)[0]?.text === 'bordered');
    expect(bordered?.props.shading).toBeUndefined();
    // No page colour; <mark>'s text is the UA sheet's black all the same (HTML §15.3.4).
    expect(model.background).toBeUndefined();
    expect(texts(ps[1]).find((r) => r.text === 'marked')?.props.color).toBe('000000');
    // The body's background prints with print-color-adjust: exact on the root or the body.
    const exactRoot = await read('<html style="print-color-adjust: exact"><body style="background: #123456"><p>x</p>');
    expect(exactRoot.background).toBe('123456');
  });

  it('paints them all with printBackground', async () => {
    const model = await read(html, { printBackground: true });
    const ps = paragraphs(model);
    expect(ps[0]?.props.shading).toBe('FFFF00');
    expect(texts(ps[1]).find((r) => r.text === 'span')?.props.shading).toBe('00FF00');
    expect(texts(ps[1]).find((r) => r.text === 'marked')?.props.highlight).toBe('FFFF00');
    expect(tables(model)[0]?.rows[0]?.cells.map((c) => c.shading)).toEqual(['FF0000', '0000FF']);
    // Nor is light text darkened: its background prints.
    expect(texts(ps[1])[0]?.props.color).toBe('EEEEEE');
    // The body's background is the page's (CSS 2.1 §14.2), not a strip behind each block.
    expect(model.background).toBe('222222');
    expect(ps[1]?.props.shading).toBeUndefined();
    // The root's wins over the body's; a transparent root hands it to the body.
    const root = await read('<html style="background: #010203"><body style="background: #222"><p>x</p>', {
      printBackground: true,
    });
    expect(root.background).toBe('010203');
    const handed = await read('<html style="background: transparent"><body style="background: #222"><p>x</p>', {
      printBackground: true,
    });
    expect(handed.background).toBe('222222');
  });

  it('keeps a cell background with print-color-adjust: exact on the cell', async () => {
    const model = await read(
      `<table><tr><td style="background: #ccc; print-color-adjust: exact">a</td><td style="background: #ccc">b</td></tr></table>`,
    );
    expect(tables(model)[0]?.rows[0]?.cells.map((c) => c.shading)).toEqual(['CCCCCC', undefined]);
  });

  it('darkens text too light to read on white, as Blink does', async () => {
    expect(textColorForWhiteBackground('FFFFFF')).toBe('ABABAB');
    expect(textColorForWhiteBackground('EEEEEE')).toBe('9A9A9A');
    expect(textColorForWhiteBackground('FFFF00')).toBe('ABAB00');
    // Mid grey is within 255 of white (127·√3): darkened too.
    expect(textColorForWhiteBackground('808080')).toBe('2C2C2C');
    // Far enough from white: unchanged (blue is 255·√2 away, #606060 159·√3).
    expect(textColorForWhiteBackground('0000FF')).toBe('0000FF');
    expect(textColorForWhiteBackground('606060')).toBe('606060');
    expect(textColorForWhiteBackground('000000')).toBe('000000');
    const model = await read(html);
    const ps = paragraphs(model);
    expect(texts(ps[1])[0]?.props.color).toBe('9A9A9A');
    expect(texts(ps[1]).find((r) => r.text === 'span')?.props.color).toBe('000000');
    // Where backgrounds print (exact), the text keeps its colour.
    const kept = ps.find((p) => texts(p)[0]?.text.startsWith('kept'));
    expect(texts(kept)[0]?.props.color).toBe('EEEEEE');
    const font = await read('<p><font color="white">w</font></p>');
    expect(colorOf(font, 0)).toBe('ABABAB');
  });

  it('prints a dark-background page as dark text on white paper (end to end)', async () => {
    const page = `<html><body style="background: #111; color: #f0f0f0">
      <h1 style="background: #000">Night mode</h1><p>Light text on a dark page.</p></body></html>`;
    const fills = async (options: Partial<HtmlReadOptions>) => {
      const model = await read(page, options);
      const fonts = await loadFontSet(collectFontRequests(model), {
        assets: env.ASSETS,
        embedded: [],
        cache: createFontCache(),
        fallbackFaces: collectFallbackFaces(model),
      });
      const pdf = await PDFDocument.load(await paintPdf(layoutDocument(model, fonts)));
      const content = pageContentText(pdf, 0);
      const colours = [...content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) rg/g)].map((m) =>
        [m[1], m[2], m[3]].map(Number),
      );
      return { text: pageText(pdf, 0), colours, rects: /\bre\b/.test(content), content };
    };
    const economy = await fills({});
    expect(economy.text).toContain('Light text on a dark page.');
    // No dark fill anywhere (no background rectangles), and the text is the darkened #f0f0f0.
    expect(economy.colours.every(([r]) => (r as number) > 0.5)).toBe(true);
    expect(economy.colours.some(([r]) => Math.abs((r as number) - 0x9c / 255) < 0.01)).toBe(true);
    const printed = await fills({ printBackground: true });
    expect(printed.colours.some(([r]) => (r as number) < 0.1)).toBe(true);
    // The page colour is one rectangle over the whole sheet, drawn before anything else.
    expect(printed.content).toMatch(/^0\.0667 0\.0667 0\.0667 rg\s+0 0 612 792 re/);
  });
});
