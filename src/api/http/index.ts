/**
 * HTTP plumbing shared by every route (front door of src/api/http): the router factory, the
 * conventions middleware, media types and content negotiation, multipart forms, file answers,
 * API-key auth, rate limits, the error body and warning headers.
 */
export { apiKeyAuth } from './api-key-auth';
export type { AppEnv } from './app-env';
export { conventions, pageSecurity } from './conventions';
export { handleError } from './error-response';
export { fileAnswer } from './file-answer';
export { mediaTypeOf, negotiate, preferredMediaType, requireMediaType } from './media-type';
export { documentForm, documentRequest, filePart } from './multipart-form';
export { type ErrorExample, errorResponses, validationExample } from './openapi-errors';
export { declareResponseHeaders, EXAMPLE_REQUEST_ID, headOperation, responseHeaders } from './openapi-headers';
export { clientAddress, enforceRateLimit } from './rate-limit';
export { createRouter } from './router';
export { unmatchedRoute } from './unmatched-route';
export { asciiHeaderText, warningHeaders } from './warning-headers';
