import { beforeAll, describe, expect, it } from 'vitest';
import { summarizeCertificate } from '../../../src/kit/certificate-summary';
import { loadSigningIdentity } from '../../../src/services/sign/signing-identity';
import { generateKeyPair, makeTestPki, type TestPki } from '../../helpers/test-identity';

describe('loadSigningIdentity', () => {
  let rsa: TestPki;
  let ec: TestPki;
  beforeAll(async () => {
    [rsa, ec] = await Promise.all([makeTestPki('rsa'), makeTestPki('ec-p256')]);
  });

  it('loads an RSA key and its chain, leaf first', async () => {
    const identity = await loadSigningIdentity(rsa.keyPem, rsa.chainPem);
    expect(identity.keyType).toBe('rsa');
    expect(identity.chain).toHaveLength(2);
    expect(identity.chain[0]).toEqual(new Uint8Array(rsa.leafCert.rawData));
  });

  it('loads an EC P-256 key', async () => {
    const identity = await loadSigningIdentity(ec.keyPem, ec.chainPem);
    expect(identity.keyType).toBe('ec-p256');
  });

  it("rejects a key that is not the leaf certificate's", async () => {
    await expect(loadSigningIdentity(rsa.keyPem, ec.chainPem)).rejects.toThrow(/does not match/);
    const otherRsa = await makeTestPki('rsa');
    await expect(loadSigningIdentity(rsa.keyPem, otherRsa.chainPem)).rejects.toThrow(/does not match/);
  });

  it('rejects RSA keys under 2048 bits', async () => {
    const small = await makeTestPki('rsa', await generateKeyPair('rsa', 1024));
    await expect(loadSigningIdentity(small.keyPem, small.chainPem)).rejects.toThrow(/1024-bit.*2048/);
  });

  it('rejects other EC curves, missing PEM blocks and garbage', async () => {
    const p384 = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, [
      'sign',
    ])) as CryptoKeyPair;
    const pkcs8 = new Uint8Array((await crypto.subtle.exportKey('pkcs8', p384.privateKey)) as ArrayBuffer);
    const pem = `-----BEGIN PRIVATE KEY-----\n${btoa(String.fromCharCode(...pkcs8))}\n-----END PRIVATE KEY-----\n`;
    await expect(loadSigningIdentity(pem, ec.chainPem)).rejects.toThrow(/only P-256/);
    await expect(loadSigningIdentity('nothing', ec.chainPem)).rejects.toThrow(/exactly one PKCS#8/);
    await expect(loadSigningIdentity(ec.keyPem, '')).rejects.toThrow(/no "CERTIFICATE"/);
  });

  it('summarizes a certificate for readers', async () => {
    const summary = await summarizeCertificate(new Uint8Array(rsa.leafCert.rawData));
    expect(summary.subject).toBe('CN=Quire Signer, O=Quire Tests, C=CH');
    expect(summary.issuer).toBe('CN=Quire Test CA, O=Quire Tests');
    expect(summary.serialNumber).toBe('0a1b2c');
    expect(summary.notBefore).toBe('2025-01-01T00:00:00.000Z');
    expect(summary.notAfter).toBe('2035-01-01T00:00:00.000Z');
    expect(summary.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(summary.pem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
  });
});
