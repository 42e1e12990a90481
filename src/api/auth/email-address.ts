import { z } from '@hono/zod-openapi';

/**
 * docs/api.md: the email is normalised (trimmed, lower-cased) and validated. Lower-casing the local
 * part is a deliberate simplification (RFC 5321 §2.4 lets it be case-sensitive; no mail system
 * in use treats it so), and it keeps one account per mailbox. 254 is the longest address that
 * fits a forward path (RFC 5321 §4.5.3.1.3 with RFC 3696 erratum 1690).
 */
export const EmailAddressSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('Invalid email address').max(254, 'An email address has at most 254 characters'))
  .openapi({ description: 'Email address; trimmed and lower-cased.', example: 'ada@example.com' });

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}
