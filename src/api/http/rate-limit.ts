import { ApiError } from '../../errors';

/** Every limiter binding of wrangler.toml counts over 60 s windows. */
const PERIOD_SECONDS = 60;

/**
 * One request against a Workers rate-limiting binding. The binding says only yes or no, so
 * Retry-After is the length of its window: waiting that long always finds a fresh one.
 */
export async function enforceRateLimit(limiter: RateLimit, key: string, over: string): Promise<void> {
  let success: boolean;
  try {
    ({ success } = await limiter.limit({ key }));
  } catch (error) {
    // A limiter that cannot answer lets the request through, logged: it guards against floods,
    // and an outage of the guard must not turn every request into a 500 (Miniflare's local limiter
    // failed so under concurrent workers sharing .wrangler/state). The five-tries rule of codes
    // and the per-email hourly cap are counted in D1 and still hold.
    console.warn(JSON.stringify({ level: 'warn', event: 'rate-limiter-failed', error: String(error) }));
    return;
  }
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
