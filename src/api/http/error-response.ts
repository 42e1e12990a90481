import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, type ErrorCode } from '../../errors';
import type { AppEnv } from './app-env';

/** docs/api.md "Status codes and error codes": the one table from code to status line. */
const STATUS_OF: Record<ErrorCode, ContentfulStatusCode> = {
  VALIDATION_ERROR: 400,
  INVALID_BASE64: 400,
  AUTHENTICATION_ERROR: 401,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_DOCUMENT: 422,
  DOCUMENT_TOO_COMPLEX: 422,
  FIELD_NOT_FOUND: 422,
  DOCUMENT_FETCH_FAILED: 422,
  RATE_LIMIT_ERROR: 429,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
};

/** Reason phrases (RFC 9110 §15; 413 and 422 keep their long-familiar names). */
const REASON_OF: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** Codes for Hono's own HTTPExceptions (malformed JSON from a validator, and the like). */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_ERROR',
  401: 'AUTHENTICATION_ERROR',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMIT_ERROR',
};

/** Every code of the contract, for the OpenAPI enum. */
export const ERROR_CODES = Object.keys(STATUS_OF) as [ErrorCode, ...ErrorCode[]];

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return STATUS_OF[code];
}

export function reasonPhrase(status: number): string {
  return REASON_OF[status] ?? 'Error';
}

/** Anything thrown becomes an ApiError; what is not one already is a bug and says nothing. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) {
    const code = CODE_OF_STATUS[err.status];
    // The caller's own mistake (malformed JSON and the like): nothing behind it to log. A 400 is
    // about the body Hono could not parse, and says so in `details` like every VALIDATION_ERROR.
    if (code === 'VALIDATION_ERROR') {
      const issue = err.message || reasonPhrase(err.status);
      return new ApiError(code, issue, { details: [{ field: 'body', issue }] });
    }
    if (code) return new ApiError(code, err.message || reasonPhrase(err.status));
  }
  return new ApiError(
    'INTERNAL_ERROR',
    'An unexpected error occurred. It has been logged; quote the requestId when reporting it.',
    {
      cause: err,
    },
  );
}

export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  const status = statusOf(error.code);
  const requestId = c.get('requestId');
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  // RFC 6750 §3: a 401 from a bearer-protected resource names the scheme.
  if (error.code === 'AUTHENTICATION_ERROR') c.header('WWW-Authenticate', 'Bearer realm="quire"');
  // RFC 9110 §10.2.3: delay-seconds, a whole number.
  if (error.retryAfterSeconds !== undefined)
    c.header('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  return c.json(
    {
      code: error.code,
      error: reasonPhrase(status),
      message: error.message,
      requestId,
      ...(error.details ? { details: error.details } : {}),
    },
    status,
  );
}

/** The one error handler (app.onError): logs bugs with the requestId, never leaks them. */
export const handleError: ErrorHandler<AppEnv> = (err, c) => {
  const error = toApiError(err);
  const cause = error.cause;
  // Bugs are logged in full. A caller's error with a cause (a refused connection behind
  // DOCUMENT_FETCH_FAILED) is logged briefly: the operator sees what the caller is not told.
  if (error.code === 'INTERNAL_ERROR' || cause !== undefined) {
    const internal = error.code === 'INTERNAL_ERROR';
    const line = JSON.stringify({
      level: internal ? 'error' : 'warn',
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      code: error.code,
      error: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
      stack: internal && cause instanceof Error ? cause.stack : undefined,
    });
    if (internal) console.error(line);
    else console.warn(line);
  }
  return errorResponse(c, error);
};
