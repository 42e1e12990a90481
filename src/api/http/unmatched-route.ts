import type { NotFoundHandler } from 'hono';
import { PatternRouter } from 'hono/router/pattern-router';
import type { RouterRoute } from 'hono/types';
import { ApiError } from '../../errors';
import type { AppEnv } from './app-env';
import { errorResponse } from './error-response';

/**
 * The notFound handler: a path that no route has is 404 NOT_FOUND; a path that routes have, but
 * not for this method, is 405 METHOD_NOT_ALLOWED with `Allow` (RFC 9110 §15.5.6).
 * `routes` is read once, on the first unmatched request, after every route is registered.
 */
export function unmatchedRoute(routes: () => readonly RouterRoute[]): NotFoundHandler<AppEnv> {
  let router: PatternRouter<string> | undefined;
  const allowedMethods = (path: string): string[] => {
    if (!router) {
      router = new PatternRouter<string>();
      // Middleware is registered as ALL; only real handlers say which methods a path has.
      for (const route of routes()) if (route.method !== 'ALL') router.add('ALL', route.path, route.method);
    }
    const methods = new Set(router.match('GET', path)[0].map(([method]) => method));
    if (methods.size === 0) return [];
    if (methods.has('GET')) methods.add('HEAD'); // Hono answers HEAD from the GET handler.
    methods.add('OPTIONS'); // CORS preflight answers every path.
    return [...methods].sort();
  };

  return (c) => {
    const allowed = allowedMethods(c.req.path);
    if (allowed.length > 0) {
      return errorResponse(
        c,
        new ApiError(
          'METHOD_NOT_ALLOWED',
          `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(', ')}.`,
          {
            headers: { Allow: allowed.join(', ') },
          },
        ),
      );
    }
    return errorResponse(
      c,
      new ApiError('NOT_FOUND', `There is no ${c.req.path}. Every endpoint is listed at /docs and /openapi.json.`),
    );
  };
}
