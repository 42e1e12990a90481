import { ApiError } from '../errors';
import type { AccountStore, KeyRecord } from './account-store';
import { hashApiKey, isWellFormedApiKey } from './api-key';

function refused(message: string): ApiError {
  return new ApiError('AUTHENTICATION_ERROR', message);
}

/**
 * Resolves a presented API key to its record. The key is looked up by its SHA-256: the hash of a
 * 256-bit secret reveals nothing, so an index lookup leaks nothing a timing attack could use, and
 * the key itself never reaches the database.
 */
export async function authenticateApiKey(store: AccountStore, key: string): Promise<KeyRecord> {
  if (!isWellFormedApiKey(key)) {
    throw refused('The API key is malformed: keys look like qk_ followed by 43 letters and digits.');
  }
  const record = await store.findKey(await hashApiKey(key));
  if (!record) throw refused('The API key is not known. Register again with /v1/auth/register to get a key.');
  if (record.revokedAt) throw refused(`The API key was revoked at ${record.revokedAt}; use another key.`);
  return record;
}
