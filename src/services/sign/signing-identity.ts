import * as pkijs from 'pkijs';
import { OID } from '../../kit';
import type { SigningIdentity } from './sign-types';

/**
 * The service's signing identity from SIGNING_KEY (PKCS#8 PEM) and SIGNING_CERT_CHAIN (PEM,
 * leaf first). Only the key types docs/api.md allows: RSA ≥ 2048 bits (PKCS#1 v1.5, SHA-256) and
 * ECDSA on P-256 (SHA-256). The key must belong to the leaf certificate, or every signature
 * would fail verification, so that is checked here, once, with a sign/verify round trip.
 */
export async function loadSigningIdentity(keyPem: string, chainPem: string): Promise<SigningIdentity> {
  const keyBlocks = pemBlocks(keyPem, 'PRIVATE KEY');
  if (keyBlocks.length !== 1) {
    throw new Error(`SIGNING_KEY must hold exactly one PKCS#8 "PRIVATE KEY" PEM block; found ${keyBlocks.length}`);
  }
  const pkcs8 = keyBlocks[0] as Uint8Array;
  const chain = pemBlocks(chainPem, 'CERTIFICATE');
  if (chain.length === 0) throw new Error('SIGNING_CERT_CHAIN holds no "CERTIFICATE" PEM block');
  for (const [index, der] of chain.entries()) {
    try {
      pkijs.Certificate.fromBER(der);
    } catch (error) {
      throw new Error(`SIGNING_CERT_CHAIN certificate ${index + 1} is not a valid X.509 certificate`, { cause: error });
    }
  }

  const keyType = privateKeyType(pkcs8);
  const algorithm =
    keyType === 'rsa' ? { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } : { name: 'ECDSA', namedCurve: 'P-256' };
  let privateKey: CryptoKey;
  try {
    privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, algorithm, false, ['sign']);
  } catch (error) {
    throw new Error(`SIGNING_KEY could not be imported as ${keyType === 'rsa' ? 'an RSA' : 'a P-256'} key`, {
      cause: error,
    });
  }
  if (keyType === 'rsa') {
    const bits = (privateKey.algorithm as { modulusLength: number }).modulusLength;
    if (bits < 2048) throw new Error(`SIGNING_KEY is RSA with a ${bits}-bit modulus; at least 2048 bits are required`);
  }
  const leaf = chain[0] as Uint8Array;
  if (!(await keyMatchesCertificate(privateKey, keyType, leaf))) {
    throw new Error("SIGNING_KEY does not match the public key of SIGNING_CERT_CHAIN's first (leaf) certificate");
  }
  return { privateKey, keyType, chain };
}

/** The key's algorithm from the PKCS#8 PrivateKeyInfo (RFC 5208 §5), before WebCrypto sees it. */
function privateKeyType(pkcs8: Uint8Array): SigningIdentity['keyType'] {
  let info: pkijs.PrivateKeyInfo;
  try {
    info = pkijs.PrivateKeyInfo.fromBER(pkcs8);
  } catch (error) {
    throw new Error('SIGNING_KEY is not a PKCS#8 PrivateKeyInfo', { cause: error });
  }
  const algorithm = info.privateKeyAlgorithm.algorithmId;
  if (algorithm === OID.rsaEncryption) return 'rsa';
  if (algorithm === OID.ecPublicKey) {
    const curve = (
      info.privateKeyAlgorithm.algorithmParams as { valueBlock?: { toString(): string } } | undefined
    )?.valueBlock?.toString();
    if (curve === OID.p256) return 'ec-p256';
    throw new Error(`SIGNING_KEY is an EC key on curve ${curve ?? 'unknown'}; only P-256 (${OID.p256}) is supported`);
  }
  throw new Error(`SIGNING_KEY has algorithm ${algorithm}; only RSA (≥ 2048 bits) and ECDSA P-256 are supported`);
}

async function keyMatchesCertificate(
  privateKey: CryptoKey,
  keyType: SigningIdentity['keyType'],
  leafDer: Uint8Array,
): Promise<boolean> {
  const certificate = pkijs.Certificate.fromBER(leafDer);
  const spki = new Uint8Array(certificate.subjectPublicKeyInfo.toSchema().toBER());
  const params =
    keyType === 'rsa'
      ? { importAs: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, sign: { name: 'RSASSA-PKCS1-v1_5' } }
      : { importAs: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } };
  let publicKey: CryptoKey;
  try {
    publicKey = await crypto.subtle.importKey('spki', spki, params.importAs, false, ['verify']);
  } catch {
    return false; // the leaf's key is of another type altogether
  }
  const challenge = crypto.getRandomValues(new Uint8Array(32));
  const signature = await crypto.subtle.sign(params.sign, privateKey, challenge);
  return crypto.subtle.verify(params.sign, publicKey, signature, challenge);
}

/** The DER payloads of every "-----BEGIN {label}-----" block, in order (RFC 7468). */
export function pemBlocks(pem: string, label: string): Uint8Array[] {
  const pattern = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  const blocks: Uint8Array[] = [];
  for (const match of pem.matchAll(pattern)) {
    const base64 = (match[1] ?? '').replace(/\s+/g, '');
    try {
      blocks.push(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    } catch (error) {
      throw new Error(`A "${label}" PEM block is not valid base64`, { cause: error });
    }
  }
  return blocks;
}

export function toPem(der: Uint8Array, label: string): string {
  let binary = '';
  for (const byte of der) binary += String.fromCharCode(byte);
  const lines = btoa(binary).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
