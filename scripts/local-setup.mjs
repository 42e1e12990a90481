// What a fresh clone needs before the worker can run locally, done by `npm start` and
// `npm run key` (and never by hand): development secrets in .dev.vars (a signing identity among
// them, its CA also in .dev-ca.pem), and the D1 migrations
// applied to the local database under .wrangler/state.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDevIdentity } from './dev-identity.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wranglerBin = join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const devVarsPath = join(root, '.dev.vars');

/**
 * The environment of every local wrangler run (npm start, the scripts' in-process worker, the D1
 * migrations), each a setting wrangler and Miniflare document and read:
 * - WRANGLER_SEND_METRICS=false: no usage telemetry (wrangler.toml's send_metrics = false says
 *   the same for a wrangler run by hand).
 * - CLOUDFLARE_CF_FETCH_ENABLED=false: Miniflare gives each request its built-in placeholder
 *   `request.cf` instead of first downloading one from workers.cloudflare.com, which offline
 *   printed "Unable to fetch the `Request.cf` object!" and a stack trace, twice, on every start.
 *   Quire reads nothing from request.cf. CLOUDFLARE_CF_FETCH_PATH=file.json gives a real one.
 * A value already in the environment wins, so either can be turned back on for one run.
 */
export const LOCAL_WRANGLER_ENV = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

/** LOCAL_WRANGLER_ENV in this process, for wrangler's API run in process (worker-harness.mjs). */
export function useLocalWranglerEnv() {
  for (const [name, value] of Object.entries(LOCAL_WRANGLER_ENV)) process.env[name] ??= value;
}

/** Runs wrangler on the project's Node; output is captured unless `inherit` is set. */
export function wrangler(args, { inherit = false } = {}) {
  if (!existsSync(wranglerBin)) throw new Error('wrangler is not installed: run `npm install` first.');
  const result = spawnSync(process.execPath, [wranglerBin, ...args], {
    cwd: root,
    stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { ...LOCAL_WRANGLER_ENV, ...process.env, CI: process.env.CI ?? 'true' },
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new Error(`wrangler ${args.join(' ')} failed${output ? `:\n${output}` : ''}`);
  }
  return result.stdout ?? '';
}

/** Development secrets, generated once and kept in .dev.vars (git-ignored). */
const DEV_SECRETS = {
  AUTH_SECRET: () => randomBytes(32).toString('hex'),
  // Codes in the terminal: wrangler.toml names no transport, so a deployment never falls into this one.
  MAIL_TRANSPORT: () => 'log',
};

/** The development signing identity's two secrets: made together, since the key must match the chain's leaf. */
const SIGNING_SECRETS = ['SIGNING_KEY', 'SIGNING_CERT_CHAIN'];
/** The development CA on its own (git-ignored), for importing into a PDF reader's or NSS's trust store. */
export const devCaPath = join(root, '.dev-ca.pem');

export async function ensureDevVars() {
  const current = existsSync(devVarsPath) ? readFileSync(devVarsPath, 'utf8') : '';
  const has = (name) => new RegExp(`^${name}=`, 'm').test(current);
  const missing = Object.keys(DEV_SECRETS).filter((name) => !has(name));
  const lines = missing.map((name) => `${name}=${DEV_SECRETS[name]()}`);
  const signingMissing = SIGNING_SECRETS.filter((name) => !has(name));
  if (signingMissing.length === SIGNING_SECRETS.length) {
    const identity = await createDevIdentity();
    lines.push(`SIGNING_KEY=${dotenvMultiline(identity.keyPem)}`);
    lines.push(`SIGNING_CERT_CHAIN=${dotenvMultiline(identity.chainPem)}`);
    writeFileSync(devCaPath, identity.caPem);
    missing.push(...SIGNING_SECRETS);
  } else if (signingMissing.length > 0) {
    // Half an identity cannot be completed: a new key would not match the old certificate.
    console.warn(
      `local setup: .dev.vars has ${SIGNING_SECRETS.filter(has).join('')} but not ${signingMissing.join('')}; remove both to have a new development identity made`,
    );
  }
  if (lines.length === 0) return;
  const prefix = current === '' ? '# Local development secrets, written by npm start. Never commit this file.\n' : '';
  const separator = current !== '' && !current.endsWith('\n') ? '\n' : '';
  writeFileSync(devVarsPath, `${current}${separator}${prefix}${lines.join('\n')}\n`, { mode: 0o600 });
  console.log(`local setup: wrote ${missing.join(', ')} to .dev.vars`);
}

/**
 * A PEM as one .dev.vars line. Wrangler reads .dev.vars with dotenv, which turns \n inside a
 * double-quoted value into a newline (and keeps a value on one line, so a line-based check like
 * the one above still sees each name once). PEM has no quotes or backslashes to escape.
 */
export function dotenvMultiline(pem) {
  return `"${pem.replace(/\r?\n/g, '\\n')}"`;
}

export function applyLocalMigrations() {
  wrangler(['d1', 'migrations', 'apply', 'DB', '--local']);
}
