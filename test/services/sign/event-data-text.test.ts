import { describe, expect, it } from 'vitest';
import { breakableText, dataLines } from '../../../src/services/sign/event-data-text';

describe('dataLines', () => {
  it('flattens nested objects with dotted keys and arrays with indexes, in insertion order', () => {
    expect(dataLines({ a: { b: 1, c: { d: 'x' } }, list: [true, null, { k: 2 }], s: 'plain' })).toEqual([
      { key: 'a.b', value: '1' },
      { key: 'a.c.d', value: 'x' },
      { key: 'list[0]', value: 'true' },
      { key: 'list[1]', value: 'null' },
      { key: 'list[2].k', value: '2' },
      { key: 's', value: 'plain' },
    ]);
  });

  it('says so for empty objects and arrays, and nothing for empty data', () => {
    expect(dataLines({ o: {}, l: [] })).toEqual([
      { key: 'o', value: '(empty)' },
      { key: 'l', value: '(none)' },
    ]);
    expect(dataLines({})).toEqual([]);
  });

  it('prints what lies below seven levels of keys as JSON', () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } };
    expect(dataLines(deep)).toEqual([{ key: 'a.b.c.d.e.f.g', value: '{"h":1}' }]);
  });
});

describe('breakableText', () => {
  it('leaves words and short tokens alone', () => {
    expect(breakableText('a short sentence with 0123456789abcdef')).toBe('a short sentence with 0123456789abcdef');
  });

  it('puts invisible break opportunities into long tokens, keeping their characters', () => {
    const hex = 'f'.repeat(200);
    const broken = breakableText(hex);
    expect(broken.replaceAll('\u200b', '')).toBe(hex);
    for (const piece of broken.split('\u200b')) expect(piece.length).toBeLessThanOrEqual(16);
    const url = 'https://example.com/a/very/long/path?with=query&and=more';
    expect(breakableText(url).split('\u200b')[0]).toBe('https:/');
    expect(breakableText(url).replaceAll('\u200b', '')).toBe(url);
  });
});
