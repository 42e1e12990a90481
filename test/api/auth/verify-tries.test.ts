import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { AccountStore } from '../../../src/api/auth/account-store';
import {
  MAX_FAILED_ATTEMPTS,
  type RegistrationDeps,
  requestVerificationCode,
  verifyCode,
} from '../../../src/api/auth/registration';
import { ApiError } from '../../../src/errors';
import { register, uniqueIdentity, verify } from '../../helpers/accounts';
import { expectError } from '../../helpers/api';
import { openMailbox } from '../../helpers/mailbox';

/**
 * Issue 20: the five tries of a code must hold under concurrency. A try is taken in D1 before the
 * code is compared, so however many guesses race, at most five are compared: each compared guess
 * answers "The code is wrong…", every other one "dead".
 */

/**
 * The store, with a pause after every statement: each request holds what it read while the others
 * run, which is when a read-compare-count sequence lets more than five guesses through.
 */
class InterleavingStore extends AccountStore {
  override async takeTry(email: string, maxTries: number, now: number) {
    return paused(await super.takeTry(email, maxTries, now));
  }
  override async findCode(email: string) {
    return paused(await super.findCode(email));
  }
  override async consumeCode(email: string, codeHmac: string) {
    return paused(await super.consumeCode(email, codeHmac));
  }
}

const paused = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 10));

function depsFor(): { deps: RegistrationDeps; code: () => string } {
  let code = '';
  const deps: RegistrationDeps = {
    store: new InterleavingStore(env.DB),
    mail: {
      send: async (message) => {
        code = /code is (\d{6})/.exec(message.text)?.[1] ?? '';
      },
    },
    mailFrom: 'Quire <noreply@quire.test>',
    secret: 'a-test-secret-of-some-length',
    now: Date.now,
  };
  return { deps, code: () => code };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

async function storedTries(email: string): Promise<number | undefined> {
  const row = await env.DB.prepare('SELECT failed_attempts FROM verification_codes WHERE email = ?')
    .bind(email)
    .first<{ failed_attempts: number }>();
  return row?.failed_attempts;
}

describe('five tries per code, whatever the concurrency', () => {
  it('10 concurrent wrong guesses: 5 compared (4, 3, 2, 1 left, then dead), 5 refused as dead; the right code is then dead', async () => {
    const { email } = uniqueIdentity('race');
    const { deps, code } = depsFor();
    await requestVerificationCode(deps, email);
    const wrong = code() === '000000' ? '111111' : '000000';

    const messages = await Promise.all(Array.from({ length: 10 }, () => refusal(verifyCode(deps, email, wrong))));
    const compared = messages.filter((message) => message.startsWith('The code is wrong'));
    expect(compared).toHaveLength(MAX_FAILED_ATTEMPTS);
    expect(compared.sort()).toEqual([
      'The code is wrong, and after 5 wrong tries it is dead; request a new one with /v1/auth/register.',
      'The code is wrong; 1 try left.',
      'The code is wrong; 2 tries left.',
      'The code is wrong; 3 tries left.',
      'The code is wrong; 4 tries left.',
    ]);
    expect(messages.filter((message) => message.startsWith('This code is dead after 5 wrong tries'))).toHaveLength(5);
    expect(await storedTries(email)).toBe(MAX_FAILED_ATTEMPTS);

    expect(await refusal(verifyCode(deps, email, code()))).toMatch(/^This code is dead after 5 wrong tries/);
    expect(await storedTries(email)).toBe(MAX_FAILED_ATTEMPTS);
  });

  it('the right code among concurrent wrong ones: at most 5 compared, and it is consumed at most once', async () => {
    const { email } = uniqueIdentity('race');
    const { deps, code } = depsFor();
    await requestVerificationCode(deps, email);
    const right = code();
    const wrong = right === '000000' ? '111111' : '000000';
    const guesses = [wrong, wrong, wrong, right, right, wrong, right, wrong, wrong, wrong];
    const results = await Promise.allSettled(guesses.map((guess) => verifyCode(deps, email, guess)));
    const issued = results.filter((result) => result.status === 'fulfilled');
    const messages = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason.message)] : []));
    const compared = messages.filter((message) => message.startsWith('The code is wrong')).length;
    const consumedElsewhere = messages.filter((message) => message.startsWith('This code has just been used')).length;
    expect(issued.length).toBeLessThanOrEqual(1);
    expect(compared + issued.length + consumedElsewhere).toBeLessThanOrEqual(MAX_FAILED_ATTEMPTS);
  });

  it('the fifth try may still be the right one', async () => {
    const { email } = uniqueIdentity('fifth');
    const { deps, code } = depsFor();
    await requestVerificationCode(deps, email);
    const wrong = code() === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) await refusal(verifyCode(deps, email, wrong));
    const issued = await verifyCode(deps, email, code());
    expect(issued.apiKey).toMatch(/^qk_/);
    expect(await storedTries(email)).toBe(undefined);
  });

  it('through the route: 8 concurrent wrong guesses compare 5 times, and the right code is dead', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity('route-race');
    expect((await register(email, ip)).status).toBe(200);
    const right = mailbox.codeFor(email);
    const wrong = right === '000000' ? '111111' : '000000';
    // Register, 8 guesses and the right code: the 10 requests per email per minute of the limiter.
    const answers = await Promise.all(
      Array.from(
        { length: 8 },
        async () => (await expectError(await verify(email, wrong, ip), 400, 'VALIDATION_ERROR')).message,
      ),
    );
    expect(answers.filter((message) => message.startsWith('The code is wrong'))).toHaveLength(5);
    expect(answers.filter((message) => message.startsWith('This code is dead'))).toHaveLength(3);
    const dead = await expectError(await verify(email, right, ip), 400, 'VALIDATION_ERROR');
    expect(dead.message).toMatch(/^This code is dead after 5 wrong tries/);
  });
});
