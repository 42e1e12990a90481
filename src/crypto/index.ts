/**
 * Digests over Web Crypto (front door of src/crypto): SHA-256, HMAC and the comparison of secrets
 * that does not leak timing. Node imports it too (scripts/mint-key.mjs, scripts/load.mjs, through
 * api/auth/api-key.ts), hence the `.ts` extension.
 */
export { hexDigestsEqual, hmacSha256Hex, sha256Hex, toHex } from './digest.ts';
