/**
 * The digest algorithms a CMS SignerInfo or a timestamp's messageImprint may name (RFC 5754 §2,
 * RFC 3370 §2.1, RFC 8419 §2.3), and how to compute each. WebCrypto computes the SHA-1 and SHA-2
 * ones it has; SHA-224 and SHAKE256 (which workerd's WebCrypto lacks) come from @noble/hashes.
 */
import { sha224 } from '@noble/hashes/sha2.js';
import { shake256 } from '@noble/hashes/sha3.js';

export type DigestName = 'SHA-1' | 'SHA-224' | 'SHA-256' | 'SHA-384' | 'SHA-512' | 'SHAKE256';

const DIGESTS: Record<string, DigestName> = {
  '1.3.14.3.2.26': 'SHA-1',
  '2.16.840.1.101.3.4.2.4': 'SHA-224',
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
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
  SHAKE256: 64,
};

export function digestName(oid: string): DigestName | undefined {
  return DIGESTS[oid];
}

export async function computeDigest(name: DigestName, data: Uint8Array): Promise<Uint8Array> {
  if (name === 'SHA-224') return sha224(data);
  if (name === 'SHAKE256') return shake256(data, { dkLen: DIGEST_LENGTH.SHAKE256 });
  return new Uint8Array(await crypto.subtle.digest(name, data));
}
