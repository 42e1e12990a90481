import { createRoute, z } from '@hono/zod-openapi';
import {
  AnnotateBodySchema,
  AnnotateQuerySchema,
  baseName,
  convertDocxToPdf,
  DOCX_MEDIA_TYPE,
  dataUri,
  encodeBase64,
  engineResources,
  fillTemplate,
  type IsolateEngine,
  PDF_MEDIA_TYPE,
} from '../../services';
import {
  createRouter,
  documentForm,
  documentRequest,
  errorResponses,
  fileAnswer,
  negotiate,
  requireMediaType,
  responseHeaders,
  validationExample,
  warningHeaders,
} from '../http';

const AnnotateResponse = z
  .object({
    document: z.object({
      base64: z.string().openapi({ description: 'The filled document, plain base64 (as sign answers).' }),
      dataUri: z.string().openapi({
        deprecated: true,
        description:
          'Deprecated: the same document as a data URI (data:<mime>;base64,…), the form `base64` had before; read `base64`.',
      }),
      contentType: z.enum([DOCX_MEDIA_TYPE, PDF_MEDIA_TYPE]),
    }),
  })
  .openapi('AnnotateResponse');

/** The JSON body as a form (docs/api.md "POST /v1/annotate"): the template as `file`, `fields` as JSON text. */
const AnnotateForm = documentForm(AnnotateBodySchema, 'The DOCX template: exactly one part named file.');

const binary = (description: string) => ({ schema: z.string().openapi({ format: 'binary', description }) });

const route = createRoute({
  method: 'post',
  path: '/v1/annotate',
  operationId: 'annotateTemplate',
  summary: 'Fill a DOCX template',
  description:
    "Fills content controls (matched by w:tag, a JSON tag's fieldId/id/group, or w:id) and {{placeholders}} with text, images, signatures, table rows and checkbox states, in place: parts the request does not touch stay byte for byte. Every id or group that matches nothing is listed in one 422 FIELD_NOT_FOUND, and nothing is filled. The request is JSON with the template as a document input, or multipart/form-data with the template as the `file` part and `fields` as a form field holding its JSON text. The answer is JSON with the document as base64, or with `Accept` naming the type `to` gives (the DOCX type, or application/pdf with to=pdf) the file itself; an Accept that takes neither is 406.",
  tags: ['Documents'],
  middleware: [requireMediaType('application/json', 'multipart/form-data')] as const,
  request: {
    query: AnnotateQuerySchema,
    body: {
      // Not `required`: @hono/zod-openapi then runs only the validator of the Content-Type sent
      // (src/api/app.ts bodiesRequired restores `required` in the document).
      required: false,
      description:
        'JSON with the template as a document input (base64 or a URL), or a multipart form with the template as the part `file` (binary, so no example here: `curl -F file=@offer.docx -F fields=\'[{"id":"name","type":"text","value":"Ada"}]\'`) and `fields` as JSON text.',
      content: {
        'application/json': {
          schema: AnnotateBodySchema,
          example: {
            document: { url: 'https://example.com/offer-template.docx' },
            fields: [
              { id: 'customer_name', type: 'text', value: 'Ada Lovelace' },
              {
                id: 'items',
                type: 'table',
                value: [
                  ['Engine maintenance', '12'],
                  ['Punched cards', '200'],
                ],
              },
              { id: 'accepted', type: 'checkbox', value: 'true' },
              { id: 'signature', type: 'signature', value: 'Ada Lovelace' },
            ],
          },
        },
        'multipart/form-data': { schema: AnnotateForm, encoding: { file: { contentType: DOCX_MEDIA_TYPE } } },
      },
    },
  },
  responses: {
    200: {
      description:
        'The filled document: JSON with it as base64, or the file itself when Accept asks for the type `to` gives (Content-Disposition names it after the uploaded file, or filled.docx / filled.pdf). With to=pdf, X-Quire-Pages counts its pages and X-Quire-Warnings / X-Quire-Warning-Count say what the conversion could not draw.',
      headers: responseHeaders('Content-Disposition', 'X-Quire-Pages', 'X-Quire-Warnings', 'X-Quire-Warning-Count'),
      content: {
        'application/json': {
          schema: AnnotateResponse,
          example: {
            document: {
              base64: 'UEsDBBQABgAIAAAAIQDfpNJsWgEAACAFAAATAAgCW0NvbnRlbnRfVHlwZXNdLnhtbCCiBAIooAAC',
              contentType: DOCX_MEDIA_TYPE,
              dataUri: `data:${DOCX_MEDIA_TYPE};base64,UEsDBBQABgAIAAAAIQDfpNJsWgEAACAFAAATAAgCW0NvbnRlbnRfVHlwZXNdLnhtbCCiBAIooAAC`,
            },
          },
        },
        [DOCX_MEDIA_TYPE]: binary('The filled DOCX (to=docx).'),
        [PDF_MEDIA_TYPE]: binary('The filled document as a PDF (to=pdf).'),
      },
    },
    ...errorResponses(
      'VALIDATION_ERROR',
      validationExample(
        'fields[0].type',
        'Invalid option: expected one of "text"|"image"|"signature"|"table"|"checkbox"',
      ),
      'INVALID_BASE64',
      'AUTHENTICATION_ERROR',
      'NOT_ACCEPTABLE',
      'PAYLOAD_TOO_LARGE',
      {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the request body as application/json or multipart/form-data, not text/plain.',
      },
      {
        code: 'INVALID_DOCUMENT',
        message: 'The package has no main document (no officeDocument relationship): it is not a DOCX.',
      },
      'DOCUMENT_TOO_COMPLEX',
      'FIELD_NOT_FOUND',
      'DOCUMENT_FETCH_FAILED',
      'RATE_LIMIT_ERROR',
    ),
  },
});

/** The file each `to` gives, and how a caller asking for the other one gets it. */
const OUTPUT = {
  docx: { mediaType: DOCX_MEDIA_TYPE, other: `use to=pdf for ${PDF_MEDIA_TYPE}` },
  pdf: { mediaType: PDF_MEDIA_TYPE, other: `use to=docx for ${DOCX_MEDIA_TYPE}` },
} as const;

/** The annotate route, given the engine's per-isolate resources for `to=pdf`. */
export const annotateRouter = (engine: IsolateEngine) =>
  createRouter().openapi(route, async (c) => {
    const { to } = c.req.valid('query');
    const request = documentRequest(c, {
      json: () => c.req.valid('json') as z.output<typeof AnnotateBodySchema>,
      form: () => c.req.valid('form') as z.output<typeof AnnotateForm>,
    });
    const config = c.get('config');
    const { mediaType, other } = OUTPUT[to];
    // Before any work: JSON first, so that no Accept (or a wildcard) keeps the JSON answer (RFC 9110 §12.5.1).
    const answer = negotiate(c, ['application/json', mediaType], other);
    const template = await request.load(['docx']);
    const filled = await fillTemplate(template.bytes, request.fields.fields, {
      allowHttp: config.allowHttpUrls,
      maxImageBytes: config.maxDocumentBytes,
      limits: config.limits,
    });
    let bytes = filled;
    if (to === 'pdf') {
      const result = await convertDocxToPdf(
        filled,
        { revisions: 'markup', limits: config.limits },
        engineResources(c.env, engine),
      );
      c.header('X-Quire-Pages', String(result.pages));
      for (const [name, value] of Object.entries(warningHeaders(result.warnings))) c.header(name, value);
      bytes = result.pdf;
    }
    if (answer === mediaType) {
      return fileAnswer(c, bytes, mediaType, `${baseName(request.fileName ?? 'filled')}.${to}`);
    }
    return c.json(
      { document: { base64: encodeBase64(bytes), dataUri: dataUri(mediaType, bytes), contentType: mediaType } },
      200,
    );
  });
