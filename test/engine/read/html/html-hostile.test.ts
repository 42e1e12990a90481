import { env } from 'cloudflare:test';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../../src/engine/fonts/font-cache';
import { PAPER_SIZES, readHtml } from '../../../../src/engine/read/html/html-reader';
import { Budget, DEFAULT_LIMITS } from '../../../../src/limits';
import { modelToPdf } from '../../../../src/services/convert/docx-to-pdf';
import { pageText } from '../../../helpers/pdf-text';
import { blocksOf, fakeLoader, paragraphs, pngDataUri, read, textOf } from './html-fixtures';

describe('readHtml: hostile input', () => {
  it('keeps the text of 10,000 nested divs, spans, lists and tables', async () => {
    for (const [open, close] of [
      ['<div>', '</div>'],
      ['<span>', '</span>'],
      ['<ul><li>', '</li></ul>'],
      ['<table><tr><td>', '</td></tr></table>'],
      ['<blockquote>', '</blockquote>'],
    ] as const) {
      const html = `${open.repeat(10_000)}deep text${close.repeat(10_000)}`;
      const model = await read(html);
      expect(JSON.stringify(blocksOf(model))).toContain('deep text');
    }
  }, 60_000);

  it('copes with a 1 MB attribute, unclosed tags and garbage', async () => {
    const big = 'x'.repeat(1_000_000);
    const model = await read(
      `<p title="${big}" class="${big}" style="color:${big}">kept<b>bold<i>both<p>next<div><table><tr><td>cell`,
    );
    expect(textOf(paragraphs(model)[0])).toBe('keptboldboth');
    expect(JSON.stringify(blocksOf(model))).toContain('cell');
    const garbage = await readHtml(12345 as unknown as string, { pageSize: PAPER_SIZES.a4, loadImages: fakeLoader });
    expect(textOf(paragraphs(garbage)[0])).toBe('12345');
    expect(garbage.sections[0]?.page).toMatchObject(PAPER_SIZES.a4);
    const nothing = await readHtml(undefined as unknown as string, { loadImages: fakeLoader });
    expect(blocksOf(nothing)).toHaveLength(1);
  });

  it('drops javascript: and other unsafe links but keeps their text', async () => {
    const model = await read(
      '<p><a href="javascript:alert(1)">a</a><a href=" JaVaScRiPt:x">b</a><a href="vbscript:x">c</a><a href="file:///etc/passwd">d</a><a href="/relative">e</a></p>',
    );
    const p = paragraphs(model)[0];
    expect(textOf(p)).toBe('abcde');
    expect(p?.inlines.some((i) => 'link' in i && i.link !== undefined)).toBe(false);
  });

  it('survives a selector-heavy sheet over a deep tree', async () => {
    const rules = Array.from({ length: 200 }, (_, i) => `div div .c${i} p, body * span { color: red }`).join('\n');
    const html = `<style>${rules}</style>${'<div>'.repeat(3000)}<p>end</p>${'</div>'.repeat(3000)}`;
    const model = await read(html);
    expect(JSON.stringify(blocksOf(model))).toContain('end');
  }, 60_000);
});

describe('readHtml → PDF', () => {
  it('lays out a model read from HTML into a PDF', async () => {
    const html = `<title>T</title><h1 id="top">Heading</h1><p>Para with <a href="#top">link</a>, <code>code</code> and a note<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>.</p>
      <ul><li>one</li><li>two<ol><li>nested</li></ol></li></ul><pre>pre\ttext\nline 2</pre>
      <blockquote>Quote</blockquote><hr><table><tr><th>H</th><th>I</th></tr><tr><td rowspan="2">a</td><td>b</td></tr><tr><td>c</td></tr></table>
      <p><img src="${pngDataUri(10, 10)}" alt="dot"></p>
      <section class="footnotes"><ol><li id="fn1"><p>The note. <a href="#fnref1" class="footnote-backref">back</a></p></li></ol></section>`;
    const model = await read(html);
    const { pdf, pages } = await modelToPdf(
      model,
      { assets: env.ASSETS, fontCache: createFontCache() },
      new Budget(DEFAULT_LIMITS),
    );
    expect(pages).toBe(1);
    const doc = await PDFDocument.load(pdf);
    const text = pageText(doc, 0);
    expect(text).toContain('Heading');
    expect(text).toContain('nested');
    expect(text).toContain('The note.');
  }, 60_000);
});
