import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import wranglerToml from '../../../wrangler.toml?raw';
import { mintKey, register, uniqueIdentity, verify, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { openMailbox } from '../../helpers/mailbox';

async function expectRateLimited(res: Response, message: RegExp, maxRetryAfter = 60) {
  const body = await expectError(res, 429, 'RATE_LIMIT_ERROR');
  expect(body.error).toBe('Too Many Requests');
  expect(body.message).toMatch(message);
  const retryAfter = Number(res.headers.get('Retry-After'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
  return retryAfter;
}

/**
 * The rate-limit bindings count in fixed 60 s windows (Miniflare keys its buckets by
 * floor(now / period), as Cloudflare does), so a run that straddles a window boundary starts
 * counting again halfway. On a loaded machine that happens; such a run is repeated, fresh
 * identities and all. A failure within one window is a real failure.
 */
async function inOneWindow(attempt: () => Promise<void>): Promise<void> {
  for (let tries = 0; ; tries++) {
    const window = Math.floor(Date.now() / 60_000);
    try {
      await attempt();
      return;
    } catch (error) {
      if (tries >= 2 || Math.floor(Date.now() / 60_000) === window) throw error;
    }
  }
}

describe('rate limits', () => {
  it('RATE_LIMIT_PER_MINUTE names the limit KEY_RATE_LIMITER enforces', () => {
    const binding = /name = "KEY_RATE_LIMITER"[^[]*simple = \{ limit = (\d+), period = 60 \}/.exec(wranglerToml);
    expect(binding?.[1]).toBe(env.RATE_LIMIT_PER_MINUTE);
  });

  it('allows RATE_LIMIT_PER_MINUTE (120) requests per key per minute, then 429 with Retry-After', async () => {
    await inOneWindow(async () => {
      const key = await mintKey();
      const statuses: number[] = [];
      for (let i = 0; i < 120; i++) statuses.push((await call('/v1/merge', withKey(key, { method: 'POST' }))).status);
      expect(new Set(statuses)).toEqual(new Set([501]));
      await expectRateLimited(
        await call('/v1/merge', withKey(key, { method: 'POST' })),
        /for this API key \(at most 120/,
      );
    });
    // Another key is counted on its own.
    expect((await call('/v1/merge', withKey(await mintKey(), { method: 'POST' }))).status).toBe(501);
  });

  it('limits the auth routes per client address', async () => {
    openMailbox();
    await inOneWindow(async () => {
      const { ip } = uniqueIdentity();
      for (let i = 0; i < 30; i++) {
        const res = await register(uniqueIdentity(`ip${i}`).email, ip);
        expect(res.status).toBe(200);
      }
      await expectRateLimited(await register(uniqueIdentity().email, ip), /from this address/);
      await expectRateLimited(await verify(uniqueIdentity().email, '123456', ip), /from this address/);
    });
  });

  it('limits verification attempts per email, from any address', async () => {
    await inOneWindow(async () => {
      const { email } = uniqueIdentity();
      for (let i = 0; i < 10; i++)
        await expectError(await verify(email, '123456', uniqueIdentity().ip), 400, 'VALIDATION_ERROR');
      await expectRateLimited(await verify(email, '123456', uniqueIdentity().ip), /for this email/);
    });
  });

  it('sends at most 5 codes per email per hour', async () => {
    const mailbox = openMailbox();
    const { email } = uniqueIdentity();
    for (let i = 0; i < 5; i++) expect((await register(email, uniqueIdentity().ip)).status).toBe(200);
    const retryAfter = await expectRateLimited(
      await register(email, uniqueIdentity().ip),
      /5 verification codes/,
      3600,
    );
    expect(retryAfter).toBeGreaterThan(3500);
    expect(mailbox.sent.filter((m) => m.to.includes(email))).toHaveLength(5);
  });
});

describe('a rate limiter that cannot answer', () => {
  it('lets the request through, logged, rather than turning it into a 500', async () => {
    const { enforceRateLimit } = await import('../../../src/api/http/rate-limit');
    const failing = { limit: () => Promise.reject(new Error('limiter unavailable')) } as unknown as RateLimit;
    await expect(enforceRateLimit(failing, 'key', 'for this key')).resolves.toBeUndefined();
    const refusing = { limit: () => Promise.resolve({ success: false }) } as unknown as RateLimit;
    await expect(enforceRateLimit(refusing, 'key', 'for this key')).rejects.toMatchObject({ code: 'RATE_LIMIT_ERROR' });
  });
});
