import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/fonts/bounded-cache';

describe('BoundedCache', () => {
  it('never holds more than its capacity and evicts the least recently used', () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.has('b')).toBe(false);
    expect(cache.keys()).toEqual(['a', 'c']);
  });

  it('refuses a capacity below one', () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError);
  });
});
