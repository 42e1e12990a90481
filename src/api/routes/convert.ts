import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../../errors';
import {
  MAX_FONT_BYTES,
  MAX_MARKUP_BYTES,
  MAX_MARKUP_IMAGE_BYTES,
  MAX_MARKUP_IMAGES,
  MAX_REQUEST_FONT_BYTES,
  MAX_REQUEST_FONTS,
} from '../../limits';
import {
  baseName,
  convertDocxToPdf,
  convertMarkup,
  DOCX_MEDIA_TYPE,
  documentTooLarge,
  engineResources,
  expectFormat,
  formatFromFileName,
  type IsolateEngine,
  PDF_MEDIA_TYPE,
  REVISION_MODES,
  readRequestFonts,
  readUpload,
  requestFontLimits,
} from '../../services';
import {
  createRouter,
  errorResponses,
  fileAnswer,
  filePart,
  requireMediaType,
  responseHeaders,
  validationExample,
  warningHeaders,
} from '../http';

const SOURCE_FORMATS = ['docx', 'md', 'html'] as const;
const TARGET_FORMATS = ['pdf', 'docx'] as const;
const SUPPORTED_PAIRS = ['docx→pdf', 'md→docx', 'md→pdf', 'html→docx', 'html→pdf'];
const ConvertQuery = z.object({
  from: z.enum(SOURCE_FORMATS).optional().openapi({
    description:
      'The uploaded format. When absent it is inferred from the file name and the bytes; when it disagrees with the bytes, 415.',
  }),
  to: z.enum(TARGET_FORMATS).default('pdf').openapi({ description: 'The output format (default pdf).' }),
  revisions: z.enum(REVISION_MODES).default('markup').openapi({
    description:
      'How tracked changes print: markup (insertions underlined and coloured, deletions struck through, change bars), final (as if accepted) or original (as if rejected).',
  }),
  pageSize: z.enum(['letter', 'a4']).default('letter').openapi({ description: 'Page size for md/html sources.' }),
});

/** A `fonts` part: a file, like `file` (the form validator gives a part without a filename as a string). */
const FontPart = z
  .instanceof(File, {
    error: () => 'a "fonts" part is a text field; send each font as a file (a part with a filename)',
  })
  .openapi({ type: 'string', format: 'binary' });

/** The `fonts` parts: one part is given as a File, several as an array; both become an array. */
const fontParts = (description: string) =>
  z
    .preprocess(
      (input) => (input === undefined || Array.isArray(input) ? input : [input]),
      z.array(FontPart).max(MAX_REQUEST_FONTS, {
        error: `at most ${MAX_REQUEST_FONTS} fonts may be sent with one request; send the faces the document uses`,
      }),
    )
    .optional()
    .openapi({ description });

const MiB = 1024 * 1024;
const ConvertForm = z.object({
  file: filePart('The document: exactly one part named file.'),
  fonts: fontParts(
    `Fonts to draw the document with (optional, repeatable): TrueType or OpenType files with TrueType outlines, each matched by the family name in its own name table to the fonts the document (or its CSS) names. Fonts embedded in a DOCX come first, then these, then the FONTS library, then the bundled substitutes. At most ${MAX_REQUEST_FONTS} fonts, ${MAX_FONT_BYTES / MiB} MiB each and ${MAX_REQUEST_FONT_BYTES / MiB} MiB together (neither above MAX_DOCUMENT_BYTES). A part that is not such a font is 415 (WOFF, WOFF2, collections, CFF outlines, anything else) or 422 (a damaged font), naming the part.`,
  ),
  'fonts[]': fontParts('The same as fonts, for clients that name repeated parts with [].'),
});

const route = createRoute({
  method: 'post',
  path: '/v1/convert',
  operationId: 'convertDocument',
  summary: 'Convert a document',
  description:
    'DOCX to PDF with Word-faithful page layout; Markdown (CommonMark + GFM) and HTML to DOCX or PDF. The answer is the file itself, with Content-Disposition naming it after the upload. Optional `fonts` parts bring the fonts to draw it with (docs/api.md "Bring your own fonts"). What could not be done (an image that could not be fetched or decoded, a font sent that the document does not name) is listed in X-Quire-Warnings and counted in X-Quire-Warning-Count; it never fails the conversion.',
  tags: ['Documents'],
  middleware: [requireMediaType('multipart/form-data')] as const,
  request: {
    query: ConvertQuery,
    body: {
      required: true,
      description:
        'The document as the part `file` (binary, so no example here: `curl -F file=@contract.docx`), and optional `fonts` parts.',
      content: {
        'multipart/form-data': {
          schema: ConvertForm,
          // RFC 7578 §4.4: the types each part may hold; the bytes decide, not the part's header.
          encoding: {
            file: { contentType: `${DOCX_MEDIA_TYPE}, text/markdown, text/html` },
            fonts: { contentType: 'font/ttf, font/otf' },
            'fonts[]': { contentType: 'font/ttf, font/otf' },
          },
        },
      },
    },
  },
  responses: {
    200: {
      description:
        'The converted document itself, as raw bytes (no example can show them). X-Quire-Pages counts the pages of a PDF answer.',
      headers: responseHeaders('Content-Disposition', 'X-Quire-Pages', 'X-Quire-Warnings', 'X-Quire-Warning-Count'),
      content: {
        'application/pdf': { schema: z.string().openapi({ format: 'binary' }) },
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
          schema: z.string().openapi({ format: 'binary' }),
        },
      },
    },
    ...errorResponses(
      validationExample('file', 'Attach the document as the multipart part "file"'),
      {
        code: 'VALIDATION_ERROR',
        message: `Converting docx to docx is not supported; supported pairs: ${SUPPORTED_PAIRS.join(', ')}.`,
        details: [{ field: 'to', issue: `supported pairs: ${SUPPORTED_PAIRS.join(', ')}` }],
      },
      'AUTHENTICATION_ERROR',
      {
        code: 'PAYLOAD_TOO_LARGE',
        message:
          'The uploaded file is 31457280 bytes, more than the limit. The limit is 25 MiB (26,214,400 bytes), set by MAX_DOCUMENT_BYTES; send a smaller document.',
      },
      {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the request body as multipart/form-data, not application/json.',
      },
      { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The document is plain text. Send a DOCX.' },
      {
        code: 'INVALID_DOCUMENT',
        message:
          'The document is a ZIP archive, but the archive is damaged (the end of the archive (its central directory) is missing; the file looks truncated), so it cannot be read as a DOCX. Save or export the file again and send the new copy.',
      },
      'DOCUMENT_TOO_COMPLEX',
      'RATE_LIMIT_ERROR',
    ),
  },
});

/** The convert routes, given the engine's per-isolate resources (explicit, owned by the app). */
export const convertRouter = (engine: IsolateEngine) =>
  createRouter().openapi(route, async (c) => {
    const query = c.req.valid('query');
    const form = c.req.valid('form');
    const { file } = form;
    const config = c.get('config');
    const bytes = await readUpload(file, config.maxDocumentBytes);
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
    const uploads = [...(form.fonts ?? []), ...(form['fonts[]'] ?? [])];
    const fonts = uploads.length > 0 ? await readRequestFonts(uploads, requestFontLimits(config.maxDocumentBytes)) : [];
    if (from === 'md' || from === 'html') {
      const limit = Math.min(MAX_MARKUP_BYTES, config.maxDocumentBytes);
      if (bytes.length > limit) {
        throw documentTooLarge(
          `The ${from === 'md' ? 'Markdown' : 'HTML'} file is ${bytes.length} bytes; Markdown and HTML sources are limited to ${limit} bytes.`,
          limit,
          limit < config.maxDocumentBytes ? 'the fixed limit for Markdown and HTML sources' : undefined,
        );
      }
      const to = query.to;
      const result = await convertMarkup(
        bytes,
        {
          from,
          to,
          pageSize: query.pageSize,
          images: {
            allowHttp: config.allowHttpUrls,
            maxImages: MAX_MARKUP_IMAGES,
            maxTotalBytes: MAX_MARKUP_IMAGE_BYTES,
            maxImageBytes: MAX_MARKUP_IMAGE_BYTES,
          },
          limits: config.limits,
        },
        engineResources(c.env, engine, fonts),
      );
      if (result.pages !== undefined) c.header('X-Quire-Pages', String(result.pages));
      for (const [name, value] of Object.entries(warningHeaders(result.warnings))) c.header(name, value);
      return fileAnswer(
        c,
        result.bytes,
        to === 'pdf' ? PDF_MEDIA_TYPE : DOCX_MEDIA_TYPE,
        `${baseName(file.name)}.${to}`,
      );
    }
    const result = await convertDocxToPdf(
      bytes,
      { revisions: query.revisions, limits: config.limits },
      engineResources(c.env, engine, fonts),
    );
    c.header('X-Quire-Pages', String(result.pages));
    for (const [name, value] of Object.entries(warningHeaders(result.warnings))) c.header(name, value);
    return fileAnswer(c, result.pdf, PDF_MEDIA_TYPE, `${baseName(file.name)}.pdf`);
  });
