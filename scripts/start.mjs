#!/usr/bin/env node
// `npm start [-- --port N]`: serves Quire locally on workerd (wrangler dev) with local bindings.
// Before starting it prepares what a fresh clone lacks, so no manual step is ever needed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { prepareFallbackFonts } from './fallback-fonts.mjs';
import { applyLocalMigrations, ensureDevVars, LOCAL_WRANGLER_ENV, root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';

helpIfAsked(import.meta.url);

try {
  await ensureDevVars();
  prepareFallbackFonts();
  applyLocalMigrations();
} catch (error) {
  console.error(String(error instanceof Error ? error.message : error));
  process.exit(1);
}

const args = process.argv.slice(2);
// Port and address come from wrangler.toml [dev] (8787 on 127.0.0.1) unless given here.
const wrangler = join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
const child = spawn(process.execPath, [wrangler, 'dev', '--local', '--show-interactive-dev-session=false', ...args], {
  cwd: root,
  stdio: 'inherit',
  env: { ...LOCAL_WRANGLER_ENV, ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
