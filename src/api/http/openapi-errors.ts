import { z } from '@hono/zod-openapi';
import type { ErrorCode, ErrorDetail } from '../../errors';
import { ERROR_CODES, reasonPhrase, statusOf } from './error-response';
import { EXAMPLE_REQUEST_ID, type ResponseHeader, responseHeaders } from './openapi-headers';

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

/** An error a route answers with, as the service words it: the example of its response. */
export interface ErrorExample {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

/** `message` as a VALIDATION_ERROR of one problem says it: `field: issue`, and the same in details. */
export function validationExample(field: string, issue: string): ErrorExample {
  return { code: 'VALIDATION_ERROR', message: `${field}: ${issue}`, details: [{ field, issue }] };
}

/**
 * One real answer per code, worded as the service words it, for a route that names the code
 * only; a route gives its own ErrorExample where its answer differs (its fields, its media types).
 */
const TYPICAL: Record<ErrorCode, Omit<ErrorExample, 'code'>> = {
  VALIDATION_ERROR: {
    message: 'Malformed JSON in request body',
    details: [{ field: 'body', issue: 'Malformed JSON in request body' }],
  },
  INVALID_BASE64: {
    message:
      'document.base64 is not valid base64: character "%" at position 13 is not allowed. Base64 uses A–Z, a–z, 0–9, "+" and "/" (or "-" and "_"), with optional "=" padding at the end.',
  },
  AUTHENTICATION_ERROR: {
    message: 'This endpoint needs an API key: send Authorization: Bearer <API key>. Get a key at /v1/auth/register.',
  },
  NOT_FOUND: { message: 'There is no /v1/convrt. Every endpoint is listed at /docs and /openapi.json.' },
  METHOD_NOT_ALLOWED: { message: 'GET is not allowed on /v1/convert; use OPTIONS, POST.' },
  PAYLOAD_TOO_LARGE: {
    message:
      'The request body is larger than 36001112 bytes (documents may be at most 26214400 bytes, MAX_DOCUMENT_BYTES).',
  },
  NOT_ACCEPTABLE: {
    message:
      'The Accept header (application/vnd.openxmlformats-officedocument.wordprocessingml.document) takes none of what this request can answer: application/json or application/pdf. Ask for one of them, or send no Accept for application/json.',
  },
  UNSUPPORTED_MEDIA_TYPE: { message: 'Send the request body as application/json, not text/plain.' },
  INVALID_DOCUMENT: { message: 'The document is empty (0 bytes); send the content of the file.' },
  DOCUMENT_TOO_COMPLEX: {
    message:
      'The document is too complex to process: it lays out to more than 5,000 pages (the limit is 5000 pages). Split it into smaller documents, or simplify it, and send it again.',
  },
  FIELD_NOT_FOUND: {
    message: 'A field matches nothing in the template: id "salary".',
    details: [
      { field: 'fields[0].id', issue: 'id "salary" matches no content control and no {{placeholder}} in the template' },
    ],
  },
  DOCUMENT_FETCH_FAILED: {
    message:
      'document.url points to localhost (localhost), which RFC 6761 reserves for the local machine; only public https URLs are fetched.',
  },
  RATE_LIMIT_ERROR: {
    message: 'Too many requests for this API key (at most 120 per minute); wait a minute and try again.',
  },
  NOT_IMPLEMENTED: {
    message: 'Merging documents is planned but not available yet. Convert or sign documents one at a time for now.',
  },
  INTERNAL_ERROR: {
    message: 'An unexpected error occurred. It has been logged; quote the requestId when reporting it.',
  },
};

/** Headers an error of this status carries besides every answer's (docs/api.md "Errors"). */
const ERROR_HEADERS: Partial<Record<number, ResponseHeader[]>> = {
  401: ['WWW-Authenticate'], // RFC 6750 §3
  429: ['Retry-After'], // RFC 6585 §4
};

/**
 * OpenAPI `responses` entries for the errors a route can answer with, grouped by status, each
 * with its headers and an example per code. Give a code for its typical example, or an
 * ErrorExample (several for one code if need be) for the route's own wording. Every route may also
 * answer 500 INTERNAL_ERROR (a bug, or an upstream such as the TSA failing), so it is declared
 * everywhere.
 */
export function errorResponses(...errors: (ErrorCode | ErrorExample)[]) {
  const given = errors.map((error) => (typeof error === 'string' ? { code: error, ...TYPICAL[error] } : error));
  const examples = [...given];
  if (!given.some((example) => example.code === 'INTERNAL_ERROR')) {
    examples.push({ code: 'INTERNAL_ERROR', ...TYPICAL.INTERNAL_ERROR });
  }
  const byStatus = new Map<number, ErrorExample[]>();
  for (const example of examples) {
    const status = statusOf(example.code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), example]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => {
      const codes = [...new Set(group.map((example) => example.code))];
      const seen = new Map<ErrorCode, number>();
      const named = group.map((example) => {
        const count = (seen.get(example.code) ?? 0) + 1;
        seen.set(example.code, count);
        return [
          count === 1 ? example.code : `${example.code}_${count}`,
          {
            summary: example.code,
            value: {
              code: example.code,
              error: reasonPhrase(status),
              message: example.message,
              requestId: EXAMPLE_REQUEST_ID,
              ...(example.details ? { details: example.details } : {}),
            },
          },
        ] as const;
      });
      return [
        status,
        {
          description: `${reasonPhrase(status)}: ${codes.join(', ')}`,
          headers: responseHeaders(...(ERROR_HEADERS[status] ?? [])),
          content: { 'application/json': { schema: ErrorBodySchema, examples: Object.fromEntries(named) } },
        },
      ];
    }),
  );
}
