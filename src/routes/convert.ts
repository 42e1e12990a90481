import { createRoute, z } from '@hono/zod-openapi';
import { convertDocxToPdf, type EngineResources } from '../convert/docx-to-pdf';
import { attachmentDisposition, baseName, formatFromFileName } from '../convert/file-names';
import { ApiError } from '../errors';
import { requireMediaType } from '../http/media-type';
import { errorResponses } from '../http/openapi-errors';
import { createRouter } from '../http/router';
import { expectFormat } from '../input/format-sniffer';
import { documentTooLarge } from '../input/size-limit';

const SOURCE_FORMATS = ['docx', 'md', 'html'] as const;
const TARGET_FORMATS = ['pdf', 'docx'] as const;
const SUPPORTED_PAIRS = ['docx→pdf', 'md→docx', 'md→pdf', 'html→docx', 'html→pdf'];
const IMPLEMENTED_PAIRS = new Set(['docx→pdf']);

const ConvertQuery = z.object({
  from: z.enum(SOURCE_FORMATS).optional().openapi({
    description:
      'The uploaded format. When absent it is inferred from the file name and the bytes; when it disagrees with the bytes, 415.',
  }),
  to: z.enum(TARGET_FORMATS).default('pdf').openapi({ description: 'The output format (default pdf).' }),
  revisions: z.enum(['markup', 'final', 'original']).default('markup').openapi({
    description:
      'How tracked changes print: markup (insertions underlined and coloured, deletions struck through, change bars), final (as if accepted) or original (as if rejected).',
  }),
  pageSize: z.enum(['letter', 'a4']).default('letter').openapi({ description: 'Page size for md/html sources.' }),
});

const ConvertForm = z.object({
  file: z
    .instanceof(File, { message: 'Attach the document as the multipart part "file"' })
    .openapi({ type: 'string', format: 'binary', description: 'The document.' }),
});

const route = createRoute({
  method: 'post',
  path: '/v1/convert',
  summary: 'Convert a document',
  description:
    'DOCX to PDF with Word-faithful page layout (Markdown and HTML sources arrive next). The answer is the file itself, with Content-Disposition naming it after the upload.',
  tags: ['Documents'],
  middleware: [requireMediaType('multipart/form-data')] as const,
  request: {
    query: ConvertQuery,
    body: { required: true, content: { 'multipart/form-data': { schema: ConvertForm } } },
  },
  responses: {
    200: {
      description: 'The converted document.',
      content: {
        'application/pdf': { schema: z.string().openapi({ format: 'binary' }) },
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
          schema: z.string().openapi({ format: 'binary' }),
        },
      },
    },
    ...errorResponses(
      'VALIDATION_ERROR',
      'AUTHENTICATION_ERROR',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'INVALID_DOCUMENT',
      'RATE_LIMIT_ERROR',
      'NOT_IMPLEMENTED',
    ),
  },
});

/** The convert routes, given the engine's per-isolate resources (explicit, owned by the app). */
export const convertRouter = (engine: Pick<EngineResources, 'fontCache' | 'fallbackFontCache'>) =>
  createRouter().openapi(route, async (c) => {
    const query = c.req.valid('query');
    const { file } = c.req.valid('form');
    const config = c.get('config');
    if (file.size > config.maxDocumentBytes) {
      throw documentTooLarge(`The uploaded file is ${file.size} bytes, more than the limit.`, config.maxDocumentBytes);
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const named = formatFromFileName(file.name);
    const from = query.from ?? named ?? expectFormat(bytes, ['docx', 'md', 'html']);
    const pair = `${from}→${query.to}`;
    if (!SUPPORTED_PAIRS.includes(pair)) {
      throw new ApiError(
        'VALIDATION_ERROR',
        `Converting ${from} to ${query.to} is not supported; supported pairs: ${SUPPORTED_PAIRS.join(', ')}.`,
        {
          details: [{ field: 'to', issue: `supported pairs: ${SUPPORTED_PAIRS.join(', ')}` }],
        },
      );
    }
    // The bytes decide: a "docx" that is a PDF or a ZIP without word/document.xml is 415.
    expectFormat(bytes, [from]);
    if (!IMPLEMENTED_PAIRS.has(pair)) {
      throw new ApiError(
        'NOT_IMPLEMENTED',
        `Converting ${from} to ${query.to} is planned and not available yet; docx→pdf is.`,
      );
    }
    const result = await convertDocxToPdf(
      bytes,
      // A DOCX may inflate to 20× the document limit and no more (zip bombs).
      { revisions: query.revisions, maxInflatedBytes: config.maxDocumentBytes * 20 },
      {
        assets: c.env.ASSETS,
        fontCache: engine.fontCache,
        ...(engine.fallbackFontCache ? { fallbackFontCache: engine.fallbackFontCache } : {}),
      },
    );
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', attachmentDisposition(`${baseName(file.name)}.pdf`));
    c.header('X-Quire-Pages', String(result.pages));
    if (result.warnings.length > 0) c.header('X-Quire-Warnings', String(result.warnings.length));
    return c.body(result.pdf as Uint8Array<ArrayBuffer>, 200);
  });
