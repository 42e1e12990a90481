/**
 * A 1024-bit RSA key with the public exponent 2271055779 (as a D-Trust signer's in EU DSS's
 * pades3_Baseline_B.pdf), made for these tests with `openssl genpkey -pkeyopt
 * rsa_keygen_pubexp:2271055779`. workerd's WebCrypto refuses to import it, so the tests sign
 * with it here in BigInt: PKCS#1 v1.5 (RFC 8017 §8.2.1) and PSS (§8.1.1, EMSA-PSS-ENCODE §9.1.1),
 * over SHA-256 or SHA3-256 (which WebCrypto lacks).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { sha3_256 } from '@noble/hashes/sha3.js';

export const ODD_SPKI_BASE64 =
  'MIGhMA0GCSqGSIb3DQEBAQUAA4GPADCBiwKBgQDE0qettthOfApF1uigIRIrrCz3NTYA15ygj1LpHRWU4cT1edf3B6ZHPr8sVQoda0KfWhVcbOEtqqYLepk0kjdwrljyMnfZ6B4bd0CMLnlR1QQqIqJ0Io9ohD2jf0RoW5+XWg1YXPDtfHeB0WdU84LFJ6rjj0Roz+8t3hRVSWjLcQIFAIddj6M=';
const N = BigInt(
  '0xc4d2a7adb6d84e7c0a45d6e8a021122bac2cf7353600d79ca08f52e91d1594e1c4f579d7f707a6473ebf2c550a1d6b429f5a155c6ce12daaa60b7a9934923770ae58f23277d9e81e1b77408c2e7951d5042a22a274228f68843da37f44685b9f975a0d585cf0ed7c7781d16754f382c527aae38f4468cfef2dde14554968cb71',
);
const D = BigInt(
  '0x9b0ae6db70c902d5e939eae37d5fd5364bd0a1429e171d12d05e7f07d69523ccfcc1a716075f149d4e09f319589aaadb0e329178938b74e5aae102c07ce33f43944c2f6a41b0b29021b91fa69b4c401b60f51e0161bc81782d57cece8682e9f2c6e7cd30c95a5f73ec5a268fc6874aced88d7fdf4f6f76f3ca6a3bac9e1e081b',
);
const K = 128;

export const oddSpki = (): Uint8Array => Uint8Array.from(atob(ODD_SPKI_BASE64), (c) => c.charCodeAt(0));

function toBigInt(bytes: Uint8Array): bigint {
  return BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('') || '0'}`);
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
  }
  return result;
}

function privateOperation(em: Uint8Array): Uint8Array {
  const hex = modPow(toBigInt(em), D, N)
    .toString(16)
    .padStart(K * 2, '0');
  return Uint8Array.from({ length: K }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

type Hash = (data: Uint8Array) => Uint8Array;

/** DigestInfo's prefix for SHA-256 and SHA3-256 (RFC 8017 §9.2 note 1; RFC 9688). */
const DIGEST_INFO = new Map<Hash, string>([
  [sha256, '3031300d060960864801650304020105000420'],
  [sha3_256, '3031300d060960864801650304020805000420'],
]);

/** PKCS#1 v1.5: EM = 00 01 FF… 00 DigestInfo. */
export function signPkcs1(data: Uint8Array, hash: Hash = sha256): Uint8Array {
  const prefix = (DIGEST_INFO.get(hash) ?? '').match(/../g)?.map((pair) => Number.parseInt(pair, 16)) ?? [];
  const digestInfo = [...prefix, ...hash(data)];
  const em = new Uint8Array(K).fill(0xff);
  em[0] = 0;
  em[1] = 1;
  em[K - digestInfo.length - 1] = 0;
  em.set(digestInfo, K - digestInfo.length);
  return privateOperation(em);
}

export const signPkcs1Sha256 = (data: Uint8Array): Uint8Array => signPkcs1(data);

/** RSASSA-PSS with `hash` for the message and MGF1 and a `saltLength`-byte random salt (modulus of 1024 bits: emLen = k). */
export function signPss(data: Uint8Array, saltLength: number, hash: Hash = sha256): Uint8Array {
  const mHash = hash(data);
  const hLen = mHash.length;
  const salt = crypto.getRandomValues(new Uint8Array(saltLength));
  const h = hash(new Uint8Array([...new Uint8Array(8), ...mHash, ...salt]));
  const db = new Uint8Array(K - hLen - 1);
  db[db.length - saltLength - 1] = 0x01;
  db.set(salt, db.length - saltLength);
  const mask = new Uint8Array(db.length);
  for (let counter = 0, at = 0; at < mask.length; counter++, at += hLen) {
    const block = hash(new Uint8Array([...h, 0, 0, 0, counter]));
    mask.set(block.subarray(0, Math.min(hLen, mask.length - at)), at);
  }
  const masked = db.map((byte, i) => byte ^ (mask[i] ?? 0));
  masked[0] = (masked[0] ?? 0) & 0x7f; // 8·emLen − emBits = 1 leftmost bit cleared
  return privateOperation(new Uint8Array([...masked, ...h, 0xbc]));
}

export const signPssSha256 = (data: Uint8Array, saltLength: number): Uint8Array => signPss(data, saltLength);
