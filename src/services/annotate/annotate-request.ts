import { z } from '@hono/zod-openapi';
import { DocumentInputSchema } from '../input';
import type { AnnotateField } from './annotate-types';

/**
 * The body of `POST /v1/annotate` (docs/api.md): the schema validates shapes and turns each field into
 * the core's AnnotateField (defaults applied, checkbox strings made booleans). Every wrong shape is
 * a 400 VALIDATION_ERROR naming `fields[i].value` (or `.options…`), all of them in one answer.
 */

/** Caps that keep one request's work bounded; docs/design.md "Annotate" gives the reasons. */
export const ANNOTATE_LIMITS = {
  fields: 500,
  idLength: 255,
  textLength: 100_000,
  tableRows: 5_000,
  tableColumns: 63,
  cellLength: 10_000,
  /** CSS px: 10,000 px is over 100 in at 96 dpi, more than any Word page (22 in). */
  dimension: 10_000,
} as const;

/**
 * Every object of the body is strict, as the top level is: a misspelt key (`colour`, `copyRowStyles`)
 * would otherwise be ignored and the field filled as if it were not there. The message says what
 * the object takes; the detail names the key where it is (`fields[0].options.colour`).
 */
function unknownKeys(takes: string) {
  return {
    error: (issue: { code?: string; keys?: string[] }) =>
      issue.code === 'unrecognized_keys' && issue.keys
        ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}; ${takes}`
        : undefined,
  };
}

const Dimensions = z
  .strictObject(
    {
      width: z.number().positive().max(ANNOTATE_LIMITS.dimension).optional(),
      height: z.number().positive().max(ANNOTATE_LIMITS.dimension).optional(),
    },
    unknownKeys('dimensions take width and height'),
  )
  .openapi({ description: 'CSS pixels (96 per inch). With one side given, the other keeps the aspect ratio.' });

const FIELD_TYPES = ['text', 'image', 'signature', 'table', 'checkbox'] as const;

const FieldSchema = z
  .strictObject(
    {
      id: z.string().min(1).max(ANNOTATE_LIMITS.idLength).optional().openapi({
        description:
          'A content control (its w:tag, the fieldId/id in a JSON tag, or its w:id) or a {{placeholder}} name.',
      }),
      group: z.string().min(1).max(ANNOTATE_LIMITS.idLength).optional().openapi({
        description: 'Every content control whose JSON w:tag has this "group" (or "groupId").',
      }),
      type: z.enum(FIELD_TYPES),
      value: z.unknown().openapi({
        description:
          'text: a string; image: a data:image/… URI or https URL; signature: an image as for image, or the signer\'s name as text; table: rows of strings; checkbox: "true" or "false".',
      }),
      options: z
        .strictObject(
          {
            keepTextNodeStyles: z.boolean().optional(),
            dimensions: Dimensions.optional(),
            copyRowStyle: z.boolean().optional(),
          },
          unknownKeys('options are keepTextNodeStyles, dimensions and copyRowStyle'),
        )
        .optional(),
    },
    unknownKeys('a field takes id or group, type, value and options'),
  )
  .superRefine((field, ctx) => {
    if ((field.id === undefined) === (field.group === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give exactly one of id and group' });
    }
    const problem = valueProblem(field.type, field.value);
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  })
  .transform((field): AnnotateField => {
    const target = field.id !== undefined ? { id: field.id } : { group: field.group as string };
    const options = field.options ?? {};
    const dimensions = options.dimensions ? { dimensions: options.dimensions } : {};
    switch (field.type) {
      case 'text':
        return {
          ...target,
          type: 'text',
          value: field.value as string,
          options: { keepTextNodeStyles: options.keepTextNodeStyles ?? true },
        };
      case 'image':
      case 'signature':
        return { ...target, type: field.type, value: (field.value as string).trim(), options: dimensions };
      case 'table':
        return {
          ...target,
          type: 'table',
          value: field.value as string[][],
          options: { copyRowStyle: options.copyRowStyle ?? true },
        };
      case 'checkbox':
        return { ...target, type: 'checkbox', value: field.value === true || field.value === 'true' };
    }
  })
  .openapi('AnnotateField', { example: { id: 'customer_name', type: 'text', value: 'Ada Lovelace' } });

/** Why `value` does not fit `type`, or undefined when it does. */
function valueProblem(type: (typeof FIELD_TYPES)[number], value: unknown): string | undefined {
  switch (type) {
    case 'text':
      if (typeof value !== 'string') return 'a text field takes a string';
      if (value.length > ANNOTATE_LIMITS.textLength) return `at most ${ANNOTATE_LIMITS.textLength} characters`;
      return undefined;
    case 'image':
    case 'signature':
      if (typeof value !== 'string' || value.trim() === '') {
        return type === 'image'
          ? 'an image field takes a data:image/… URI or an https URL'
          : "a signature field takes an image (data:image/… URI or https URL) or the signer's name";
      }
      return undefined;
    case 'table': {
      if (!Array.isArray(value)) return 'a table field takes an array of rows, each an array of strings';
      if (value.length > ANNOTATE_LIMITS.tableRows) return `at most ${ANNOTATE_LIMITS.tableRows} rows`;
      for (const [i, row] of value.entries()) {
        if (!Array.isArray(row) || row.some((cell) => typeof cell !== 'string')) {
          return `row ${i} is not an array of strings`;
        }
        if (row.length > ANNOTATE_LIMITS.tableColumns)
          return `row ${i} has more than ${ANNOTATE_LIMITS.tableColumns} cells`;
        if (row.some((cell: string) => cell.length > ANNOTATE_LIMITS.cellLength)) {
          return `row ${i} has a cell longer than ${ANNOTATE_LIMITS.cellLength} characters`;
        }
      }
      return undefined;
    }
    case 'checkbox':
      // docs/api.md says "true"/"false"; JSON booleans are what most callers will send, so both count.
      return value === 'true' || value === 'false' || typeof value === 'boolean'
        ? undefined
        : 'a checkbox field takes "true" or "false"';
  }
}

export const AnnotateBodySchema = z
  .strictObject({
    document: DocumentInputSchema,
    fields: z.array(FieldSchema).min(1, 'give at least one field').max(ANNOTATE_LIMITS.fields),
  })
  .openapi('AnnotateRequest');

export const AnnotateQuerySchema = z.object({
  to: z.enum(['docx', 'pdf']).default('docx').openapi({ description: 'The output format (default docx).' }),
});
