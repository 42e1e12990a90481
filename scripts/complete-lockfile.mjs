#!/usr/bin/env node
// Completes package-lock.json with platform packages a registry did not list, each with the
// os/cpu/libc it is for, so that `npm ci` installs only the current platform's binaries.
//
// Packages such as workerd and Biome ship their binaries as optional dependencies, one per
// platform. A registry (or mirror) that serves only some platforms' packages leaves the others
// out of the lock, and `npm ci` then refuses it as "out of sync" ("Missing:
// @cloudflare/workerd-darwin-64@ from lock file"). Each missing entry is added as an optional
// package of the exact version its parent pins. Where the registry does serve the packages (the
// npm registry does), npm records them itself, with integrity and the os/cpu/libc of their
// manifests, and this script finds nothing to do.
//
// An entry added here has no manifest to copy, so its os/cpu/libc are derived from its name, the
// convention every such package follows (@cloudflare/workerd-darwin-arm64, @biomejs/cli-win32-x64,
// @biomejs/cli-linux-x64-musl): os from darwin/linux/win32 (workerd says "windows")/android/
// freebsd/…; cpu from x64 (workerd says "64"), arm64, arm, ia32, …; libc "musl" for a Linux
// name with musl (sharp says "linuxmusl"), "glibc" for one with gnu or glibc, none otherwise: a
// plain linux-x64 then installs under either libc, as workerd's own manifest has it (Biome's and
// sharp's say glibc; on musl that costs one unused binary, never a missing one).
// Without them npm would treat the entry as fit for every platform: a fresh `npm ci` once
// installed all of workerd's and Biome's binaries (2.2G of node_modules). Entries this script
// wrote earlier without them (no integrity, no os/cpu) are repaired the same way. A name that
// says no platform is left as it is. A no-op when nothing is missing or bare.
// Runs as the root `postinstall`, after npm has written the lock.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpIfAsked } from './script-help.mjs';

const OS = { darwin: 'darwin', linux: 'linux', linuxmusl: 'linux', win32: 'win32', windows: 'win32' };
for (const os of ['android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony']) OS[os] = os;
const CPU = { x64: 'x64', 64: 'x64', arm64: 'arm64', arm: 'arm', ia32: 'ia32' };
for (const cpu of ['ppc64', 's390x', 'riscv64', 'loong64', 'mips64el']) CPU[cpu] = cpu;

/** { os, cpu, libc? } from a platform package's name, or undefined when it names no os and cpu. */
export function platformOf(name) {
  const words = name.split('/').at(-1).split('-');
  const os = words.map((w) => OS[w]).find(Boolean);
  const cpu = words.map((w) => CPU[w]).find(Boolean);
  if (!os || !cpu) return undefined;
  const libc =
    os !== 'linux'
      ? undefined
      : words.some((w) => w.includes('musl'))
        ? 'musl'
        : words.some((w) => w === 'gnu' || w === 'glibc')
          ? 'glibc'
          : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

const lockPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'package-lock.json');
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  helpIfAsked(import.meta.url);
  if (existsSync(lockPath)) completeLockfile();
}

function completeLockfile() {
  const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
  const packages = lock.packages ?? {};

  /** Where Node would find `name` from the package at `key`: its own node_modules, then each ancestor's. */
  const resolve = (key, name) => {
    let prefix = key;
    for (;;) {
      const candidate = `${prefix ? `${prefix}/` : ''}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!prefix) return undefined;
      const cut = prefix.lastIndexOf('/node_modules/');
      prefix = cut === -1 ? '' : prefix.slice(0, cut);
    }
  };

  const added = [];
  const repaired = [];
  for (const [key, entry] of Object.entries(packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
      // Platform binaries are pinned exactly; a range (fsevents ~2.3.3) is npm's to resolve.
      if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) continue;
      const found = resolve(key, name);
      if (found && packages[found].version === version) {
        const bare = packages[found];
        const platform = platformOf(name);
        if (platform && !bare.integrity && !bare.os && !bare.cpu) {
          Object.assign(bare, platform);
          repaired.push(`${name}@${version}`);
        }
        continue;
      }
      // Hoist when the top-level slot is free; otherwise nest beside the parent that pins it.
      const slot = packages[`node_modules/${name}`] ? `${key}/node_modules/${name}` : `node_modules/${name}`;
      if (packages[slot]) continue;
      packages[slot] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platformOf(name) };
      added.push(`${name}@${version}`);
    }
  }

  if (added.length === 0 && repaired.length === 0) return;
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
  );
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  if (added.length)
    console.log(`complete-lockfile: recorded ${added.length} platform package(s) the registry did not list`);
  if (repaired.length) console.log(`complete-lockfile: gave ${repaired.length} platform package(s) their os/cpu/libc`);
}
