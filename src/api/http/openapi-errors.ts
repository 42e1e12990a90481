import { z } from '@hono/zod-openapi';
import type { ErrorCode } from '../../errors';
import { ERROR_CODES, reasonPhrase, statusOf } from './error-response';

/** The error body of docs/api.md "Errors", as a reusable OpenAPI component. */
export const ErrorBodySchema = z
  .object({
    code: z.enum(ERROR_CODES).openapi({ example: 'VALIDATION_ERROR' }),
    error: z.string().openapi({ description: 'The HTTP reason phrase.', example: 'Bad Request' }),
    message: z.string().openapi({ description: 'What was wrong and how to fix it.' }),
    requestId: z.string().openapi({ description: 'Equals the X-Request-Id response header.' }),
    details: z
      .array(z.object({ field: z.string(), issue: z.string() }))
      .optional()
      .openapi({ description: 'Present for validation errors: one entry per problem.' }),
  })
  .openapi('Error');

/**
 * OpenAPI `responses` entries for the error codes a route can answer with, grouped by status; every
 * route may also answer 500 INTERNAL_ERROR (a bug, or an upstream such as the TSA failing), so it
 * is declared everywhere.
 */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...codes, 'INTERNAL_ERROR' as const])) {
    byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      status,
      {
        description: `${reasonPhrase(status)}: ${group.join(', ')}`,
        content: { 'application/json': { schema: ErrorBodySchema } },
      },
    ]),
  );
}
