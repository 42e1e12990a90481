/**
 * Whether a signature's /ByteRange is well-formed and what it covers (ISO 32000-1 §12.8.1 Table
 * 252: pairs of offset and length; §12.8.3.3 / PAdES, ETSI EN 319 142-1 §5.4.2: the digest covers
 * the entire file except the /Contents value, so exactly two ranges around a hole that is the
 * whole hex string, angle brackets included, or its hex digits alone). Whether the covered bytes
 * still match the signed digest is not this module's question.
 */
import type { RevisionScan } from '../pdf-read';
import type { SignatureField } from './signature-fields';

export type Coverage = 'entire-file' | 'entire-revision' | 'partial';

export interface ByteRangeCheck {
  /** Four non-negative integers [0, b, c, d], b ≤ c, c + d within the file, hole = /Contents. */
  wellFormed: boolean;
  /** What the ranges reach to; undefined when they are not well-formed. */
  coverage: Coverage | undefined;
  /** The revision (index, oldest first) whose end the signed bytes reach, if any. */
  revisionIndex: number | undefined;
  problems: string[];
}

export function checkByteRange(
  pdf: Uint8Array,
  signature: SignatureField,
  scan: RevisionScan,
  others: readonly SignatureField[] = [],
): ByteRangeCheck {
  const problems: string[] = [];
  const notWellFormed = (why: string): ByteRangeCheck => {
    problems.push(why);
    return { wellFormed: false, coverage: undefined, revisionIndex: undefined, problems };
  };
  const range = signature.byteRange;
  if (!range) return notWellFormed('there is no /ByteRange');
  if (range.length !== 4) return notWellFormed(`/ByteRange has ${range.length} numbers, not 4 (two ranges)`);
  if (!range.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    return notWellFormed('/ByteRange holds a negative or non-integer number');
  }
  const [a, b, c, d] = range as [number, number, number, number];
  if (a !== 0) return notWellFormed(`/ByteRange starts at ${a}, not at the beginning of the file`);
  if (a + b > c) return notWellFormed('/ByteRange ranges overlap or are out of order');
  if (c + d > pdf.length) return notWellFormed('/ByteRange reaches past the end of the file');
  const contents = signature.contents;
  if (!contents) return notWellFormed('the /Contents string was not found in the file');
  // The hole is the /Contents string, angle brackets included (ETSI EN 319 142-1 §5.4.2). Some
  // signers leave the brackets in the signed bytes and only the hex digits out: no byte but the
  // signature value is unsigned either way, and the signature checks the same, so that hole is
  // taken too. pdfsig verifies both; it prints "Total document signed" only for the first
  // (poppler Form.cc getCheckedSignature looks for '<' and '>' at the hole's ends).
  const withBrackets = a + b === contents.start && c === contents.end;
  const digitsOnly = a + b === contents.start + 1 && c === contents.end - 1;
  if (!withBrackets && !digitsOnly) {
    return notWellFormed(
      `the hole [${a + b}, ${c}) is not the /Contents string [${contents.start}, ${contents.end}), with or without its angle brackets`,
    );
  }
  for (const other of others) {
    if (other === signature || !other.contents) continue;
    // Another signature's hole inside this one's, or the same hole twice: one value, two claims.
    if (other.contents.start < c && a + b < other.contents.end) {
      problems.push(`its hole overlaps the /Contents of signature field "${other.fieldName}"`);
    }
  }
  const signedEnd = c + d;
  const revisionIndex = scan.revisions.findIndex(
    (revision) => revision.end === signedEnd || revision.eofEnd === signedEnd,
  );
  const coverage: Coverage =
    signedEnd === pdf.length ? 'entire-file' : revisionIndex >= 0 ? 'entire-revision' : 'partial';
  if (coverage === 'partial') problems.push(`the signed bytes end at ${signedEnd}, which is no revision's end`);
  return { wellFormed: true, coverage, revisionIndex: revisionIndex >= 0 ? revisionIndex : undefined, problems };
}
