/** Six-digit verification codes: drawn from the CSPRNG, kept only as HMAC-SHA256 under AUTH_SECRET. */
import { hmacSha256Hex } from '../../crypto';

export const CODE_PATTERN = /^[0-9]{6}$/;

/** Uniform over 000000–999999: values at or above the largest multiple of 10^6 are redrawn. */
export function generateVerificationCode(): string {
  const limit = 2 ** 32 - (2 ** 32 % 1_000_000);
  const word = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(word);
    const value = word[0] ?? limit;
    if (value < limit) return String(value % 1_000_000).padStart(6, '0');
  }
}

/**
 * HMAC-SHA256(secret, email ":" code), lower-case hex. Binding the email in means a code stolen
 * from one row is worthless for another email, and a database dump without the secret cannot be
 * brute-forced (there are only 10^6 codes).
 */
export function codeHmac(secret: string, email: string, code: string): Promise<string> {
  return hmacSha256Hex(secret, `${email}:${code}`);
}
