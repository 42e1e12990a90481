/**
 * The isolate's memory of keys it has recently found valid, so that a client sending request after
 * request is not looked up in D1 (and its result parsed) every time. Bounded in both directions:
 * at most `capacity` keys (least recently used go first), each trusted for `ttlMs` after its
 * lookup. Only live keys are kept; unknown and revoked ones are always asked of the database.
 *
 * Revocation: DELETE /v1/auth/key forgets the key here at once, so this isolate refuses it on the
 * next request; another isolate that cached it trusts it until its entry expires, at most `ttlMs`.
 * Entries are keyed by the key's SHA-256, never by the key itself.
 */
import { BoundedCache } from '../../kit';
import type { KeyRecord } from './account-store';

/** 30 s: a revoked key keeps working at most this long in an isolate that saw it just before. */
export const KEY_RECORD_TTL_MS = 30_000;
export const KEY_RECORD_CACHE_CAPACITY = 1024;

interface Entry {
  record: KeyRecord;
  expiresAt: number;
}

export class KeyRecordCache {
  readonly ttlMs: number;
  readonly #entries: BoundedCache<string, Entry>;

  constructor(capacity = KEY_RECORD_CACHE_CAPACITY, ttlMs = KEY_RECORD_TTL_MS) {
    this.#entries = new BoundedCache(capacity);
    this.ttlMs = ttlMs;
  }

  /** The live record found for `keyHash` less than ttlMs before `now`, if any. */
  get(keyHash: string, now: number): KeyRecord | undefined {
    const entry = this.#entries.get(keyHash);
    if (!entry) return undefined;
    if (now < entry.expiresAt) return entry.record;
    this.#entries.delete(keyHash);
    return undefined;
  }

  /** Remembers a record just read from the database; revoked ones are not kept. */
  remember(keyHash: string, record: KeyRecord, now: number): void {
    if (record.revokedAt) return;
    this.#entries.set(keyHash, { record, expiresAt: now + this.ttlMs });
  }

  /** Forgets the key with database id `keyId` (it was just revoked). */
  forget(keyId: number): void {
    // A get may move an entry to the recent end, which is harmless here; the cache is small.
    for (const hash of this.#entries.keys()) {
      if (this.#entries.get(hash)?.record.id === keyId) this.#entries.delete(hash);
    }
  }
}
