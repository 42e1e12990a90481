/**
 * The error vocabulary of the API contract (docs/api.md, "Status codes and error codes").
 * Core modules throw `ApiError` with one of these codes; only the HTTP layer
 * (src/api/http/error-response.ts) turns a code into a status line and a body.
 */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'INVALID_BASE64'
  | 'AUTHENTICATION_ERROR'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_ACCEPTABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INVALID_DOCUMENT'
  | 'DOCUMENT_TOO_COMPLEX'
  | 'FIELD_NOT_FOUND'
  | 'DOCUMENT_FETCH_FAILED'
  | 'RATE_LIMIT_ERROR'
  | 'NOT_IMPLEMENTED'
  | 'INTERNAL_ERROR';

export interface ErrorDetail {
  field: string;
  issue: string;
}

export interface ApiErrorOptions {
  details?: ErrorDetail[];
  /** RATE_LIMIT_ERROR: when the caller may try again (sent as Retry-After). */
  retryAfterSeconds?: number;
  /** Extra response headers the HTTP layer attaches (Allow, WWW-Authenticate). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.headers = options.headers;
  }
}
