#!/usr/bin/env node
// `npm run key -- EMAIL [--remote]`: mints an API key without the email round trip, for local
// development and internal callers. The key is printed alone on the last line; only its SHA-256
// is stored. Keys are made, hashed and stored by the worker's own code (src/auth), run here
// under Node's type stripping.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ISSUE_KEY_STATEMENTS } from '../src/api/auth/account-store.ts';
import { generateApiKey, hashApiKey } from '../src/api/auth/api-key.ts';
import { EmailAddressSchema } from '../src/api/auth/email-address.ts';
import { applyLocalMigrations, ensureDevVars, wrangler } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';

helpIfAsked(import.meta.url);

function usage(message) {
  console.error(`${message}\nUsage: npm run key -- you@example.com [--remote]`);
  process.exit(2);
}

const args = process.argv.slice(2);
const remote = args.includes('--remote');
const rest = args.filter((arg) => arg !== '--remote');
if (rest.length !== 1) usage('Give exactly one email address.');
const parsed = EmailAddressSchema.safeParse(rest[0]);
if (!parsed.success) usage(`Not a valid email address: ${rest[0]}`);
const email = parsed.data;

/** SQLite string literal (single quotes doubled); the values are a validated email, hex and ISO time. */
const literal = (value) => `'${String(value).replaceAll("'", "''")}'`;
const key = generateApiKey();
const params = [email, await hashApiKey(key), 'cli', new Date().toISOString()].map(literal);
const sql = ISSUE_KEY_STATEMENTS.map((statement) => `${statement.replace(/\?(\d)/g, (_, i) => params[i - 1])};`).join(
  '\n',
);

const dir = mkdtempSync(join(tmpdir(), 'quire-key-'));
try {
  if (!remote) {
    await ensureDevVars();
    applyLocalMigrations();
  }
  const file = join(dir, 'mint.sql');
  writeFileSync(file, sql);
  wrangler(['d1', 'execute', 'DB', remote ? '--remote' : '--local', `--file=${file}`]);
} catch (error) {
  console.error(String(error instanceof Error ? error.message : error));
  process.exit(1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.error(`API key for ${email} (${remote ? 'deployed' : 'local'} database); it is shown only now:`);
console.log(key);
