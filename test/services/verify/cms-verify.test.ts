import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { bytesEqual, concatBytes } from '../../../src/kit';
import type { SigningIdentity } from '../../../src/services/sign/sign-types';
import { loadSigningIdentity, pemBlocks } from '../../../src/services/sign/signing-identity';
import { MAX_CMS_BYTES, MAX_CMS_ELEMENTS, verifyCms } from '../../../src/services/verify/cms-verify';
import { ecdsaDerToP1363 } from '../../../src/services/verify/signature-algorithms';
import { makeTestPki } from '../../helpers/test-identity';
import { type Extracted, encode, extract, parse, resign } from './cms-fixtures';
import { makeOriginal, sign } from './verify-fixtures';

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The header of the DER element at `at`: where its contents start and how long they are. */
function tlv(bytes: Uint8Array, at: number): { tag: number; start: number; end: number } {
  const first = bytes[at + 1] ?? 0;
  let length = first;
  let start = at + 2;
  if (first & 0x80) {
    length = 0;
    for (let i = 0; i < (first & 0x7f); i++) length = length * 256 + (bytes[start + i] ?? 0);
    start += first & 0x7f;
  }
  return { tag: bytes[at] ?? 0, start, end: start + length };
}

/** BER a DER writer would not write: ContentInfo, its [0] and SignedData in the indefinite form (X.690 §8.1.3.6). */
function indefiniteEnvelope(der: Uint8Array): Uint8Array {
  const info = tlv(der, 0);
  const oid = tlv(der, info.start);
  const explicit = tlv(der, oid.end);
  const signedData = tlv(der, explicit.start);
  return concatBytes([
    Uint8Array.of(0x30, 0x80),
    der.subarray(info.start, oid.end),
    Uint8Array.of(0xa0, 0x80, 0x30, 0x80),
    der.subarray(signedData.start, signedData.end),
    new Uint8Array(6),
  ]);
}

/** The element at 0 with its length written in `octets` long-form octets, leading zeros and all (BER, X.690 §8.1.3.5). */
function paddedLength(der: Uint8Array, octets: number): Uint8Array {
  const { tag, start, end } = tlv(der, 0);
  const length = end - start;
  const header = [tag, 0x80 | octets];
  for (let i = octets - 1; i >= 0; i--) header.push(Math.floor(length / 256 ** i) % 256);
  return concatBytes([Uint8Array.from(header), der.subarray(start)]);
}

/** An unsigned attribute (RFC 5652 §5.3, outside what is signed) holding a SEQUENCE of `count` NULLs. */
function withBulkyUnsignedAttribute(contents: Uint8Array, count: number): Uint8Array {
  const signedData = parse(contents);
  const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
  signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 1,
    attributes: [
      new pkijs.Attribute({
        type: '1.2.3.4.5',
        values: [new asn1js.Sequence({ value: Array.from({ length: count }, () => new asn1js.Null()) })],
      }),
    ],
  });
  return encode(signedData);
}

/** `contents` with crls [1] (RFC 5652 §5.1) holding `entries`, put before signerInfos; nothing signed changes. */
function withCrls(contents: Uint8Array, entries: asn1js.BaseBlock[]): Uint8Array {
  const info = asn1js.fromBER(contents).result as asn1js.Sequence;
  const signedData = (info.valueBlock.value[1] as asn1js.Constructed).valueBlock.value[0] as asn1js.Sequence;
  const parts = signedData.valueBlock.value;
  parts.splice(parts.length - 1, 0, new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value: entries }));
  return new Uint8Array(info.toBER());
}

describe('verifyCms', () => {
  let rsa: SigningIdentity;
  let rsaKeyPem: string;
  let signedRsa: Extracted;
  let signedEc: Extracted;
  beforeAll(async () => {
    const [rsaPki, ecPki] = await Promise.all([makeTestPki('rsa'), makeTestPki('ec-p256')]);
    rsa = await loadSigningIdentity(rsaPki.keyPem, rsaPki.chainPem);
    rsaKeyPem = rsaPki.keyPem;
    const ec = await loadSigningIdentity(ecPki.keyPem, ecPki.chainPem);
    signedRsa = await extract(await sign(await makeOriginal(false), rsa));
    signedEc = await extract(await sign(await makeOriginal(true), ec));
  });

  it('RSA: intact and valid, with the signer, algorithms and certificates', async () => {
    const check = await verifyCms(signedRsa.contents, signedRsa.signedBytes, signedRsa.subFilter);
    expect(check.problems).toEqual([]);
    expect(check.intact).toBe(true);
    expect(check.cryptographicallyValid).toBe(true);
    expect(check.digestAlgorithm).toBe('SHA-256');
    expect(check.signatureAlgorithm).toBe('RSASSA-PKCS1-v1_5');
    expect(check.signer?.name).toBe('Quire Signer');
    expect(check.signer?.certificate.subject).toContain('CN=Quire Signer');
    expect(check.certificates).toHaveLength(2);
    expect(check.certificates[0]).toEqual(rsa.chain[0]);
    expect(check.signingTime).toBeUndefined();
    expect(check.timestampToken).toBeUndefined();
  });

  it('ECDSA: intact and valid (DER signature value)', async () => {
    const check = await verifyCms(signedEc.contents, signedEc.signedBytes, signedEc.subFilter);
    expect(check.problems).toEqual([]);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true, signatureAlgorithm: 'ECDSA' });
  });

  it('ECDSA: a plain r||s signature value is accepted too', async () => {
    const signedData = parse(signedEc.contents);
    const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
    const der = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
    const raw = ecdsaDerToP1363(der, 32) as Uint8Array;
    signerInfo.signature = new asn1js.OctetString({ valueHex: raw });
    const check = await verifyCms(encode(signedData), signedEc.signedBytes, signedEc.subFilter);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true });
  });

  it('a byte changed in the covered range: not intact, the signature itself still valid', async () => {
    const bytes = signedRsa.signedBytes.slice();
    bytes[20] = (bytes[20] ?? 0) ^ 0x01;
    const check = await verifyCms(signedRsa.contents, bytes, signedRsa.subFilter);
    expect(check.intact).toBe(false);
    expect(check.cryptographicallyValid).toBe(true);
    expect(check.problems).toContain('the document digest does not match the signed digest');
  });

  for (const kind of ['rsa', 'ec'] as const) {
    it(`${kind}: a byte of the signature value changed in the file: not valid`, async () => {
      const source = kind === 'rsa' ? signedRsa : signedEc;
      const signerInfo = parse(source.contents).signerInfos[0] as pkijs.SignerInfo;
      const value = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
      const at = indexOf(source.contents, value);
      expect(at).toBeGreaterThan(0);
      // Patch the hex in the PDF itself, then read it back as the verifier would.
      const pdf = source.pdf.slice();
      const hexOffset = source.hexStart + (at + value.length - 3) * 2;
      pdf[hexOffset + 1] = pdf[hexOffset + 1] === '0'.charCodeAt(0) ? '1'.charCodeAt(0) : '0'.charCodeAt(0);
      const tampered = await extract(pdf);
      const check = await verifyCms(tampered.contents, tampered.signedBytes, tampered.subFilter);
      expect(check.intact).toBe(true);
      expect(check.cryptographicallyValid).toBe(false);
      expect(check.problems.length).toBeGreaterThan(0);
    });
  }

  it('BER outside the signed attributes (RFC 5652 §5.4 asks DER of those only): indefinite and padded lengths verify', async () => {
    for (const contents of [indefiniteEnvelope(signedRsa.contents), paddedLength(signedRsa.contents, 4)]) {
      expect(bytesEqual(contents, signedRsa.contents)).toBe(false);
      const check = await verifyCms(contents, signedRsa.signedBytes, signedRsa.subFilter);
      expect(check.problems).toEqual([]);
      expect(check).toMatchObject({ intact: true, cryptographicallyValid: true });
    }
    // Still BER: an indefinite length never closed is refused, not guessed.
    const open = indefiniteEnvelope(signedRsa.contents);
    const unclosed = await verifyCms(open.subarray(0, open.length - 6), signedRsa.signedBytes, signedRsa.subFilter);
    expect(unclosed).toMatchObject({ intact: false, cryptographicallyValid: false });
  });

  it("a CMS of more than asn1js's default 10,000 elements (a large CRL) is read; past the budget it is refused in words", async () => {
    const large = withBulkyUnsignedAttribute(signedRsa.contents, 20_000);
    const check = await verifyCms(large, signedRsa.signedBytes, signedRsa.subFilter);
    expect(check.problems).toEqual([]);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true });

    const huge = withBulkyUnsignedAttribute(signedRsa.contents, MAX_CMS_ELEMENTS);
    const refused = await verifyCms(huge, signedRsa.signedBytes, signedRsa.subFilter);
    expect(refused).toMatchObject({ intact: false, cryptographicallyValid: false });
    expect(refused.problems).toContain(
      `the signature's CMS has more than ${MAX_CMS_ELEMENTS} ASN.1 elements and is not read`,
    );
  });

  it('enveloping: eContent that is the ByteRange bytes verifies, with a problem; any other eContent does not', async () => {
    const withContent = (content: Uint8Array) => {
      const signedData = parse(signedRsa.contents);
      signedData.encapContentInfo = new pkijs.EncapsulatedContentInfo({
        eContentType: signedData.encapContentInfo.eContentType,
        eContent: new asn1js.OctetString({ valueHex: content }),
      });
      return encode(signedData);
    };
    const same = await verifyCms(withContent(signedRsa.signedBytes), signedRsa.signedBytes, signedRsa.subFilter);
    expect(same).toMatchObject({ intact: true, cryptographicallyValid: true });
    expect(same.problems).toEqual([
      'the signature encapsulates the signed byte ranges instead of being detached (ISO 32000-1 §12.8.3.3.1); EU DSS accepts this, pyHanko does not',
    ]);

    // An empty eContent with messageDigest over the ByteRange (EU DSS's and pyHanko's invalid
    // samples): CMS signs the eContent, which is not this document.
    const other = signedRsa.signedBytes.slice();
    other[0] = (other[0] ?? 0) ^ 1;
    for (const content of [new Uint8Array(0), other]) {
      const check = await verifyCms(withContent(content), signedRsa.signedBytes, signedRsa.subFilter);
      expect(check).toMatchObject({ intact: false, cryptographicallyValid: false });
      expect(check.problems.join('\n')).toContain(
        `the signature encapsulates ${content.length} bytes of content that are not the signed byte ranges`,
      );
    }
  });

  it('revocation data in crls that is no RevocationInfoChoice (an untagged OCSP entry, as iText wrote) is ignored, with a problem', async () => {
    // SEQUENCE { id-ri-ocsp-response, response } where [1] IMPLICIT OtherRevocationInfoFormat belongs (RFC 5652 §10.2.1).
    const untagged = () =>
      new asn1js.Sequence({
        value: [new asn1js.ObjectIdentifier({ value: '1.3.6.1.5.5.7.16.2' }), new asn1js.Sequence({ value: [] })],
      });
    const tagged = new asn1js.Constructed({
      idBlock: { tagClass: 3, tagNumber: 1 },
      value: [new asn1js.ObjectIdentifier({ value: '1.3.6.1.5.5.7.16.2' }), new asn1js.Sequence({ value: [] })],
    });
    const wellFormed = await verifyCms(
      withCrls(signedRsa.contents, [tagged]),
      signedRsa.signedBytes,
      signedRsa.subFilter,
    );
    expect(wellFormed.problems).toEqual([]);
    expect(wellFormed).toMatchObject({ intact: true, cryptographicallyValid: true });

    const contents = withCrls(signedRsa.contents, [untagged(), tagged, untagged()]);
    const check = await verifyCms(contents, signedRsa.signedBytes, signedRsa.subFilter);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true });
    expect(check.problems).toEqual([
      "2 revocation entries of the SignedData's crls are not a RevocationInfoChoice (RFC 5652 §10.2.1) and are ignored; the signer does not sign them",
    ]);
    expect(check.certificates).toHaveLength(2);
  });

  it('a signatureAlgorithm naming another hash than the one signed (sha256WithRSA over a SHA-384 DigestInfo) does not verify, as EU DSS asserts (DSS-1420)', async () => {
    const [pkcs8] = pemBlocks(rsaKeyPem, 'PRIVATE KEY');
    const key = await crypto.subtle.importKey(
      'pkcs8',
      pkcs8 as Uint8Array,
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' },
      false,
      ['sign'],
    );
    const mislabelled = await resign(signedRsa.contents, {
      certificate: parse(signedRsa.contents).certificates?.[0] as pkijs.Certificate,
      digestOid: '2.16.840.1.101.3.4.2.2',
      messageDigest: new Uint8Array(await crypto.subtle.digest('SHA-384', signedRsa.signedBytes)),
      signatureOid: '1.2.840.113549.1.1.11',
      sign: async (data) => new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, data)),
    });
    const check = await verifyCms(mislabelled, signedRsa.signedBytes, signedRsa.subFilter);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: false, digestAlgorithm: 'SHA-384' });
    expect(check.problems).toEqual(['the signature value does not verify with the signer certificate']);
  });

  it('garbage, empty, truncated and oversized contents: both false, no throw', async () => {
    const inputs = [
      new Uint8Array(0),
      new Uint8Array(64),
      crypto.getRandomValues(new Uint8Array(300)),
      signedRsa.contents.subarray(0, 200),
      new Uint8Array([0x30, 0x03, 0x06, 0x01, 0x00]),
      new Uint8Array(MAX_CMS_BYTES + 1),
    ];
    for (const contents of inputs) {
      const check = await verifyCms(contents, signedRsa.signedBytes, 'ETSI.CAdES.detached');
      expect(check.intact).toBe(false);
      expect(check.cryptographicallyValid).toBe(false);
      expect(check.problems.length).toBeGreaterThan(0);
    }
  });

  it('digestAlgorithm says SHA-512 but messageDigest is a SHA-256 digest: invalid', async () => {
    const signedData = parse(signedRsa.contents);
    const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
    signerInfo.digestAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.3' });
    const check = await verifyCms(encode(signedData), signedRsa.signedBytes, signedRsa.subFilter);
    expect(check.digestAlgorithm).toBe('SHA-512');
    expect(check.intact).toBe(false);
    expect(check.cryptographicallyValid).toBe(false);
    expect(check.problems).toContain('the signed digest is 32 bytes, not a SHA-512 digest');
  });

  it("a signature algorithm in digestAlgorithm (Nitro Pro's sha1WithRSAEncryption) is not a digest algorithm, as EU DSS asserts", async () => {
    const signedData = parse(signedRsa.contents);
    (signedData.signerInfos[0] as pkijs.SignerInfo).digestAlgorithm = new pkijs.AlgorithmIdentifier({
      algorithmId: '1.2.840.113549.1.1.11',
    });
    const check = await verifyCms(encode(signedData), signedRsa.signedBytes, signedRsa.subFilter);
    expect(check).toMatchObject({ intact: false, cryptographicallyValid: false });
    expect(check.problems).toContain('the digest algorithm 1.2.840.113549.1.1.11 is not supported');
  });

  it('signed attributes without messageDigest: invalid with a problem', async () => {
    const signedData = parse(signedRsa.contents);
    const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
    const attrs = signerInfo.signedAttrs as pkijs.SignedAndUnsignedAttributes;
    signerInfo.signedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: attrs.attributes.filter((attribute) => attribute.type !== '1.2.840.113549.1.9.4'),
    });
    const check = await verifyCms(encode(signedData), signedRsa.signedBytes, signedRsa.subFilter);
    expect(check).toMatchObject({ intact: false, cryptographicallyValid: false });
    expect(check.problems).toContain('the signed attributes have no message digest');
  });

  it('no signed attributes: the signature over the content decides both', async () => {
    const signedData = parse(signedRsa.contents);
    const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
    signerInfo.signedAttrs = undefined;
    signerInfo.signature = new asn1js.OctetString({
      valueHex: await crypto.subtle.sign('RSASSA-PKCS1-v1_5', rsa.privateKey, signedRsa.signedBytes),
    });
    const contents = encode(signedData);
    const good = await verifyCms(contents, signedRsa.signedBytes, 'adbe.pkcs7.detached');
    expect(good.problems).toEqual([]);
    expect(good).toMatchObject({ intact: true, cryptographicallyValid: true });
    const changed = signedRsa.signedBytes.slice();
    changed[0] = (changed[0] ?? 0) ^ 0xff;
    const bad = await verifyCms(contents, changed, 'adbe.pkcs7.detached');
    expect(bad).toMatchObject({ intact: false, cryptographicallyValid: false });
  });

  it('signer not among the certificates: a problem, both false', async () => {
    const signedData = parse(signedRsa.contents);
    signedData.certificates = signedData.certificates?.slice(1);
    const check = await verifyCms(encode(signedData), signedRsa.signedBytes, signedRsa.subFilter);
    expect(check).toMatchObject({ intact: false, cryptographicallyValid: false });
    // The problem names the missing certificate by the signer identifier (RFC 5652 §5.3).
    expect(check.problems.join('\n')).toMatch(
      /the signer certificate \(issuer .*CN=.*, serial [0-9a-f]+\) is not in the signature/,
    );
    expect(check.certificates).toHaveLength(1);
  });

  it('adbe.x509.rsa_sha1 with no /Cert certificates: legacy, and not valid', async () => {
    const check = await verifyCms(signedRsa.contents, signedRsa.signedBytes, 'adbe.x509.rsa_sha1');
    expect(check).toMatchObject({ intact: false, cryptographicallyValid: false });
    expect(check.problems[0]).toMatch(/legacy/);
  });
  /** The bytes a signature over signerInfo's signed attributes covers (RFC 5652 §5.4). */
  function signedAttributesOf(signerInfo: pkijs.SignerInfo): Uint8Array {
    const bytes = new Uint8Array((signerInfo.signedAttrs as pkijs.SignedAndUnsignedAttributes).encodedValue).slice();
    bytes[0] = 0x31;
    return bytes;
  }

  it('RSA-PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt (RSASSA-PSS-params)', async () => {
    const signedData = parse(signedRsa.contents);
    const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
    const sha256 = () => new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.1' });
    const params = new pkijs.RSASSAPSSParams({
      hashAlgorithm: sha256(),
      maskGenAlgorithm: new pkijs.AlgorithmIdentifier({
        algorithmId: '1.2.840.113549.1.1.8',
        algorithmParams: sha256().toSchema(),
      }),
      saltLength: 32,
    });
    signerInfo.signatureAlgorithm = new pkijs.AlgorithmIdentifier({
      algorithmId: '1.2.840.113549.1.1.10',
      algorithmParams: params.toSchema(),
    });
    const [pkcs8] = pemBlocks(rsaKeyPem, 'PRIVATE KEY');
    const key = await crypto.subtle.importKey(
      'pkcs8',
      pkcs8 as Uint8Array,
      { name: 'RSA-PSS', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    signerInfo.signature = new asn1js.OctetString({
      valueHex: await crypto.subtle.sign({ name: 'RSA-PSS', saltLength: 32 }, key, signedAttributesOf(signerInfo)),
    });
    const check = await verifyCms(encode(signedData), signedRsa.signedBytes, signedRsa.subFilter);
    expect(check.problems).toEqual([]);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true, signatureAlgorithm: 'RSA-PSS' });
  });

  it('signer identified by subjectKeyIdentifier, with an email in the SAN', async () => {
    const keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const ski = await x509.SubjectKeyIdentifierExtension.create(keys.publicKey);
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '05',
      name: 'CN=Key Id Signer',
      notBefore: new Date('2025-01-01T00:00:00Z'),
      notAfter: new Date('2035-01-01T00:00:00Z'),
      keys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [ski, new x509.SubjectAlternativeNameExtension([{ type: 'email', value: 'keyid@example.com' }])],
    });
    const signedData = parse(signedEc.contents);
    const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
    signedData.certificates = [pkijs.Certificate.fromBER(new Uint8Array(cert.rawData))];
    signerInfo.version = 3;
    signerInfo.sid = new asn1js.Primitive({
      idBlock: { tagClass: 3, tagNumber: 0 },
      valueHex: Uint8Array.from(ski.keyId.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16)),
    });
    const p1363 = await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      keys.privateKey,
      signedAttributesOf(signerInfo),
    );
    signerInfo.signature = new asn1js.OctetString({ valueHex: p1363 });
    const check = await verifyCms(encode(signedData), signedEc.signedBytes, signedEc.subFilter);
    // The signed attributes are still the first signer's: their signingCertificateV2 names its certificate.
    expect(check.problems).toEqual([
      'the signing-certificate attribute names another certificate than the signer’s (RFC 5035 §3): the certificate may have been substituted',
    ]);
    expect(check).toMatchObject({ intact: true, cryptographicallyValid: true });
    expect(check.signer).toMatchObject({ name: 'Key Id Signer', email: 'keyid@example.com' });
  });
});
