import { z } from '@hono/zod-openapi';

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
