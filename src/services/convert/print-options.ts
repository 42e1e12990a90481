/**
 * The print options of a conversion as a caller writes them (the query or form of POST
 * /v1/convert), read into what the HTML reader and the page writer take: a paper in points,
 * margins in points, page ranges. Each reader answers the value or why the text is not one; the
 * route names the field. Lengths are CSS absolute lengths (CSS Values 4 §6.2: px, pt, pc, in, cm,
 * mm, Q), the units a browser's @page and print dialog take.
 */
import { PAPER_SIZES, type PaperMargins, type PaperSize, UNIT_POINTS } from '../../engine';
import { parsePageRanges } from '../../kit';

export type Read<T> = { value: T } | { problem: string };

/** The named papers: CSS Paged Media 3 §7.2.1's <page-size> keywords, the same table @page reads. */
export const NAMED_PAPERS = PAPER_SIZES;

/** Sides of a paper, in points: the least and most a caller may ask for (1 in; 200 in, the PDF page limit of ISO 32000-1 Annex C). */
const MIN_SIDE = 72;
const MAX_SIDE = 14400;
/** What the margins must leave to write in, each way: 1 in. */
const MIN_TEXT = 72;

const NUMBER = String.raw`[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?`;
const UNIT = Object.keys(UNIT_POINTS).join('|');
const LENGTH = new RegExp(`^(${NUMBER})(${UNIT})?$`, 'i');
const PAPER = new RegExp(`^(${NUMBER}(?:${UNIT})?)\\s*(?:[x×]|\\s)\\s*(${NUMBER}(?:${UNIT})?)$`, 'i');

/** One CSS absolute length in points. A number without a unit is refused but for 0 (CSS Values 4 §6.1). */
function readLength(text: string): Read<number> {
  const match = LENGTH.exec(text.trim());
  if (!match)
    return {
      problem: `"${text}" is not a length; write a number and a unit (${UNIT.replaceAll('|', ', ')}), e.g. 10mm`,
    };
  const number = Number(match[1]);
  const unit = match[2]?.toLowerCase();
  if (!Number.isFinite(number)) return { problem: `"${text}" is not a length` };
  if (unit === undefined && number !== 0)
    return { problem: `"${text}" has no unit; write e.g. ${match[1]}px or ${match[1]}mm` };
  return { value: unit === undefined ? 0 : number * (UNIT_POINTS[unit] as number) };
}

/** `letter`, `A4`… (any case), or `WxH`/`W H` in absolute lengths (`210mm x 297mm`, `8.5in 11in`), width first. */
export function readPageSize(text: string): Read<PaperSize> {
  const name = text.trim().toLowerCase();
  if (Object.hasOwn(NAMED_PAPERS, name)) return { value: NAMED_PAPERS[name as keyof typeof NAMED_PAPERS] };
  const match = PAPER.exec(text.trim());
  if (!match) {
    return {
      problem: `"${text}" is not a page size; give ${Object.keys(NAMED_PAPERS).join(', ')}, or width x height in absolute lengths, e.g. 210mm x 297mm`,
    };
  }
  const sides: number[] = [];
  for (const side of [match[1], match[2]] as string[]) {
    const length = readLength(side);
    if ('problem' in length) return length;
    if (length.value < MIN_SIDE || length.value > MAX_SIDE) {
      return { problem: `${side.trim()} is outside the sides a page may have, 1in to 200in` };
    }
    sides.push(length.value);
  }
  return { value: { width: sides[0] as number, height: sides[1] as number } };
}

/** The CSS `margin` shorthand (CSS Box 3 §3.1): 1 to 4 lengths, top, right, bottom, left, the missing ones copied. */
export function readMargins(text: string): Read<PaperMargins> {
  const parts = text.trim().split(/\s+/);
  if (parts.length < 1 || parts.length > 4 || parts[0] === '') {
    return {
      problem: `"${text}" is not a margin; give 1 to 4 lengths (top right bottom left, as CSS's margin), e.g. 1in or 10mm 15mm`,
    };
  }
  const values: number[] = [];
  for (const part of parts) {
    const length = readLength(part);
    if ('problem' in length) return length;
    if (length.value < 0) return { problem: `${part} is negative; margins are 0 or more` };
    values.push(length.value);
  }
  const [top, right = top, bottom = top, left = right] = values as [number, ...number[]];
  return { value: { top, right, bottom, left } };
}

/** Whether `margins` leave at least 1 in each way on `page` (after any turn to landscape). */
export function marginsFit(margins: PaperMargins, page: PaperSize): string | undefined {
  const width = page.width - margins.left - margins.right;
  const height = page.height - margins.top - margins.bottom;
  if (width >= MIN_TEXT && height >= MIN_TEXT) return undefined;
  const inches = (points: number) => `${Math.round((points / 72) * 100) / 100}in`;
  return `leaves ${inches(Math.max(0, width))} x ${inches(Math.max(0, height))} to write in on a ${inches(page.width)} x ${inches(page.height)} page; margins must leave at least 1in each way`;
}

/** `true`/`false`/`1`/`0`. */
export function readBoolean(text: string): Read<boolean> {
  const value = { true: true, false: false, '1': true, '0': false }[text.trim().toLowerCase()];
  return value === undefined ? { problem: `"${text}" is not true, false, 1 or 0` } : { value };
}

/** An absolute http(s) URL; whether http: is allowed is the caller's to say (as for document.url). */
export function readBaseUrl(text: string, allowHttp: boolean): Read<string> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { problem: `"${text}" is not an absolute URL; give one like https://example.com/reports/` };
  }
  if (url.protocol === 'https:' || (allowHttp && url.protocol === 'http:')) return { value: url.href };
  if (url.protocol === 'http:') {
    return {
      problem: 'uses plain http:, which is allowed only when ALLOW_HTTP_URLS=true (local development); use https:',
    };
  }
  return { problem: `is a ${url.protocol} URL; give an https URL` };
}

/** Page ranges (kit/page-ranges.ts) as a Read. */
export function readPageRanges(text: string) {
  const parsed = parsePageRanges(text);
  return 'ranges' in parsed ? { value: parsed.ranges } : parsed;
}
