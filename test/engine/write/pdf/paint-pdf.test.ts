import { PDFArray, type PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FontSet } from '../../../../src/engine/fonts/font-face';
import type { LaidOutDocument } from '../../../../src/engine/pages/display-list';
import { encodePng } from '../../../../src/engine/read/images/png-encoder';
import { paintPdf } from '../../../../src/engine/write/pdf/paint-pdf';
import {
  array,
  cidWidths,
  dict,
  get,
  pageContentText,
  shownText,
  streamText,
  text,
  toUnicodeMap,
} from '../../../helpers/pdf-inspect';
import { request, testFontSet } from '../../fonts/helpers';
import { BODY, BODY_TEXT, EXTERNAL_TEXT, HEADING, sampleDocument } from './fixtures';

let fonts: FontSet;
let doc: LaidOutDocument;
let bytes: Uint8Array;
let pdf: PDFDocument;

beforeAll(async () => {
  fonts = await testFontSet([request(BODY.family), request(HEADING.family, true)]);
  doc = sampleDocument(fonts);
  bytes = await paintPdf(doc);
  pdf = await PDFDocument.load(bytes, { updateMetadata: false });
});

function annotations(pageIndex: number): PDFDict[] {
  const annots = pdf.getPage(pageIndex).node.Annots();
  return (annots?.asArray() ?? []).map((ref) => dict(pdf, ref));
}

/** Per page font resource name → its Type0 font dictionary. */
function pageFonts(pageIndex: number): Map<string, PDFDict> {
  const resources = dict(pdf, pdf.getPage(pageIndex).node.get(PDFName.of('Resources')));
  const fontDict = dict(pdf, get(pdf, resources, 'Font'));
  return new Map(fontDict.entries().map(([name, ref]) => [name.decodeText(), dict(pdf, ref)]));
}

describe('paintPdf', () => {
  it('writes every page at its size', () => {
    expect(pdf.getPageCount()).toBe(2);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 });
    expect(pdf.getPage(1).getSize()).toEqual({ width: 612, height: 792 });
  });

  it('links to a URL with a URI action, without a border', () => {
    const link = annotations(0).find((a) => get(pdf, dict(pdf, get(pdf, a, 'A')), 'S') === PDFName.of('URI'));
    if (!link) throw new Error('no URI link');
    const action = dict(pdf, get(pdf, link, 'A'));
    expect(text(get(pdf, action, 'URI'))).toBe('https://example.com/');
    expect(get(pdf, link, 'Subtype')).toBe(PDFName.of('Link'));
    expect(array(pdf, get(pdf, link, 'Border')).toString()).toBe('[ 0 0 0 ]');
    // The rectangle sits over the text's line box, in PDF coordinates (y up).
    const [llx = 0, lly = 0, urx = 0, ury = 0] = array(pdf, get(pdf, link, 'Rect'))
      .asArray()
      .map((n) => Number(n.toString()));
    const face = fonts.face(BODY);
    expect(llx).toBe(72);
    expect(urx).toBeCloseTo(72 + face.measure(EXTERNAL_TEXT) * 11, 2);
    expect(ury).toBeCloseTo(841.89 - (140 - face.ascent * 11), 2);
    expect(ury - lly).toBeCloseTo((face.ascent + face.descent) * 11, 2);
  });

  it('links to an anchor with GoTo to a named destination on the right page', () => {
    const goTo = annotations(0)
      .map((a) => dict(pdf, get(pdf, a, 'A')))
      .find((action) => get(pdf, action, 'S') === PDFName.of('GoTo'));
    expect(goTo).toBeDefined();
    expect(text(get(pdf, goTo as PDFDict, 'D'))).toBe('chapter-2');

    const names = dict(pdf, get(pdf, dict(pdf, pdf.catalog.get(PDFName.of('Names'))), 'Dests'));
    const pairs = array(pdf, get(pdf, names, 'Names')).asArray();
    const keys = pairs.filter((_, i) => i % 2 === 0).map((key) => text(key));
    expect(keys).toEqual(['chapter-2', 'intro']); // sorted, as a name tree must be
    const dest = array(pdf, pairs[1]).asArray();
    expect(dest[0]).toBe(pdf.getPage(1).ref);
    expect(dest[1]).toBe(PDFName.of('XYZ'));
    expect(Number(dest[3]?.toString())).toBe(792 - 72);
  });

  it('writes a two-level outline with correct counts and links, and opens it', () => {
    const outlines = dict(pdf, pdf.catalog.get(PDFName.of('Outlines')));
    expect(get(pdf, outlines, 'Count')?.toString()).toBe('3');
    const first = dict(pdf, get(pdf, outlines, 'First'));
    expect(text(get(pdf, first, 'Title'))).toBe('Chapter 1');
    expect(get(pdf, first, 'Count')?.toString()).toBe('1');
    const child = dict(pdf, get(pdf, first, 'First'));
    expect(text(get(pdf, child, 'Title'))).toBe('Section 1.1 – naïve');
    expect(get(pdf, child, 'Parent')).toBe(first);
    const second = dict(pdf, get(pdf, first, 'Next'));
    expect(text(get(pdf, second, 'Title'))).toBe('Chapter 2');
    expect(get(pdf, second, 'Prev')).toBe(first);
    expect(get(pdf, outlines, 'Last')).toBe(second);
    expect(array(pdf, get(pdf, second, 'Dest')).asArray()[0]).toBe(pdf.getPage(1).ref);
    expect(pdf.catalog.get(PDFName.of('PageMode'))).toBe(PDFName.of('UseOutlines'));
  });

  it('writes the metadata, with dates from the document and producer Quire', () => {
    expect(pdf.getTitle()).toBe('Painter test');
    expect(pdf.getAuthor()).toBe('Quire Tests');
    expect(pdf.getSubject()).toBe('Display list to PDF');
    expect(pdf.getKeywords()).toBe('pdf, test');
    expect(pdf.getProducer()).toBe('Quire');
    expect(pdf.getCreationDate()?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect(pdf.getModificationDate()?.toISOString()).toBe('2024-05-01T10:00:00.000Z');
  });

  it('uses a fixed epoch, not the clock, when the document has no dates', async () => {
    const undated = await PDFDocument.load(await paintPdf({ ...doc, metadata: {} }), { updateMetadata: false });
    expect(undated.getCreationDate()?.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(undated.getProducer()).toBe('Quire');
  });

  it('embeds each font as a subset TrueType with a tag and a ToUnicode CMap', () => {
    const used = pageFonts(0);
    expect(used.size).toBe(2);
    for (const font of used.values()) {
      expect(get(pdf, font, 'Subtype')).toBe(PDFName.of('Type0'));
      const baseFont = (get(pdf, font, 'BaseFont') as PDFName).decodeText();
      expect(baseFont).toMatch(/^[A-Z]{6}\+(Carlito|LiberationSerif-Bold)$/);
      const cidFont = dict(pdf, array(pdf, get(pdf, font, 'DescendantFonts')).asArray()[0]);
      expect(get(pdf, cidFont, 'Subtype')).toBe(PDFName.of('CIDFontType2'));
      const descriptor = dict(pdf, get(pdf, cidFont, 'FontDescriptor'));
      expect((get(pdf, descriptor, 'FontName') as PDFName).decodeText()).toBe(baseFont);
      const fontFile = get(pdf, descriptor, 'FontFile2');
      expect(fontFile).toBeInstanceOf(PDFRawStream);
      // A subset is far smaller than the file it came from (Carlito is 636 KB, Liberation 370 KB).
      expect((fontFile as PDFRawStream).getContentsSize()).toBeLessThan(40_000);
      expect(get(pdf, font, 'ToUnicode')).toBeInstanceOf(PDFRawStream);
    }
  });

  it('keeps text extractable: ToUnicode maps the shown glyphs back to the text, in order', () => {
    const content = pageContentText(pdf, 0);
    const fontsByName = pageFonts(0);
    const extracted = shownText(content).map(({ font, codes }) => {
      const cmap = toUnicodeMap(streamText(pdf, get(pdf, fontsByName.get(font) as PDFDict, 'ToUnicode')));
      return codes.map((code) => cmap.get(code) ?? '\uFFFD').join('');
    });
    expect(extracted).toEqual(['Chapter 1', BODY_TEXT, EXTERNAL_TEXT, 'See chapter 2.']);
  });

  it('escapes the glyph codes that are delimiters in a literal string', async () => {
    // Enough distinct glyphs that subset ids 13 (CR), 40 and 41 (parentheses) and 92 (backslash)
    // are shown: each must come back as itself.
    const ascii = Array.from({ length: 126 - 33 + 1 }, (_, i) => String.fromCharCode(33 + i)).join('');
    const all = `${ascii}ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞß`;
    const face = fonts.face(BODY);
    const one: LaidOutDocument = {
      pages: [
        {
          width: 600,
          height: 100,
          items: [{ kind: 'text', x: 10, y: 50, font: face.key, size: 4, color: '000000', text: all }],
        },
      ],
      outline: [],
      metadata: {},
      fonts: { [face.key]: face },
      images: {},
    };
    const painted = await PDFDocument.load(await paintPdf(one), { updateMetadata: false });
    const content = pageContentText(painted, 0);
    for (const escaped of ['\\(', '\\)', '\\\\', '\\r']) expect(content).toContain(escaped);
    const resources = dict(painted, painted.getPage(0).node.get(PDFName.of('Resources')));
    const [entry] = dict(painted, get(painted, resources, 'Font')).entries();
    const cmap = toUnicodeMap(streamText(painted, get(painted, dict(painted, entry?.[1]), 'ToUnicode')));
    const [shown] = shownText(content);
    expect(shown?.codes.map((code) => cmap.get(code)).join('')).toBe(all);
  });

  it('paints glyphs whose widths add up to what the face measured', () => {
    const content = pageContentText(pdf, 0);
    const fontsByName = pageFonts(0);
    const shown = shownText(content);
    const body = shown[1];
    if (!body) throw new Error('no body text');
    const cidFont = dict(
      pdf,
      array(pdf, get(pdf, fontsByName.get(body.font) as PDFDict, 'DescendantFonts')).asArray()[0],
    );
    const widths = cidWidths(pdf, array(pdf, get(pdf, cidFont, 'W')));
    const painted = (body.codes.reduce((sum, code) => sum + (widths.get(code) ?? Number.NaN), 0) / 1000) * body.size;
    expect(painted).toBeCloseTo(fonts.face(BODY).measure(BODY_TEXT) * 11, 6);
  });

  it('places text at its baseline, honours character spacing, and draws lines, rects and images', () => {
    const content = pageContentText(pdf, 0);
    expect(content).toContain('1 0 0 1 72 751.89 Tm'); // y 90 from the top of an 841.89 pt page
    expect(content).toContain('0.5 Tc');
    expect(content).toContain('[3 2] 0 d');
    expect(content).toContain('72 671.89 m');
    expect(content).toMatch(/72 641\.89 100 20 re\s+f\n/);
    // A stroked rectangle after the dashed line: solid again.
    expect(content).toMatch(/1 0 0 RG\s+2 w\s+\[\] 0 d\s+200 641\.89 50 20 re\s+S\n/);
    expect(content).toMatch(/0 1 0 rg\s+0 0 1 RG\s+1 w\s+300 641\.89 50 20 re\s+B\n/);
    expect(content).toContain('40 0 0 40 72 591.89 cm');
    expect(content).toMatch(/\/Im1 Do/);
    // The image is embedded once and shared by both pages.
    const xobject = (i: number) =>
      dict(pdf, get(pdf, dict(pdf, pdf.getPage(i).node.get(PDFName.of('Resources'))), 'XObject')).get(
        PDFName.of('Im1'),
      );
    expect(xobject(0)).toBeInstanceOf(PDFRef);
    expect(xobject(0)).toBe(xobject(1));
  });

  it('gives the same bytes for the same input, with an /ID derived from the content', async () => {
    const again = await paintPdf(sampleDocument(fonts));
    expect(again).toEqual(bytes);
    const id = pdf.context.trailerInfo.ID;
    expect(id).toBeInstanceOf(PDFArray);
    const [first, second] = (id as PDFArray).asArray().map((part) => part.toString());
    expect(first).toMatch(/^<[0-9A-F]{32}>$/);
    expect(first).not.toBe(`<${'0'.repeat(32)}>`);
    expect(second).toBe(first);
    const other = await paintPdf({ ...sampleDocument(fonts), metadata: { title: 'Another' } });
    expect(other).not.toEqual(bytes);
  });

  it('leaves out links without a usable target and images it cannot decode', async () => {
    const base = sampleDocument(fonts);
    const first = base.pages[0];
    if (!first) throw new Error('no page');
    const painted = await PDFDocument.load(
      await paintPdf({
        ...base,
        pages: [
          {
            ...first,
            items: [
              ...first.items,
              { kind: 'link', x: 0, y: 0, width: 10, height: 10, target: { anchor: 'nowhere' } },
              { kind: 'link', x: 0, y: 0, width: 10, height: 10, target: { url: 'javascript:alert(1)' } },
            ],
          },
          ...base.pages.slice(1),
        ],
        images: { img1: { format: 'png', bytes: new Uint8Array([1, 2, 3]), pixelWidth: 1, pixelHeight: 1 } },
      }),
    );
    expect(painted.getPage(0).node.Annots()?.size()).toBe(2); // the two good links of the fixture
    expect(pageContentText(painted, 0)).not.toContain(' Do');
  });

  // Pages are painted before the images are embedded (PdfPainter): one that fails renames the rest.
  it('names the images after one it cannot decode by their place among those it could', async () => {
    const base = sampleDocument(fonts);
    const good = encodePng({ width: 1, height: 1, data: Uint8Array.from([1, 2, 3, 255]) });
    const painted = await PDFDocument.load(
      await paintPdf({
        ...base,
        pages: base.pages.map((page) => ({
          ...page,
          items: [...page.items, { kind: 'image', x: 10, y: 10, width: 5, height: 5, image: 'good' }],
        })),
        images: {
          img1: { format: 'png', bytes: new Uint8Array([1, 2, 3]), pixelWidth: 1, pixelHeight: 1 },
          good: { format: 'png', bytes: good, pixelWidth: 1, pixelHeight: 1 },
        },
      }),
    );
    for (let page = 0; page < painted.getPageCount(); page++) {
      expect(pageContentText(painted, page).match(/\/Im\d+ Do/g)).toEqual(['/Im1 Do']);
      const resources = dict(painted, painted.getPage(page).node.get(PDFName.of('Resources')));
      const xObjects = dict(painted, get(painted, resources, 'XObject'));
      expect(xObjects.entries().map(([name]) => name.decodeText())).toEqual(['Im1']);
    }
  });

  it('refuses a document without pages and a text item whose font it was not given', async () => {
    await expect(paintPdf({ ...doc, pages: [] })).rejects.toThrow(/at least one page/);
    await expect(paintPdf({ ...doc, fonts: {} })).rejects.toThrow(/fonts do not have/);
  });
});
