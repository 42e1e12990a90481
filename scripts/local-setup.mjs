// What a fresh clone needs before the worker can run locally, done by `npm start` and
// `npm run key` (and never by hand): development secrets in .dev.vars, and the D1 migrations
// applied to the local database under .wrangler/state.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wranglerBin = join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const devVarsPath = join(root, '.dev.vars');

/** Runs wrangler on the project's Node; output is captured unless `inherit` is set. */
export function wrangler(args, { inherit = false } = {}) {
  if (!existsSync(wranglerBin)) throw new Error('wrangler is not installed: run `npm install` first.');
  const result = spawnSync(process.execPath, [wranglerBin, ...args], {
    cwd: root,
    stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: process.env.CI ?? 'true' },
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
};

export function ensureDevVars() {
  const current = existsSync(devVarsPath) ? readFileSync(devVarsPath, 'utf8') : '';
  const missing = Object.keys(DEV_SECRETS).filter((name) => !new RegExp(`^${name}=`, 'm').test(current));
  if (missing.length === 0) return;
  const lines = missing.map((name) => `${name}=${DEV_SECRETS[name]()}`);
  const prefix = current === '' ? '# Local development secrets, written by npm start. Never commit this file.\n' : '';
  const separator = current !== '' && !current.endsWith('\n') ? '\n' : '';
  writeFileSync(devVarsPath, `${current}${separator}${prefix}${lines.join('\n')}\n`, { mode: 0o600 });
  console.log(`local setup: wrote ${missing.join(', ')} to .dev.vars`);
}

export function applyLocalMigrations() {
  wrangler(['d1', 'migrations', 'apply', 'DB', '--local']);
}
