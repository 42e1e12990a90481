/**
 * The fonts of one request (`fonts` parts of POST /v1/convert, docs/api.md "Bring your own fonts"):
 * counted and measured before they are read, then read and checked one by one (the engine's
 * readFontFile: TrueType outlines, parsed by fontkit, the tables the painter needs, a family name).
 * Every part that fails is named in the error's details; the message names the first.
 */
import { readFontFile, requestFaceKey, type SuppliedFont } from '../../engine';
import { ApiError, type ErrorCode, type ErrorDetail } from '../../errors';
import { MAX_FONT_BYTES, MAX_REQUEST_FONT_BYTES, MAX_REQUEST_FONTS } from '../../limits';
import { formatBytes } from '../input';

/** An uploaded font part: a File has all of it. */
export interface FontUpload {
  readonly name: string;
  readonly size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface RequestFontLimits {
  /** Fonts one request may send. */
  count: number;
  /** Bytes of one font. */
  fontBytes: number;
  /** Bytes of all of them together. */
  totalBytes: number;
}

/** The limits of src/limits.ts, none above the deployment's MAX_DOCUMENT_BYTES. */
export function requestFontLimits(maxDocumentBytes: number): RequestFontLimits {
  return {
    count: MAX_REQUEST_FONTS,
    fontBytes: Math.min(MAX_FONT_BYTES, maxDocumentBytes),
    totalBytes: Math.min(MAX_REQUEST_FONT_BYTES, maxDocumentBytes),
  };
}

/** `fonts[1] "Acme-Bold.ttf"`: the part as the caller sent it. */
export function fontPartLabel(index: number, fileName: string): string {
  const clean = [...fileName]
    .filter((ch) => ch >= ' ' && ch !== '\u007f' && ch !== '"')
    .join('')
    .trim()
    .slice(0, 120);
  return clean === '' ? `fonts[${index}]` : `fonts[${index}] "${clean}"`;
}

function fontError(code: ErrorCode, details: ErrorDetail[], message: string): ApiError {
  return new ApiError(code, message, { details });
}

/** Reads and checks the request's fonts, in the order sent; throws the API's 4xx for the first failure. */
export async function readRequestFonts(
  uploads: readonly FontUpload[],
  limits: RequestFontLimits,
): Promise<SuppliedFont[]> {
  if (uploads.length > limits.count) {
    const issue = `at most ${limits.count} fonts may be sent with one request, and the request has ${uploads.length}; send the faces the document uses`;
    throw fontError('VALIDATION_ERROR', [{ field: 'fonts', issue }], `fonts: ${issue}.`);
  }
  const oversized = uploads.flatMap((upload, index) =>
    upload.size > limits.fontBytes
      ? [
          {
            field: `fonts[${index}]`,
            issue: `${fontPartLabel(index, upload.name)} is ${formatBytes(upload.size)}, more than the ${formatBytes(limits.fontBytes)} one font may have`,
          },
        ]
      : [],
  );
  if (oversized.length > 0) {
    throw fontError(
      'PAYLOAD_TOO_LARGE',
      oversized,
      `${(oversized[0] as ErrorDetail).issue}; send a smaller font (a subset of it, with the characters the document uses).`,
    );
  }
  const total = uploads.reduce((sum, upload) => sum + upload.size, 0);
  if (total > limits.totalBytes) {
    const issue = `the ${uploads.length} fonts are ${formatBytes(total)} together, more than the ${formatBytes(limits.totalBytes)} the fonts of one request may have`;
    throw fontError('PAYLOAD_TOO_LARGE', [{ field: 'fonts', issue }], `fonts: ${issue}; send fewer or smaller fonts.`);
  }

  const fonts: SuppliedFont[] = [];
  const problems: (ErrorDetail & { unsupported: boolean })[] = [];
  for (const [index, upload] of uploads.entries()) {
    const label = fontPartLabel(index, upload.name);
    const reading = readFontFile(new Uint8Array(await upload.arrayBuffer()), requestFaceKey(index));
    if ('problem' in reading) {
      problems.push({
        field: `fonts[${index}]`,
        issue: `${label} ${reading.problem}`,
        unsupported: reading.unsupported,
      });
    } else fonts.push({ ...reading.font, source: label });
  }
  const [first] = problems;
  if (first) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more; see details)` : '';
    throw fontError(
      first.unsupported ? 'UNSUPPORTED_MEDIA_TYPE' : 'INVALID_DOCUMENT',
      problems.map(({ field, issue }) => ({ field, issue })),
      `${first.issue}${more}.`,
    );
  }
  return fonts;
}
