import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRef, PDFString } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import type { SigningIdentity } from '../../../src/services/sign/sign-types';
import { classifyModifications } from '../../../src/services/verify/modification-check';
import { findSignatureFields } from '../../../src/services/verify/signature-fields';
import {
  appendUpdate,
  emptySignatureField,
  makeOriginal,
  sign,
  testIdentity,
  textField,
  update,
} from './verify-fixtures';

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

    it('a trailer key the standard lacks: a path like any other (new content only it reaches is other)', () => {
      // Naming an object the signed revision has changes nothing a viewer shows (LibreOffice's
      // /AdditionalStreams, copied by later savers, is this)...
      const naming = appendUpdate(signed, { trailerExtra: ' /FooBar 1 0 R' });
      expect(classify(naming).classification).toBe('none');
      // ...but the object it names is new (appendUpdate's, numbered /Size), and only that private key reaches it: other.
      const size = findRevisions(signed).revisions.at(-1)?.size ?? 0;
      const report = classify(appendUpdate(signed, { trailerExtra: ` /FooBar ${size} 0 R` }));
      expect(report.classification).toBe('other');
      expect(report.reason ?? '').toMatch(/nothing changed refers to it; it is used by the trailer's \/FooBar/);
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

    it('a stray new object nothing in the document refers to: none, said (pyHanko: harmless)', () => {
      const report = classify(appendUpdate(signed));
      expect(report.classification).toBe('none');
      expect(report.details.join('\n')).toMatch(/was added, but nothing in the document refers to it/);
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

describe('classifyModifications: what refers to a changed object decides', () => {
  it('a new object that defines a number the signed revision referred to: other', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([200, 200]);
    // A reference to an object the file does not define (null, ISO 32000-1 §7.3.10) until later.
    page.node.set(PDFName.of('Thumb'), PDFRef.of(500));
    const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
    const filled = appendUpdate(signed, { num: 500 });
    const filledReport = classifyModifications(filled, findRevisions(filled), 1);
    expect(filledReport.classification).toBe('other');
    expect(filledReport.reason).toMatch(/object 500 0 R was added, but nothing changed refers to it/);
  });

  /** An unsigned signature field with a blank appearance stream of its own; `shareWithPage` also draws that stream on the page. */
  async function withEmptySignatureField(shareWithPage: boolean) {
    const doc = await PDFDocument.create();
    const page = doc.addPage([200, 200]);
    const { widget, blank } = emptySignatureField(doc, page);
    page.node.set(PDFName.of('Annots'), doc.context.obj([widget]));
    if (shareWithPage) page.node.set(PDFName.of('Resources'), doc.context.obj({ XObject: { Blank: blank } }));
    doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [widget], SigFlags: 3 }));
    const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
    // The later signer signs the field: its /V, and its blank appearance redrawn in place.
    return update(signed, (later) => {
      const field = later.context.lookup(widget, PDFDict);
      const signature = later.context.register(
        later.context.obj({
          Type: 'Sig',
          Filter: 'Adobe.PPKLite',
          SubFilter: 'ETSI.CAdES.detached',
          ByteRange: [0, 0, 0, 0],
          Contents: PDFHexString.of('00'),
        }),
      );
      field.set(PDFName.of('V'), signature);
      later.context.assign(
        blank,
        later.context.stream('0 g 0 0 60 20 re f', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 60, 20] }),
      );
    });
  }

  it("an empty signature field's appearance stream redrawn when it is signed: signatures", async () => {
    const pdf = await withEmptySignatureField(false);
    expect(classifyModifications(pdf, findRevisions(pdf), 1)).toMatchObject({ classification: 'signatures' });
  });

  it('the same stream also drawn by the signed page: other, naming who uses it', async () => {
    const pdf = await withEmptySignatureField(true);
    const report = classifyModifications(pdf, findRevisions(pdf), 1);
    expect(report.classification).toBe('other');
    expect(report.reason).toMatch(/XObject object \d+ 0 R changed; it is used by .*\/XObject|\/Resources/);
  });

  it('an indirect DSS array of a signed revision that grows in a later one: signatures', async () => {
    const identity = await testIdentity();
    const signed = await sign(await makeOriginal(false), identity);
    let certs: PDFRef | undefined;
    const withDss = await update(signed, (doc) => {
      const cert = doc.context.register(doc.context.stream(new Uint8Array([0x30, 0x00])));
      certs = doc.context.register(doc.context.obj([cert]));
      doc.catalog.set(PDFName.of('DSS'), doc.context.register(doc.context.obj({ Type: 'DSS', Certs: certs })));
    });
    // Revisions: 0 original, 1 first signature, 2 DSS, 3 second signature (which signs the DSS), 4 the array grown.
    const signedAgain = await sign(withDss, identity);
    const grown = await update(signedAgain, (doc) => {
      const array = doc.context.lookup(certs as PDFRef, PDFArray);
      array.push(doc.context.register(doc.context.stream(new Uint8Array([0x30, 0x01, 0x00]))));
    });
    expect(findRevisions(grown).revisions).toHaveLength(5);
    expect(classifyModifications(grown, findRevisions(grown), 3)).toMatchObject({ classification: 'signatures' });
  });

  it('/Extensions rewritten while an unknown catalog key also refers to it: other', async () => {
    const build = async (alsoElsewhere: boolean) => {
      const doc = await PDFDocument.create();
      doc.addPage([200, 200]);
      const extensions = doc.context.register(doc.context.obj({}));
      doc.catalog.set(PDFName.of('Extensions'), extensions);
      if (alsoElsewhere) doc.catalog.set(PDFName.of('DontOverrideMe'), extensions);
      const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
      return update(signed, (later) => {
        later.context.assign(
          extensions,
          later.context.obj({ ADBE: { Type: 'DeveloperExtensions', BaseVersion: '1.7', ExtensionLevel: 8 } }),
        );
      });
    };
    const own = await build(false);
    expect(classifyModifications(own, findRevisions(own), 1).classification).toBe('signatures');
    const shared = await build(true);
    const report = classifyModifications(shared, findRevisions(shared), 1);
    expect(report.classification).toBe('other');
    expect(report.reason).toMatch(/DontOverrideMe/);
  });

  it('a field pointed at a new appearance while its old appearance dictionary is shared with the catalog: other', async () => {
    const build = async (shared: boolean) => {
      const doc = await PDFDocument.create();
      const page = doc.addPage([200, 200]);
      const text = doc.getForm().createTextField('name');
      text.addToPage(page, { x: 10, y: 10, width: 100, height: 20 });
      const signedForm = doc.getForm().getTextField('name').acroField;
      const widget = signedForm.getWidgets()[0];
      if (!widget) throw new Error('no widget');
      const ap = doc.context.register(
        doc.context.obj({
          N: doc.context.register(doc.context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 100, 20] })),
        }),
      );
      widget.dict.set(PDFName.of('AP'), ap);
      if (shared) doc.catalog.set(PDFName.of('FooBar'), ap);
      const signed = await sign(await doc.save({ useObjectStreams: false }), await testIdentity());
      return update(signed, (later) => {
        const field = textField(later);
        field.set(PDFName.of('V'), PDFString.of('Ada'));
        const kid = later.context.lookup(field.lookup(PDFName.of('Kids'), PDFArray).get(0), PDFDict);
        const appearance = later.context.register(later.context.stream('BT ET', { Type: 'XObject', Subtype: 'Form' }));
        kid.set(PDFName.of('AP'), later.context.obj({ N: appearance }));
      });
    };
    const own = await build(false);
    expect(classifyModifications(own, findRevisions(own), 1).classification).toBe('form-filling');
    const shared = await build(true);
    const report = classifyModifications(shared, findRevisions(shared), 1);
    expect(report.classification).toBe('other');
    expect(report.reason).toMatch(
      /appearance dictionary \d+ 0 R of form field \d+ 0 R is also used by the catalog \(\/FooBar\)/,
    );
  });
});
