/**
 * RSA signature verification in plain arithmetic (RFC 8017 §8.2.2 RSASSA-PKCS1-v1_5 and §8.1.2
 * RSASSA-PSS with MGF1), for what WebCrypto will not check: workerd imports only the usual public
 * exponents, and real certificates carry others (TSAs of the 2010s 0x40000081, a D-Trust signer
 * 2271055779); and it has no SHA-224 or SHA-3 for RSA. Verification is the public operation only,
 * s^e mod n, so doing it with BigInt exposes no secret to timing.
 */
import * as pkijs from 'pkijs';
import { toHex } from '../../crypto';
import { bytesEqual } from '../../kit';
import { computeDigest, DIGEST_LENGTH, type DigestName } from './digest-algorithms';

/** The DER DigestInfo prefix for each hash (RFC 8017 §9.2 note 1; SHA-224's OID, RFC 5754 §2.1; SHA-3's, RFC 9688). */
const DIGEST_INFO_PREFIX: Partial<Record<DigestName, string>> = {
  'SHA-1': '3021300906052b0e03021a05000414',
  'SHA-224': '302d300d06096086480165030402040500041c',
  'SHA-256': '3031300d060960864801650304020105000420',
  'SHA-384': '3041300d060960864801650304020205000430',
  'SHA-512': '3051300d060960864801650304020305000440',
  'SHA3-224': '302d300d06096086480165030402070500041c',
  'SHA3-256': '3031300d060960864801650304020805000420',
  'SHA3-384': '3041300d060960864801650304020905000430',
  'SHA3-512': '3051300d060960864801650304020a05000440',
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

/** m = s^e mod n as k bytes (RFC 8017 §5.2.2, §4.1), with n's bit length; undefined when out of bounds. */
function publicOperation(
  spki: Uint8Array,
  signature: Uint8Array,
): { message: Uint8Array; modulusBits: number } | undefined {
  const info = pkijs.PublicKeyInfo.fromBER(spki);
  const key = info.parsedKey;
  if (!(key instanceof pkijs.RSAPublicKey)) return undefined;
  const modulusBytes = stripZeros(new Uint8Array(key.modulus.valueBlock.valueHexView));
  const exponentBytes = stripZeros(new Uint8Array(key.publicExponent.valueBlock.valueHexView));
  if (modulusBytes.length * 8 > MAX_MODULUS_BITS || exponentBytes.length * 8 > MAX_EXPONENT_BITS) return undefined;
  const n = toBigInt(modulusBytes);
  const e = toBigInt(exponentBytes);
  const k = modulusBytes.length;
  if (signature.length !== k || n < 3n || e < 3n) return undefined;
  const s = toBigInt(signature);
  if (s >= n) return undefined;
  const hex = modPow(s, e, n)
    .toString(16)
    .padStart(k * 2, '0');
  const message = Uint8Array.from({ length: k }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
  return { message, modulusBits: n.toString(2).length };
}

/**
 * Whether `signature` is a valid PKCS#1 v1.5 signature of `data` under the RSA key in `spki`
 * (a SubjectPublicKeyInfo, DER). False for anything unreadable or out of bounds; never throws.
 */
export async function verifyRsaPkcs1(
  spki: Uint8Array,
  hash: DigestName,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    const prefix = DIGEST_INFO_PREFIX[hash];
    const opened = prefix ? publicOperation(spki, signature) : undefined;
    if (!prefix || !opened) return false;
    const k = opened.message.length;
    const digest = await computeDigest(hash, data);
    const padding = k - 3 - prefix.length / 2 - digest.length;
    // EM = 00 01 FF…FF 00 DigestInfo, k bytes, with at least 8 bytes of 0xff (RFC 8017 §9.2 step 5).
    if (padding < 8) return false;
    return toHex(opened.message) === `0001${'ff'.repeat(padding)}00${prefix}${toHex(digest)}`;
  } catch {
    return false;
  }
}

/**
 * Whether `signature` is a valid RSASSA-PSS signature of `data` (RFC 8017 §8.1.2, EMSA-PSS-VERIFY
 * §9.1.2) with `hash` for the message and MGF1, the salt `saltLength` bytes and trailer 0xbc.
 * False for anything unreadable or out of bounds; never throws.
 */
export async function verifyRsaPss(
  spki: Uint8Array,
  hash: DigestName,
  saltLength: number,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    const opened = publicOperation(spki, signature);
    if (!opened || hash === 'SHAKE256' || saltLength < 0) return false;
    const emBits = opened.modulusBits - 1;
    const emLen = Math.ceil(emBits / 8);
    // EM is the last emLen bytes of the k-byte m; any byte before them must be zero (§8.1.2 step 2c).
    const extra = opened.message.length - emLen;
    if (opened.message.subarray(0, extra).some((byte) => byte !== 0)) return false;
    const em = opened.message.subarray(extra);
    const hLen = DIGEST_LENGTH[hash];
    if (emLen < hLen + saltLength + 2 || em[emLen - 1] !== 0xbc) return false;
    const maskedDb = em.subarray(0, emLen - hLen - 1);
    const h = em.subarray(emLen - hLen - 1, emLen - 1);
    const unusedBits = 8 * emLen - emBits;
    const topMask = 0xff >> unusedBits;
    if (((maskedDb[0] ?? 0) & ~topMask) !== 0) return false;
    const dbMask = await mgf1(hash, h, maskedDb.length);
    const db = maskedDb.map((byte, i) => byte ^ (dbMask[i] ?? 0));
    db[0] = (db[0] ?? 0) & topMask;
    const separator = emLen - hLen - saltLength - 2;
    if (db.subarray(0, separator).some((byte) => byte !== 0) || db[separator] !== 0x01) return false;
    const salt = db.subarray(db.length - saltLength);
    const mHash = await computeDigest(hash, data);
    const mPrime = new Uint8Array(8 + mHash.length + saltLength);
    mPrime.set(mHash, 8);
    mPrime.set(salt, 8 + mHash.length);
    return bytesEqual(await computeDigest(hash, mPrime), h);
  } catch {
    return false;
  }
}

/** MGF1 (RFC 8017 Appendix B.2.1): Hash(seed ‖ counter) blocks, cut to `length`. */
async function mgf1(hash: DigestName, seed: Uint8Array, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  const block = new Uint8Array(seed.length + 4);
  block.set(seed);
  for (let counter = 0, at = 0; at < length; counter++) {
    new DataView(block.buffer).setUint32(seed.length, counter);
    const digest = await computeDigest(hash, block);
    out.set(digest.subarray(0, Math.min(digest.length, length - at)), at);
    at += digest.length;
  }
  return out;
}

function stripZeros(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
}
