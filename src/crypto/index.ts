/**
 * Digests over Web Crypto (front door of src/crypto): SHA-256, HMAC and the comparison of secrets
 * that does not leak timing.
 */
export { hexDigestsEqual, hmacSha256Hex, sha256Hex, toHex } from './digest';
