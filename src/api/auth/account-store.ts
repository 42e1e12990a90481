/**
 * The D1 queries of accounts, API keys and verification codes (migrations/0001_*). Plain rows in,
 * plain rows out; the rules (expiry, tries, caps) live in registration.ts.
 */

export interface StoredCode {
  codeHmac: string;
  expiresAt: number;
  /**
   * Tries taken (column failed_attempts): counted before each comparison (takeTry), and a right
   * code deletes the row, so while the row lives they are the wrong tries.
   */
  failedAttempts: number;
}

export interface KeyRecord {
  id: number;
  accountId: number;
  email: string;
  revokedAt: string | null;
}

export interface IssuedKey {
  email: string;
  createdAt: string;
}

/**
 * Creating the account on first use and a key for it: parameters ?1 email, ?2 key hash,
 * ?3 issued_via, ?4 created_at. Exported because `npm run key` runs the same statements through
 * `wrangler d1 execute`, locally or against the deployed database.
 */
export const ISSUE_KEY_STATEMENTS = [
  'INSERT INTO accounts (email, created_at) VALUES (?1, ?4) ON CONFLICT (email) DO NOTHING',
  `INSERT INTO api_keys (account_id, key_hash, issued_via, created_at)
   SELECT id, ?2, ?3, ?4 FROM accounts WHERE email = ?1`,
] as const;

export class AccountStore {
  private readonly db: D1Database;

  constructor(db: D1Database) {
    this.db = db;
  }

  /** Code requests for `email` since `since` (ms), after forgetting older ones. */
  async countCodeRequestsSince(email: string, since: number): Promise<{ count: number; oldest: number | null }> {
    const [, result] = await this.db.batch([
      this.db.prepare('DELETE FROM code_requests WHERE email = ?1 AND requested_at < ?2').bind(email, since),
      this.db
        .prepare('SELECT COUNT(*) AS count, MIN(requested_at) AS oldest FROM code_requests WHERE email = ?1')
        .bind(email),
    ]);
    const row = (result?.results[0] ?? {}) as { count?: number; oldest?: number | null };
    return { count: row.count ?? 0, oldest: row.oldest ?? null };
  }

  /** Stores a new code for `email`, replacing any earlier one, and records the request. */
  async replaceCode(email: string, code: StoredCode, requestedAt: number): Promise<void> {
    await this.db.batch([
      this.db
        .prepare(
          `INSERT INTO verification_codes (email, code_hmac, expires_at, failed_attempts) VALUES (?1, ?2, ?3, 0)
           ON CONFLICT (email) DO UPDATE SET code_hmac = excluded.code_hmac, expires_at = excluded.expires_at,
             failed_attempts = 0`,
        )
        .bind(email, code.codeHmac, code.expiresAt),
      this.db.prepare('INSERT INTO code_requests (email, requested_at) VALUES (?1, ?2)').bind(email, requestedAt),
    ]);
  }

  async findCode(email: string): Promise<StoredCode | null> {
    const row = await this.db
      .prepare('SELECT code_hmac, expires_at, failed_attempts FROM verification_codes WHERE email = ?1')
      .bind(email)
      .first<{ code_hmac: string; expires_at: number; failed_attempts: number }>();
    return row ? { codeHmac: row.code_hmac, expiresAt: row.expires_at, failedAttempts: row.failed_attempts } : null;
  }

  /**
   * Takes one try at the code, before it is compared: one statement counts it and hands back the
   * code to compare, and only while fewer than `maxTries` were taken and the code has not expired.
   * However many requests race, at most `maxTries` of them get a code to compare. Null when no try
   * is left to take (no code, dead, or expired: findCode says which).
   */
  async takeTry(email: string, maxTries: number, now: number): Promise<{ codeHmac: string; tries: number } | null> {
    const row = await this.db
      .prepare(
        `UPDATE verification_codes SET failed_attempts = failed_attempts + 1
         WHERE email = ?1 AND failed_attempts < ?2 AND expires_at > ?3 RETURNING code_hmac, failed_attempts`,
      )
      .bind(email, maxTries, now)
      .first<{ code_hmac: string; failed_attempts: number }>();
    return row ? { codeHmac: row.code_hmac, tries: row.failed_attempts } : null;
  }

  /**
   * Deletes the code if it is still the one a try was taken on: one statement, so two requests
   * racing with the right code cannot both consume it, and a code replaced meanwhile is not.
   * True when this call consumed it.
   */
  async consumeCode(email: string, codeHmac: string): Promise<boolean> {
    const result = await this.db
      .prepare('DELETE FROM verification_codes WHERE email = ?1 AND code_hmac = ?2')
      .bind(email, codeHmac)
      .run();
    return result.meta.changes === 1;
  }

  /** Creates the account on first use and a key for it, in one batch (a D1 transaction). */
  async issueKey(email: string, keyHash: string, issuedVia: 'email' | 'cli', createdAt: string): Promise<IssuedKey> {
    await this.db.batch(
      ISSUE_KEY_STATEMENTS.map((sql) => this.db.prepare(sql).bind(email, keyHash, issuedVia, createdAt)),
    );
    return { email, createdAt };
  }

  async findKey(keyHash: string): Promise<KeyRecord | null> {
    const row = await this.db
      .prepare(
        `SELECT k.id, k.account_id, a.email, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id
         WHERE k.key_hash = ?1`,
      )
      .bind(keyHash)
      .first<{ id: number; account_id: number; email: string; revoked_at: string | null }>();
    return row ? { id: row.id, accountId: row.account_id, email: row.email, revokedAt: row.revoked_at } : null;
  }

  /** Revokes a key; the first revocation time is kept if it was revoked already. */
  async revokeKey(keyId: number, revokedAt: string): Promise<string> {
    const row = await this.db
      .prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?2) WHERE id = ?1 RETURNING revoked_at')
      .bind(keyId, revokedAt)
      .first<{ revoked_at: string }>();
    return row?.revoked_at ?? revokedAt;
  }
}
