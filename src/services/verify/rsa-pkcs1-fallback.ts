/**
 * RSASSA-PKCS1-v1_5 verification in plain arithmetic (RFC 8017 §8.2.2), for the public keys
 * WebCrypto refuses to import: workerd accepts only the usual public exponents, and some real
 * certificates (TSAs of the 2010s) carry others, such as 0x40000081. Verification is the public
 * operation only, s^e mod n, so doing it with BigInt exposes no secret to timing.
 */
import * as pkijs from 'pkijs';
import { toHex } from '../../crypto';

/** The DER DigestInfo prefix for each hash (RFC 8017 §9.2, note 1). */
const DIGEST_INFO_PREFIX: Record<string, string> = {
  'SHA-1': '3021300906052b0e03021a05000414',
  'SHA-256': '3031300d060960864801650304020105000420',
  'SHA-384': '3041300d060960864801650304020205000430',
  'SHA-512': '3051300d060960864801650304020305000440',
};

/** Moduli longer than this are refused: s^e mod n costs grow with the square of the size. */
const MAX_MODULUS_BITS = 16_384;
/** Exponents up to 64 bits: enough for every real key, and a bound on the square-and-multiply loop. */
const MAX_EXPONENT_BITS = 64;

function toBigInt(bytes: Uint8Array): bigint {
  return bytes.length > 0 ? BigInt(`0x${toHex(bytes)}`) : 0n;
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

/**
 * Whether `signature` is a valid PKCS#1 v1.5 signature of `data` under the RSA key in `spki`
 * (a SubjectPublicKeyInfo, DER). False for anything unreadable or out of bounds; never throws.
 */
export async function verifyRsaPkcs1(
  spki: Uint8Array,
  hash: 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512',
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    const info = pkijs.PublicKeyInfo.fromBER(spki);
    const key = info.parsedKey;
    if (!(key instanceof pkijs.RSAPublicKey)) return false;
    const modulusBytes = stripZeros(new Uint8Array(key.modulus.valueBlock.valueHexView));
    const exponentBytes = stripZeros(new Uint8Array(key.publicExponent.valueBlock.valueHexView));
    if (modulusBytes.length * 8 > MAX_MODULUS_BITS || exponentBytes.length * 8 > MAX_EXPONENT_BITS) return false;
    const n = toBigInt(modulusBytes);
    const e = toBigInt(exponentBytes);
    const k = modulusBytes.length;
    if (signature.length !== k || n < 3n || e < 3n) return false;
    const s = toBigInt(signature);
    if (s >= n) return false;
    const m = modPow(s, e, n);
    const digest = new Uint8Array(await crypto.subtle.digest(hash, data));
    const expected = `0001${'ff'.repeat(Math.max(0, k - 3 - (DIGEST_INFO_PREFIX[hash]?.length ?? 0) / 2 - digest.length))}00${DIGEST_INFO_PREFIX[hash]}${toHex(digest)}`;
    // EM is exactly k bytes (RFC 8017 §9.2 step 5 requires at least 8 bytes of 0xff padding).
    if (expected.length !== k * 2 || k - 3 - digest.length - (DIGEST_INFO_PREFIX[hash]?.length ?? 0) / 2 < 8)
      return false;
    return m.toString(16).padStart(k * 2, '0') === expected;
  } catch {
    return false;
  }
}

function stripZeros(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
}
