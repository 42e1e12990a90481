import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../errors';
import type { AppEnv } from './app-env';

/** The essence of a Content-Type header (RFC 9110 §8.3.1): type/subtype, lower-cased, no parameters. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  const essence = header?.split(';', 1)[0]?.trim().toLowerCase();
  return essence ? essence : undefined;
}

/** 415 unless the request body is one of `accepted` (the route's documented content types). */
export const requireMediaType =
  (...accepted: string[]): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const given = mediaTypeOf(c.req.header('Content-Type'));
    if (!given || !accepted.includes(given)) {
      throw new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Send the request body as ${accepted.join(' or ')}${given ? `, not ${given}` : ' with a Content-Type header'}.`,
      );
    }
    await next();
  };
