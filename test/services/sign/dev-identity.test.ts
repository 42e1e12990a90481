import { env } from 'cloudflare:test';
import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { createDevIdentity } from '../../../scripts/dev-identity.mjs';
import { parseCertificates } from '../../../src/kit/certificate-summary';
import { describeServiceCertificate } from '../../../src/services/sign/service-certificate';

const DOCUMENT_SIGNING = '1.3.6.1.5.5.7.3.36';
const MICROSOFT_DOCUMENT_SIGNING = '1.3.6.1.4.1.311.10.3.12';
const DAY = 24 * 60 * 60 * 1000;

function extension<T extends x509.Extension>(cert: x509.X509Certificate, type: new (raw: BufferSource) => T): T {
  const found = cert.getExtension<T>(type);
  if (!found) throw new Error(`${cert.subject} lacks ${type.name}`);
  return found;
}

describe('the development signing identity', () => {
  it('reaches the tests as bindings: a chain of leaf then CA, the leaf signed by the CA', async () => {
    const [leaf, ca, extra] = parseCertificates(env.SIGNING_CERT_CHAIN ?? '');
    expect(extra).toBeUndefined();
    if (!leaf || !ca) throw new Error('no chain');
    expect(ca.toString('pem').trim()).toBe(env.TEST_SIGNING_CA.trim());
    expect(await leaf.verify({ publicKey: ca, signatureOnly: true })).toBe(true);
    expect(await ca.isSelfSigned()).toBe(true);
    expect(leaf.subject).toContain('CN=Quire Development Signing');
    expect(leaf.issuer).toBe(ca.subject);
  });

  it('gives the CA and the leaf the extensions of RFC 5280 a signing certificate needs', async () => {
    const identity = await createDevIdentity();
    const [leaf, ca] = parseCertificates(identity.chainPem);
    if (!leaf || !ca) throw new Error('no chain');

    const caConstraints = extension(ca, x509.BasicConstraintsExtension);
    expect([caConstraints.ca, caConstraints.critical]).toEqual([true, true]);
    expect(extension(ca, x509.KeyUsagesExtension).usages).toBe(
      x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
    );
    const caKeyId = extension(ca, x509.SubjectKeyIdentifierExtension).keyId;

    const leafConstraints = extension(leaf, x509.BasicConstraintsExtension);
    expect([leafConstraints.ca, leafConstraints.critical]).toEqual([false, true]);
    expect(extension(leaf, x509.KeyUsagesExtension).usages).toBe(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
    );
    expect(extension(leaf, x509.ExtendedKeyUsageExtension).usages).toEqual(
      expect.arrayContaining([DOCUMENT_SIGNING, MICROSOFT_DOCUMENT_SIGNING, x509.ExtendedKeyUsage.emailProtection]),
    );
    expect(extension(leaf, x509.SubjectKeyIdentifierExtension).keyId).toMatch(/^[0-9a-f]{40}$/);
    expect(extension(leaf, x509.AuthorityKeyIdentifierExtension).keyId).toBe(caKeyId);

    // 10 years for the CA, 2 for the leaf (a day back from now for clock skew).
    const years = (cert: x509.X509Certificate) => (cert.notAfter.getTime() - cert.notBefore.getTime()) / (365 * DAY);
    expect(years(ca)).toBeCloseTo(10, 1);
    expect(years(leaf)).toBeCloseTo(2, 1);
    expect(leaf.notBefore.getTime()).toBeLessThan(Date.now());
  });

  it('makes a PKCS#8 RSA 2048 key that matches the leaf and signs', async () => {
    const identity = await createDevIdentity();
    const der = x509.PemConverter.decodeFirst(identity.keyPem);
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    const key = await crypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign']);
    expect((key.algorithm as { modulusLength?: number }).modulusLength).toBe(2048);
    const [leaf] = parseCertificates(identity.chainPem);
    const publicKey = await leaf?.publicKey.export(algorithm, ['verify']);
    if (!publicKey) throw new Error('no leaf');
    const data = new TextEncoder().encode('quire');
    const signature = await crypto.subtle.sign(algorithm, key, data);
    expect(await crypto.subtle.verify(algorithm, publicKey, signature, data)).toBe(true);
  });
});

describe('describeServiceCertificate', () => {
  it('describes the leaf of the chain for GET /v1/verify/key', async () => {
    const chain = env.SIGNING_CERT_CHAIN ?? '';
    const described = await describeServiceCertificate(chain);
    const [leaf] = parseCertificates(chain);
    expect(Object.keys(described).sort()).toEqual([
      'certificate',
      'issuer',
      'notAfter',
      'notBefore',
      'sha256',
      'subject',
    ]);
    expect(described.certificate).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----/);
    expect(new x509.X509Certificate(described.certificate).equal(leaf as x509.X509Certificate)).toBe(true);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', leaf?.rawData ?? new ArrayBuffer(0)));
    expect(described.sha256).toBe(Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(''));
    expect(described.subject).toBe('CN=Quire Development Signing, O=Quire (development only)');
    expect(described.issuer).toBe('CN=Quire Development CA, O=Quire (development only)');
    expect(new Date(described.notBefore).toISOString()).toBe(described.notBefore);
    expect(Date.parse(described.notAfter)).toBeGreaterThan(Date.now());
  });

  it('refuses a chain with no certificate', async () => {
    await expect(describeServiceCertificate('not a pem')).rejects.toThrow(/no PEM certificate/);
  });
});
