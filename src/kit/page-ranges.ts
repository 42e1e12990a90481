/**
 * Page ranges as Chromium's print-to-PDF takes them (`pageRanges` of Page.printToPDF, and the
 * print dialog's "Pages" box): comma-separated items, each a page (`7`), a closed range (`1-3`), a
 * range open at the end (`10-`, to the last page) or at the start (`-3`, from the first page);
 * pages are 1-based, spaces around items and dashes are allowed. As in Chromium, the pages chosen
 * are printed once each, in document order, whatever the order or overlap of the items.
 *
 * Stricter than Chromium on purpose: an empty item (`1,,3` or a trailing comma), a lone `-`,
 * page 0 and a range that runs backwards (`5-3`) are malformed instead of skipped or read as
 * "everything", so a typo is told to the caller rather than printing pages they did not mean.
 * Shared by convert's `pageRanges` and merge's `pages`.
 */

/** One item: pages first..last, 1-based and inclusive; last absent means "to the last page". */
export interface PageRange {
  first: number;
  last?: number;
}

export type ParsedPageRanges = { ranges: PageRange[] } | { problem: string };

/** The longest text read: ranges past it are not a real request. */
export const MAX_PAGE_RANGES_LENGTH = 1000;

const ITEM = /^(\d{1,9})?\s*(-)?\s*(\d{1,9})?$/;

export function parsePageRanges(text: string): ParsedPageRanges {
  if (text.length > MAX_PAGE_RANGES_LENGTH) {
    return { problem: `is longer than ${MAX_PAGE_RANGES_LENGTH} characters` };
  }
  const ranges: PageRange[] = [];
  const items = text.split(',');
  for (const [index, raw] of items.entries()) {
    const item = raw.trim();
    const where = items.length > 1 ? ` (item ${index + 1}, "${item}")` : '';
    const match = ITEM.exec(item);
    const [, from, dash, to] = match ?? [];
    if (!match || (from === undefined && to === undefined)) {
      return {
        problem: `is not a page range${where}; write pages and ranges separated by commas, 1-based, e.g. "1-3,7,10-"`,
      };
    }
    if (dash === undefined && to !== undefined) {
      return { problem: `is not a page range${where}; separate pages with commas, e.g. "1,3"` };
    }
    const first = from === undefined ? 1 : Number(from);
    const last = dash === undefined ? first : to === undefined ? undefined : Number(to);
    if (first === 0 || last === 0) return { problem: `names page 0${where}; pages are numbered from 1` };
    if (last !== undefined && last < first) {
      return { problem: `runs backwards${where}; write the lower page first, e.g. "${last}-${first}"` };
    }
    ranges.push(last === undefined ? { first } : { first, last });
  }
  return { ranges };
}

/** Whether 1-based `page` is one the ranges choose (the page count need not be known yet). */
export function inPageRanges(ranges: readonly PageRange[], page: number): boolean {
  return ranges.some((range) => page >= range.first && (range.last === undefined || page <= range.last));
}

/**
 * The items (as text) that reach past the last of `pageCount` pages, in whole or in part: what a
 * caller is told was not there. An open range (`10-`) never reaches past the end, but it names
 * nothing when it starts after it.
 */
export function rangesBeyond(ranges: readonly PageRange[], pageCount: number): string[] {
  return ranges
    .filter((range) => range.first > pageCount || (range.last ?? 0) > pageCount)
    .map(({ first, last }) => (last === undefined ? `${first}-` : last === first ? `${first}` : `${first}-${last}`));
}
