#!/usr/bin/env node
// `npm start [-- --port N]`: serves Quire locally on workerd (wrangler dev) with local bindings.
// Before starting it prepares what a fresh clone lacks, so no manual step is ever needed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wrangler = join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js');

if (!existsSync(wrangler)) {
  console.error('wrangler is not installed: run `npm install` first.');
  process.exit(1);
}

const args = process.argv.slice(2);
// Port and address come from wrangler.toml [dev] (8787 on 127.0.0.1) unless given here.
const child = spawn(process.execPath, [wrangler, 'dev', '--local', '--show-interactive-dev-session=false', ...args], {
  cwd: root,
  stdio: 'inherit',
  env: { WRANGLER_SEND_METRICS: 'false', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
