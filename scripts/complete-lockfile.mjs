#!/usr/bin/env node
// Completes package-lock.json with the platform packages the registry of this workplace lacks.
//
// Packages such as workerd and Biome ship their binaries as optional dependencies, one per
// platform. The npm registry mirror reachable here serves only the Linux ones, so `npm install`
// cannot record the macOS/Windows entries, and `npm ci` then refuses the lock as "out of sync"
// ("Missing: @cloudflare/workerd-darwin-64@ from lock file"). Each missing entry is added as an
// optional package of the exact version its parent pins; `npm ci` skips it on other platforms,
// and installs it by name and version where the registry has it. A no-op when nothing is missing.
// Runs as the root `postinstall`, after npm has written the lock.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const lockPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'package-lock.json');
if (!existsSync(lockPath)) process.exit(0);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages ?? {};

/** Where Node would find `name` from the package at `key`: its own node_modules, then each ancestor's. */
function resolve(key, name) {
  let prefix = key;
  for (;;) {
    const candidate = `${prefix ? `${prefix}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!prefix) return undefined;
    const cut = prefix.lastIndexOf('/node_modules/');
    prefix = cut === -1 ? '' : prefix.slice(0, cut);
  }
}

const added = [];
for (const [key, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    // Platform binaries are pinned exactly; a range (fsevents ~2.3.3) is npm's to resolve.
    if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) continue;
    const found = resolve(key, name);
    if (found && packages[found].version === version) continue;
    // Hoist when the top-level slot is free; otherwise nest beside the parent that pins it.
    const slot = packages[`node_modules/${name}`] ? `${key}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[slot]) continue;
    packages[slot] = { version, ...(entry.dev ? { dev: true } : {}), optional: true };
    added.push(`${name}@${version}`);
  }
}

if (added.length > 0) {
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
  );
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`complete-lockfile: recorded ${added.length} platform package(s) the registry did not list`);
}
