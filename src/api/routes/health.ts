import { createRoute, z } from '@hono/zod-openapi';
import { VERSION } from '../../version';
import { createRouter, errorResponses, headOperation, responseHeaders } from '../http';

const HealthSchema = z
  .object({
    status: z.literal('healthy'),
    timestamp: z.string().openapi({ description: 'Server time, ISO 8601.', example: '2026-11-22T10:00:00.000Z' }),
    version: z.string().openapi({ example: VERSION }),
  })
  .openapi('Health');

const route = createRoute({
  method: 'get',
  path: '/v1/health',
  operationId: 'getHealth',
  summary: 'Service health',
  description: 'Needs no key. HEAD is answered too, without a body.',
  tags: ['Service'],
  security: [],
  responses: {
    200: {
      description: 'The service is up.',
      headers: responseHeaders(),
      content: {
        'application/json': {
          schema: HealthSchema,
          example: { status: 'healthy', timestamp: '2026-11-22T10:00:00.000Z', version: VERSION },
        },
      },
    },
    ...errorResponses(),
  },
});

const router = createRouter();
// HEAD is in the document with its own operationId; Hono answers it from the GET handler.
router.openAPIRegistry.registerPath(headOperation(route, 'headHealth', 'Service health, headers only'));

export const health = router.openapi(route, (c) =>
  c.json({ status: 'healthy' as const, timestamp: new Date().toISOString(), version: VERSION }, 200),
);
