import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFString } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/limits';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import { changedObjects, snapshotObjects, writeIncrementalUpdate } from '../../../src/services/sign/incremental-writer';
import { loadPdfForUpdate } from '../../../src/services/sign/pdf-source';
import type { SigningIdentity } from '../../../src/services/sign/sign-types';
import { classifyModifications } from '../../../src/services/verify/modification-check';
import { findSignatureFields } from '../../../src/services/verify/signature-fields';
import { appendUpdate, makeOriginal, sign, testIdentity } from './verify-fixtures';

/** One incremental update (ISO 32000-1 §7.5.6) carrying whatever `edit` changes, written as the signer writes. */
async function update(pdf: Uint8Array, edit: (doc: PDFDocument) => void | Promise<void>): Promise<Uint8Array> {
  const { doc, xref } = await loadPdfForUpdate(pdf, DEFAULT_LIMITS);
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, xref.size - 1);
  const snapshot = snapshotObjects(doc.context);
  await edit(doc);
  await doc.flush();
  return writeIncrementalUpdate(pdf, doc.context, changedObjects(doc.context, snapshot), xref).file;
}

/** The class of what followed the first signature (revision index 1: the original is 0). */
function classify(pdf: Uint8Array) {
  return classifyModifications(pdf, findRevisions(pdf), 1);
}

for (const objectStreams of [false, true]) {
  describe(`classifyModifications (original ${objectStreams ? 'with' : 'without'} object streams)`, () => {
    let identity: SigningIdentity;
    let signed: Uint8Array;
    beforeAll(async () => {
      identity = await testIdentity();
      signed = await sign(await makeOriginal(objectStreams), identity);
    });

    it('no later revision: none', () => {
      expect(classify(signed)).toMatchObject({ classification: 'none', details: [] });
    });

    it('signed twice: signatures', async () => {
      const twice = await sign(signed, identity);
      const report = classify(twice);
      expect(report.classification).toBe('signatures');
      expect(report.details).toContain('a signature was added');
    });

    it('an annotation added to page 1: annotations', async () => {
      const annotated = await update(signed, (doc) => {
        // The page dictionary edited directly: pdf-lib's getPage() would also normalise /Resources
        // and register stray content streams, which count as changes of their own.
        const annot = doc.context.register(
          doc.context.obj({ Type: 'Annot', Subtype: 'Square', Rect: [10, 10, 50, 50], C: [1, 0, 0] }),
        );
        const kids = doc.catalog.lookup(PDFName.of('Pages'), PDFDict).lookup(PDFName.of('Kids'), PDFArray);
        const page = doc.context.lookup(kids.get(0), PDFDict);
        const annots = page.lookup(PDFName.of('Annots'));
        if (annots instanceof PDFArray) annots.push(annot);
        else page.set(PDFName.of('Annots'), doc.context.obj([annot]));
      });
      const report = classify(annotated);
      expect(report.classification).toBe('annotations');
      expect(report.details).toEqual(['page 1 annotations changed', 'a Square annotation was added']);
    });

    it("the page's content changed: other", async () => {
      const drawn = await update(signed, (doc) => {
        doc.getPage(0).drawRectangle({ x: 10, y: 10, width: 20, height: 20 });
      });
      const report = classify(drawn);
      expect(report.classification).toBe('other');
      expect(report.details).toContain('page 1 content changed');
    });

    it('a page added: other', async () => {
      const grown = await update(signed, (doc) => {
        doc.addPage([200, 200]);
      });
      const report = classify(grown);
      expect(report.classification).toBe('other');
      expect(report.details).toContain('a page was added');
    });

    it("the first signature's dictionary changed (shadow attack): other", async () => {
      const [first] = (await findSignatureFields(signed, findRevisions(signed))).signatures;
      const ref = first?.ref;
      if (!ref) throw new Error('no signature');
      const shadowed = await update(signed, (doc) => {
        doc.context.lookup(PDFRef.of(ref.num, ref.gen), PDFDict).set(PDFName.of('Reason'), PDFString.of('Changed'));
      });
      const report = classify(shadowed);
      expect(report.classification).toBe('other');
      expect(report.details).toContain(`signature dictionary ${ref.num} 0 R changed`);
    });

    it('validation data (/DSS with a certificate stream) added to the catalog: signatures', async () => {
      const withDss = await update(signed, (doc) => {
        const cert = doc.context.register(doc.context.stream(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01])));
        const dss = doc.context.register(doc.context.obj({ Type: 'DSS', Certs: [cert] }));
        doc.catalog.set(PDFName.of('DSS'), dss);
      });
      expect(classify(withDss)).toMatchObject({
        classification: 'signatures',
        details: ['validation data (DSS) was added or updated'],
      });
    });

    it('a catalog entry other than /AcroForm and /DSS changed: other', async () => {
      const opened = await update(signed, (doc) => {
        doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
      });
      expect(classify(opened)).toMatchObject({ classification: 'other', details: ['catalog /PageMode changed'] });
    });

    it("the saving tool's bookkeeping (document information, XMP metadata, /Version): signatures", async () => {
      const saved = await update(signed, (doc) => {
        doc.setProducer('Another Tool');
        const xmp = doc.context.register(
          doc.context.stream('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>', { Type: 'Metadata', Subtype: 'XML' }),
        );
        doc.catalog.set(PDFName.of('Metadata'), xmp);
        doc.catalog.set(PDFName.of('Version'), PDFName.of('2.0'));
      });
      const report = classify(saved);
      expect(report.classification).toBe('signatures');
      expect(report.details).toEqual(
        expect.arrayContaining(['the document information dictionary was updated', 'the XMP metadata was updated']),
      );
    });

    it('a content stream dressed as XMP metadata: other', async () => {
      const dressed = await update(signed, (doc) => {
        const page = doc.context.lookup(
          doc.catalog.lookup(PDFName.of('Pages'), PDFDict).lookup(PDFName.of('Kids'), PDFArray).get(0),
          PDFDict,
        );
        const content = doc.context.register(
          doc.context.stream('0 0 m 100 100 l S', { Type: 'Metadata', Subtype: 'XML' }),
        );
        page.set(PDFName.of('Contents'), content);
      });
      expect(classify(dressed).classification).toBe('other');
    });

    it('/Resources moved into an object of its own with the same entries: not a change', async () => {
      const moved = await update(signed, (doc) => {
        const page = doc.context.lookup(
          doc.catalog.lookup(PDFName.of('Pages'), PDFDict).lookup(PDFName.of('Kids'), PDFArray).get(0),
          PDFDict,
        );
        const resources = page.lookup(PDFName.of('Resources'));
        const copy = resources instanceof PDFDict ? resources.clone(doc.context) : doc.context.obj({});
        if (!(resources instanceof PDFDict)) page.set(PDFName.of('Resources'), doc.context.obj({}));
        page.set(PDFName.of('Resources'), doc.context.register(copy));
      });
      const report = classify(moved);
      expect(report.details).not.toContain('page 1 resources changed');
    });

    it('an update whose trailer refers to an object under a key the standard lacks: other', () => {
      const sneaky = appendUpdate(signed, { trailerExtra: ' /FooBar 1 0 R' });
      const report = classify(sneaky);
      expect(report.classification).toBe('other');
      expect(report.reason ?? '').toMatch(/trailer refers to objects under \/FooBar/);
    });

    it('the form replaced by a new one without the first signature field: other', async () => {
      const swapped = await update(signed, (doc) => {
        const form = doc.context.register(doc.context.obj({ Fields: [], SigFlags: 3 }));
        doc.catalog.set(PDFName.of('AcroForm'), form);
      });
      const report = classify(swapped);
      expect(report.classification).toBe('other');
      expect(report.details).toContain('a form field was removed');
    });

    it('a stray new object nothing refers to: other', () => {
      const report = classify(appendUpdate(signed));
      expect(report.classification).toBe('other');
    });

    it('a revision index that does not exist: other, without throwing', () => {
      expect(classifyModifications(signed, findRevisions(signed), 7).classification).toBe('other');
    });
  });
}

describe('classifyModifications: indirect arrays', () => {
  it("a signature widget added to a page's /Annots array object: signatures; another annotation: annotations", async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([200, 200]);
    const note = doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [0, 0, 10, 10] }));
    page.node.set(PDFName.of('Annots'), doc.context.register(doc.context.obj([note])));
    const identity = await testIdentity();
    const once = await sign(await doc.save({ useObjectStreams: false }), identity);
    const twice = await sign(once, identity);
    const report = classifyModifications(twice, findRevisions(twice), 1);
    expect(report.classification).toBe('signatures');
    const annotated = await update(once, (doc) => {
      const kids = doc.catalog.lookup(PDFName.of('Pages'), PDFDict).lookup(PDFName.of('Kids'), PDFArray);
      const annots = doc.context.lookup(kids.get(0), PDFDict).lookup(PDFName.of('Annots'), PDFArray);
      annots.push(doc.context.register(doc.context.obj({ Type: 'Annot', Subtype: 'Square', Rect: [20, 20, 40, 40] })));
    });
    const annotatedReport = classifyModifications(annotated, findRevisions(annotated), 1);
    expect(annotatedReport.classification).toBe('annotations');
    expect(annotatedReport.details).toContain('page 1 annotations changed');
  });
});

/** The form's text field (pdf-lib's createTextField: a field with one widget in /Kids). */
function textField(doc: PDFDocument): PDFDict {
  const fields = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray);
  const field = fields
    .asArray()
    .map((ref) => doc.context.lookup(ref, PDFDict))
    .find((dict) => dict.lookup(PDFName.of('FT')) === PDFName.of('Tx'));
  if (!field) throw new Error('no text field');
  return field;
}

describe('classifyModifications: form filling', () => {
  it('a new appearance over an unchanged value (the "replace" shadow attack): other', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([200, 200]);
    const text = doc.getForm().createTextField('name');
    text.setText('Ada');
    text.addToPage(page, { x: 10, y: 10, width: 100, height: 20 });
    const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
    const replaced = await update(signed, (doc) => {
      const field = textField(doc);
      const widget = doc.context.lookup(field.lookup(PDFName.of('Kids'), PDFArray).get(0), PDFDict);
      const appearance = doc.context.register(
        doc.context.stream('BT /Helv 12 Tf (Eve) Tj ET', { Type: 'XObject', Subtype: 'Form' }),
      );
      widget.set(PDFName.of('AP'), doc.context.obj({ N: appearance }));
    });
    const report = classifyModifications(replaced, findRevisions(replaced), 1);
    expect(report.classification).toBe('other');
    expect(report.reason).toMatch(/shows a new appearance, but its value did not change/);
  });

  it("a text field's /V and its widget's appearance set after signing: form-filling", async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([200, 200]);
    doc.getForm().createTextField('name').addToPage(page, { x: 10, y: 10, width: 100, height: 20 });
    const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
    const filled = await update(signed, (doc) => {
      const field = textField(doc);
      field.set(PDFName.of('V'), PDFString.of('Ada'));
      const widget = doc.context.lookup(field.lookup(PDFName.of('Kids'), PDFArray).get(0), PDFDict);
      const appearance = doc.context.register(doc.context.stream('BT ET', { Type: 'XObject', Subtype: 'Form' }));
      widget.set(PDFName.of('AP'), doc.context.obj({ N: appearance }));
    });
    expect(classifyModifications(filled, findRevisions(filled), 1)).toMatchObject({
      classification: 'form-filling',
      details: ['a form field was filled in'],
    });
  });
});
