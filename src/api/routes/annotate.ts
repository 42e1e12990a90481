import { createRoute, z } from '@hono/zod-openapi';
import {
  AnnotateBodySchema,
  AnnotateQuerySchema,
  convertDocxToPdf,
  DOCX_MEDIA_TYPE,
  dataUri,
  engineResources,
  fillTemplate,
  type IsolateEngine,
  loadDocument,
  PDF_MEDIA_TYPE,
} from '../../services';
import { createRouter, errorResponses, requireMediaType, warningHeaders } from '../http';

const AnnotateResponse = z
  .object({
    document: z.object({
      base64: z.string().openapi({ description: 'The filled document as a data URI (data:<mime>;base64,…).' }),
      contentType: z.enum([DOCX_MEDIA_TYPE, PDF_MEDIA_TYPE]),
    }),
  })
  .openapi('AnnotateResponse');

const route = createRoute({
  method: 'post',
  path: '/v1/annotate',
  operationId: 'annotateTemplate',
  summary: 'Fill a DOCX template',
  description:
    "Fills content controls (matched by w:tag, a JSON tag's fieldId/id/group, or w:id) and {{placeholders}} with text, images, signatures, table rows and checkbox states, in place: parts the request does not touch stay byte for byte. Every id or group that matches nothing is listed in one 422 FIELD_NOT_FOUND, and nothing is filled.",
  tags: ['Documents'],
  middleware: [requireMediaType('application/json')] as const,
  request: {
    query: AnnotateQuerySchema,
    body: { required: true, content: { 'application/json': { schema: AnnotateBodySchema } } },
  },
  responses: {
    200: { description: 'The filled document.', content: { 'application/json': { schema: AnnotateResponse } } },
    ...errorResponses(
      'VALIDATION_ERROR',
      'INVALID_BASE64',
      'AUTHENTICATION_ERROR',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'INVALID_DOCUMENT',
      'DOCUMENT_TOO_COMPLEX',
      'FIELD_NOT_FOUND',
      'DOCUMENT_FETCH_FAILED',
      'RATE_LIMIT_ERROR',
    ),
  },
});

/** The annotate route, given the engine's per-isolate resources for `to=pdf`. */
export const annotateRouter = (engine: IsolateEngine) =>
  createRouter().openapi(route, async (c) => {
    const { to } = c.req.valid('query');
    const body = c.req.valid('json');
    const config = c.get('config');
    const template = await loadDocument(body.document, { config, accept: ['docx'] });
    const filled = await fillTemplate(template.bytes, body.fields, {
      allowHttp: config.allowHttpUrls,
      maxImageBytes: config.maxDocumentBytes,
      limits: config.limits,
    });
    if (to === 'docx') {
      return c.json({ document: { base64: dataUri(DOCX_MEDIA_TYPE, filled), contentType: DOCX_MEDIA_TYPE } }, 200);
    }
    const result = await convertDocxToPdf(
      filled,
      { revisions: 'markup', limits: config.limits },
      engineResources(c.env, engine),
    );
    c.header('X-Quire-Pages', String(result.pages));
    for (const [name, value] of Object.entries(warningHeaders(result.warnings))) c.header(name, value);
    return c.json({ document: { base64: dataUri(PDF_MEDIA_TYPE, result.pdf), contentType: PDF_MEDIA_TYPE } }, 200);
  });
