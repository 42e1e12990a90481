/**
 * API keys: `qk_` followed by 43 base62 characters that encode 32 random bytes (256 bits;
 * 62^43 > 2^256, so 43 characters always suffice). Only SHA-256 of the whole key is stored.
 *
 * `scripts/mint-key.mjs` imports this module under Node (type stripping), so the command line
 * and the worker make and hash keys with the same code; hence the explicit path with its `.ts`
 * extension (Node resolves neither a bare folder nor a file without one), as in crypto's front door.
 */
import { sha256Hex } from '../../crypto/index.ts';

export const API_KEY_PREFIX = 'qk_';
const BODY_LENGTH = 43;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const API_KEY_PATTERN = /^qk_[0-9A-Za-z]{43}$/;

export function isWellFormedApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

/** A new key from the platform CSPRNG (crypto.getRandomValues). */
export function generateApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) {
    body = ALPHABET[Number(value % 62n)] + body;
    value /= 62n;
  }
  return `${API_KEY_PREFIX}${body}`;
}

/** Lower-case hex SHA-256 of the key, as stored in api_keys.key_hash. */
export function hashApiKey(key: string): Promise<string> {
  return sha256Hex(key);
}
