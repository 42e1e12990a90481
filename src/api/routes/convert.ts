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
  marginsFit,
  NAMED_PAPERS,
  PDF_MEDIA_TYPE,
  REVISION_MODES,
  type Read,
  readBaseUrl,
  readBoolean,
  readMargins,
  readPageRanges,
  readPageSize,
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

/**
 * The print options, each taken as a query parameter or as a form field of the same name (a
 * client building a form need not build a query too). Each is checked by the reader that reads it
 * (services/convert/print-options.ts), so an error names the field, wherever it was sent.
 */
/** A boolean as text (any case is read; these are the spellings documented). */
const BOOLEAN_TEXT = ['true', 'false', '1', '0'] as const;

const PRINT_OPTIONS = {
  pageSize: {
    read: readPageSize,
    example: 'a4',
    description: `The paper, for md/html sources: ${Object.keys(NAMED_PAPERS).join(', ')} (any case), or width x height in CSS absolute lengths (px, pt, pc, in, cm, mm, Q; a unit is required), e.g. \`210mm x 297mm\`, \`8.5in 11in\`, each side 1in to 200in. Absent: the document's CSS \`@page { size }\`, else letter. Given, it wins over the CSS.`,
  },
  landscape: {
    read: readBoolean,
    example: 'true',
    values: BOOLEAN_TEXT,
    description:
      'true/false/1/0, for md/html sources: turn the paper (the pageSize given, else the CSS @page size, else letter) to landscape. Default false.',
  },
  margin: {
    read: readMargins,
    example: '10mm 15mm',
    description:
      "Page margins, for md/html sources, as CSS `margin`: 1 to 4 absolute lengths (top, right, bottom, left), e.g. `1in`, `10mm 15mm`. Not negative, and leaving at least 1in each way to write in. Absent: the CSS `@page` margins, else 1cm for HTML to PDF (a browser's default print margins) and 1in for Markdown and for DOCX output.",
  },
  printBackground: {
    read: readBoolean,
    example: 'true',
    values: BOOLEAN_TEXT,
    description:
      'true/false/1/0, for md/html sources: paint CSS backgrounds (colours behind text, cells and blocks). Default false for PDF output, as a browser prints; true for DOCX output, whose shading Word shows and prints.',
  },
  baseUrl: {
    read: (text: string) => readBaseUrl(text, true),
    example: 'https://example.com/reports/',
    description:
      "For md/html sources: the address the document's relative URLs (images, links) are relative to, an absolute https URL (http only where ALLOW_HTTP_URLS allows it, as for document URLs). A `<base href>` in the document wins, itself resolved against baseUrl. Without any base, a protocol-relative URL (`//host/a.png`) takes https: and a relative image is not loaded (a warning).",
  },
  pageRanges: {
    read: readPageRanges,
    example: '1-3,7,10-',
    description:
      "PDF output only: the pages to write, 1-based, as Chromium's print takes them: pages and ranges separated by commas; a range open at the end (`10-`) runs to the last page. Each page chosen is written once, in document order. Ranges past the last page: a warning, and the pages that exist are written; none of them existing is 400. Default: every page.",
  },
} as const satisfies Record<
  string,
  { read: (text: string) => Read<unknown>; example: string; description: string; values?: readonly string[] }
>;

type PrintOption = keyof typeof PRINT_OPTIONS;
const PRINT_OPTION_NAMES = Object.keys(PRINT_OPTIONS) as PrintOption[];
/** The options that shape what the HTML reader lays out: a DOCX lays itself out by its own sections. */
const MARKUP_ONLY: readonly PrintOption[] = ['pageSize', 'landscape', 'margin', 'printBackground', 'baseUrl'];

/** One option's text, as a query parameter or a form field, checked by its reader. */
function printOption(name: PrintOption, where: 'query' | 'form') {
  const option: {
    read: (text: string) => Read<unknown>;
    example: string;
    description: string;
    values?: readonly string[];
  } = PRINT_OPTIONS[name];
  const { read, example, description, values } = option;
  return z
    .string({
      error: (issue) =>
        Array.isArray(issue.input)
          ? `sent ${issue.input.length} times; send it once`
          : issue.input instanceof File
            ? 'is a file part; send it as a text field'
            : 'must be text',
    })
    .superRefine((text, ctx) => {
      const value = read(text);
      if ('problem' in value) ctx.addIssue({ code: 'custom', message: value.problem });
    })
    .optional()
    .openapi({
      example,
      ...(values ? { enum: [...values] } : {}),
      description:
        where === 'query'
          ? description
          : `The same as the query parameter ${name}; give it either way (given both ways, the two must agree).`,
    });
}

const printOptions = (where: 'query' | 'form') =>
  Object.fromEntries(PRINT_OPTION_NAMES.map((name) => [name, printOption(name, where)])) as Record<
    PrintOption,
    ReturnType<typeof printOption>
  >;
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
  ...printOptions('query'),
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
  ...printOptions('form'),
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
      validationExample('pageRanges', 'runs backwards (item 2, "5-3"); write the lower page first, e.g. "3-5"'),
      validationExample(
        'pageSize',
        'given as a query parameter ("a4") and as a form field ("letter") that differ; send it once',
      ),
      validationExample(
        'margin',
        'applies to md and html sources; a DOCX is laid out by its own sections (page size, orientation, margins), with its own backgrounds and links',
      ),
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

/** 400 VALIDATION_ERROR about one field. */
function invalid(field: string, issue: string): ApiError {
  return new ApiError('VALIDATION_ERROR', `${field}: ${issue}`, { details: [{ field, issue }] });
}

/** The value of an option the schema has checked (so its reader answers a value). */
function checked<T>(read: Read<T>): T {
  if ('problem' in read) throw new Error(read.problem);
  return read.value;
}

/**
 * The print options given, from the query or the form (both: they must read the same), refused
 * where they do not apply (nothing is ignored silently): the page and URL options to a DOCX
 * source, pageRanges to DOCX output.
 */
function chosenPrintOptions(
  query: Partial<Record<PrintOption, string>>,
  form: Partial<Record<PrintOption, string>>,
  pair: { from: string; to: string },
  allowHttp: boolean,
) {
  const text: Partial<Record<PrintOption, string>> = {};
  for (const name of PRINT_OPTION_NAMES) {
    const [inQuery, inForm] = [query[name], form[name]];
    if (inQuery !== undefined && inForm !== undefined) {
      const read: (text: string) => Read<unknown> = PRINT_OPTIONS[name].read;
      if (JSON.stringify(checked(read(inQuery))) !== JSON.stringify(checked(read(inForm)))) {
        throw invalid(
          name,
          `given as a query parameter ("${inQuery}") and as a form field ("${inForm}") that differ; send it once`,
        );
      }
    }
    const given = inQuery ?? inForm;
    if (given === undefined) continue;
    if (pair.from === 'docx' && MARKUP_ONLY.includes(name)) {
      throw invalid(
        name,
        'applies to md and html sources; a DOCX is laid out by its own sections (page size, orientation, margins), with its own backgrounds and links',
      );
    }
    if (name === 'pageRanges' && pair.to !== 'pdf')
      throw invalid(name, 'applies to PDF output; a DOCX has no fixed pages');
    text[name] = given;
  }
  const pageSize = text.pageSize === undefined ? undefined : checked(readPageSize(text.pageSize));
  const landscape = text.landscape === undefined ? undefined : checked(readBoolean(text.landscape));
  const margins = text.margin === undefined ? undefined : checked(readMargins(text.margin));
  if (margins) {
    // Checked against the caller's paper, else letter (a CSS @page size is the reader's to see).
    const paper = pageSize ?? NAMED_PAPERS.letter;
    const page = landscape
      ? { width: Math.max(paper.width, paper.height), height: Math.min(paper.width, paper.height) }
      : paper;
    const problem = marginsFit(margins, page);
    if (problem) throw invalid('margin', problem);
  }
  const baseUrl = text.baseUrl === undefined ? undefined : readBaseUrl(text.baseUrl, allowHttp);
  if (baseUrl && 'problem' in baseUrl) throw invalid('baseUrl', baseUrl.problem);
  return {
    ...(pageSize ? { pageSize } : {}),
    ...(landscape !== undefined ? { landscape } : {}),
    ...(margins ? { margins } : {}),
    ...(text.printBackground !== undefined ? { printBackground: checked(readBoolean(text.printBackground)) } : {}),
    ...(baseUrl ? { baseUrl: checked(baseUrl) } : {}),
    ...(text.pageRanges !== undefined ? { pageRanges: checked(readPageRanges(text.pageRanges)) } : {}),
  };
}

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
    const print = chosenPrintOptions(query, form, { from, to: query.to }, config.allowHttpUrls);
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
          ...print,
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
      {
        revisions: query.revisions,
        ...(print.pageRanges ? { pageRanges: print.pageRanges } : {}),
        limits: config.limits,
      },
      engineResources(c.env, engine, fonts),
    );
    c.header('X-Quire-Pages', String(result.pages));
    for (const [name, value] of Object.entries(warningHeaders(result.warnings))) c.header(name, value);
    return fileAnswer(c, result.pdf, PDF_MEDIA_TYPE, `${baseName(file.name)}.pdf`);
  });
