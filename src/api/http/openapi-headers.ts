import type { RouteConfig } from '@hono/zod-openapi';

/**
 * The response headers of docs/api.md, each declared once for /openapi.json as a reusable
 * `components.headers` entry (OpenAPI 3.1 §4.8.7) and referenced by every response that carries
 * it, so a client generator reads them as typed values and /docs lists them per response.
 */

/** The X-Request-Id of every example in the document, so an error example's requestId equals it. */
export const EXAMPLE_REQUEST_ID = '3f1c2b9e-6d7a-4c5e-9b8f-2a4d6e8c0b1f';

interface HeaderObject {
  description: string;
  required?: boolean;
  schema: Record<string, unknown>;
  example?: unknown;
}

const HEADERS = {
  'X-Request-Id': {
    description:
      "The request's id: the caller's own X-Request-Id when it is a sane token (1–128 characters of [A-Za-z0-9_=-]), else a new UUID. An error body repeats it as requestId; quote it when reporting a problem.",
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_=-]{1,128}$' },
    example: EXAMPLE_REQUEST_ID,
  },
  'Cache-Control': {
    description: 'Always no-store (RFC 9111 §5.2.2.5): documents and keys must never sit in a shared cache.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
    example: 'no-store',
  },
  'Retry-After': {
    description:
      'Seconds to wait before trying again (RFC 9110 §10.2.3): 60 for the per-minute limits (the length of their window); for the hourly cap of verification codes, until the oldest code of that hour is an hour old.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
    example: 60,
  },
  'WWW-Authenticate': {
    description: 'The scheme a key is sent with (RFC 6750 §3): Authorization: Bearer <API key>.',
    required: true,
    schema: { type: 'string', const: 'Bearer realm="quire"' },
    example: 'Bearer realm="quire"',
  },
  'Content-Disposition': {
    description:
      'attachment (RFC 6266), named after the upload with the extension of the answer; a name that is not plain ASCII is also given exactly in filename* (RFC 8187, UTF-8), and an upload without a usable name is called "document".',
    required: true,
    schema: { type: 'string' },
    example: 'attachment; filename="contract.pdf"',
  },
  'X-Quire-Pages': {
    description: 'The number of pages of the PDF answer.',
    schema: { type: 'integer', minimum: 1 },
    example: 3,
  },
  'X-Quire-Warnings': {
    description:
      'What could not be done as the document asks (an image that could not be fetched or decoded, characters no bundled face has …), separated by " | ". Characters outside visible ASCII are written \\uXXXX, and a list longer than 2,000 characters ends with "(N more)". Absent when there is nothing to report.',
    schema: { type: 'string', maxLength: 2100 },
    example:
      'image 1 (https://example.com/chart.png): the image URL could not be fetched: the connection failed or broke off. Check that the URL is reachable from the internet.',
  },
  'X-Quire-Warning-Count': {
    description: 'How many warnings there are (X-Quire-Warnings may cut its list short). Absent when there are none.',
    schema: { type: 'integer', minimum: 1 },
    example: 1,
  },
  'X-Quire-Event-Id': {
    description:
      'The eventId of the signing (as sent, or the UUID generated for it); characters outside visible ASCII are written \\uXXXX.',
    required: true,
    schema: { type: 'string' },
    example: '9192da1b-c65d-4134-a18e-a5a20090d429',
  },
  'X-Quire-Certificate-Pages': {
    description: 'How many audit-trail certificate pages were appended (0 when none were).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
    example: 1,
  },
  'X-Quire-Certificate-Omitted': {
    description: 'Why no certificate pages were appended, when the PDF was already signed. Absent otherwise.',
    schema: { type: 'string' },
  },
} satisfies Record<string, HeaderObject>;

export type ResponseHeader = keyof typeof HEADERS;

const REF_PREFIX = '#/components/headers/';

/**
 * The `headers` of one response: those every answer carries (X-Request-Id, Cache-Control, set by
 * the conventions middleware), then `names`, as references to the components.
 */
export function responseHeaders(...names: ResponseHeader[]): Record<string, { $ref: string }> {
  const all: ResponseHeader[] = ['X-Request-Id', 'Cache-Control', ...names];
  return Object.fromEntries(all.map((name) => [name, { $ref: `${REF_PREFIX}${name}` }]));
}

/**
 * Puts into `components.headers` the headers the document's responses refer to, and only those
 * (an unused component is a lint warning, and sign's headers are referenced once its route uses
 * responseHeaders). Run on the generated document, like bodiesRequired.
 */
export function declareResponseHeaders<T extends { components?: object }>(doc: T): T {
  const used = new Set<ResponseHeader>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === 'string' && ref.startsWith(REF_PREFIX))
        used.add(ref.slice(REF_PREFIX.length) as ResponseHeader);
      Object.values(node).forEach(visit);
    }
  };
  visit(doc);
  if (used.size === 0) return doc;
  (doc as { components?: object }).components = {
    ...doc.components,
    headers: Object.fromEntries(
      Object.keys(HEADERS)
        .filter((name) => used.has(name as ResponseHeader))
        .map((name) => [name, HEADERS[name as ResponseHeader]]),
    ),
  };
  return doc;
}

/**
 * The HEAD twin of a GET route, for the document only: Hono answers HEAD by running the GET
 * handler and dropping the body, so there is no handler to register. The answer is GET's, headers
 * and status, without content (RFC 9110 §9.3.2).
 */
export function headOperation(get: RouteConfig, operationId: string, summary: string): RouteConfig {
  const responses = Object.fromEntries(
    Object.entries(get.responses).map(([status, response]) => [
      status,
      '$ref' in response ? response : { description: `${response.description} (no body)`, headers: response.headers },
    ]),
  );
  return {
    ...get,
    method: 'head',
    operationId,
    summary,
    description: `Answers as GET ${get.path} does, status and headers, without the body.`,
    responses,
  };
}
