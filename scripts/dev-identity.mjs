// A development signing identity: a throw-away CA and a document-signing certificate it issues,
// for `npm start` (.dev.vars, scripts/local-setup.mjs) and for the tests (vitest.config.ts makes a
// fresh one per run, so a clean clone needs no secrets). Never for production: docs/api.md "The signing
// identity" has production take SIGNING_KEY and SIGNING_CERT_CHAIN as secrets.
//
// RSA 2048 with PKCS#1 v1.5 and SHA-256: what Adobe Reader, poppler and NSS all verify (ECDSA
// P-256 works in poppler but older Acrobat versions reject it), and Node makes a key pair in
// about 100 ms.
import * as x509 from '@peculiar/x509';

const ALGORITHM = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};

/** id-kp-documentSigning (RFC 9336) and Microsoft's Document Signing (Adobe's documented choice). */
const DOCUMENT_SIGNING = '1.3.6.1.5.5.7.3.36';
const MICROSOFT_DOCUMENT_SIGNING = '1.3.6.1.4.1.311.10.3.12';

export const DEV_CA_NAME = 'CN=Quire Development CA, O=Quire (development only)';
export const DEV_SIGNER_NAME = 'CN=Quire Development Signing, O=Quire (development only)';

const DAY = 24 * 60 * 60 * 1000;

/**
 * @param {{ now?: Date }} [options]
 * @returns {Promise<{ keyPem: string, chainPem: string, caPem: string, leafPem: string }>}
 *   keyPem: the leaf's private key, PKCS#8 PEM (SIGNING_KEY); chainPem: leaf then CA (SIGNING_CERT_CHAIN).
 */
export async function createDevIdentity(options = {}) {
  const crypto = globalThis.crypto;
  x509.cryptoProvider.set(crypto);
  // A day back, so a clock a little behind the machine that made it still finds it valid.
  const now = new Date((options.now ?? new Date()).getTime() - DAY);
  const [caKeys, leafKeys] = await Promise.all([
    crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']),
    crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']),
  ]);

  // RFC 5280 §4.2.1.9: a CA's basicConstraints is critical with cA TRUE; §4.2.1.3: it signs
  // certificates and CRLs. §4.2.1.2: CAs carry a subject key identifier.
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: DEV_CA_NAME,
    notBefore: now,
    notAfter: new Date(now.getTime() + 10 * 365 * DAY),
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  // The end entity: not a CA (§4.2.1.9), signs documents with non-repudiation (§4.2.1.3, the
  // "contentCommitment" bit), and names document signing and email protection as its purposes
  // (§4.2.1.12). §4.2.1.1: the authority key identifier links it to the CA's key.
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: DEV_SIGNER_NAME,
    issuer: ca.subject,
    notBefore: now,
    notAfter: new Date(now.getTime() + 2 * 365 * DAY),
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
      new x509.ExtendedKeyUsageExtension(
        [DOCUMENT_SIGNING, MICROSOFT_DOCUMENT_SIGNING, x509.ExtendedKeyUsage.emailProtection],
        false,
      ),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const pkcs8 = await crypto.subtle.exportKey('pkcs8', leafKeys.privateKey);
  const keyPem = x509.PemConverter.encode(pkcs8, 'PRIVATE KEY');
  const leafPem = leaf.toString('pem');
  const caPem = ca.toString('pem');
  return {
    keyPem: `${keyPem.trim()}\n`,
    chainPem: `${leafPem.trim()}\n${caPem.trim()}\n`,
    caPem: `${caPem.trim()}\n`,
    leafPem,
  };
}

/** 16 random bytes, the top bit clear so the INTEGER stays positive (RFC 5280 §4.1.2.2: ≤ 20 octets). */
function randomSerial() {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] & 0x7f) | 0x01;
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
