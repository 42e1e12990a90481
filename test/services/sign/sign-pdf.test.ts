import * as asn1js from 'asn1js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors';
import { DEFAULT_LIMITS as limits } from '../../../src/limits';
import { signPdf } from '../../../src/services/sign/sign-pdf';
import type { SignatureDetails, SigningIdentity } from '../../../src/services/sign/sign-types';
import { loadSigningIdentity } from '../../../src/services/sign/signing-identity';
import { makeTestPki } from '../../helpers/test-identity';
import { makePdf, readSignatures, verifies } from './sign-pdf-helpers';

const details: SignatureDetails = {
  name: 'Zoë Signer',
  reason: 'Agreement',
  location: 'Genève',
  contactInfo: 'zoe@example.com',
  signingTime: new Date('2026-03-04T05:06:07Z'),
};
const latin1 = new TextDecoder('latin1');

describe('signPdf', () => {
  let rsa: SigningIdentity;
  let ec: SigningIdentity;
  beforeAll(async () => {
    const [rsaPki, ecPki] = await Promise.all([makeTestPki('rsa'), makeTestPki('ec-p256')]);
    rsa = await loadSigningIdentity(rsaPki.keyPem, rsaPki.chainPem);
    ec = await loadSigningIdentity(ecPki.keyPem, ecPki.chainPem);
  });

  for (const kind of ['rsa', 'ec-p256'] as const) {
    it(`${kind}: a CMS that verifies over the ByteRange, which is all but /Contents`, async () => {
      const original = await makePdf();
      const signed = await signPdf(original, { identity: kind === 'rsa' ? rsa : ec, details, limits });
      const [signature] = readSignatures(signed);
      if (!signature) throw new Error('no signature');
      const [start, a, b, c] = signature.byteRange;
      expect(start).toBe(0);
      expect(b).toBe(a + signature.hex.length + 2);
      expect(b + c).toBe(signed.length);
      expect(signed[a]).toBe('<'.charCodeAt(0));
      expect(signed[b - 1]).toBe('>'.charCodeAt(0));
      expect(await verifies(signature)).toBe(true);
      // The certificates are the chain; the hole is sized from the real CMS, not kilobytes of zeros.
      expect(signature.signedData.certificates).toHaveLength(2);
      const cmsLength = new Uint8Array(signature.signedData.toSchema(true).toBER()).length;
      expect(signature.hex.length / 2 - cmsLength).toBeLessThan(200);
    });
  }

  it('signed attributes are exactly contentType, messageDigest, signingCertificateV2 (no signingTime)', async () => {
    const signed = await signPdf(await makePdf(), { identity: rsa, details, limits });
    const signerInfo = readSignatures(signed)[0]?.signedData.signerInfos[0];
    const types = signerInfo?.signedAttrs?.attributes.map((attribute) => attribute.type);
    expect(types).toEqual(['1.2.840.113549.1.9.3', '1.2.840.113549.1.9.4', '1.2.840.113549.1.9.16.2.47']);
    expect(types).not.toContain('1.2.840.113549.1.9.5');
    expect(signerInfo?.sid).toBeInstanceOf(pkijs.IssuerAndSerialNumber);
    expect(signerInfo?.digestAlgorithm.algorithmId).toBe('2.16.840.1.101.3.4.2.1');
    expect(signerInfo?.signatureAlgorithm.algorithmId).toBe('1.2.840.113549.1.1.11');
    // ESSCertIDv2's certHash is the SHA-256 of the leaf certificate (RFC 5035).
    const essCertId = signerInfo?.signedAttrs?.attributes[2]?.values[0] as asn1js.Sequence;
    const certHash = ((essCertId.valueBlock.value[0] as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence)
      .valueBlock.value[0] as asn1js.OctetString;
    const leafHash = new Uint8Array(await crypto.subtle.digest('SHA-256', rsa.chain[0] as Uint8Array));
    expect(new Uint8Array(certHash.valueBlock.valueHexView)).toEqual(leafHash);
  });

  it('writes the ECDSA signature value as a DER SEQUENCE { r, s }', async () => {
    const signed = await signPdf(await makePdf(), { identity: ec, details, limits });
    const signerInfo = readSignatures(signed)[0]?.signedData.signerInfos[0];
    expect(signerInfo?.signatureAlgorithm.algorithmId).toBe('1.2.840.10045.4.3.2');
    const value = new Uint8Array(signerInfo?.signature.valueBlock.valueHexView ?? []);
    const parsed = asn1js.fromBER(value);
    expect(parsed.offset).toBe(value.length);
    expect(parsed.result).toBeInstanceOf(asn1js.Sequence);
    const parts = (parsed.result as asn1js.Sequence).valueBlock.value;
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(part).toBeInstanceOf(asn1js.Integer);
  });

  it('writes the signature dictionary and an invisible field (ISO 32000-1 §12.8.1)', async () => {
    const signed = await signPdf(await makePdf(), { identity: rsa, details, limits });
    const update = latin1.decode(signed);
    expect(update).toContain('/Type /Sig');
    expect(update).toContain('/Filter /Adobe.PPKLite');
    expect(update).toContain('/SubFilter /ETSI.CAdES.detached');
    expect(update).toContain('/M (D:20260304050607Z)');
    expect(update).toContain('/SigFlags 3');
    expect(update).toMatch(/\/Rect \[ 0 0 0 0 \]/);
    expect(update).toContain('/F 132');
    expect(update).toContain('/T (Signature1)');
    const doc = await PDFDocument.load(signed);
    expect(
      doc
        .getForm()
        .getFields()
        .map((field) => field.getName()),
    ).toEqual(['Signature1']);
  });

  it('is an incremental update: the original bytes are a prefix, with a classic xref after a classic one', async () => {
    const original = await makePdf();
    const signed = await signPdf(original, { identity: rsa, details, limits });
    expect(signed.subarray(0, original.length)).toEqual(original);
    const update = latin1.decode(signed.subarray(original.length));
    expect(update).toMatch(/\nxref\n/);
    expect(update).toMatch(/trailer\n<<[\s\S]*\/Prev \d+/);
  });

  it('writes an xref stream update after an xref stream original (§7.5.8)', async () => {
    const original = await makePdf({ objectStreams: true });
    expect(latin1.decode(original)).toContain('/Type /XRef');
    const signed = await signPdf(original, { identity: ec, details, limits });
    expect(signed.subarray(0, original.length)).toEqual(original);
    const update = latin1.decode(signed.subarray(original.length));
    expect(update).toContain('/Type /XRef');
    expect(update).not.toMatch(/\nxref\n/);
    expect(update).toMatch(/\/Prev \d+/);
    expect(await verifies(readSignatures(signed)[0] as never)).toBe(true);
    expect((await PDFDocument.load(signed)).getPageCount()).toBe(1);
  });

  it('keeps an earlier signature byte-identical and valid when signing again', async () => {
    const once = await signPdf(await makePdf({ objectStreams: true }), { identity: rsa, details, limits });
    const twice = await signPdf(once, { identity: ec, details, limits });
    const [first, second] = readSignatures(twice);
    const [firstBefore] = readSignatures(once);
    if (!first || !second || !firstBefore) throw new Error('signatures missing');
    expect(first.byteRange).toEqual(firstBefore.byteRange);
    expect(first.signedBytes).toEqual(firstBefore.signedBytes);
    expect(await verifies(first)).toBe(true);
    expect(await verifies(second)).toBe(true);
    expect(second.byteRange[2] + second.byteRange[3]).toBe(twice.length);
    expect(latin1.decode(twice)).toContain('/T (Signature2)');
  });

  it('writes what beforeSign adds in the same update, covered by the signature', async () => {
    const original = await makePdf({ pages: 2 });
    const signed = await signPdf(original, {
      identity: rsa,
      details,
      limits,
      beforeSign: async (doc) => {
        const font = await doc.embedFont(StandardFonts.HelveticaBold);
        doc.addPage([300, 300]).drawText('Audit certificate', { x: 20, y: 250, size: 14, font });
      },
    });
    expect(signed.subarray(0, original.length)).toEqual(original);
    const doc = await PDFDocument.load(signed);
    expect(doc.getPageCount()).toBe(3);
    const signature = readSignatures(signed)[0];
    if (!signature) throw new Error('no signature');
    expect(signature.byteRange[2] + signature.byteRange[3]).toBe(signed.length);
    expect(await verifies(signature)).toBe(true);
    expect((latin1.decode(signed).match(/%%EOF/g) ?? []).length).toBe(2);
  });

  it('rejects an encrypted PDF as INVALID_DOCUMENT', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const context = doc.context;
    context.trailerInfo.Encrypt = context.register(
      context.obj({ Filter: 'Standard', V: 1, R: 2, P: -4, O: context.obj([]), U: context.obj([]) }),
    );
    const encrypted = await doc.save({ useObjectStreams: false });
    await expect(signPdf(encrypted, { identity: rsa, details, limits })).rejects.toMatchObject({
      code: 'INVALID_DOCUMENT',
      message: expect.stringMatching(/encrypted/),
    });
  });

  it('rejects damaged PDFs as INVALID_DOCUMENT', async () => {
    const good = await makePdf();
    const cases = [
      new TextEncoder().encode('not a pdf at all'),
      good.subarray(0, Math.floor(good.length / 2)),
      new Uint8Array(0),
    ];
    for (const bytes of cases) {
      const error = await signPdf(bytes, { identity: rsa, details, limits }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('INVALID_DOCUMENT');
    }
  });
});
