/**
 * Throwaway PKI for the signer's tests: a self-signed CA and a leaf issued by it, generated with
 * WebCrypto and @peculiar/x509 (slow-ish: generate once per file).
 */
import * as x509 from '@peculiar/x509';
import { toPem } from '../../src/services/sign/signing-identity';

export type KeyKind = 'rsa' | 'ec-p256';

export interface TestPki {
  keyPem: string;
  chainPem: string;
  caKey: CryptoKeyPair;
  caCert: x509.X509Certificate;
  leafCert: x509.X509Certificate;
}

function algorithmFor(kind: KeyKind, modulusLength = 2048) {
  return kind === 'rsa'
    ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength }
    : { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
}

export async function generateKeyPair(kind: KeyKind, modulusLength = 2048): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(algorithmFor(kind, modulusLength), true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
}

export async function makeTestPki(kind: KeyKind, leafKeys?: CryptoKeyPair): Promise<TestPki> {
  const caKey = await generateKeyPair(kind);
  const signingAlgorithm = kind === 'rsa' ? { name: 'RSASSA-PKCS1-v1_5' } : { name: 'ECDSA', hash: 'SHA-256' };
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Quire Test CA, O=Quire Tests',
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: new Date('2035-01-01T00:00:00Z'),
    keys: caKey,
    signingAlgorithm: algorithmFor(kind),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const leafKey = leafKeys ?? (await generateKeyPair(kind));
  const leafCert = await x509.X509CertificateGenerator.create({
    serialNumber: '0a1b2c',
    subject: 'CN=Quire Signer, O=Quire Tests, C=CH',
    issuer: caCert.subject,
    notBefore: new Date('2025-01-01T00:00:00Z'),
    notAfter: new Date('2035-01-01T00:00:00Z'),
    publicKey: leafKey.publicKey,
    signingKey: caKey.privateKey,
    signingAlgorithm: { ...algorithmFor(kind), ...signingAlgorithm },
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
    ],
  });
  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey('pkcs8', leafKey.privateKey)) as ArrayBuffer);
  return {
    keyPem: toPem(pkcs8, 'PRIVATE KEY'),
    chainPem: `${leafCert.toString('pem')}\n${caCert.toString('pem')}`,
    caKey,
    caCert,
    leafCert,
  };
}
