/**
 * The permitted-change classes of issue 24, each on a PDF this test makes: signed by the project's
 * own signer, then changed by an incremental update written as the signer writes one. Each case
 * is what a real tool does (iText, Acrobat, LibreOffice, DSS) and what EU DSS, iText or pyHanko
 * decide for it in their own tests.
 */
import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  PDFNumber,
  type PDFRef,
  PDFString,
  PDFDocument as PdfDocument,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ObjectReader } from '../../../src/services/pdf-read/object-reader';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import { fieldLockViolation, findFieldLock } from '../../../src/services/verify/docmdp';
import { classifyModifications } from '../../../src/services/verify/modification-check';
import { ascii, concat, emptySignatureField, sign, testIdentity, textField, update } from './verify-fixtures';

/** The class of what followed the first signature (revision 1; the original is 0). */
const classify = (pdf: Uint8Array) => classifyModifications(pdf, findRevisions(pdf), 1);

function firstPage(doc: PDFDocument): PDFDict {
  const kids = doc.catalog.lookup(PDFName.of('Pages'), PDFDict).lookup(PDFName.of('Kids'), PDFArray);
  return doc.context.lookup(kids.get(0), PDFDict);
}

/** A tagged one-page document (§14.8): a structure tree with a paragraph element. */
async function tagged() {
  const doc = await PdfDocument.create();
  const page = doc.addPage([200, 200]);
  const paragraph = doc.context.register(doc.context.obj({ Type: 'StructElem', S: 'P', K: [0], Pg: page.ref }));
  const parentTree = doc.context.register(doc.context.obj({ Nums: [0, [paragraph]] }));
  const root = doc.context.register(
    doc.context.obj({ Type: 'StructTreeRoot', K: [paragraph], ParentTree: parentTree, ParentTreeNextKey: 1 }),
  );
  doc.context.lookup(paragraph, PDFDict).set(PDFName.of('P'), root);
  page.node.set(PDFName.of('StructParents'), PDFNumber.of(0));
  doc.catalog.set(PDFName.of('StructTreeRoot'), root);
  doc.catalog.set(PDFName.of('MarkInfo'), doc.context.obj({ Marked: true }));
  return { pdf: await sign(await doc.save({ useObjectStreams: false }), await testIdentity()), root, paragraph };
}

describe('structure-tree bookkeeping rides with the change it records', () => {
  it('an annotation recorded in the structure tree (element, kids, parent tree): annotations', async () => {
    const { pdf, root } = await tagged();
    const annotated = await update(pdf, (doc) => {
      const page = firstPage(doc);
      const annot = doc.context.register(
        doc.context.obj({ Type: 'Annot', Subtype: 'Square', Rect: [10, 10, 50, 50], StructParent: 1 }),
      );
      page.set(PDFName.of('Annots'), doc.context.obj([annot]));
      const element = doc.context.register(
        doc.context.obj({ Type: 'StructElem', S: 'Annot', P: root, K: [{ Type: 'OBJR', Obj: annot }] }),
      );
      const rootDict = doc.context.lookup(root, PDFDict);
      rootDict.lookup(PDFName.of('K'), PDFArray).push(element);
      rootDict.set(PDFName.of('ParentTreeNextKey'), PDFNumber.of(2));
      const tree = rootDict.lookup(PDFName.of('ParentTree'), PDFDict);
      tree.lookup(PDFName.of('Nums'), PDFArray).push(PDFNumber.of(1));
      tree.lookup(PDFName.of('Nums'), PDFArray).push(element);
    });
    const report = classify(annotated);
    expect(report.classification).toBe('annotations');
    expect(report.details.join('\n')).toMatch(/structure/);
  });

  it('the structure tree changed alone: other', async () => {
    const { pdf, root } = await tagged();
    const changed = await update(pdf, (doc) => {
      const element = doc.context.register(
        doc.context.obj({ Type: 'StructElem', S: 'Figure', P: root, Alt: PDFString.of('x') }),
      );
      doc.context.lookup(root, PDFDict).lookup(PDFName.of('K'), PDFArray).push(element);
    });
    expect(classify(changed)).toMatchObject({ classification: 'other' });
    expect(classify(changed).reason).toMatch(/no annotation, field or signature it would record did/);
  });

  it("an element's actual text rewritten, or a kid of signed content dropped: other, even with an annotation", async () => {
    const { pdf, root, paragraph } = await tagged();
    const withAnnotation = (doc: PDFDocument) => {
      const annot = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [0, 0, 9, 9] }));
      firstPage(doc).set(PDFName.of('Annots'), doc.context.obj([annot]));
    };
    const rewritten = await update(pdf, (doc) => {
      withAnnotation(doc);
      doc.context.lookup(paragraph, PDFDict).set(PDFName.of('ActualText'), PDFString.of('Pay Eve'));
    });
    expect(classify(rewritten).reason).toMatch(/structure element \d+ 0 R \/ActualText changed/);
    const dropped = await update(pdf, (doc) => {
      withAnnotation(doc);
      doc.context.lookup(root, PDFDict).set(PDFName.of('K'), doc.context.obj([]));
    });
    expect(classify(dropped).reason).toMatch(/structure tree root \d+ 0 R lost kids/);
  });
});

describe('pages, catalog and form bookkeeping', () => {
  it("a page's tab order: /S where none was given is no change; another order is annotating", async () => {
    const doc = await PdfDocument.create();
    doc.addPage([200, 200]);
    const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
    const tabs = (order: string) => update(signed, (doc) => firstPage(doc).set(PDFName.of('Tabs'), PDFName.of(order)));
    expect(classify(await tabs('S')).classification).toBe('none');
    expect(classify(await tabs('R'))).toMatchObject({
      classification: 'annotations',
      reason: 'page 1 tab order changed',
    });
  });

  it("iText's /ITXT stamp on the page tree and a catalog renumbered with a DSS: signatures", async () => {
    const doc = await PdfDocument.create();
    doc.addPage([200, 200]);
    const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
    const stamped = await update(signed, (later) => {
      later.catalog.lookup(PDFName.of('Pages'), PDFDict).set(PDFName.of('ITXT'), PDFString.of('5.5.13'));
      const copy = later.catalog.clone(later.context);
      copy.set(PDFName.of('DSS'), later.context.register(later.context.obj({ Type: 'DSS', Certs: [] })));
      later.context.trailerInfo.Root = later.context.register(copy);
    });
    expect(findRevisions(stamped).revisions.at(-1)?.root?.num).not.toBe(
      findRevisions(signed).revisions.at(-1)?.root?.num,
    );
    expect(classify(stamped).classification).toBe('signatures');
  });

  it('/DSS removed, and /Extensions lowered: other', async () => {
    const doc = await PdfDocument.create();
    doc.addPage([200, 200]);
    doc.catalog.set(PDFName.of('DSS'), doc.context.register(doc.context.obj({ Type: 'DSS', Certs: [] })));
    doc.catalog.set(
      PDFName.of('Extensions'),
      doc.context.obj({ ESIC: { BaseVersion: PDFName.of('1.7'), ExtensionLevel: 2 } }),
    );
    const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
    const removed = await update(signed, (later) => {
      later.catalog.delete(PDFName.of('DSS'));
    });
    expect(classify(removed)).toMatchObject({
      classification: 'other',
      reason: 'the DSS (validation data) was removed',
    });
    const lowered = await update(signed, (later) =>
      later.catalog.set(
        PDFName.of('Extensions'),
        later.context.obj({ ESIC: { BaseVersion: PDFName.of('1.5'), ExtensionLevel: 2 } }),
      ),
    );
    expect(classify(lowered).reason).toMatch(/extensions were removed or lowered/);
    const raised = await update(signed, (later) =>
      later.catalog.set(
        PDFName.of('Extensions'),
        later.context.obj({ ESIC: { BaseVersion: PDFName.of('1.7'), ExtensionLevel: 5 } }),
      ),
    );
    expect(classify(raised).classification).toBe('signatures');
  });
});

/** A signed document with a text field "name" (one widget in /Kids) and an empty signature field "Later". */
async function withFields() {
  const doc = await PdfDocument.create();
  const page = doc.addPage([200, 200]);
  doc.getForm().createTextField('name').addToPage(page, { x: 10, y: 150, width: 100, height: 20 });
  const { widget: later } = emptySignatureField(doc, page);
  page.node.lookup(PDFName.of('Annots'), PDFArray).push(later);
  doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray).push(later);
  return { pdf: await sign(await doc.save({ useObjectStreams: false }), await testIdentity()), later };
}

function textWidget(doc: PDFDocument): { field: PDFDict; widget: PDFDict } {
  const field = textField(doc);
  return { field, widget: doc.context.lookup(field.lookup(PDFName.of('Kids'), PDFArray).get(0), PDFDict) };
}

describe('fields and widgets', () => {
  it("filled with a new default appearance (/DA) and the form's fonts (/DR): form-filling", async () => {
    const { pdf } = await withFields();
    const filled = await update(pdf, (doc) => {
      const { field, widget } = textWidget(doc);
      field.set(PDFName.of('V'), PDFString.of('Ada'));
      widget.set(PDFName.of('DA'), PDFString.of('/Helv 9 Tf 0 g'));
      widget.set(
        PDFName.of('AP'),
        doc.context.obj({ N: doc.context.register(doc.context.stream('BT ET', { Type: 'XObject', Subtype: 'Form' })) }),
      );
    });
    expect(classify(filled).classification).toBe('form-filling');
  });

  it('a new empty signature field: annotations; the same field added signed: signatures', async () => {
    const { pdf } = await withFields();
    const empty = await update(pdf, (doc) => {
      const field = doc.context.register(
        doc.context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFString.of('Extra'), Rect: [0, 0, 0, 0] }),
      );
      firstPage(doc).lookup(PDFName.of('Annots'), PDFArray).push(field);
      doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray).push(field);
    });
    expect(classify(empty)).toMatchObject({ classification: 'annotations' });
    expect(classify(empty).reason).toMatch(/an empty signature field \d+ 0 R was added/);
    expect(classify(await sign(pdf, await testIdentity())).classification).toBe('signatures');
  });

  it("a signed field's appearance redrawn after its signature: other", async () => {
    const { pdf } = await withFields();
    const redrawn = await update(pdf, (doc) => {
      const fields = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray);
      const signedField = fields
        .asArray()
        .map((ref) => doc.context.lookup(ref, PDFDict))
        .find(
          (dict) => dict.get(PDFName.of('V')) !== undefined && dict.lookup(PDFName.of('FT')) === PDFName.of('Sig'),
        ) as PDFDict;
      signedField.set(
        PDFName.of('AP'),
        doc.context.obj({
          N: doc.context.register(doc.context.stream('0 g 0 0 9 9 re f', { Type: 'XObject', Subtype: 'Form' })),
        }),
      );
    });
    expect(classify(redrawn).reason).toMatch(/signature field \d+ 0 R \/AP changed/);
  });

  it('an orphan widget a saver left (nothing reaches it): said, not counted', async () => {
    const { pdf } = await withFields();
    const orphan = await update(pdf, (doc) => {
      doc.context.register(doc.context.obj({ Subtype: 'Widget', F: 132, Rect: [0, 0, 0, 0] }));
    });
    const report = classify(orphan);
    expect(report.classification).toBe('none');
    expect(report.details.join('\n')).toMatch(/nothing in the document refers to it/);
  });

  it('an annotation deleted: annotations (DocMDP P=3 permits it, Table 254)', async () => {
    const doc = await PdfDocument.create();
    const page = doc.addPage([200, 200]);
    const note = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [0, 0, 10, 10] }));
    page.node.set(PDFName.of('Annots'), doc.context.obj([note]));
    const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
    const deleted = await update(signed, (later) => {
      firstPage(later).delete(PDFName.of('Annots'));
      later.context.delete(note);
    });
    expect(classify(deleted).classification).toBe('annotations');
  });
});

describe('field locks (FieldMDP, §12.8.2.4)', () => {
  /** The report and lock of a signature whose field's /Lock is `lock`, after the text field "name" is filled. */
  async function lockedThenFilled(lock: Record<string, unknown>, annotate = false) {
    const { pdf, later } = await withFields();
    const locked = await update(pdf, (doc) =>
      doc.context.lookup(later as PDFRef, PDFDict).set(PDFName.of('Lock'), doc.context.obj(lock as never)),
    );
    // The second signature signs into a new field of its own; the lock is read from field "Later".
    const filled = await update(locked, (doc) => {
      textWidget(doc).field.set(PDFName.of('V'), PDFString.of('Ada'));
      if (annotate) {
        const annot = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Circle', Rect: [0, 0, 9, 9] }));
        firstPage(doc).lookup(PDFName.of('Annots'), PDFArray).push(annot);
      }
    });
    const scan = findRevisions(filled);
    const report = classifyModifications(filled, scan, 2);
    const found = findFieldLock(new ObjectReader(filled, scan), scan, undefined, (later as PDFRef).objectNumber);
    return { report, lock: found };
  }

  it('a locked field filled in breaks the lock; a field the lock leaves out does not', async () => {
    const include = await lockedThenFilled({ Type: 'SigFieldLock', Action: 'Include', Fields: [PDFString.of('name')] });
    expect(include.report.filledFields).toEqual(['name']);
    expect(fieldLockViolation(include.lock as never, include.report)).toMatch(
      /the field "name" is locked by this signature/,
    );
    const exclude = await lockedThenFilled({ Type: 'SigFieldLock', Action: 'Exclude', Fields: [PDFString.of('name')] });
    expect(fieldLockViolation(exclude.lock as never, exclude.report)).toBeUndefined();
  });

  it("a lock's /P 1 (ISO 32000-2) refuses a later annotation", async () => {
    const { report, lock } = await lockedThenFilled(
      { Type: 'SigFieldLock', Action: 'Exclude', Fields: [PDFString.of('name')], P: 1 },
      true,
    );
    expect(fieldLockViolation(lock as never, report)).toMatch(
      /the signature field's lock \(P=1, ISO 32000-2 Table 233\) permits no changes/,
    );
  });
});

describe('bytes after the last %%EOF', () => {
  it('an update no %%EOF closes (the incremental saving attack): other; stray white space: nothing', async () => {
    const doc = await PdfDocument.create();
    doc.addPage([200, 200]);
    const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
    const attack = concat(
      signed,
      ascii('\n3 0 obj\n<< /Type /Page /Contents 15 0 R >>\nendobj\nxref\ntrailer\n<< /Root 1 0 R >>\nstartxref\n9'),
    );
    const scan = findRevisions(attack);
    expect(classifyModifications(attack, scan, scan.revisions.length - 1).reason).toMatch(
      /bytes after the last %%EOF hold an update no %%EOF closes/,
    );
    const padded = concat(signed, ascii('\r\n\n  \n'));
    const paddedScan = findRevisions(padded);
    expect(classifyModifications(padded, paddedScan, paddedScan.revisions.length - 1).classification).toBe('none');
  });
});
