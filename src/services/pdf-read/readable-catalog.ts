/**
 * The newest revision's catalog, read through its own cross-reference chain (ISO 32000-1 §7.5.5,
 * §7.7.2), or 422 INVALID_DOCUMENT saying why not. Verify and sign ask the same question, so a
 * file sign accepts is one verify can read: pdf-lib rebuilds a damaged cross-reference table
 * silently, and an update signed over one would point its /Prev at a section no reader can use.
 */
import { ApiError } from '../../errors';
import type { ObjectReader } from './object-reader';
import type { PdfValue } from './pdf-syntax';
import type { RevisionScan } from './revision-types';

export function requireCatalog(reader: ObjectReader, scan: RevisionScan): Map<string, PdfValue> {
  const last = scan.revisions.length - 1;
  const catalog = reader.catalog(last);
  if (catalog) return catalog;
  const why = [...scan.problems, ...(scan.revisions[last]?.problems ?? [])].join('; ');
  throw new ApiError(
    'INVALID_DOCUMENT',
    `The PDF cannot be read: ${why || 'no cross-reference, trailer or catalog was found'}.`,
  );
}
