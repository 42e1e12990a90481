#!/usr/bin/env node
// The wide verify corpus: signed PDFs from public test suites, each with the verdict the suite's
// own test asserts. The files stay outside the repository (some suites are LGPL or AGPL); the
// manifest scripts/verify-corpus.tsv names them (repository, commit, path, expected verdict, the
// test file and line that asserts it, a note), and this script rebuilds the folder:
//
//   node scripts/verify-corpus.mjs [--dir DIR] [--mirror MIRRORS] [MANIFEST]
//
// Each file is read from a local snapshot of its repository when one is at
// MIRRORS/<owner>+<name>/repo (a bare git directory, as the tool library's `fetch` leaves them),
// else downloaded from raw.githubusercontent.com at the pinned commit. DIR defaults to
// ../verify-corpus beside the project; then `npm run verify-check -- scripts/verify-corpus.tsv`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpIfAsked } from './script-help.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const EXPECTED = new Set(['valid', 'invalid', 'unsigned', 'indeterminate']);

/** The manifest's rows: {repo, commit, path, expected, assertedBy, note}; `#` lines are comments. */
export function readCorpusManifest(path) {
  const lines = readFileSync(path, 'utf8').split('\n');
  const rows = [];
  for (const [index, line] of lines.entries()) {
    if (!line.trim() || line.startsWith('#') || line.startsWith('repo\t')) continue;
    const [repo, commit, filePath, expected, assertedBy = '', note = ''] = line.split('\t');
    if (!/^[0-9a-f]{40}$/.test(commit ?? '') || !filePath || !EXPECTED.has(expected)) {
      throw new Error(`${path}:${index + 1}: expected repo, 40-hex commit, path, ${[...EXPECTED].join('|')}`);
    }
    rows.push({ repo, commit, path: filePath, expected, assertedBy, note });
  }
  return rows;
}

/** Where a row's file lives in the corpus folder. */
export function corpusFile(dir, row) {
  return join(dir, row.repo.replace('/', '+'), row.path);
}

async function rebuild() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : fallback;
  };
  const dir = resolve(option('--dir', join(here, '..', '..', 'verify-corpus')));
  const mirrors = resolve(option('--mirror', join(here, '..', '..', '.mirror')));
  const manifest = args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--'));
  const rows = readCorpusManifest(resolve(manifest ?? join(here, 'verify-corpus.tsv')));
  let local = 0;
  let downloaded = 0;
  let kept = 0;
  const missing = [];
  for (const row of rows) {
    const target = corpusFile(dir, row);
    if (existsSync(target)) {
      kept++;
      continue;
    }
    const git = join(mirrors, row.repo.replace('/', '+'), 'repo');
    let bytes;
    if (existsSync(git)) {
      try {
        bytes = execFileSync('git', ['-C', git, 'show', `${row.commit}:${row.path}`], { maxBuffer: 1 << 28 });
        local++;
      } catch {
        bytes = undefined;
      }
    }
    if (!bytes) {
      const url = `https://raw.githubusercontent.com/${row.repo}/${row.commit}/${row.path.split('/').map(encodeURIComponent).join('/')}`;
      const res = await fetch(url).catch((error) => ({ ok: false, status: error.message }));
      if (!res.ok) {
        missing.push(`${row.repo}:${row.path} (${url}: ${res.status})`);
        continue;
      }
      bytes = Buffer.from(await res.arrayBuffer());
      downloaded++;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
  console.log(
    `${rows.length} files in ${dir}: ${local} from snapshots, ${downloaded} downloaded, ${kept} already there`,
  );
  if (missing.length > 0) {
    console.error(`${missing.length} could not be brought:\n  ${missing.join('\n  ')}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  helpIfAsked(import.meta.url);
  await rebuild();
}
