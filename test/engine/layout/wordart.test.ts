import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { TextItem } from '../../../src/engine/layout/page-items';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { buildDocx, paragraph, vmlWordArt as wordArt } from '../../helpers/docx-fixture';
import { dict, get, pageContentText, shownText, streamText, toUnicodeMap } from '../../helpers/pdf-inspect';
import { readParts } from '../read/ooxml/model-queries';
import { bundledLayout } from './fallback-layout';

const layout = bundledLayout();

const texts = (doc: LaidOutDocument, page = 0) =>
  (doc.pages[page]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');

/** Where a text item's glyphs reach on the page, from its face's glyph boxes. */
function ink(doc: LaidOutDocument, item: TextItem) {
  const bounds = doc.fonts[item.font]?.inkBounds?.(item.text);
  const advance = (doc.fonts[item.font]?.measure(item.text) ?? 0) * item.size * (item.scaleX ?? 1);
  return {
    top: item.y - (bounds?.top ?? 0) * item.size,
    bottom: item.y - (bounds?.bottom ?? 0) * item.size,
    left: item.x,
    right: item.x + advance,
  };
}

const BODY = (art: string) =>
  `<w:body>${paragraph('Before the art.')}<w:p>${art}</w:p>${paragraph('After the art.')}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body>`;

describe('WordArt layout (VML text paths fitted to their shape)', () => {
  it('stretches the text to fill the box, which takes its height in the flow', async () => {
    const doc = await layout(readParts({ document: BODY(wordArt({ attributes: 'fillcolor="#1f4e79"' })) }));
    const all = texts(doc);
    const art = all.find((t) => t.text === 'Hello world!');
    const before = all.find((t) => t.text.startsWith('Before'));
    const after = all.find((t) => t.text.startsWith('After'));
    expect(art && before && after).toBeTruthy();
    if (!art || !before || !after) return;
    expect(art.color).toBe('1F4E79');
    expect(art.outline).toEqual({ color: '000000', width: 0.75 });
    // Across: from the text's left edge at the margin to the box's right edge.
    const box = ink(doc, art);
    expect(box.left).toBeCloseTo(72, 1);
    expect(box.right).toBeCloseTo(72 + 410.25, 0);
    // Down: trimmed to the ink, the glyphs fill the 108 pt box; "Hello world!" has no descender,
    // so the baseline is the box's bottom.
    expect(box.bottom - box.top).toBeCloseTo(108, 0);
    expect(box.bottom - art.y).toBeGreaterThanOrEqual(0);
    expect(box.bottom - art.y).toBeLessThan(3); // the overshoot of the o's
    expect(art.scaleX).toBeDefined();
    // The box is between the paragraphs, and the next one starts under it.
    expect(box.top).toBeGreaterThan(before.y);
    expect(after.y).toBeGreaterThan(box.bottom);
    expect(after.y - before.y).toBeGreaterThan(108);
  });

  it('divides the box between the lines of the string, each stretched across it', async () => {
    const doc = await layout(
      readParts({
        document: BODY(
          wordArt({
            style: 'width:200pt;height:100pt',
            textPath: '<v:textpath style="font-family:Arial" trim="t" string="WIDE LINE&#xA;TOP"/>',
          }),
        ),
      }),
    );
    const wide = texts(doc).find((t) => t.text === 'WIDE LINE');
    const top = texts(doc).find((t) => t.text === 'TOP');
    expect(wide && top).toBeTruthy();
    if (!wide || !top) return;
    const [a, b] = [ink(doc, wide), ink(doc, top)];
    for (const line of [a, b]) {
      expect(line.right - line.left).toBeCloseTo(200, 0);
      expect(line.bottom - line.top).toBeCloseTo(50, 0);
    }
    expect(b.top).toBeCloseTo(a.bottom, 0);
  });

  it('draws a WordArt in the lines of a text box, inside the box', async () => {
    const art = wordArt({ style: 'width:100pt;height:40pt', attributes: 'fillcolor="black"' });
    const box = `<w:r><w:pict><v:rect style="position:absolute;margin-left:0;margin-top:0;width:200pt;height:100pt;mso-position-horizontal-relative:margin;mso-position-vertical-relative:paragraph" stroked="f" filled="f"><v:textbox><w:txbxContent><w:p>${art}</w:p></w:txbxContent></v:textbox></v:rect></w:pict></w:r>`;
    const doc = await layout(readParts({ document: BODY(box) }));
    const hello = texts(doc).find((t) => t.text === 'Hello world!');
    expect(hello).toBeDefined();
    if (!hello) return;
    const inked = ink(doc, hello);
    // In the box's first line, inside its default insets (7.2 pt left, 3.6 pt top).
    expect(inked.left).toBeCloseTo(72 + 7.2, 1);
    expect(inked.right).toBeCloseTo(72 + 7.2 + 100, 0);
    expect(inked.bottom - inked.top).toBeCloseTo(40, 0);
  });

  it('turns an absolutely positioned WordArt by its rotation about the box centre', async () => {
    const doc = await layout(
      readParts({
        document: BODY(
          wordArt({
            style:
              'position:absolute;margin-left:0;margin-top:0;width:400pt;height:200pt;rotation:315;z-index:-1;mso-position-horizontal:center;mso-position-horizontal-relative:margin;mso-position-vertical:center;mso-position-vertical-relative:margin',
            attributes: 'fillcolor="silver" stroked="f"',
            textPath: '<v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="DRAFT"/>',
          }),
        ),
      }),
    );
    const draft = texts(doc).find((t) => t.text === 'DRAFT');
    expect(draft?.angle).toBeCloseTo(45, 6);
    expect(draft?.outline).toBeUndefined();
    // Behind the text: painted before the body's words.
    const items = doc.pages[0]?.items ?? [];
    expect(items.indexOf(draft as TextItem)).toBeLessThan(
      items.findIndex((i) => i.kind === 'text' && i.text.startsWith('Before')),
    );
    // The baseline starts left of and below the centre of the margin box, turned up to the right.
    expect(draft?.x).toBeLessThan(306);
    expect(draft?.y).toBeGreaterThan(396);
  });
});

/** The strings a page shows, in order, with the text matrix each was shown with (a b c d e f). */
async function shownWithMatrix(bytes: Uint8Array): Promise<{ text: string; matrix: number[] }[]> {
  const doc = await PDFDocument.load(bytes);
  const page = doc.getPage(0).node;
  const fonts = dict(doc, get(doc, dict(doc, page.get(PDFName.of('Resources'))), 'Font'));
  const maps = new Map<string, Map<number, string>>();
  for (const [name, ref] of fonts.entries()) {
    const cmap = get(doc, dict(doc, ref), 'ToUnicode');
    maps.set(name.asString().slice(1), cmap ? toUnicodeMap(streamText(doc, cmap)) : new Map());
  }
  const out: { text: string; matrix: number[] }[] = [];
  let matrix: number[] = [];
  let font = '';
  // Font selections, text matrices and shown strings (literal, as the painter writes them), in order.
  const token =
    /\/(\S+) \S+ Tf|((?:\S+ ){6})Tm|(\((?:\\[\s\S]|[^\\)])*\) Tj|\[(?:\((?:\\[\s\S]|[^\\)])*\)|[^\]()])*\]\s*TJ)/g;
  for (const match of pageContentText(doc, 0).matchAll(token)) {
    if (match[1] !== undefined) font = match[1];
    else if (match[2] !== undefined) matrix = match[2].trim().split(' ').map(Number);
    else {
      const strings = shownText(`/${font} 1 Tf\n${match[3]}`);
      const text = strings.map((s) => s.codes.map((c) => maps.get(s.font)?.get(c) ?? '').join('')).join('');
      if (text !== '') out.push({ text, matrix });
    }
  }
  return out;
}

describe('WordArt in the PDF', () => {
  it('is extractable text, stretched by the text matrix and outlined, in the flow between its paragraphs', async () => {
    const form = new FormData();
    const docx = buildDocx({ document: BODY(wordArt()) });
    form.append('file', new File([docx as Uint8Array<ArrayBuffer>], 'wordart.docx'));
    const res = await call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const shown = await shownWithMatrix(bytes);
    const art = shown.find((s) => s.text.includes('Hello world!'));
    const before = shown.find((s) => s.text.startsWith('Before'));
    const after = shown.find((s) => s.text.startsWith('After'));
    expect(art && before && after).toBeTruthy();
    if (!art || !before || !after) return;
    // Stretched across (a ≠ 1), not turned.
    expect(art.matrix[0]).not.toBeCloseTo(1, 2);
    expect(art.matrix[1]).toBe(0);
    // PDF y grows upwards: the art's baseline is below the paragraph before it by more than its
    // height, and the paragraph after is below the art.
    const [beforeY, artY, afterY] = [before.matrix[5], art.matrix[5], after.matrix[5]] as number[];
    expect((beforeY as number) - (artY as number)).toBeGreaterThan(108);
    expect(artY).toBeGreaterThan(afterY as number);
    // Filled and stroked glyphs (text rendering mode 2).
    const doc = await PDFDocument.load(bytes);
    expect(pageContentText(doc, 0)).toMatch(/\b2 Tr\b/);
  });
});
