import { z } from '@hono/zod-openapi';
import type { Config } from '../../config';
import { ApiError } from '../../errors';
import { decodeBase64Document } from './base64-decoder';
import { type DocumentFormat, expectFormat } from './format-sniffer';
import { documentTooLarge } from './size-limit';
import { fetchDocument } from './url-fetcher';

const EXACTLY_ONE = 'give exactly one of base64 or url';

/** docs/api.md "Document input object": `{"base64": "..."}` or `{"url": "https://..."}`, exactly one. */
export const DocumentInputSchema = z
  .strictObject(
    {
      base64: z.string().min(1, 'must not be empty').optional().openapi({
        description:
          'The document as base64 (standard or URL-safe alphabet, padding optional, whitespace ignored), or as a data URI `data:<mime>;base64,<data>`.',
        example: 'JVBERi0xLjcK…',
      }),
      url: z
        .string()
        .refine((value) => URL.canParse(value), 'must be an absolute URL such as https://example.com/contract.pdf')
        .optional()
        .openapi({
          description:
            'A public https: URL to fetch the document from. At most 5 redirects, 15 s and the document size limit; private, loopback and link-local addresses are refused.',
          format: 'uri',
          example: 'https://example.com/contract.pdf',
        }),
    },
    {
      // Zod's default ("Unrecognized key") does not say what the object should look like.
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}; ${EXACTLY_ONE}`
          : undefined,
    },
  )
  .refine((input) => (input.base64 === undefined) !== (input.url === undefined), EXACTLY_ONE)
  .openapi('DocumentInput', {
    description:
      'A document, given inline as base64 or by URL (exactly one of the two). Its format is sniffed from its bytes; a file name, data URI type or Content-Type is not trusted.',
    example: { url: 'https://example.com/contract.pdf' },
    // The refine above, said in JSON Schema (2020-12 §10.2.1.3): exactly one of the two is present,
    // so a generated type does not accept `{}`.
    oneOf: [{ required: ['base64'] }, { required: ['url'] }],
  });

export type DocumentInput = z.infer<typeof DocumentInputSchema>;

export interface LoadDocumentOptions {
  config: Pick<Config, 'maxDocumentBytes' | 'allowHttpUrls'>;
  /** The formats the endpoint takes, in order of preference when bytes fit more than one. */
  accept: readonly DocumentFormat[];
}

export interface LoadedDocument {
  bytes: Uint8Array;
  format: DocumentFormat;
}

/**
 * Turns a validated document input into bytes of an accepted format: decodes base64 or fetches the
 * URL (both held to MAX_DOCUMENT_BYTES), then sniffs the bytes. A data URI's media type and the
 * server's Content-Type are ignored on purpose: only the bytes say what the document is.
 */
export async function loadDocument(input: DocumentInput, options: LoadDocumentOptions): Promise<LoadedDocument> {
  const { config, accept } = options;
  const bytes = await readBytes(input, config);
  return { bytes, format: expectFormat(bytes, accept) };
}

/**
 * The bytes of an uploaded file (a multipart part), held to the same limit as any document; its
 * size is known before it is read, so a file over the limit is refused unread.
 */
export async function readUpload(file: Blob, maxBytes: number): Promise<Uint8Array> {
  if (file.size > maxBytes) {
    throw documentTooLarge(`The uploaded file is ${file.size} bytes, more than the limit.`, maxBytes);
  }
  return new Uint8Array(await file.arrayBuffer());
}

/** An uploaded file as loadDocument gives a document input: read within the limit, then sniffed. */
export async function loadUpload(file: Blob, options: LoadDocumentOptions): Promise<LoadedDocument> {
  const bytes = await readUpload(file, options.config.maxDocumentBytes);
  return { bytes, format: expectFormat(bytes, options.accept) };
}

async function readBytes(input: DocumentInput, config: LoadDocumentOptions['config']): Promise<Uint8Array> {
  if (input.base64 !== undefined && input.url === undefined) {
    return decodeBase64Document(input.base64, config.maxDocumentBytes).bytes;
  }
  if (input.url !== undefined && input.base64 === undefined) {
    const fetched = await fetchDocument(input.url, {
      maxBytes: config.maxDocumentBytes,
      allowHttp: config.allowHttpUrls,
    });
    return fetched.bytes;
  }
  // The schema prevents this; a caller that skipped it still gets the contract's answer.
  throw new ApiError('VALIDATION_ERROR', `document: ${EXACTLY_ONE}`, {
    details: [{ field: 'document', issue: EXACTLY_ONE }],
  });
}
