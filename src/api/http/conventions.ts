import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { requestId } from 'hono/request-id';
import { readConfig } from '../../config';
import { ApiError } from '../../errors';
import type { AppEnv } from './app-env';

/**
 * The per-request conventions of docs/api.md "Conventions", each defined once and applied to every
 * route by src/app.ts, in this order.
 */

/** `X-Request-Id`: a caller's sane token (≤128 of [A-Za-z0-9_=-]) is echoed, anything else replaced. */
export const requestIdentity = (): MiddlewareHandler<AppEnv> => requestId({ limitLength: 128 });

/** `Cache-Control: no-store` on every answer: documents and keys must never sit in a shared cache. */
export const noStore = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
};

/** Browsers are first-class callers: any origin, bearer tokens (not cookies), preflight → 204. */
export const corsPolicy = (): MiddlewareHandler<AppEnv> =>
  cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposeHeaders: [
      'X-Request-Id',
      'Content-Disposition',
      'Retry-After',
      'Allow',
      'X-Quire-Pages',
      'X-Quire-Warnings',
      'X-Quire-Warning-Count',
      'X-Quire-Event-Id',
      'X-Quire-Certificate-Pages',
      'X-Quire-Certificate-Omitted',
      'Vary',
    ],
    maxAge: 86400,
  });

/**
 * Headers for an answer a browser renders (the playground's page and its files), on top of those
 * every answer gets: `csp`, the narrowest Content-Security-Policy that page works with (its route
 * writes it, since only the route knows what its page loads); `nosniff`, so a file is only ever
 * taken as the type it is served as; no Referer to other sites; and no framing by another origin
 * (the page holds an API key). The API's JSON answers are not rendered and need none of this.
 */
export const pageSecurity =
  (csp: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await next();
    c.res.headers.set('Content-Security-Policy', csp);
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
    c.res.headers.set('X-Frame-Options', 'DENY');
  };

/** Settings from the environment, parsed once per request and handed on as plain data. */
export const configuration = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  c.set('config', readConfig(c.env));
  await next();
};

/**
 * 413 as soon as Content-Length says the body is too large; without Content-Length (chunked),
 * hono's bodyLimit counts the stream and stops at the limit, so nothing larger is buffered.
 */
export const requestSizeLimit = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const { maxRequestBytes, maxDocumentBytes } = c.get('config');
  return bodyLimit({
    maxSize: maxRequestBytes,
    onError: () => {
      throw new ApiError(
        'PAYLOAD_TOO_LARGE',
        `The request body is larger than ${maxRequestBytes} bytes (documents may be at most ${maxDocumentBytes} bytes, MAX_DOCUMENT_BYTES).`,
      );
    },
  })(c, next);
};

/**
 * All of the above, in the order they must run: the request id first (every answer carries it),
 * then headers every answer gets, then preflight, then settings; `authenticate` (when given) comes
 * before the size limit, so an unauthenticated caller is refused before any body is read.
 */
export const conventions = (authenticate?: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv>[] => [
  requestIdentity(),
  noStore(),
  corsPolicy(),
  configuration(),
  ...(authenticate ? [authenticate] : []),
  requestSizeLimit(),
];
