-- Accounts, API keys and verification codes (API.md "GET /v1/auth/register", "GET /v1/auth/verify").
-- Secrets are never stored: keys as SHA-256, codes as HMAC-SHA256 under AUTH_SECRET.

-- An account exists from its first successful verification; register alone creates nothing,
-- so the database holds no trace of emails that never proved they are theirs.
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  -- Lower-case hex SHA-256 of the whole key ("qk_…"). The key is shown once and never kept.
  key_hash TEXT NOT NULL UNIQUE,
  -- How the key was issued: 'email' (register + verify) or 'cli' (npm run key).
  issued_via TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id);

-- One live code per email: requesting a new one replaces the row.
CREATE TABLE verification_codes (
  email TEXT PRIMARY KEY,
  -- Lower-case hex HMAC-SHA256(AUTH_SECRET, email ":" code).
  code_hmac TEXT NOT NULL,
  -- Milliseconds since the Unix epoch.
  expires_at INTEGER NOT NULL,
  failed_attempts INTEGER NOT NULL DEFAULT 0
);

-- When codes were requested, for the cap of 5 codes per email per hour.
CREATE TABLE code_requests (
  email TEXT NOT NULL,
  requested_at INTEGER NOT NULL
);
CREATE INDEX code_requests_by_email ON code_requests (email, requested_at);
