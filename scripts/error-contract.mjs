// docs/api.md's error object, as the scripts that call the worker check it: the fuzz runs
// (worker-harness.mjs) and `npm run smoke -- --base`.

/** docs/api.md "Status codes and error codes": the codes each status may carry, and its reason phrase. */
const ERROR_CODES = {
  400: ['Bad Request', 'VALIDATION_ERROR', 'INVALID_BASE64'],
  401: ['Unauthorized', 'AUTHENTICATION_ERROR'],
  404: ['Not Found', 'NOT_FOUND'],
  405: ['Method Not Allowed', 'METHOD_NOT_ALLOWED'],
  413: ['Payload Too Large', 'PAYLOAD_TOO_LARGE'],
  415: ['Unsupported Media Type', 'UNSUPPORTED_MEDIA_TYPE'],
  422: ['Unprocessable Entity', 'INVALID_DOCUMENT', 'DOCUMENT_TOO_COMPLEX', 'FIELD_NOT_FOUND', 'DOCUMENT_FETCH_FAILED'],
  429: ['Too Many Requests', 'RATE_LIMIT_ERROR'],
};

/**
 * A 4xx/5xx body that is not docs/api.md's error object ("Errors"): what is wrong with it. The
 * code must be one the status may carry, `error` its reason phrase, and a VALIDATION_ERROR must
 * list its {field, issue} details.
 */
export function errorBodyProblem(res, text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the error body is not JSON';
  }
  for (const key of ['code', 'error', 'message', 'requestId']) {
    if (typeof body?.[key] !== 'string' || !body[key]) return `the error body has no ${key}`;
  }
  if (body.requestId !== res.headers.get('X-Request-Id')) return 'requestId differs from X-Request-Id';
  const [reason, ...codes] = ERROR_CODES[res.status] ?? [];
  if (reason && !codes.includes(body.code)) return `${body.code} with status ${res.status}`;
  if (reason && body.error !== reason) return `error ${JSON.stringify(body.error)} with status ${res.status}`;
  const detailed = Array.isArray(body.details) && body.details.length > 0;
  if (
    body.code === 'VALIDATION_ERROR' &&
    !(detailed && body.details.every((d) => typeof d?.field === 'string' && typeof d?.issue === 'string'))
  ) {
    return 'a VALIDATION_ERROR without {field, issue} details';
  }
  if (!/^application\/json/.test(res.headers.get('Content-Type') ?? '')) return 'an error that is not application/json';
  return undefined;
}
