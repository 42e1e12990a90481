import { hexDigestsEqual } from '../../crypto';
import { ApiError } from '../../errors';
import type { MailTransport } from '../mail';
import type { AccountStore } from './account-store';
import { generateApiKey, hashApiKey } from './api-key';
import { codeHmac, generateVerificationCode } from './verification-code';
import { verificationEmail } from './verification-email';

/** docs/api.md "GET /v1/auth/register" and "GET /v1/auth/verify": the rules, apart from HTTP. */

export const CODE_TTL_SECONDS = 15 * 60;
export const MAX_FAILED_ATTEMPTS = 5;
export const MAX_CODES_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;

export interface RegistrationDeps {
  store: AccountStore;
  mail: MailTransport;
  mailFrom: string;
  /** AUTH_SECRET: the HMAC key for codes. */
  secret: string;
  now: () => number;
}

export interface IssuedApiKey {
  apiKey: string;
  email: string;
  createdAt: string;
}

/**
 * Sends a fresh code to `email` (already normalised), replacing any earlier one. The same work is
 * done whether or not the email has an account, so neither answer nor timing tells them apart.
 */
export async function requestVerificationCode(deps: RegistrationDeps, email: string): Promise<void> {
  const now = deps.now();
  const { count, oldest } = await deps.store.countCodeRequestsSince(email, now - HOUR_MS);
  if (count >= MAX_CODES_PER_HOUR) {
    const retryAfterMs = (oldest ?? now) + HOUR_MS - now;
    throw new ApiError(
      'RATE_LIMIT_ERROR',
      `At most ${MAX_CODES_PER_HOUR} verification codes are sent per email per hour; use the latest code you received, or try again later.`,
      { retryAfterSeconds: retryAfterMs / 1000 },
    );
  }
  const code = generateVerificationCode();
  const expiresAt = now + CODE_TTL_SECONDS * 1000;
  await deps.store.replaceCode(
    email,
    { codeHmac: await codeHmac(deps.secret, email, code), expiresAt, failedAttempts: 0 },
    now,
  );
  await deps.mail.send(verificationEmail(deps.mailFrom, email, code, new Date(expiresAt), CODE_TTL_SECONDS / 60));
}

function codeRefused(message: string): ApiError {
  return new ApiError('VALIDATION_ERROR', message, { details: [{ field: 'code', issue: message }] });
}

/**
 * Checks `code` for `email`; on success the code is consumed and a new API key issued. Every
 * refusal says which of no code, dead, expired or wrong it was.
 *
 * A try is taken (counted in D1) before the code is compared, in the same statement that hands
 * the stored code over (AccountStore.takeTry), so at most MAX_FAILED_ATTEMPTS comparisons ever
 * happen per code, however many requests race: reading the count, comparing, then counting let
 * ten concurrent guesses compare eight or nine times. The right code then consumes the row by a
 * delete of that very code, so it is used once and never after being replaced.
 */
export async function verifyCode(deps: RegistrationDeps, email: string, code: string): Promise<IssuedApiKey> {
  const now = deps.now();
  const again = 'request a new one with /v1/auth/register';
  const taken = await deps.store.takeTry(email, MAX_FAILED_ATTEMPTS, now);
  if (!taken) throw await noTryLeft(deps, email, now, again);
  const candidate = await codeHmac(deps.secret, email, code);
  if (!hexDigestsEqual(candidate, taken.codeHmac)) {
    const left = MAX_FAILED_ATTEMPTS - taken.tries;
    throw codeRefused(
      left > 0
        ? `The code is wrong; ${left} ${left === 1 ? 'try' : 'tries'} left.`
        : `The code is wrong, and after ${MAX_FAILED_ATTEMPTS} wrong tries it is dead; ${again}.`,
    );
  }
  if (!(await deps.store.consumeCode(email, taken.codeHmac))) {
    // Another request consumed (or replaced) it between the try and now.
    throw codeRefused(`This code has just been used or replaced; ${again}.`);
  }
  const apiKey = generateApiKey();
  const createdAt = new Date(now).toISOString();
  await deps.store.issueKey(email, await hashApiKey(apiKey), 'email', createdAt);
  return { apiKey, email, createdAt };
}

/** Why no try could be taken: no code pending, dead after its tries, or expired. */
async function noTryLeft(deps: RegistrationDeps, email: string, now: number, again: string): Promise<ApiError> {
  const stored = await deps.store.findCode(email);
  if (!stored) {
    return codeRefused(
      `No verification code is pending for this email (it was never requested or already used); ${again}.`,
    );
  }
  if (stored.failedAttempts >= MAX_FAILED_ATTEMPTS) {
    return codeRefused(`This code is dead after ${MAX_FAILED_ATTEMPTS} wrong tries; ${again}.`);
  }
  if (stored.expiresAt <= now) {
    return codeRefused(`This code has expired (codes work for ${CODE_TTL_SECONDS / 60} minutes); ${again}.`);
  }
  // A new code arrived between the try and this read: it has tries left, but this request had none.
  return codeRefused(`This code has just been used or replaced; ${again}.`);
}
