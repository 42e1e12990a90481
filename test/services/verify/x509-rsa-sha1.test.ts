/**
 * adbe.x509.rsa_sha1 (ISO 32000-1 §12.8.3.2): a PDF built here with pdf-lib, its /Contents a DER
 * OCTET STRING holding an RSA PKCS#1 v1.5 SHA-1 signature over the ByteRange bytes, and the
 * signer's certificate in /Cert (a string, or an array whose first string is the signer).
 */
import * as asn1js from 'asn1js';
import { type PDFArray, PDFDocument, PDFHexString, PDFName, type PDFObject } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import { pemBlocks } from '../../../src/services/sign/signing-identity';
import { findSignatureFields } from '../../../src/services/verify/signature-fields';
import { verifyPdf } from '../../../src/services/verify/verify-document';
import { makeTestPki, type TestPki } from '../../helpers/test-identity';
import { ascii, text } from './verify-fixtures';

const HOLE_BYTES = 512;
const PLACEHOLDER = 1_111_111_111;

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** A one-page PDF with an adbe.x509.rsa_sha1 signature field, signed by `sign` over the ByteRange bytes. */
async function buildPdf(cert: (doc: PDFDocument) => PDFObject, sign: (bytes: Uint8Array) => Promise<Uint8Array>) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 200]);
  const signature = doc.context.register(
    doc.context.obj({
      Type: 'Sig',
      Filter: 'Adobe.PPKLite',
      SubFilter: 'adbe.x509.rsa_sha1',
      Cert: cert(doc),
      ByteRange: [0, PLACEHOLDER, PLACEHOLDER, PLACEHOLDER],
      Contents: PDFHexString.of('00'.repeat(HOLE_BYTES)),
    }),
  );
  const widget = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFHexString.fromText('Legacy'),
      Rect: [0, 0, 0, 0],
      V: signature,
      P: page.ref,
    }),
  );
  page.node.set(PDFName.of('Annots'), doc.context.obj([widget]));
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.obj({ Fields: [widget], SigFlags: 3 }));
  const pdf = await doc.save({ useObjectStreams: false });

  const source = text(pdf);
  const hole = `<${'00'.repeat(HOLE_BYTES)}>`;
  const start = source.indexOf(hole);
  const end = start + hole.length;
  const rangeText = `[ 0 ${PLACEHOLDER} ${PLACEHOLDER} ${PLACEHOLDER} ]`;
  const range = `[ 0 ${start} ${end} ${pdf.length - end} ]`.padEnd(rangeText.length, ' ');
  const out = pdf.slice();
  out.set(ascii(range), source.indexOf(rangeText));
  const signed = new Uint8Array(pdf.length - (end - start));
  signed.set(out.subarray(0, start), 0);
  signed.set(out.subarray(end), start);
  const value = new Uint8Array(new asn1js.OctetString({ valueHex: await sign(signed) }).toBER());
  out.set(ascii(hex(value).padEnd(HOLE_BYTES * 2, '0')), start + 1);
  return out;
}

describe('adbe.x509.rsa_sha1', () => {
  let pki: TestPki;
  let leaf: Uint8Array;
  let ca: Uint8Array;
  let sha1Key: CryptoKey;
  const rsaSha1 = async (bytes: Uint8Array) =>
    new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', sha1Key, bytes));
  beforeAll(async () => {
    pki = await makeTestPki('rsa');
    leaf = new Uint8Array(pki.leafCert.rawData);
    ca = new Uint8Array(pki.caCert.rawData);
    const [pkcs8] = pemBlocks(pki.keyPem, 'PRIVATE KEY');
    sha1Key = await crypto.subtle.importKey(
      'pkcs8',
      pkcs8 as Uint8Array,
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-1' },
      false,
      ['sign'],
    );
  });

  it('/Cert as one string: valid, with a problem saying it is legacy SHA-1', async () => {
    const pdf = await buildPdf(() => PDFHexString.of(hex(leaf)), rsaSha1);
    const { signatures } = await findSignatureFields(pdf, findRevisions(pdf));
    expect(signatures[0]?.cert).toEqual([leaf]);
    const result = await verifyPdf(pdf, { trustedRoots: [ca] });
    expect(result.valid).toBe(true);
    const [signature] = result.signatures;
    expect(signature).toMatchObject({
      subFilter: 'adbe.x509.rsa_sha1',
      intact: true,
      cryptographicallyValid: true,
      digestAlgorithm: 'SHA-1',
      signatureAlgorithm: 'RSASSA-PKCS1-v1_5',
      trusted: true,
    });
    expect(signature?.signer.name).toBe('Quire Signer');
    expect(signature?.problems).toContain('legacy adbe.x509.rsa_sha1 signature (SHA-1)');
  });

  it('/Cert as an array: the first string is the signer', async () => {
    const pdf = await buildPdf(
      (doc) => doc.context.obj([PDFHexString.of(hex(leaf)), PDFHexString.of(hex(ca))]),
      rsaSha1,
    );
    const result = await verifyPdf(pdf, { trustedRoots: [] });
    expect(result.valid).toBe(true);
    expect(result.signatures[0]).toMatchObject({ intact: true, cryptographicallyValid: true });
  });

  it('a changed signed byte, a wrong signer or a missing /Cert: not valid, never a throw', async () => {
    const pdf = await buildPdf(() => PDFHexString.of(hex(leaf)), rsaSha1);
    const changed = pdf.slice();
    const at = text(pdf).indexOf('/MediaBox') + 2;
    changed[at] = 'X'.charCodeAt(0);
    const tampered = await verifyPdf(changed, { trustedRoots: [] });
    expect(tampered.valid).toBe(false);
    expect(tampered.signatures[0]).toMatchObject({ intact: false, cryptographicallyValid: false });
    expect(tampered.signatures[0]?.problems).toContain(
      'the signature value does not verify with the signer certificate',
    );

    const wrongSigner = await buildPdf(() => PDFHexString.of(hex(ca)), rsaSha1);
    expect((await verifyPdf(wrongSigner, { trustedRoots: [] })).signatures[0]).toMatchObject({
      intact: false,
      cryptographicallyValid: false,
    });

    const noCert = await buildPdf((doc) => doc.context.obj([]) as PDFArray, rsaSha1);
    const missing = await verifyPdf(noCert, { trustedRoots: [] });
    expect(missing.valid).toBe(false);
    expect(missing.signatures[0]?.problems).toContain('the signer certificate (/Cert) is missing or unreadable');
  });
});
