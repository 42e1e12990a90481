import { describe, expect, it } from 'vitest';
import { inPageRanges, parsePageRanges, rangesBeyond } from '../../src/kit/page-ranges';

const ranges = (text: string) => {
  const parsed = parsePageRanges(text);
  if (!('ranges' in parsed)) throw new Error(parsed.problem);
  return parsed.ranges;
};
const chosen = (text: string, count: number) =>
  Array.from({ length: count }, (_, i) => i + 1).filter((page) => inPageRanges(ranges(text), page));

describe('page ranges (Chromium print-to-PDF syntax)', () => {
  it('reads pages, closed ranges and ranges open at either end, with spaces', () => {
    expect(ranges('1-3,7,10-')).toEqual([{ first: 1, last: 3 }, { first: 7, last: 7 }, { first: 10 }]);
    expect(ranges(' -2 , 4 - 5 ')).toEqual([
      { first: 1, last: 2 },
      { first: 4, last: 5 },
    ]);
  });

  it('chooses each page once, in document order, whatever the order and overlap of the items', () => {
    expect(chosen('7,1-3,2,10-', 12)).toEqual([1, 2, 3, 7, 10, 11, 12]);
    expect(chosen('-2', 5)).toEqual([1, 2]);
  });

  it.each([
    ['', 'is not a page range'],
    ['-', 'is not a page range'],
    ['1,,3', 'item 2'],
    ['1-3,', 'item 2'],
    ['a-b', 'is not a page range'],
    ['1 3', 'separate pages with commas'],
    ['0', 'page 0'],
    ['0-2', 'page 0'],
    ['5-3', 'runs backwards'],
    ['1.5', 'is not a page range'],
    ['-1-3', 'is not a page range'],
  ])('refuses %j, saying why', (text, problem) => {
    const parsed = parsePageRanges(text);
    expect('problem' in parsed && parsed.problem).toContain(problem);
  });

  it('names the items reaching past the last page', () => {
    expect(rangesBeyond(ranges('1-3,7,10-'), 8)).toEqual(['10-']);
    expect(rangesBeyond(ranges('2-5,9'), 4)).toEqual(['2-5', '9']);
    expect(rangesBeyond(ranges('1-'), 4)).toEqual([]);
  });
});
