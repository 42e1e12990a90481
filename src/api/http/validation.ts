import type { Hook, z } from '@hono/zod-openapi';
import { ApiError, type ErrorDetail } from '../../errors';

/** Where a request part sits, named the way a caller thinks of it. */
const TARGET_NAME: Record<string, string> = {
  json: 'body',
  form: 'form',
  query: 'query',
  param: 'path',
  header: 'header',
  cookie: 'cookie',
};

/** `signer.email`, `auditTrail[0].type`: the path of a zod issue as a caller would write it. */
function fieldOf(path: readonly PropertyKey[], target: string): string {
  if (path.length === 0) return TARGET_NAME[target] ?? target;
  return path.reduce<string>((field, key) => {
    if (typeof key === 'number') return `${field}[${key}]`;
    return field === '' ? String(key) : `${field}.${String(key)}`;
  }, '');
}

function issueText(issue: z.core.$ZodIssue): string {
  // Zod's wording for a missing key ("expected string, received undefined") reads like a type bug.
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
    return `Required (expected ${issue.expected})`;
  }
  return issue.message;
}

export function validationError(error: z.ZodError, target: string): ApiError {
  const details: ErrorDetail[] = error.issues.flatMap((issue) =>
    // An unknown key is named where it is (`fields[0].colour`), not by the object holding it.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: fieldOf([...issue.path, key], target), issue: issueText(issue) }))
      : [{ field: fieldOf(issue.path, target), issue: issueText(issue) }],
  );
  const [first] = details;
  const more = details.length > 1 ? ` (and ${details.length - 1} more; see details)` : '';
  const message = first ? `${first.field}: ${first.issue}${more}` : 'The request is not valid.';
  return new ApiError('VALIDATION_ERROR', message, { details });
}

/** defaultHook of every router: a failed zod parse becomes 400 VALIDATION_ERROR with details. */
// biome-ignore lint/suspicious/noExplicitAny: the hook is shared by routes of every input type.
export const validationHook: Hook<any, any, any, any> = (result) => {
  if (!result.success) throw validationError(result.error, result.target);
};
