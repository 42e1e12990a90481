#!/usr/bin/env node
// `npm run check`: what must pass before a commit, in order, stopping at the first failure:
// `tsc --noEmit` (types), `biome check .` (lint and format; `npm run format` fixes what it can)
// `npm run deps` (dependency-cruiser's layer rules, .dependency-cruiser.cjs), `npm run openapi-lint`
// (redocly's rules over the /openapi.json the worker serves, redocly.yaml) and
// `npm run client -- --check` (the generated client in clients/typescript is current).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpIfAsked } from './script-help.mjs';

helpIfAsked(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const steps = [
  ['tsc', '--noEmit'],
  ['biome', 'check', '.'],
  ['npm', 'run', '-s', 'deps'],
  ['npm', 'run', '-s', 'openapi-lint'],
  ['npm', 'run', '-s', 'client', '--', '--check'],
];
for (const [command, ...args] of steps) {
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (run.error) {
    console.error(`check: ${command} could not run: ${run.error.message}`);
    process.exit(1);
  }
  if (run.status !== 0) process.exit(run.status ?? 1);
}
