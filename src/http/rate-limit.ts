import { ApiError } from '../errors';

/** Every limiter binding of wrangler.toml counts over 60 s windows. */
const PERIOD_SECONDS = 60;

/**
 * One request against a Workers rate-limiting binding. The binding says only yes or no, so
 * Retry-After is the length of its window: waiting that long always finds a fresh one.
 */
export async function enforceRateLimit(limiter: RateLimit, key: string, over: string): Promise<void> {
  const { success } = await limiter.limit({ key });
  if (!success) {
    throw new ApiError('RATE_LIMIT_ERROR', `Too many requests ${over}; wait a minute and try again.`, {
      retryAfterSeconds: PERIOD_SECONDS,
    });
  }
}

/** The caller's address as Cloudflare's edge reports it; `wrangler dev` sets it too. */
export function clientAddress(header: string | undefined): string {
  return header?.trim() || 'unknown';
}
