import { describe, expect, it } from 'vitest';
import { IdentityCache } from '../../../../src/engine/read/ooxml/identity-cache';

describe('the identity cache', () => {
  it('keys by identity, keeps at most its limit of keys, and updates a key it keeps', () => {
    const cache = new IdentityCache<object, number>(2);
    const a = {};
    const b = {};
    const c = {};
    cache.set(a, 1);
    cache.set(b, 2);
    cache.set(c, 3);
    expect(cache.get(a)).toBe(1);
    expect(cache.get({})).toBeUndefined();
    expect(cache.get(c)).toBeUndefined();
    cache.set(b, 4);
    expect(cache.get(b)).toBe(4);
  });
});
