/**
 * The digest algorithms a CMS SignerInfo or a timestamp's messageImprint may name (RFC 5754 §2,
 * RFC 3370 §2.1, RFC 8419 §2.3, SHA-3, RFC 9688), and how to compute
 * each. WebCrypto computes the SHA-1 and SHA-2 ones it has; SHA-224, SHA-3 and SHAKE256 (which
 * workerd's WebCrypto lacks) come from @noble/hashes.
 */
import { sha224 } from '@noble/hashes/sha2.js';
import { sha3_224, sha3_256, sha3_384, sha3_512, shake256 } from '@noble/hashes/sha3.js';

export type DigestName =
  | 'SHA-1'
  | 'SHA-224'
  | 'SHA-256'
  | 'SHA-384'
  | 'SHA-512'
  | 'SHA3-224'
  | 'SHA3-256'
  | 'SHA3-384'
  | 'SHA3-512'
  | 'SHAKE256';

const DIGESTS: Record<string, DigestName> = {
  '1.3.14.3.2.26': 'SHA-1',
  '2.16.840.1.101.3.4.2.4': 'SHA-224',
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
  '2.16.840.1.101.3.4.2.7': 'SHA3-224',
  '2.16.840.1.101.3.4.2.8': 'SHA3-256',
  '2.16.840.1.101.3.4.2.9': 'SHA3-384',
  '2.16.840.1.101.3.4.2.10': 'SHA3-512',
  // id-shake256 (RFC 8419 §2.3): with Ed448 its output is 512 bits.
  '2.16.840.1.101.3.4.2.12': 'SHAKE256',
};

/** Output lengths in bytes; SHAKE256 is used with a 512-bit output in CMS (RFC 8419 §2.3). */
export const DIGEST_LENGTH: Record<DigestName, number> = {
  'SHA-1': 20,
  'SHA-224': 28,
  'SHA-256': 32,
  'SHA-384': 48,
  'SHA-512': 64,
  'SHA3-224': 28,
  'SHA3-256': 32,
  'SHA3-384': 48,
  'SHA3-512': 64,
  SHAKE256: 64,
};

export function digestName(oid: string): DigestName | undefined {
  return DIGESTS[oid];
}

const SHA3: Partial<Record<DigestName, (data: Uint8Array) => Uint8Array>> = {
  'SHA3-224': sha3_224,
  'SHA3-256': sha3_256,
  'SHA3-384': sha3_384,
  'SHA3-512': sha3_512,
};

export async function computeDigest(name: DigestName, data: Uint8Array): Promise<Uint8Array> {
  if (name === 'SHA-224') return sha224(data);
  if (name === 'SHAKE256') return shake256(data, { dkLen: DIGEST_LENGTH.SHAKE256 });
  const sha3 = SHA3[name];
  if (sha3) return sha3(data);
  return new Uint8Array(await crypto.subtle.digest(name, data));
}
