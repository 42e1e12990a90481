import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type DocumentFormat, type DocumentInput, type LoadedDocument, loadDocument, loadUpload } from '../../services';
import type { AppEnv } from './app-env';
import { mediaTypeOf } from './media-type';

/**
 * Why the `file` part is not one uploaded file. The form validator gives a name sent twice as an
 * array of its values, and a part without a filename (RFC 7578 §4.2) as a string: each is told
 * apart from a missing part, so the caller learns what to change.
 */
function filePartProblem(input: unknown): string {
  if (Array.isArray(input)) {
    return `exactly one multipart part "file" is expected, and the request has ${input.length}; send one document per request`;
  }
  if (typeof input === 'string') {
    return 'the multipart part "file" is a text field; send the document as a file (a part with a filename)';
  }
  return 'Attach the document as the multipart part "file"';
}

/** The `file` part of a multipart/form-data body (RFC 7578): exactly one uploaded file. */
export const filePart = (description: string) =>
  z
    .instanceof(File, { error: (issue) => filePartProblem(issue.input) })
    .openapi({ type: 'string', format: 'binary', description });

/** Why a form field is not the one text value it must be (missing, repeated, or a file). */
function formFieldProblem(input: unknown, json: boolean): string {
  const wanted = json ? 'a text field holding JSON' : 'a text field';
  if (input === undefined) return `Required (${wanted})`;
  if (Array.isArray(input)) return `sent ${input.length} times; send it once, as ${wanted}`;
  if (input instanceof File) {
    return `is a file part; send it as ${wanted} (curl: -F 'name=<file.json' sends a file's content as text)`;
  }
  return `must be ${wanted}`;
}

/**
 * Strings (and string enums) travel as they are; every other value as its JSON text. Read from the
 * schema, not guessed from the text: an eventId "123" is a string, which JSON.parse would make a
 * number. Optional and defaulted fields are what they wrap.
 */
function isText(schema: z.ZodType): boolean {
  let inner: unknown = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap();
  return inner instanceof z.ZodString || inner instanceof z.ZodEnum;
}

/**
 * A field of a JSON body, sent as a form field: a text field of the same name (RFC 7578 §4.2)
 * holding the value itself when it is a string, else its JSON text, then validated by the body's
 * own schema for that field, so an error names it as the JSON body's would (`signer.email`).
 */
function formField(name: string, schema: z.ZodType): z.ZodType {
  const json = !isText(schema);
  const text = z.string({ error: (issue) => formFieldProblem(issue.input, json) });
  const value = json
    ? text.transform((source, ctx) => {
        try {
          return JSON.parse(source) as unknown;
        } catch (error) {
          ctx.addIssue({
            code: 'custom',
            message: `must be JSON text, the value the JSON body gives "${name}" (${(error as Error).message})`,
          });
          return z.NEVER;
        }
      })
    : text;
  // A field the body may leave out may be left out of the form: undefined goes on to the schema.
  const read: z.ZodType = schema.isOptional() ? value.optional() : value;
  return read.pipe(schema).openapi({
    type: 'string',
    description: json
      ? `The JSON body's "${name}", as JSON text (application/json).`
      : `The JSON body's "${name}", as plain text.`,
  });
}

/** What a form of `Body` validates to: the body's fields but `document`, and the uploaded `file`. */
export type DocumentForm<Body> = Omit<Body, 'document'> & { file: File };

/**
 * The multipart/form-data form of a JSON body whose `document` is a document input (sign,
 * annotate): the document as the `file` part, every other field as a form field of the same name
 * (formField). As in the JSON body, a field the schema does not name is refused, and `document`
 * is told it is the file part.
 */
export function documentForm<Body extends z.ZodObject>(body: Body, fileDescription: string) {
  const fields = Object.entries(body.shape as Record<string, z.ZodType>).filter(([name]) => name !== 'document');
  const names = ['file', ...fields.map(([name]) => name)];
  const form = z.strictObject(
    {
      file: filePart(fileDescription),
      ...Object.fromEntries(fields.map(([name, schema]) => [name, formField(name, schema)])),
    },
    {
      error: (issue) => {
        if (issue.code !== 'unrecognized_keys') return undefined;
        const document = issue.keys.includes('document') ? ' (the document is the file part "file")' : '';
        const keys = issue.keys.map((key) => `"${key}"`).join(', ');
        return `unknown form field${issue.keys.length > 1 ? 's' : ''} ${keys}${document}; the form takes ${names.join(', ')}`;
      },
    },
  );
  return form as unknown as z.ZodType<DocumentForm<z.output<Body>>, Record<string, unknown>>;
}

/** A request that brings a document as JSON or as a form, read the same way whichever it was. */
export interface DocumentRequest<Fields> {
  /** Every field but the document. */
  fields: Fields;
  /** The uploaded file's name (multipart), for naming the answer; undefined for JSON. */
  fileName: string | undefined;
  /** The document: the upload, or the JSON body's base64 or URL; each held to the size limit and sniffed. */
  load(accept: readonly DocumentFormat[]): Promise<LoadedDocument>;
}

/**
 * The validated request of a route that takes both bodies (sign, annotate): the validator ran for
 * the Content-Type sent (requireMediaType made sure it is one of the two), so that one decides
 * which of `bodies` is real.
 */
export function documentRequest<Body extends { document: DocumentInput }>(
  c: Context<AppEnv>,
  bodies: { json: () => Body; form: () => DocumentForm<Body> },
): DocumentRequest<Omit<Body, 'document'>> {
  const config = c.get('config');
  if (mediaTypeOf(c.req.header('Content-Type')) === 'multipart/form-data') {
    const { file, ...fields } = bodies.form();
    // A body schema has no `file` of its own, so what is left is the body's fields but `document`.
    return {
      fields: fields as unknown as Omit<Body, 'document'>,
      fileName: file.name,
      load: (accept) => loadUpload(file, { config, accept }),
    };
  }
  const { document, ...fields } = bodies.json();
  return { fields, fileName: undefined, load: (accept) => loadDocument(document, { config, accept }) };
}
