import fontkit from '@pdf-lib/fontkit';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFObject,
  type PDFPage,
  type PDFRef,
  PDFString,
} from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/limits';
import { type MergedPdf, mergePdfs, type PdfMergeInput } from '../../../src/services/merge';
import { rejection } from '../../helpers/api';
import { bundledFont } from '../../helpers/font-fixture';
import { array, dict, get, text } from '../../helpers/pdf-inspect';
import { pdfText } from '../../helpers/pdf-text';

/** A face with a ToUnicode map once embedded, so pdfText reads the pages back. */
let font: Uint8Array;

interface Fixture {
  /** One text per page. */
  texts: string[];
  title?: string;
  /** Links on page `from` (0-based) to page `to`, explicit (/Dest array) or through a GoTo action. */
  links?: { from: number; to: number; action?: boolean }[];
  /** Named destinations in the /Names /Dests tree, and links using them. */
  named?: { name: string; page: number; linkFrom?: number }[];
  /** Outline items: title and page, one level, the first with a child on `childPage`. */
  outline?: { title: string; page: number; childPage?: number }[];
  signed?: boolean;
}

async function buildPdf(fixture: Fixture): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const face = await doc.embedFont(font);
  if (fixture.title) doc.setTitle(fixture.title);
  doc.setAuthor('Ada');
  const pages = fixture.texts.map((line) => {
    const page = doc.addPage([300, 300]);
    page.drawText(line, { x: 20, y: 250, size: 12, font: face });
    return page;
  });
  const ctx = doc.context;
  const addAnnot = (pageIndex: number, annot: PDFDict) => {
    const page = pages[pageIndex]?.node as PDFDict;
    // /P as writers put it: the page the annotation is on (Table 164).
    annot.set(PDFName.of('P'), pages[pageIndex]?.ref as PDFRef);
    const ref = ctx.register(annot);
    const annots = page.lookup(PDFName.of('Annots'));
    if (annots instanceof PDFArray) annots.push(ref);
    else page.set(PDFName.of('Annots'), ctx.obj([ref]));
  };
  for (const link of fixture.links ?? []) {
    const dest = ctx.obj([pages[link.to]?.ref as PDFRef, 'XYZ', 0, 300, null]);
    const annot = ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 0, 50, 50], Border: [0, 0, 0] });
    if (link.action) annot.set(PDFName.of('A'), ctx.obj({ S: 'GoTo', D: dest }));
    else annot.set(PDFName.of('Dest'), dest);
    addAnnot(link.from, annot);
  }
  if (fixture.named) {
    const pairs: PDFObject[] = [];
    for (const { name, page, linkFrom } of [...fixture.named].sort((a, b) => a.name.localeCompare(b.name))) {
      pairs.push(PDFString.of(name), ctx.obj([pages[page]?.ref as PDFRef, 'Fit']));
      if (linkFrom !== undefined) {
        addAnnot(
          linkFrom,
          ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: [0, 60, 50, 110], Dest: PDFString.of(name) }),
        );
      }
    }
    doc.catalog.set(PDFName.of('Names'), ctx.obj({ Dests: ctx.register(ctx.obj({ Names: pairs })) }));
  }
  if (fixture.outline) {
    const rootRef = ctx.nextRef();
    const refs = fixture.outline.map(() => ctx.nextRef());
    fixture.outline.forEach((item, i) => {
      const entry = ctx.obj({ Title: PDFString.of(item.title), Parent: rootRef });
      entry.set(PDFName.of('Dest'), ctx.obj([pages[item.page]?.ref as PDFRef, 'Fit']));
      if (i > 0) entry.set(PDFName.of('Prev'), refs[i - 1] as PDFRef);
      if (i + 1 < refs.length) entry.set(PDFName.of('Next'), refs[i + 1] as PDFRef);
      if (item.childPage !== undefined) {
        const child = ctx.register(
          ctx.obj({
            Title: PDFString.of(`${item.title} child`),
            Parent: refs[i] as PDFRef,
            Dest: [pages[item.childPage]?.ref as PDFRef, 'Fit'],
          }),
        );
        entry.set(PDFName.of('First'), child);
        entry.set(PDFName.of('Last'), child);
        entry.set(PDFName.of('Count'), ctx.obj(1));
      }
      ctx.assign(refs[i] as PDFRef, entry);
    });
    ctx.assign(
      rootRef,
      ctx.obj({ Type: 'Outlines', First: refs[0] as PDFRef, Last: refs.at(-1) as PDFRef, Count: refs.length }),
    );
    doc.catalog.set(PDFName.of('Outlines'), rootRef);
  }
  if (fixture.signed) {
    const sig = ctx.register(ctx.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', Contents: PDFHexString.of('00') }));
    const field = ctx.register(
      ctx.obj({ FT: 'Sig', T: PDFString.of('Sig1'), V: sig, Type: 'Annot', Subtype: 'Widget', Rect: [0, 0, 0, 0] }),
    );
    (pages[0] as PDFPage).node.set(PDFName.of('Annots'), ctx.obj([field]));
    doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [field], SigFlags: 3 }));
  }
  return doc.save();
}

const merge = (inputs: PdfMergeInput[], keepSignatures?: boolean) =>
  mergePdfs(inputs, { limits: DEFAULT_LIMITS, ...(keepSignatures === undefined ? {} : { keepSignatures }) });

/** Every object of /Type /Page in the file, reachable or not. */
function pageObjects(doc: PDFDocument): number {
  return doc.context
    .enumerateIndirectObjects()
    .filter(([, object]) => object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('Page')).length;
}

interface Entry {
  title: string;
  dest?: PDFObject;
  children: Entry[];
}

function outline(doc: PDFDocument): Entry[] {
  const read = (parent: PDFDict): Entry[] => {
    const items: Entry[] = [];
    let node = get(doc, parent, 'First');
    while (node instanceof PDFDict) {
      items.push({ title: text(get(doc, node, 'Title')), dest: get(doc, node, 'Dest'), children: read(node) });
      node = get(doc, node, 'Next');
    }
    return items;
  };
  return read(dict(doc, doc.catalog.get(PDFName.of('Outlines'))));
}

function pageOf(doc: PDFDocument, dest: PDFObject | undefined): number {
  const target = array(doc, dest).get(0);
  return doc.getPages().findIndex((page) => page.ref === target);
}

function annots(doc: PDFDocument, pageIndex: number): PDFDict[] {
  const list = get(doc, doc.getPage(pageIndex).node, 'Annots');
  return list instanceof PDFArray ? list.asArray().map((ref) => dict(doc, ref)) : [];
}

describe('mergePdfs', () => {
  let a: Uint8Array;
  let b: Uint8Array;
  let result: MergedPdf;
  let out: PDFDocument;

  beforeAll(async () => {
    font = await bundledFont('Carlito-Regular.ttf');
    a = await buildPdf({
      texts: ['Alpha one', 'Alpha two', 'Alpha three', 'Alpha four'],
      title: 'Report A',
      // Page 1 links to page 3 (chosen) and page 2 (left out), once explicitly, once by action.
      links: [
        { from: 0, to: 2 },
        { from: 0, to: 1, action: true },
      ],
      named: [
        { name: 'intro', page: 0, linkFrom: 2 },
        { name: 'gone', page: 1, linkFrom: 2 },
      ],
      outline: [
        { title: 'A first', page: 0, childPage: 2 },
        { title: 'A second', page: 1, childPage: 3 },
      ],
    });
    b = await buildPdf({
      texts: ['Beta one', 'Beta two'],
      named: [{ name: 'intro', page: 1, linkFrom: 0 }],
      outline: [{ title: 'B only', page: 1 }],
    });
    result = await merge([
      { bytes: a, pages: '1,3-4' },
      { bytes: b, name: 'b.pdf' },
    ]);
    out = await PDFDocument.load(result.pdf, { updateMetadata: false });
  });

  it('holds the chosen pages of each input, in order', async () => {
    expect(result.pages).toBe(5);
    expect(out.getPageCount()).toBe(5);
    expect(await pdfText(result.pdf)).toEqual(['Alpha one', 'Alpha three', 'Alpha four', 'Beta one', 'Beta two']);
  });

  it('pulls in no page left out: the only /Page objects are the chosen ones', () => {
    expect(pageObjects(out)).toBe(5);
  });

  it('keeps a link to a chosen page, pointing at its copy, and drops the link to a page left out', () => {
    const links = annots(out, 0);
    expect(links).toHaveLength(1);
    expect(pageOf(out, get(out, links[0] as PDFDict, 'Dest'))).toBe(1);
    expect(links[0]?.has(PDFName.of('P'))).toBe(false);
    expect(result.warnings.some((w) => /documents\[0\]: 2 links to pages left out were dropped/.test(w))).toBe(true);
  });

  it('carries named destinations, prefixing a name two inputs use, and the links follow', () => {
    const names = dict(out, get(out, dict(out, out.catalog.get(PDFName.of('Names'))), 'Dests'));
    const pairs = array(out, names.get(PDFName.of('Names')));
    const resolved = new Map<string, number>();
    for (let i = 0; i < pairs.size(); i += 2) resolved.set(text(pairs.get(i)), pageOf(out, pairs.get(i + 1)));
    expect(Object.fromEntries(resolved)).toEqual({ intro: 0, '2:intro': 4 });
    // The link on A's page 3 (now 2) to "intro" is kept; the one to "gone" (page 2, left out) is not.
    const onA = annots(out, 1).map((annot) => text(annot.get(PDFName.of('Dest'))));
    expect(onA).toEqual(['intro']);
    const onB = annots(out, 3).map((annot) => text(annot.get(PDFName.of('Dest'))));
    expect(onB).toEqual(['2:intro']);
  });

  it('has one outline entry per input, with its outline underneath, remapped', () => {
    const entries = outline(out);
    expect(entries.map((entry) => entry.title)).toEqual(['Report A', 'b.pdf']);
    expect(entries.map((entry) => pageOf(out, entry.dest))).toEqual([0, 3]);
    const [first, second] = entries as [Entry, Entry];
    // "A second" is on page 2, left out: dropped, its child (page 4, now 2) takes its place.
    expect(first.children.map((c) => [c.title, pageOf(out, c.dest)])).toEqual([
      ['A first', 0],
      ['A second child', 2],
    ]);
    expect(first.children[0]?.children.map((c) => [c.title, pageOf(out, c.dest)])).toEqual([['A first child', 1]]);
    expect(second.children.map((c) => [c.title, pageOf(out, c.dest)])).toEqual([['B only', 4]]);
  });

  it("takes the first input's document information, Producer Quire", () => {
    expect(out.getTitle()).toBe('Report A');
    expect(out.getAuthor()).toBe('Ada');
    expect(out.getProducer()).toBe('Quire');
  });

  it('names the bookmark, and "Document N" when nothing else names an input', async () => {
    const merged = await merge([{ bytes: a, bookmark: 'Mine' }, { bytes: b }]);
    const doc = await PDFDocument.load(merged.pdf, { updateMetadata: false });
    expect(outline(doc).map((entry) => entry.title)).toEqual(['Mine', 'Document 2']);
  });

  it('warns that a signed input loses its signatures, and refuses with keepSignatures', async () => {
    const signed = await buildPdf({ texts: ['Signed'], signed: true });
    const merged = await merge([{ bytes: a }, { bytes: signed, name: 'contract.pdf' }]);
    expect(merged.warnings).toContainEqual(expect.stringMatching(/documents\[1\] \("contract.pdf"\) is signed/));
    const error = await rejection(merge([{ bytes: a }, { bytes: signed }], true));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.details?.[0]?.field).toBe('keepSignatures');
  });

  it('refuses malformed ranges and ranges that choose nothing with 400, warns past the end', async () => {
    const bad = await rejection(merge([{ bytes: a }, { bytes: b, pages: '3-1' }]));
    expect(bad.code).toBe('VALIDATION_ERROR');
    expect(bad.details?.[0]?.field).toBe('documents[1].pages');
    const none = await rejection(merge([{ bytes: a }, { bytes: b, pages: '5-' }]));
    expect(none.code).toBe('VALIDATION_ERROR');
    expect(none.message).toMatch(/chooses no page/);
    const past = await merge([{ bytes: a }, { bytes: b, pages: '2-9' }]);
    expect(past.pages).toBe(5);
    expect(past.warnings).toContainEqual(expect.stringMatching(/documents\[1\]\.pages 2-9 reaches past the last page/));
  });

  it('refuses a damaged PDF with 422 naming it, and fewer than two inputs with 400', async () => {
    const damaged = await rejection(merge([{ bytes: a }, { bytes: new TextEncoder().encode('%PDF-1.7\nnonsense') }]));
    expect(damaged.code).toBe('INVALID_DOCUMENT');
    expect(damaged.details?.[0]?.field).toBe('documents[1]');
    const one = await rejection(merge([{ bytes: a }]));
    expect(one.code).toBe('VALIDATION_ERROR');
    expect(one.details?.[0]?.field).toBe('documents');
  });

  it('refuses an encrypted PDF with 422 naming it', async () => {
    const doc = await PDFDocument.load(b);
    // An /Encrypt in the trailer is what makes a file encrypted (ISO 32000-1 §7.6.1).
    doc.context.trailerInfo.Encrypt = doc.context.obj({ Filter: 'Standard', V: 2, R: 3 });
    const error = await rejection(merge([{ bytes: a }, { bytes: await doc.save() }]));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/documents\[1\]: the PDF is encrypted/);
  });

  it('keeps a GoTo link to a chosen page, and a URI link whose destination page is left out', async () => {
    const doc = await PDFDocument.load(
      await buildPdf({ texts: ['One', 'Two', 'Three'], links: [{ from: 0, to: 2, action: true }] }),
    );
    const ctx = doc.context;
    const page = doc.getPage(0).node;
    const uri = ctx.obj({ Subtype: 'Link', Rect: [0, 0, 9, 9], A: { S: 'URI', URI: PDFString.of('https://a.test/') } });
    uri.set(PDFName.of('Dest'), ctx.obj([doc.getPage(1).ref, 'Fit']));
    array(doc, page.get(PDFName.of('Annots'))).push(ctx.register(uri));
    const merged = await merge([{ bytes: await doc.save(), pages: '1,3' }, { bytes: b }]);
    const outDoc = await PDFDocument.load(merged.pdf);
    const [goTo, web] = annots(outDoc, 0) as [PDFDict, PDFDict];
    expect(pageOf(outDoc, get(outDoc, dict(outDoc, goTo.get(PDFName.of('A'))), 'D'))).toBe(1);
    expect(web.has(PDFName.of('Dest'))).toBe(false);
    expect(text(get(outDoc, dict(outDoc, web.get(PDFName.of('A'))), 'URI'))).toBe('https://a.test/');
    expect(pageObjects(outDoc)).toBe(4);
  });

  it('pulls in no page left out through a form field whose widgets are on several pages', async () => {
    const doc = await PDFDocument.load(await buildPdf({ texts: ['One', 'Two'] }));
    const ctx = doc.context;
    const fieldRef = ctx.nextRef();
    const widgets = doc.getPages().map((page) => {
      const widget = ctx.register(
        ctx.obj({ Type: 'Annot', Subtype: 'Widget', Rect: [0, 0, 9, 9], Parent: fieldRef, P: page.ref }),
      );
      page.node.set(PDFName.of('Annots'), ctx.obj([widget]));
      return widget;
    });
    ctx.assign(fieldRef, ctx.obj({ FT: 'Tx', T: PDFString.of('name'), Kids: widgets }));
    doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: [fieldRef] }));
    const merged = await merge([{ bytes: await doc.save(), pages: '1' }, { bytes: b }]);
    const outDoc = await PDFDocument.load(merged.pdf);
    expect(outDoc.getPageCount()).toBe(3);
    expect(pageObjects(outDoc)).toBe(3);
  });

  it('stops past the page budget with DOCUMENT_TOO_COMPLEX', async () => {
    const error = await rejection(mergePdfs([{ bytes: a }, { bytes: b }], { limits: { ...DEFAULT_LIMITS, pages: 5 } }));
    expect(error.code).toBe('DOCUMENT_TOO_COMPLEX');
  });
});
