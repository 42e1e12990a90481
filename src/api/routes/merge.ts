import { createRoute } from '@hono/zod-openapi';
import { ApiError } from '../../errors';
import { createRouter, errorResponses } from '../http';

const NOT_YET = 'Merging documents is planned but not available yet. Convert or sign documents one at a time for now.';

const route = createRoute({
  method: 'post',
  path: '/v1/merge',
  operationId: 'mergeDocuments',
  summary: 'Merge documents (planned)',
  description: 'Planned; answers 501 NOT_IMPLEMENTED until it ships.',
  tags: ['Documents'],
  responses: errorResponses('AUTHENTICATION_ERROR', 'RATE_LIMIT_ERROR', { code: 'NOT_IMPLEMENTED', message: NOT_YET }),
});

export const merge = createRouter().openapi(route, () => {
  throw new ApiError('NOT_IMPLEMENTED', NOT_YET);
});
