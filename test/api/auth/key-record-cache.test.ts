import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../../src/api/auth/account-store';
import { KeyRecordCache } from '../../../src/api/auth/key-record-cache';

const record = (id: number, revokedAt: string | null = null): KeyRecord => ({
  id,
  accountId: 1,
  email: 'a@example.com',
  revokedAt,
});

describe('KeyRecordCache', () => {
  it('trusts a live key for its TTL and no longer', () => {
    const cache = new KeyRecordCache(8, 1000);
    cache.remember('h1', record(1), 0);
    expect(cache.get('h1', 999)?.id).toBe(1);
    expect(cache.get('h1', 1000)).toBeUndefined();
    expect(cache.get('h1', 10)).toBeUndefined();
  });

  it('never keeps a revoked key', () => {
    const cache = new KeyRecordCache(8, 1000);
    cache.remember('h1', record(1, '2026-11-22T10:00:00.000Z'), 0);
    expect(cache.get('h1', 1)).toBeUndefined();
  });

  it('forgets a key by its id, leaving the others', () => {
    const cache = new KeyRecordCache(8, 1000);
    cache.remember('h1', record(1), 0);
    cache.remember('h2', record(2), 0);
    cache.forget(1);
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('h2', 1)?.id).toBe(2);
  });

  it('holds at most its capacity, dropping the least recently used', () => {
    const cache = new KeyRecordCache(2, 1000);
    cache.remember('h1', record(1), 0);
    cache.remember('h2', record(2), 0);
    cache.get('h1', 1);
    cache.remember('h3', record(3), 0);
    expect(cache.get('h2', 1)).toBeUndefined();
    expect(cache.get('h1', 1)?.id).toBe(1);
    expect(cache.get('h3', 1)?.id).toBe(3);
  });
});
