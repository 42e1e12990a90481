import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { ApiError } from '../../errors';
import { AccountStore, authenticateApiKey, type KeyRecordCache } from '../auth';
import type { AppEnv } from './app-env';
import { enforceRateLimit } from './rate-limit';

/** docs/api.md "Authentication": the only routes that need no key. Everything else does. */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  '/v1/health',
  '/v1/auth/register',
  '/v1/auth/verify',
  '/openapi.json',
  '/docs',
  // The playground's page and its files (src/api/routes/playground.ts); its API calls need a key.
  '/playground',
  '/playground/',
  '/playground/app.js',
  '/playground/style.css',
]);

function unauthorized(message: string): ApiError {
  return new ApiError('AUTHENTICATION_ERROR', message);
}

/**
 * Bearer authentication and the per-key rate limit, for every route not in PUBLIC_ROUTES. It
 * runs for all requests but acts only when a route handler matched, so unknown paths still get
 * 404 and wrong methods 405, and a new route is protected without anyone remembering to say so.
 * Keys found live are kept in `keyCache` for its TTL; the rate limit is asked on every request.
 */
export const apiKeyAuth =
  (keyCache?: KeyRecordCache): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const handler = matchedRoutes(c).find((route) => route.method !== 'ALL');
    if (!handler || PUBLIC_ROUTES.has(handler.path) || c.req.method === 'OPTIONS') return next();

    const header = c.req.header('Authorization');
    if (!header) {
      throw unauthorized(
        'This endpoint needs an API key: send Authorization: Bearer <API key>. Get a key at /v1/auth/register.',
      );
    }
    // RFC 9110 §11.1: the scheme is case-insensitive; RFC 6750 §2.1: one space, then the token.
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Use the Bearer scheme: Authorization: Bearer <API key>.');

    const record = await authenticateApiKey(new AccountStore(c.env.DB), match[1], keyCache);
    c.set('apiKey', record);
    const perMinute = c.get('config').rateLimitPerMinute;
    await enforceRateLimit(
      c.env.KEY_RATE_LIMITER,
      `key:${record.id}`,
      `for this API key (at most ${perMinute} per minute)`,
    );
    await next();
  };
