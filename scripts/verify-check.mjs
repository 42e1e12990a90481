#!/usr/bin/env node
// `npm run verify-check [-- MANIFEST.tsv [--dir DIR]]`: POST /v1/verify, through the worker on
// workerd, for every tagged signed PDF of a corpus, and compare the answer with the tag.
//
// Without an argument it reads the shared corpus's pdf-signed/ (MANIFEST.tsv of ../shared/corpus,
// the tag opening each description):
//   VALID-* and MODIFIED-* → valid:true; TAMPERED*, INVALID*, ATTACK, NONSTANDARD-COVERAGE,
//   MALFORMED, MIXED → valid:false (a 422 counts as not valid); UNSIGNED* → no signatures;
//   INDETERMINATE → a problem naming the missing or unusable certificate; REAL-WORLD,
//   UR3-USAGE-RIGHTS and SPECIAL are printed but not counted.
// With a manifest of the wide corpus (scripts/verify-corpus.tsv: repo, commit, path, expected,
// asserted-by, note; expected is valid | invalid | unsigned | indeterminate), it reads the files
// that `node scripts/verify-corpus.mjs` put in DIR (default ../verify-corpus).
// One line per file (tag, our valid, agree?, reason), then `agree N/M (P%)` and the 5xx count.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';
import { corpusFile, readCorpusManifest } from './verify-corpus.mjs';
import { fetchRetrying, startQuire } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const dirAt = args.indexOf('--dir');
const dir = resolve(dirAt >= 0 ? args[dirAt + 1] : join(root, '..', 'verify-corpus'));
const manifestPath = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--dir');

/** The rows to check: {file, label, tag}, from the shared corpus or from a wide-corpus manifest. */
function rows() {
  if (manifestPath) {
    return readCorpusManifest(resolve(manifestPath)).map((row) => ({
      file: corpusFile(dir, row),
      label: `${row.repo.split('/')[1]}:${row.path}`,
      tag: row.expected.toUpperCase(),
    }));
  }
  const corpus = resolve(root, '..', 'shared', 'corpus');
  return readFileSync(join(corpus, 'MANIFEST.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'))
    .filter((cols) => cols[0]?.startsWith('pdf-signed/') && cols[0].endsWith('.pdf'))
    .map(([path, , , , , , description = '']) => ({
      file: join(corpus, path),
      label: path.replace('pdf-signed/', ''),
      tag: /^\[([^\]]+)\]/.exec(description)?.[1]?.replace(/\?$/, '') ?? 'UNTAGGED',
    }));
}

const NOT_COUNTED = new Set(['REAL-WORLD', 'UR3-USAGE-RIGHTS', 'SPECIAL']);
const EXPECT_INVALID = /^(TAMPERED|INVALID|ATTACK$|NONSTANDARD-COVERAGE$|MALFORMED$|MIXED$)/;

/** Whether our answer agrees with the tag; undefined when the tag is not counted. */
function agrees(tag, status, body) {
  if (NOT_COUNTED.has(tag)) return undefined;
  const valid = status === 200 ? body.valid : false;
  if (/^(VALID|MODIFIED)/.test(tag)) return status === 200 && valid === true;
  if (EXPECT_INVALID.test(tag)) return valid === false;
  if (tag.startsWith('UNSIGNED')) return status === 200 && body.signatures.length === 0;
  if (tag === 'INDETERMINATE') {
    return (
      status === 200 &&
      body.signatures.some((signature) => signature.problems.some((problem) => /certificate/i.test(problem)))
    );
  }
  return undefined;
}

const quire = await startQuire();
let counted = 0;
let agreed = 0;
let serverErrors = 0;
let missing = 0;
const disagreements = [];
const width = manifestPath ? 90 : 58;
try {
  for (const { file, label, tag } of rows()) {
    if (!existsSync(file)) {
      // Not brought by verify-corpus.mjs (a blob the snapshot lacks, and no network): said, not counted.
      console.log(`${label.padEnd(width)} ${tag.padEnd(22)} missing: run scripts/verify-corpus.mjs`);
      missing++;
      continue;
    }
    const bytes = readFileSync(file);
    // The per-key rate limit answers 429 past 120 a minute: fetchRetrying sends it again with a fresh key.
    const res = await fetchRetrying(quire, '/v1/verify', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ document: { base64: bytes.toString('base64') } }),
    });
    const body = await res.json().catch(() => ({}));
    if (res.status >= 500) serverErrors++;
    const agree = agrees(tag, res.status, body);
    if (agree !== undefined) {
      counted++;
      if (agree) agreed++;
    }
    const ours = res.status === 200 ? String(body.valid) : `HTTP ${res.status}`;
    const reason = res.status === 200 ? body.reason : body.message;
    const mark = agree === undefined ? '-' : agree ? 'yes' : 'NO';
    const line = `${label.padEnd(width)} ${tag.padEnd(22)} ${ours.padEnd(9)} ${mark.padEnd(4)} ${reason}`;
    console.log(line);
    if (agree === false) {
      const problems = (body.signatures ?? []).map((s, i) => `    sig ${i + 1} [${s.field}]: ${s.problems.join('; ')}`);
      disagreements.push([line, ...problems].join('\n'));
    }
  }
} finally {
  await quire.dispose();
}
console.log(`\nDisagreements (${disagreements.length}):\n${disagreements.join('\n')}`);
console.log(
  `\nagree ${agreed}/${counted} (${counted ? ((100 * agreed) / counted).toFixed(1) : '0.0'}%), 5xx: ${serverErrors}${missing ? `, ${missing} missing` : ''}`,
);
