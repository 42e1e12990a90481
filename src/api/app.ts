import { createFallbackFontCache, createFontCache } from '../engine';
import { FontLibraryCache, IdentityCache } from '../services';
import { KeyRecordCache } from './auth';
import { OPENAPI_INFO, renderReferencePage } from './discovery';
import { apiKeyAuth, conventions, createRouter, declareResponseHeaders, handleError, unmatchedRoute } from './http';
import {
  annotateRouter,
  authRoutes,
  convertRouter,
  health,
  merge,
  playground,
  signRouter,
  verifyRouter,
} from './routes';

/** Builds the whole API: the conventions, then the routes, then discovery built from the routes. */
export function createApp() {
  const app = createRouter();

  // Keys recently found live, per isolate (bounded, 30 s TTL); revocation forgets its key here.
  const keyCache = new KeyRecordCache();
  app.use('*', ...conventions(apiKeyAuth(keyCache)));
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (qk_…) from /v1/auth/verify or `npm run key`.',
  });

  // Parsed fonts outlive requests: the isolate's bounded caches, owned here (fallback faces apart,
  // being large; the font library's answers, when a FONTS bucket is bound) and shared by every
  // route that makes PDFs.
  const engine = {
    fontCache: createFontCache(),
    fallbackFontCache: createFallbackFontCache(),
    fontLibraryCache: new FontLibraryCache(),
  };
  // One chained expression: its type carries every route (AppType, for hono/client).
  const api = app
    .route('/', health)
    .route('/', authRoutes(keyCache))
    .route('/', convertRouter(engine))
    .route('/', annotateRouter(engine))
    // The signing identity, parsed once per isolate while the secrets stay the same.
    .route('/', signRouter(engine, new IdentityCache()))
    .route('/', verifyRouter())
    .route('/', merge);
  // A page to try the API in a browser; not an API operation, so not in the OpenAPI document.
  app.route('/', playground);

  // The document is generated from the registered zod schemas once per isolate, on first use.
  let openApi: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  let referencePage: Promise<{ html: string; csp: string }> | undefined;
  const openApiDocument = () => {
    openApi ??= declareResponseHeaders(bodiesRequired(app.getOpenAPI31Document(OPENAPI_INFO)));
    return openApi;
  };
  app.get('/openapi.json', (c) => c.json(openApiDocument()));
  app.get('/docs', async (c) => {
    referencePage ??= renderReferencePage(openApiDocument());
    const { html, csp } = await referencePage;
    c.header('Content-Security-Policy', csp);
    return c.html(html);
  });

  app.notFound(unmatchedRoute(() => app.routes));
  app.onError(handleError);
  return api;
}

/** The application's type, routes and all: `hc<AppType>(base)` (hono/client) is typed by it. */
export type AppType = ReturnType<typeof createApp>;

/**
 * Every request body of the contract is required (an empty one is 400). A route with several
 * content types declares `required: false` only so that @hono/zod-openapi runs the validator of
 * the content type sent rather than all of them (verify.ts); the document says what the API does.
 */
function bodiesRequired<T extends { paths?: Record<string, unknown> }>(doc: T): T {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, { requestBody?: { required?: boolean } }>)) {
      if (operation?.requestBody) operation.requestBody.required = true;
    }
  }
  return doc;
}
