#!/usr/bin/env node
// `node scripts/text-kept-readers.mjs SOURCE_DIR PDF_DIR [--min 0.98]`
//   text-kept.mjs (../shared/tools) with three readers of each PDF instead of one: pdftotext,
//   pdftotext -raw and mutool's text device. Each reader has its own habits, which text-kept
//   counts as lost words though the PDF holds them: pdftotext joins a word broken after a hyphen
//   at a line's end ("two-" / "column" → "twocolumn", as it does on Word's and LibreOffice's
//   PDFs); -raw keeps the hyphen but reads in drawing order; mutool keeps both but reads
//   right-to-left lines in drawing order. A word counts as kept when any reader finds it (per
//   word, the most any reader finds), so what is left missing is missing from the PDF, not from
//   one reader's idea of it. The summary line gives each reader's pooled recall and this one's.
//   The tokens are text-kept.mjs's, copied: that file is a command and cannot be imported.
//   Needs pandoc, poppler-utils and mupdf-tools.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';

const FROM = { '.docx': 'docx', '.md': 'gfm', '.markdown': 'gfm', '.html': 'html', '.htm': 'html' };
const NO_SPACE =
  /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u0e00-\u0e7f\u0e80-\u0eff\u1000-\u109f\u1780-\u17ff]/u;
const work = mkdtempSync(join(tmpdir(), 'text-kept-readers-'));
const FILTER = join(work, 'filter.lua');
writeFileSync(
  FILTER,
  'function Image(el) return {} end\nfunction Note(el) return pandoc.Span(pandoc.List({pandoc.Space()}) .. pandoc.utils.blocks_to_inlines(el.content)) end\n',
);
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const run = (command, args) => {
  try {
    return execFileSync(command, args, {
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 120000,
    }).toString();
  } catch {
    return null;
  }
};

function tokens(text) {
  const out = [];
  for (const raw of text.normalize('NFKC').toLowerCase().split(/\s+/u)) {
    let word = '';
    for (const ch of raw) {
      if (NO_SPACE.test(ch)) {
        if (word) out.push(word);
        word = '';
        out.push(ch);
      } else if (/[\p{L}\p{N}\p{M}]/u.test(ch)) word += ch;
      else if (word) {
        out.push(word);
        word = '';
      }
    }
    if (word) out.push(word);
  }
  return out;
}

const bag = (list) => {
  const counts = new Map();
  for (const token of list) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
};

const READERS = {
  pdftotext: (pdf) => run('pdftotext', ['-enc', 'UTF-8', pdf, '-']),
  'pdftotext -raw': (pdf) => run('pdftotext', ['-raw', '-enc', 'UTF-8', pdf, '-']),
  mutool: (pdf) => run('mutool', ['draw', '-q', '-F', 'txt', pdf]),
};

const args = process.argv.slice(2);
const minAt = args.indexOf('--min');
const min = minAt >= 0 ? Number(args.splice(minAt, 2)[1]) : 0.98;
const [sourceDir, pdfDir] = args;
if (!sourceDir || !pdfDir) {
  console.error('usage: text-kept-readers.mjs SOURCE_DIR PDF_DIR [--min 0.98]');
  process.exit(2);
}

const sources = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path);
    else if (FROM[extname(entry).toLowerCase()]) sources.push(path);
  }
};
walk(sourceDir);

const names = Object.keys(READERS);
const pooled = Object.fromEntries([...names, 'any'].map((name) => [name, 0]));
let words = 0;
const rows = [];
for (const source of sources) {
  const rel = relative(sourceDir, source);
  const stem = rel.slice(0, -extname(rel).length).split('/').join('__');
  const pdf = join(pdfDir, `${stem}.pdf`);
  if (!existsSync(pdf)) continue;
  const text = run('pandoc', [
    '-f',
    FROM[extname(source).toLowerCase()],
    '-t',
    'plain',
    '--wrap=none',
    '--lua-filter',
    FILTER,
    source,
  ]);
  if (text === null) continue;
  const want = bag(tokens(text));
  const have = names.map((name) => bag(tokens(READERS[name](pdf) ?? '')));
  const row = { stem, words: 0, kept: 0, missing: [] };
  for (const [token, count] of want) {
    row.words += count;
    let best = 0;
    have.forEach((found, i) => {
      const kept = Math.min(count, found.get(token) ?? 0);
      pooled[names[i]] += kept;
      best = Math.max(best, kept);
    });
    row.kept += best;
    if (best < count) row.missing.push([token, count - best]);
  }
  words += row.words;
  pooled.any += row.kept;
  rows.push(row);
}

const recall = (row) => (row.words ? row.kept / row.words : 1);
rows.sort((a, b) => recall(a) - recall(b));
for (const row of rows) {
  if (recall(row) >= min) break;
  row.missing.sort((a, b) => b[1] - a[1]);
  const missing = row.missing.slice(0, 12).map(([token, count]) => `${token}×${count}`);
  console.log(`${row.stem}\t${row.kept}/${row.words}\t${recall(row).toFixed(3)}\tmissing: ${missing.join(' ')}`);
}
const share = (kept) => (words ? kept / words : 1).toFixed(4);
console.log(
  `documents ${rows.length}  pooled: ${names.map((name) => `${name} ${share(pooled[name])}`).join('  ')}  any reader ${share(pooled.any)}  below ${min} (any reader): ${rows.filter((row) => recall(row) < min).length}`,
);
