/**
 * A typed client for the Quire API: one method per operation of the OpenAPI document, named by its
 * operationId, over openapi-fetch and the types generated into ./schema (`npm run client`). Every
 * method answers openapi-fetch's `{ data, error, response }`: `data` when the status is 2xx,
 * `error` (the API's error object) otherwise; it throws only when the request could not be made.
 */
import createFetchClient, { type Client, type FetchResponse } from 'openapi-fetch';
import type { components, operations, paths } from './schema';

export type { components, operations, paths };

type Schemas = components['schemas'];
/** The error object every 4xx and 5xx carries (docs/api.md "Errors"). */
export type ApiErrorBody = Schemas['Error'];
export type AnnotateRequest = Schemas['AnnotateRequest'];
export type SignRequest = Schemas['SignRequest'];
export type VerifyRequest = Schemas['VerifyRequest'];
export type VerifyReport = Schemas['VerifyResponse'];
/** A document sent inline (`base64`) or by reference (`url`). */
export type DocumentInput = Schemas['DocumentInput'];

type Query<Operation extends keyof operations> = operations[Operation] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;
export type ConvertQuery = Query<'convertDocument'>;
export type AnnotateQuery = Query<'annotateTemplate'>;

export interface QuireClientOptions {
  /** Where the API is, e.g. https://quire.example.workers.dev (no trailing /v1). */
  baseUrl: string;
  /** An API key (qk_…), sent as `Authorization: Bearer`; register/verify and health need none. */
  apiKey?: string;
  /** The fetch to send requests with (default globalThis.fetch): a test's, a proxy's, a service binding's. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** What every method takes last: headers for this request (e.g. CF-Connecting-IP) and an abort signal. */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** How a binary answer (convert's document) is read: whole, as a Blob, or as the body's stream. */
export type BinaryAs = 'arrayBuffer' | 'blob' | 'stream';

/** /v1/convert's form: the document (a File, or a Blob with `fileName`) and optional fonts. */
export interface ConvertInput {
  file: Blob;
  /** The upload's name (its extension tells the format when `from` is not given); default a File's own name. */
  fileName?: string;
  /** TrueType/OpenType fonts to draw the document with (docs/api.md "Bring your own fonts"). */
  fonts?: Blob[];
}

/**
 * /v1/sign and /v1/annotate as an upload: the document as the `file` part and the JSON body's
 * other fields beside it (docs/api.md: strings as they are, objects and arrays as JSON text).
 */
export type SignFileInput = Omit<SignRequest, 'document'> & { file: Blob; fileName?: string };
export type AnnotateFileInput = Omit<AnnotateRequest, 'document'> & { file: Blob; fileName?: string };

/** The form of an upload: `file`, then each other field as text (JSON text unless it is a string). */
function uploadForm(input: { file: Blob; fileName?: string } & Record<string, unknown>): FormData {
  const { file, fileName, ...fields } = input;
  const form = formData({ file }, fileName);
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

/** /v1/verify takes the PDF as JSON `{ document }` or as a multipart `file` part. */
export type VerifyInput = VerifyRequest | { file: Blob; fileName?: string };

/** The form body of a multipart operation, as FormData (openapi-fetch sends FormData as it is). */
function formData(parts: Record<string, Blob | Blob[] | undefined>, fileName?: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    for (const blob of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      const own = typeof File !== 'undefined' && blob instanceof File ? blob.name : undefined;
      form.append(name, blob, (name === 'file' ? fileName : undefined) ?? own ?? name);
    }
  }
  return form;
}

/**
 * The bytes of a document the API answers inline: plain base64 (what sign and annotate answer), or
 * a data URI (`data:<mime>;base64,…`, annotate's deprecated `dataUri`) as well.
 */
export function documentBytes(document: { base64: string }): Uint8Array {
  const base64 = document.base64.replace(/^data:[^,]*,/, '');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Bytes as standard base64, for a `document: { base64 }` input. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The client: see QuireClient for its methods. */
export function createQuireClient(options: QuireClientOptions) {
  const { baseUrl, apiKey, headers = {} } = options;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const settings = {
    baseUrl,
    fetch: send,
    headers: { ...headers, ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
  };
  const client: Client<paths> = createFetchClient<paths>(settings);
  // Sign and annotate answer JSON or the file itself (by Accept): their JSON methods read the
  // JSON answer's type alone, and the *File methods and convert the binary one (`client`).
  const json: Client<paths, 'application/json'> = createFetchClient<paths, 'application/json'>(settings);

  return {
    /** The openapi-fetch client underneath, for what the methods do not cover (same base URL, key and fetch). */
    raw: client,

    /** GET /v1/health: the service is up (no key needed). */
    getHealth: (call?: CallOptions) => client.GET('/v1/health', { ...call }),

    /** HEAD /v1/health: the status alone, without a body (no key needed). */
    headHealth: async (call?: CallOptions): Promise<Response> => {
      const url = `${baseUrl.replace(/\/+$/, '')}/v1/health`;
      const response = await send(new Request(url, { method: 'HEAD', headers: { ...headers, ...call?.headers } }));
      await response.body?.cancel();
      return response;
    },

    /** GET /v1/auth/register: mails a verification code to `email`. */
    requestVerificationCode: (email: string, call?: CallOptions) =>
      client.GET('/v1/auth/register', { params: { query: { email } }, ...call }),

    /** GET /v1/auth/verify: exchanges the mailed code for a new API key (`data.apiKey`). */
    createApiKey: (email: string, code: string, call?: CallOptions) =>
      client.GET('/v1/auth/verify', { params: { query: { email, code } }, ...call }),

    /** DELETE /v1/auth/key: revokes the key this client sends. */
    revokeApiKey: (call?: CallOptions) => client.DELETE('/v1/auth/key', { ...call }),

    /**
     * POST /v1/convert: the converted document itself (PDF or DOCX), read as `as` says (default
     * arrayBuffer). Pages and warnings are in `response.headers` (X-Quire-Pages, X-Quire-Warnings).
     */
    convertDocument: <As extends BinaryAs = 'arrayBuffer'>(
      input: ConvertInput,
      query: ConvertQuery = {},
      call?: CallOptions & { as?: As },
    ) =>
      client.POST('/v1/convert', {
        params: { query },
        body: { file: input.file, ...(input.fonts ? { fonts: input.fonts } : {}) },
        // The print options go in the query (ConvertQuery); the form carries the files only.
        bodySerializer: () =>
          formData({ file: input.file, ...(input.fonts ? { fonts: input.fonts } : {}) }, input.fileName),
        parseAs: (call?.as ?? 'arrayBuffer') as As,
        ...withoutAs(call),
      }),

    /** POST /v1/annotate: the filled template, inline (`documentBytes(data.document)` for its bytes). */
    annotateTemplate: (body: AnnotateRequest, query: AnnotateQuery = {}, call?: CallOptions) =>
      json.POST('/v1/annotate', { params: { query }, body, ...call }),

    /**
     * POST /v1/annotate with the template uploaded, answering the filled document itself (the
     * DOCX, or the PDF with to=pdf; `Accept` asks for it), read as `as` says (default arrayBuffer).
     */
    annotateTemplateFile: <As extends BinaryAs = 'arrayBuffer'>(
      input: AnnotateFileInput,
      query: AnnotateQuery = {},
      call?: CallOptions & { as?: As },
    ) =>
      client.POST('/v1/annotate', {
        params: { query },
        body: input as unknown as AnnotateRequest,
        bodySerializer: () => uploadForm(input),
        parseAs: (call?.as ?? 'arrayBuffer') as As,
        ...withoutAs(call),
        headers: {
          Accept:
            query.to === 'pdf'
              ? 'application/pdf'
              : 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          ...call?.headers,
        },
      }),

    /** POST /v1/sign: the signed PDF, inline as base64 (`documentBytes(data.document)`). */
    signDocument: (body: SignRequest, call?: CallOptions) => json.POST('/v1/sign', { body, ...call }),

    /**
     * POST /v1/sign with the document uploaded, answering the signed PDF itself (`Accept:
     * application/pdf`), read as `as` says (default arrayBuffer); the event id and pages are in
     * `response.headers` (X-Quire-Event-Id, X-Quire-Certificate-Pages).
     */
    signDocumentFile: <As extends BinaryAs = 'arrayBuffer'>(input: SignFileInput, call?: CallOptions & { as?: As }) =>
      client.POST('/v1/sign', {
        body: input as unknown as SignRequest,
        bodySerializer: () => uploadForm(input),
        parseAs: (call?.as ?? 'arrayBuffer') as As,
        ...withoutAs(call),
        headers: { Accept: 'application/pdf', ...call?.headers },
      }),

    /** GET /v1/verify/key: the service's signing certificate. */
    getSigningCertificate: (call?: CallOptions) => client.GET('/v1/verify/key', { ...call }),

    /** POST /v1/verify: the signatures' report, for a PDF given as `{ document }` or as a `file` to upload. */
    verifyDocument: (input: VerifyInput, call?: CallOptions) =>
      'file' in input
        ? client.POST('/v1/verify', {
            body: { file: input.file },
            bodySerializer: (body) => formData(body as { file: Blob }, input.fileName),
            ...call,
          })
        : client.POST('/v1/verify', { body: input, ...call }),

    /** POST /v1/merge: planned; answers 501 NOT_IMPLEMENTED today. */
    mergeDocuments: (call?: CallOptions) => client.POST('/v1/merge', { ...call }),
  };
}

function withoutAs<T extends { as?: unknown }>(call: T | undefined): Omit<T, 'as'> | undefined {
  if (!call) return call;
  const { as: _, ...rest } = call;
  return rest;
}

export type QuireClient = ReturnType<typeof createQuireClient>;
/** What a method of the client answers (openapi-fetch's result), by operationId. */
export type QuireResult<Operation extends keyof QuireClient> = QuireClient[Operation] extends (
  ...args: never[]
) => Promise<infer R>
  ? R
  : never;
export type { FetchResponse };
