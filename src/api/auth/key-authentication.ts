import { ApiError } from '../../errors';
import type { AccountStore, KeyRecord } from './account-store';
import { hashApiKey, isWellFormedApiKey } from './api-key';
import type { KeyRecordCache } from './key-record-cache';

function refused(message: string): ApiError {
  return new ApiError('AUTHENTICATION_ERROR', message);
}

/**
 * Resolves a presented API key to its record. The key is looked up by its SHA-256: the hash of a
 * 256-bit secret reveals nothing, so an index lookup leaks nothing a timing attack could use, and
 * the key itself never reaches the database. With a `cache`, a key found live within its TTL is
 * not looked up again (key-record-cache.ts).
 */
export async function authenticateApiKey(
  store: AccountStore,
  key: string,
  cache?: KeyRecordCache,
  now = Date.now(),
): Promise<KeyRecord> {
  if (!isWellFormedApiKey(key)) {
    throw refused('The API key is malformed: keys look like qk_ followed by 43 letters and digits.');
  }
  const keyHash = await hashApiKey(key);
  const cached = cache?.get(keyHash, now);
  if (cached) return cached;
  const record = await store.findKey(keyHash);
  if (!record) throw refused('The API key is not known. Register again with /v1/auth/register to get a key.');
  if (record.revokedAt) throw refused(`The API key was revoked at ${record.revokedAt}; use another key.`);
  cache?.remember(keyHash, record, now);
  return record;
}
