import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/kit/bounded-cache';

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

  it('moves a hit to the recent end only once it has aged by half the capacity', () => {
    const cache = new BoundedCache<string, number>(8);
    for (const key of ['a', 'b', 'c']) cache.set(key, 0);
    cache.get('b'); // placed 1 insertion ago: stays where it is
    expect(cache.keys()).toEqual(['a', 'b', 'c']);
    for (const key of ['d', 'e']) cache.set(key, 0);
    cache.get('a'); // placed 4 insertions ago, half the capacity: moved
    expect(cache.keys()).toEqual(['b', 'c', 'd', 'e', 'a']);
  });

  it('evicts the least recently used while the weights exceed maxWeight, never the entry just weighed', () => {
    const cache = new BoundedCache<string, number>(10, 100);
    cache.set('a', 1);
    cache.weigh('a', 40);
    cache.set('b', 2);
    cache.weigh('b', 40);
    expect(cache.weight).toBe(80);
    cache.set('c', 3);
    cache.weigh('c', 30);
    expect(cache.keys()).toEqual(['b', 'c']);
    expect(cache.weight).toBe(70);
    // Heavier than the bound alone: it stays, the others go.
    cache.set('d', 4);
    cache.weigh('d', 150);
    expect(cache.keys()).toEqual(['d']);
    cache.delete('d');
    expect(cache.weight).toBe(0);
    cache.weigh('missing', 10);
    expect(cache.size).toBe(0);
  });

  it('refuses a capacity below one', () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError);
  });
});
