/**
 * The digest and signature algorithms a CMS SignerInfo may name (RFC 5652 §5.3), mapped to
 * WebCrypto: digest OIDs (RFC 5754 §2, RFC 3370 §2.1), RSA PKCS#1 v1.5 and RSASSA-PSS (RFC 8017
 * §8, RFC 4055 §3.1, RFC 3447 Appendix A.2.3), ECDSA (RFC 5480 §2.1.1, RFC 5758 §3.2, value
 * format RFC 3279 §2.2.3), plain ECDSA (BSI TR-03111 §5.2.1, value r‖s), the SHA-3 variants of
 * each (RFC 9688), Ed25519 and Ed448 (RFC 8419 §3). WebCrypto checks what it can; Ed448, the
 * Brainpool curves and ECDSA over SHA-224 or SHA-3 go to @noble/curves over the computed digest,
 * and RSA over those hashes to the BigInt check, because workerd's WebCrypto has none of them.
 */

import { ed448 } from '@noble/curves/ed448.js';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { computeDigest, type DigestName, digestName } from './digest-algorithms';
import { nobleCurveSize, verifyEcdsaDigest } from './ecdsa-curves';
import { verifyRsaPkcs1, verifyRsaPss } from './rsa-pkcs1-fallback';

/** Signature OIDs that name their hash (RFC 8017 Appendix C, RFC 5758 §3.2, RFC 3279 §2.2.3). */
const RSA_WITH: Record<string, DigestName> = {
  '1.2.840.113549.1.1.5': 'SHA-1',
  '1.2.840.113549.1.1.11': 'SHA-256',
  '1.2.840.113549.1.1.12': 'SHA-384',
  '1.2.840.113549.1.1.13': 'SHA-512',
  // id-rsassa-pkcs1-v1_5-with-sha3-* (RFC 9688)
  '2.16.840.1.101.3.4.3.13': 'SHA3-224',
  '2.16.840.1.101.3.4.3.14': 'SHA3-256',
  '2.16.840.1.101.3.4.3.15': 'SHA3-384',
  '2.16.840.1.101.3.4.3.16': 'SHA3-512',
};
const ECDSA_WITH: Record<string, DigestName> = {
  '1.2.840.10045.4.1': 'SHA-1',
  '1.2.840.10045.4.3.2': 'SHA-256',
  '1.2.840.10045.4.3.3': 'SHA-384',
  '1.2.840.10045.4.3.4': 'SHA-512',
  // id-ecdsa-with-sha3-* (RFC 9688)
  '2.16.840.1.101.3.4.3.9': 'SHA3-224',
  '2.16.840.1.101.3.4.3.10': 'SHA3-256',
  '2.16.840.1.101.3.4.3.11': 'SHA3-384',
  '2.16.840.1.101.3.4.3.12': 'SHA3-512',
};
/**
 * ecdsa-plain-SHA* (BSI TR-03111 §5.2.1, OIDs 0.4.0.127.0.7.1.1.4.1.n): the value is the
 * concatenation r‖s, each the curve's field size, not a DER Ecdsa-Sig-Value.
 */
const PLAIN_ECDSA_WITH: Record<string, DigestName> = {
  '0.4.0.127.0.7.1.1.4.1.1': 'SHA-1',
  '0.4.0.127.0.7.1.1.4.1.2': 'SHA-224',
  '0.4.0.127.0.7.1.1.4.1.3': 'SHA-256',
  '0.4.0.127.0.7.1.1.4.1.4': 'SHA-384',
  '0.4.0.127.0.7.1.1.4.1.5': 'SHA-512',
  '0.4.0.127.0.7.1.1.4.1.8': 'SHA3-224',
  '0.4.0.127.0.7.1.1.4.1.9': 'SHA3-256',
  '0.4.0.127.0.7.1.1.4.1.10': 'SHA3-384',
  '0.4.0.127.0.7.1.1.4.1.11': 'SHA3-512',
};
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const RSASSA_PSS = '1.2.840.113549.1.1.10';
const MGF1 = '1.2.840.113549.1.1.8';
const EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const ED25519 = '1.3.101.112';
const ED448 = '1.3.101.113';
/** Named curves WebCrypto has (RFC 5480 §2.1.1.1). */
const CURVES: Record<string, { name: string; size: number }> = {
  '1.2.840.10045.3.1.7': { name: 'P-256', size: 32 },
  '1.3.132.0.34': { name: 'P-384', size: 48 },
  '1.3.132.0.35': { name: 'P-521', size: 66 },
};

/** The hashes WebCrypto's ECDSA and RSA take; others are hashed here (ECDSA with @noble/curves, RSA in BigInt). */
const WEBCRYPTO_HASHES: ReadonlySet<DigestName> = new Set(['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']);

export type SignatureName = 'RSASSA-PKCS1-v1_5' | 'RSA-PSS' | 'ECDSA' | 'Ed25519' | 'Ed448';

export interface SignatureScheme {
  name: SignatureName;
  /** The hash the signature is computed with (none for Ed25519 and Ed448, which sign the data itself). */
  hash?: DigestName;
  saltLength?: number;
  /** ECDSA whose value must be plain r‖s (BSI TR-03111), not DER. */
  plain?: boolean;
}

/**
 * The scheme of a SignerInfo's signatureAlgorithm. A bare rsaEncryption (RFC 3370 §3.2) or
 * id-ecPublicKey takes its hash from the SignerInfo's digestAlgorithm. Throws with plain words on
 * what WebCrypto cannot check.
 */
export function signatureScheme(algorithm: pkijs.AlgorithmIdentifier, digest: DigestName | undefined): SignatureScheme {
  const oid = algorithm.algorithmId;
  const rsaHash = RSA_WITH[oid];
  if (rsaHash) return { name: 'RSASSA-PKCS1-v1_5', hash: rsaHash };
  const ecHash = ECDSA_WITH[oid];
  if (ecHash) return { name: 'ECDSA', hash: ecHash };
  const plainHash = PLAIN_ECDSA_WITH[oid];
  if (plainHash) return { name: 'ECDSA', hash: plainHash, plain: true };
  if (oid === ED25519) return { name: 'Ed25519' };
  // id-Ed448 in pure mode: the signature is over the data (the DER signed attributes) itself (RFC 8419 §3.1).
  if (oid === ED448) return { name: 'Ed448' };
  if (oid === RSA_ENCRYPTION || oid === EC_PUBLIC_KEY) {
    if (!digest) throw new Error('the digest algorithm is not supported');
    return { name: oid === RSA_ENCRYPTION ? 'RSASSA-PKCS1-v1_5' : 'ECDSA', hash: digest };
  }
  if (oid === RSASSA_PSS) return pssScheme(algorithm);
  throw new Error(`the signature algorithm ${oid} is not supported`);
}

/**
 * RSASSA-PSS-params (RFC 8017 Appendix A.2.3, RFC 4055 §3.1): hashAlgorithm (default SHA-1),
 * maskGenAlgorithm (default MGF1 with SHA-1), saltLength (default 20), trailerField 1. WebCrypto
 * uses MGF1 with the same hash, so a different MGF hash cannot be checked.
 */
function pssScheme(algorithm: pkijs.AlgorithmIdentifier): SignatureScheme {
  const params =
    algorithm.algorithmParams instanceof asn1js.Sequence
      ? new pkijs.RSASSAPSSParams({ schema: algorithm.algorithmParams })
      : new pkijs.RSASSAPSSParams();
  const hash = digestName(params.hashAlgorithm.algorithmId);
  if (!hash) throw new Error('the RSA-PSS hash algorithm is not supported');
  if (params.maskGenAlgorithm.algorithmId !== MGF1) throw new Error('the RSA-PSS mask generation function is not MGF1');
  const mgfHash = params.maskGenAlgorithm.algorithmParams
    ? digestName(new pkijs.AlgorithmIdentifier({ schema: params.maskGenAlgorithm.algorithmParams }).algorithmId)
    : 'SHA-1';
  if (mgfHash !== hash) throw new Error('the RSA-PSS mask generation hash differs from the message hash');
  if (params.trailerField !== 1) throw new Error('the RSA-PSS trailer field is not 1');
  return { name: 'RSA-PSS', hash, saltLength: params.saltLength };
}

/**
 * Verifies `signature` over `data` with the certificate's SubjectPublicKeyInfo (RFC 5280
 * §4.1.2.7). ECDSA values are DER Ecdsa-Sig-Value (RFC 3279 §2.2.3) turned into WebCrypto's r||s;
 * a plain r||s of the curve's width is accepted as is.
 */
export async function verifySignature(
  scheme: SignatureScheme,
  certificate: pkijs.Certificate,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  return verifyWithKey(scheme, certificate.subjectPublicKeyInfo, signature, data);
}

/** verifySignature with the SubjectPublicKeyInfo itself (a certificate issuer's, say). */
export async function verifyWithKey(
  scheme: SignatureScheme,
  spkiInfo: pkijs.PublicKeyInfo,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  const spki = new Uint8Array(spkiInfo.toSchema().toBER());
  const keyOid = spkiInfo.algorithm.algorithmId;
  switch (scheme.name) {
    case 'RSASSA-PKCS1-v1_5':
    case 'RSA-PSS':
      if (keyOid !== RSA_ENCRYPTION) throw new Error('the certificate key is not an RSA key');
      return verifyRsa(scheme, spki, signature, data);
    case 'ECDSA':
      return verifyEcdsa(scheme, spkiInfo, spki, signature, data);
    case 'Ed25519': {
      if (keyOid !== ED25519) throw new Error('the certificate key is not an Ed25519 key');
      const key = await crypto.subtle.importKey('spki', spki, { name: 'Ed25519' }, false, ['verify']);
      return crypto.subtle.verify({ name: 'Ed25519' }, key, signature, data);
    }
    case 'Ed448': {
      if (keyOid !== ED448) throw new Error('the certificate key is not an Ed448 key');
      // The key is the 57-byte encoded point (RFC 8410 §4); the value is 114 bytes (RFC 8032 §5.2.6).
      const publicKey = new Uint8Array(spkiInfo.subjectPublicKey.valueBlock.valueHexView);
      if (publicKey.length !== 57 || signature.length !== 114) return false;
      return ed448.verify(signature, data, publicKey);
    }
  }
}

/**
 * RFC 8419 §3: with signed attributes, Ed25519's messageDigest is SHA-512 and Ed448's SHAKE256
 * (512 bits). Another digest (iText's bad-digest samples use SHA-1) is refused, as iText refuses
 * it: the signature over the attributes would vouch for a weaker digest than the scheme's own.
 */
export function eddsaDigestFault(scheme: SignatureScheme, digest: DigestName): string | undefined {
  const required = scheme.name === 'Ed25519' ? 'SHA-512' : scheme.name === 'Ed448' ? 'SHAKE256' : undefined;
  if (!required || digest === required) return undefined;
  return `RFC 8419 §3 requires a ${required} message digest with ${scheme.name} and signed attributes; this one is ${digest}`;
}

/**
 * RSA, PKCS#1 v1.5 or PSS: WebCrypto when it takes the key and the hash; otherwise, for every RSA
 * verification alike (CMS signers, timestamp authorities, certificate issuers), the same check in
 * plain arithmetic (`rsa-pkcs1-fallback.ts`). workerd refuses unusual public exponents at import.
 */
async function verifyRsa(
  scheme: SignatureScheme,
  spki: Uint8Array,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  const hash = scheme.hash;
  if (!hash) return false;
  let key: CryptoKey | undefined;
  if (WEBCRYPTO_HASHES.has(hash)) {
    key = await crypto.subtle
      .importKey('spki', spki, { name: scheme.name, hash }, false, ['verify'])
      .catch(() => undefined);
  }
  const saltLength = scheme.saltLength ?? 20;
  if (!key) {
    return scheme.name === 'RSA-PSS'
      ? verifyRsaPss(spki, hash, saltLength, data, signature)
      : verifyRsaPkcs1(spki, hash, data, signature);
  }
  const params = scheme.name === 'RSA-PSS' ? { name: 'RSA-PSS', saltLength } : scheme.name;
  return crypto.subtle.verify(params, key, signature, data);
}

/**
 * ECDSA with the certificate's EC key (RFC 5480 §2.1.1). A NIST curve with a WebCrypto hash is
 * checked by WebCrypto; Brainpool curves and SHA-224 by @noble/curves over the computed digest.
 * A DER value is turned into r‖s; a plain scheme's value must already be r‖s.
 */
async function verifyEcdsa(
  scheme: SignatureScheme,
  spkiInfo: pkijs.PublicKeyInfo,
  spki: Uint8Array,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  if (spkiInfo.algorithm.algorithmId !== EC_PUBLIC_KEY) throw new Error('the certificate key is not an EC key');
  const params = spkiInfo.algorithm.algorithmParams;
  const curveOid = params instanceof asn1js.ObjectIdentifier ? params.valueBlock.toString() : '';
  const webCurve = CURVES[curveOid];
  const size = webCurve?.size ?? nobleCurveSize(curveOid);
  if (!size) throw new Error('the certificate key is on an unsupported curve');
  if (!scheme.hash) return false;
  if (scheme.plain && signature.length !== size * 2) return false;
  const raw = signature.length === size * 2 ? signature : ecdsaDerToP1363(signature, size);
  if (!raw) return false;
  if (webCurve && WEBCRYPTO_HASHES.has(scheme.hash)) {
    const key = await crypto.subtle.importKey('spki', spki, { name: 'ECDSA', namedCurve: webCurve.name }, false, [
      'verify',
    ]);
    return crypto.subtle.verify({ name: 'ECDSA', hash: scheme.hash }, key, raw, data);
  }
  const point = new Uint8Array(spkiInfo.subjectPublicKey.valueBlock.valueHexView);
  return verifyEcdsaDigest(curveOid, point, raw, await computeDigest(scheme.hash, data));
}

/**
 * Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (RFC 3279 §2.2.3) to IEEE P1363 r||s,
 * each left-padded to the curve size. undefined when it is not that shape or too large.
 */
export function ecdsaDerToP1363(der: Uint8Array, size: number): Uint8Array | undefined {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset !== der.length || !(parsed.result instanceof asn1js.Sequence)) return undefined;
  const parts = parsed.result.valueBlock.value;
  if (parts.length !== 2) return undefined;
  const out = new Uint8Array(size * 2);
  for (let i = 0; i < 2; i++) {
    const part = parts[i];
    if (!(part instanceof asn1js.Integer)) return undefined;
    let bytes = new Uint8Array(part.valueBlock.valueHexView);
    while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1);
    if (bytes.length > size) return undefined;
    out.set(bytes, i * size + size - bytes.length);
  }
  return out;
}
