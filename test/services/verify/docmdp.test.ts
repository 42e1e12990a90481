import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { ObjectReader } from '../../../src/services/pdf-read/object-reader';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import { docMdpViolation, findCertification } from '../../../src/services/verify/docmdp';
import type { ModificationReport } from '../../../src/services/verify/modification-check';

/** A document whose catalog /Perms /DocMDP names a signature dictionary with a DocMDP reference (§12.8.2.2). */
async function certified(p: number | undefined, viaPerms = true): Promise<{ pdf: Uint8Array; signatureRef: number }> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  const params = doc.context.obj(
    p === undefined ? { Type: 'TransformParams', V: '1.2' } : { Type: 'TransformParams', P: p, V: '1.2' },
  );
  const reference = doc.context.obj({ Type: 'SigRef', TransformMethod: 'DocMDP', TransformParams: params });
  const signature = doc.context.register(
    doc.context.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', Reference: [reference] }),
  );
  if (viaPerms) doc.catalog.set(PDFName.of('Perms'), doc.context.obj({ DocMDP: signature }));
  return { pdf: await doc.save({ useObjectStreams: false }), signatureRef: signature.objectNumber };
}

function certificationOf(pdf: Uint8Array, refs: number[] = []) {
  const scan = findRevisions(pdf);
  return findCertification(new ObjectReader(pdf, scan), scan, refs);
}

const report = (
  classification: ModificationReport['classification'],
  approvalSignatureAdded = false,
): ModificationReport => ({
  classification,
  approvalSignatureAdded,
  reason: `${classification} happened`,
  details: [],
  filledFields: [],
});

describe('DocMDP (ISO 32000-1 §12.8.2.2)', () => {
  it('finds the certification through /Perms /DocMDP with its /P', async () => {
    for (const p of [1, 2, 3]) {
      const { pdf, signatureRef } = await certified(p);
      expect(certificationOf(pdf)).toEqual({ signatureRef, p });
    }
  });

  it('reads a missing or unknown /P as 2, the default (Table 254)', async () => {
    expect(certificationOf((await certified(undefined)).pdf)?.p).toBe(2);
    expect(certificationOf((await certified(7)).pdf)?.p).toBe(2);
  });

  it("finds it from a signature's /Reference when the catalog has no /Perms", async () => {
    const { pdf, signatureRef } = await certified(1, false);
    expect(certificationOf(pdf)).toBeUndefined();
    expect(certificationOf(pdf, [signatureRef])).toEqual({ signatureRef, p: 1 });
  });

  it('P=1 permits only validation data and document timestamps', () => {
    expect(docMdpViolation(1, report('none'))).toBeUndefined();
    expect(docMdpViolation(1, report('signatures'))).toBeUndefined();
    expect(docMdpViolation(1, report('signatures', true))).toMatch(/P=1.*a signature was added/);
    expect(docMdpViolation(1, report('form-filling'))).toMatch(/P=1.*form-filling happened/);
  });

  it('P=2 permits form filling and signatures, not annotations; P=3 also annotations', () => {
    expect(docMdpViolation(2, report('form-filling', true))).toBeUndefined();
    expect(docMdpViolation(2, report('annotations'))).toMatch(/P=2\) does not permit annotations/);
    expect(docMdpViolation(3, report('annotations'))).toBeUndefined();
  });
});
