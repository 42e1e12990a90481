import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './app-env';
import { validationHook } from './validation';

/** Every router is made here, so that every route validates and fails the same way. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}
