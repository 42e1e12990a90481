import { describe, expect, it } from 'vitest';
import type { Paragraph } from '../../../../src/engine/model/document';
import { blocksOf, paragraphs, pngDataUri, read, tables, textOf, texts } from './html-fixtures';

describe('readHtml: lists', () => {
  it('labels nested lists and describes their levels', async () => {
    const model = await read(
      '<ol start="3"><li>three<ul><li>bullet</li></ul></li><li>four</li></ol><ol type="a"><li>x</li></ol>',
    );
    const [three, bullet, four, x] = paragraphs(model);
    expect(three?.label).toMatchObject({ text: '3.', suffix: 'tab', align: 'left' });
    expect(three?.list).toEqual({ listId: 'list1', level: 0 });
    expect(three?.props.styleId).toBe('ListParagraph');
    expect(three?.props.indent).toMatchObject({ left: 36, firstLine: -18 });
    expect(bullet?.label?.text).toBe('\u25E6');
    expect(bullet?.list).toEqual({ listId: 'list1', level: 1 });
    expect(bullet?.props.indent.left).toBe(72);
    expect(four?.label?.text).toBe('4.');
    expect(x?.label?.text).toBe('a.');
    expect(x?.list?.listId).toBe('list2');
    expect(model.lists?.list1?.levels[0]).toMatchObject({
      format: 'decimal',
      text: '%1.',
      start: 3,
      indent: 36,
      hanging: 18,
    });
    expect(model.lists?.list1?.levels[1]).toMatchObject({ format: 'bullet', text: '\u25E6', indent: 72 });
    expect(model.lists?.list2?.levels[0]).toMatchObject({ format: 'lowerLetter' });
  });

  it('labels only the first paragraph of an item; others keep the indent', async () => {
    const model = await read('<ul><li><p>first</p><p>second</p></li></ul>');
    const [first, second] = paragraphs(model);
    expect(first?.label?.text).toBe('\u2022');
    expect(second?.label).toBeUndefined();
    expect(second?.props.indent).toMatchObject({ left: 36, firstLine: 0 });
  });

  it("keeps an item's later paragraphs in its list as unlabelled continuations", async () => {
    const model = await read(
      '<ol><li><p>Name</p><p>Comment</p><ul><li>inner</li></ul><p>After</p></li><li>next</li></ol><p>out</p>',
    );
    const [name, comment, inner, after, next, out] = paragraphs(model);
    expect(name?.list).toEqual({ listId: 'list1', level: 0 });
    expect(name?.label?.text).toBe('1.');
    expect(comment?.list).toEqual({ listId: 'list1', level: 0, continuation: true });
    expect(comment?.label).toBeUndefined();
    expect(inner?.list).toEqual({ listId: 'list1', level: 1 });
    expect(after?.list).toEqual({ listId: 'list1', level: 0, continuation: true });
    expect(after?.label).toBeUndefined();
    expect(next?.list).toEqual({ listId: 'list1', level: 0 });
    expect(next?.label?.text).toBe('2.');
    expect(out?.list).toBeUndefined();
  });

  it('gives an empty item one labelled empty paragraph, as a browser shows its bullet', async () => {
    const model = await read('<ul><li></li><li>  \n </li><li><img src="missing.png"></li><li>last</li></ul>');
    const items = paragraphs(model);
    expect(items).toHaveLength(4);
    for (const item of items.slice(0, 3)) {
      expect(item.label?.text).toBe('\u2022');
      expect(item.list).toEqual({ listId: 'list1', level: 0 });
      expect(item.inlines.filter((i) => i.kind !== 'bookmark')).toEqual([]);
    }
    expect(textOf(items[3] as Paragraph)).toBe('last');
  });

  it('renders roman numbers, value and task list checkboxes', async () => {
    const model = await read(
      '<ol type="I"><li>a</li><li value="9">b</li></ol><ul><li class="task-list-item"><input type="checkbox" disabled checked> done</li><li class="task-list-item"><input type="checkbox" disabled> todo</li></ul>',
    );
    const [a, b, done, todo] = paragraphs(model);
    expect(a?.label?.text).toBe('I.');
    expect(b?.label?.text).toBe('IX.');
    expect(textOf(done)).toBe('\u2611 done');
    expect(textOf(todo)).toBe('\u2610 todo');
  });

  it('clamps deep nesting at level 8', async () => {
    const html = `${'<ul><li>x'.repeat(12)}${'</li></ul>'.repeat(12)}`;
    const levels = paragraphs(await read(html)).map((p) => p.list?.level);
    expect(Math.max(...(levels as number[]))).toBe(8);
    expect(levels).toHaveLength(12);
  });
});

describe('readHtml: tables', () => {
  it('builds a grid with colspan and rowspan', async () => {
    const model = await read(
      '<table><thead><tr><th>A</th><th>B</th><th>C</th></tr></thead><tbody><tr><td rowspan="2">r</td><td colspan="2">wide</td></tr><tr><td>b2</td><td>c2</td></tr><tr><td></td><td>x</td><td>y</td></tr></tbody></table>',
    );
    const [table] = tables(model);
    expect(table?.styleId).toBe('Table');
    expect(table?.grid).toHaveLength(3);
    // The page's 468 pt less the body's 8px margins.
    expect(table?.grid.reduce((a, b) => a + b, 0)).toBeCloseTo(456);
    expect(table?.layout).toBe('autofit');
    const [head, r1, r2, r3] = table?.rows ?? [];
    expect(head?.isHeader).toBe(true);
    expect(r1?.isHeader).toBe(false);
    const th = head?.cells[0]?.blocks[0] as Paragraph;
    expect(th.props.styleId).toBe('TableText');
    expect(texts(th)[0]?.props.bold).toBe(true);
    // th is centred by the UA sheet (HTML §15.3.8) unless its row or its own CSS aligns it.
    expect(th.props.align).toBe('center');
    const aligned = tables(
      await read(
        '<table><tr style="text-align: left"><th>l</th></tr><tr><th style="text-align: right">r</th></tr></table>',
      ),
    )[0];
    expect((aligned?.rows[0]?.cells[0]?.blocks[0] as Paragraph | undefined)?.props.align).not.toBe('center');
    expect((aligned?.rows[1]?.cells[0]?.blocks[0] as Paragraph | undefined)?.props.align).toBe('right');
    expect(r1?.cells.map((c) => [c.span, c.verticalMerge])).toEqual([
      [1, 'restart'],
      [2, undefined],
    ]);
    expect(r2?.cells.map((c) => [c.span, c.verticalMerge])).toEqual([
      [1, 'continue'],
      [1, undefined],
      [1, undefined],
    ]);
    expect(textOf(r2?.cells[1]?.blocks[0])).toBe('b2');
    // An empty cell still holds one paragraph.
    expect(r3?.cells[0]?.blocks).toHaveLength(1);
    expect(r3?.cells[0]?.blocks[0]?.kind).toBe('paragraph');
    // Without border information: none in HTML, as browsers draw table without [border] …
    expect(table?.borders.insideH).toMatchObject({ style: 'none' });
    expect(table?.borders.top).toMatchObject({ style: 'none' });
    // … and a thin grid in Markdown, as GitHub and pandoc show its tables.
    const markdown = tables(
      await read('<table><tr><td>a</td><td>b</td></tr></table>', undefined, { source: 'markdown' }),
    );
    expect(markdown[0]?.borders.insideH).toMatchObject({ style: 'single', width: 0.5, color: 'BFBFBF' });
    expect(markdown[0]?.borders.left).toMatchObject({ style: 'single', width: 0.5, color: 'BFBFBF' });
  });

  it('reads borders, padding, shading, widths and alignment', async () => {
    const model = await read(
      '<table border="0" cellpadding="4" width="50%"><tr bgcolor="#eeeeee"><td width="100" style="text-align:right">a</td><td style="background-color: red; border: 1px solid blue">b</td></tr></table><table style="border-collapse:collapse;border:2px dashed #000"><tr><td>c</td></tr></table>',
      undefined,
      { printBackground: true },
    );
    const [t1, t2] = tables(model);
    expect(t1?.borders.top?.style).toBe('none');
    expect(t1?.borders.insideV?.style).toBe('none');
    expect(t1?.cellMargins).toEqual({ top: 3, left: 3, bottom: 3, right: 3 });
    expect(t1?.width).toEqual({ type: 'pct', value: 0.5 });
    const [a, b] = t1?.rows[0]?.cells ?? [];
    expect(a?.shading).toBe('EEEEEE');
    expect(a?.width).toBe(75);
    expect((a?.blocks[0] as Paragraph | undefined)?.props.align).toBe('right');
    expect(b?.shading).toBe('FF0000');
    expect(b?.borders?.top).toMatchObject({ style: 'single', width: 0.75, color: '0000FF' });
    expect(t2?.borders.top).toMatchObject({ style: 'dashed', width: 1.5, color: '000000' });
    expect(t2?.borders.insideH).toBeUndefined();
  });

  it('clamps huge colspan and thousands of columns, and rowspan to the rows left', async () => {
    const cells = Array.from({ length: 3000 }, (_, i) => `<td>c${i}</td>`).join('');
    const model = await read(`<table><tr><td colspan="100000" rowspan="9999">x</td></tr><tr>${cells}</tr></table>`);
    const [table] = tables(model);
    expect(table?.grid.length).toBeLessThanOrEqual(63);
    expect(table?.rows[0]?.cells[0]?.span).toBe(63);
    expect(table?.rows[0]?.cells[0]?.verticalMerge).toBe('restart');
    for (const row of table?.rows ?? []) expect(row.cells.reduce((s, c) => s + c.span, 0)).toBeLessThanOrEqual(63);
  });

  it('puts the caption before the table and flattens tables nested too deep', async () => {
    const nested = `${'<table><tr><td>'.repeat(20)}deep${'</td></tr></table>'.repeat(20)}`;
    const model = await read(`<table><caption>Cap</caption><tr><td>x</td></tr></table>${nested}`);
    const [caption] = paragraphs(model);
    expect(caption?.props.styleId).toBe('Caption');
    expect(caption?.props.align).toBe('center');
    expect(textOf(caption)).toBe('Cap');
    expect(JSON.stringify(blocksOf(model))).toContain('deep');
  });
});

describe('readHtml: footnotes', () => {
  it('turns markdown-it footnotes into real notes', async () => {
    const html =
      '<p>Text<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup> more<sup class="footnote-ref"><a href="#fn2" id="fnref2">[2]</a></sup>.</p>' +
      '<hr class="footnotes-sep"><section class="footnotes"><ol class="footnotes-list"><li id="fn1" class="footnote-item"><p>Note one <a href="#fnref1" class="footnote-backref">\u21A9\uFE0E</a></p></li><li id="fn2" class="footnote-item"><p>Note two <a href="#fnref2" class="footnote-backref">\u21A9\uFE0E</a></p></li></ol></section>';
    const model = await read(html);
    expect(blocksOf(model)).toHaveLength(1);
    const refs = paragraphs(model)[0]?.inlines.filter((i) => i.kind === 'noteReference');
    expect(refs).toMatchObject([
      { kind: 'noteReference', note: 'footnote', id: '1', mark: '1', styleId: 'FootnoteReference' },
      { id: '2', mark: '2' },
    ]);
    expect(refs?.[0]?.props.verticalAlign).toBe('superscript');
    const note = model.notes.footnotes['1']?.[0] as Paragraph;
    expect(note.props.styleId).toBe('FootnoteText');
    expect(note.inlines[0]).toMatchObject({ kind: 'text', text: '1', styleId: 'FootnoteReference' });
    expect(textOf(note)).toBe('1 Note one');
    expect(textOf(model.notes.footnotes['2']?.[0])).toBe('2 Note two');
  });

  it('turns pandoc footnotes into real notes, numbered by first reference', async () => {
    const html =
      '<p>A<a href="#fn2" class="footnote-ref" id="fnref2" role="doc-noteref"><sup>2</sup></a> B<a href="#fn1" class="footnote-ref" id="fnref1" role="doc-noteref"><sup>1</sup></a></p>' +
      '<section id="footnotes" class="footnotes footnotes-end-of-document" role="doc-endnotes"><hr /><ol><li id="fn1"><p>First<a href="#fnref1" class="footnote-back" role="doc-backlink">\u21A9\uFE0E</a></p></li><li id="fn2"><p>Second<a href="#fnref2" class="footnote-back" role="doc-backlink">\u21A9\uFE0E</a></p></li></ol></section>';
    const model = await read(html);
    expect(blocksOf(model)).toHaveLength(1);
    expect(textOf(paragraphs(model)[0])).toBe('A[1] B[2]');
    expect(textOf(model.notes.footnotes['1']?.[0])).toBe('1 Second');
    expect(textOf(model.notes.footnotes['2']?.[0])).toBe('2 First');
  });

  it('keeps a "footnotes" block it cannot make notes of in the body: plain paragraphs, or an item no link refers to', async () => {
    // docx4j's XHTML export: paragraphs with <a name="fn1"> anchors, no list items to make notes of.
    const plain = await read(
      '<p>Body<a href="#fn1">1</a></p><div class="footnotes"><p><a name="fn1">1</a> IBM has its own JAXB.</p><p><a name="fn2">2</a> Access restriction.</p></div>',
    );
    const plainText = blocksOf(plain).map(textOf).join('\n');
    expect(plainText).toContain('IBM has its own JAXB.');
    expect(plainText).toContain('Access restriction.');
    // A note list whose second item nothing refers to: left in place whole rather than half lost.
    const orphan = await read(
      '<p>Text<a href="#fn1" id="fnref1">1</a></p><section class="footnotes"><ol><li id="fn1"><p>Referenced</p></li><li id="fn2"><p>Never referenced</p></li></ol></section>',
    );
    const orphanText = blocksOf(orphan).map(textOf).join('\n');
    expect(orphanText).toContain('Never referenced');
    expect(orphanText).toContain('Referenced');
  });
});

describe('readHtml: images', () => {
  it('places loaded images with their sizes and warns about the rest', async () => {
    const src = pngDataUri(40, 20);
    const model = await read(
      `<p><img src="${src}" alt="pic"><img src="${src}" width="100"><img src="${pngDataUri(2000, 100)}"><img src="https://example.com/x.png" alt="missing"></p>`,
    );
    const inlines = paragraphs(model)[0]?.inlines ?? [];
    const images = inlines.filter((i) => i.kind === 'image');
    expect(images[0]).toMatchObject({ imageId: 'img1', width: 30, height: 15, description: 'pic' });
    expect(images[1]).toMatchObject({ imageId: 'img1', width: 75, height: 37.5 });
    expect(images[2]?.width).toBeCloseTo(456);
    expect(Object.keys(model.images)).toEqual(['img1', 'img2']);
    expect(textOf(paragraphs(model)[0])).toContain('[missing]');
    expect(model.warnings).toEqual(['image 3 (https://example.com/x.png): not a data URI']);
  });
});
