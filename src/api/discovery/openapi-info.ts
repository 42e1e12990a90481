import type { OpenAPIHono } from '@hono/zod-openapi';
import { VERSION } from '../../version';

/** The fixed part of /openapi.json; paths and components come from the routes' zod schemas. */
type OpenApiObjectConfig = Parameters<OpenAPIHono['getOpenAPI31Document']>[0];

export const OPENAPI_INFO: OpenApiObjectConfig = {
  openapi: '3.1.0',
  info: {
    title: 'Quire API',
    version: VERSION,
    description:
      'Document processing at the edge: DOCX, Markdown and HTML to PDF or DOCX, DOCX template filling, ' +
      'PAdES signing with an audit-trail certificate, and verification of signed PDFs. ' +
      'Every error is JSON with code, error, message and requestId (equal to the X-Request-Id header).',
  },
  // Relative to where the document is served (OpenAPI 3.1 §4.8.5): each deployment describes itself.
  servers: [{ url: '/', description: 'This deployment' }],
  // Every operation needs a key unless it says `security: []` (health, register, verify).
  security: [{ bearerAuth: [] }],
  // The groups the routes' `tags` name, in the order a reader meets them; generators make one
  // class or module per tag.
  tags: [
    { name: 'Service', description: 'Whether the service is up, and its version.' },
    { name: 'Accounts', description: 'An API key by email verification, and its revocation.' },
    { name: 'Documents', description: 'Conversion to PDF and DOCX, and DOCX template filling.' },
    { name: 'Signatures', description: 'PAdES signing, the service certificate, and verification of signed PDFs.' },
  ],
};
