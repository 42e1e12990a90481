#!/usr/bin/env node
// `npm run verify-fuzz -- [--seed N] [--count N] [--only I[,J…]] [--out DIR]`: POST /v1/verify,
// through the worker on workerd, with mutated signed PDFs, and counts what comes back. docs/api.md
// allows 200 (any readable PDF), 415 (not a PDF) and 422 (damaged); a 5xx or a request that takes
// longer than the timeout (a hang) is a bug.
// The signed PDFs are made at run time: by Quire's own /v1/sign (markdown converted by
// /v1/convert, a multi-page one, one signed twice), by ../shared/tools/make-signed-pdfs.sh (poppler's
// pdfsig), and a few read from ../shared/corpus/pdf-signed/. Each variant draws its base and its
// mutation from a PRNG seeded with (seed, index) alone, so `--seed S --only N` remakes variant N
// without the others; every 5xx or hang is also written to --out (default /tmp/quire-verify-fuzz).
// The mutations are scripts/pdf-mutations.mjs, which `npm run sign-fuzz` draws from too.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { root } from './local-setup.mjs';
import { makePdfVariant } from './pdf-mutations.mjs';
import { helpIfAsked } from './script-help.mjs';
import { LONG_MD, markdownPdf, SHORT_MD, signed } from './signed-inputs.mjs';
import { fuzzOptions, runFuzz } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const options = fuzzOptions(process.argv.slice(2), { label: 'verify-fuzz', saveFlag: '--out' });
const { seed } = options;
const corpus = resolve(root, '..', 'shared', 'corpus');

// ---------------------------------------------------------------------------------------------
// The signed PDFs the variants start from.

async function buildBases(quire) {
  const work = mkdtempSync(join(tmpdir(), 'quire-fuzz-bases-'));
  const bases = [];
  try {
    const short = await markdownPdf(quire, work, 'short', SHORT_MD);
    const long = await markdownPdf(quire, work, 'long', LONG_MD);
    const shortSigned = await signed(quire, short, { eventId: 'fuzz-short' });
    bases.push({ name: 'quire:md-short', bytes: shortSigned });
    bases.push({
      name: 'quire:md-short-no-certificate',
      bytes: await signed(quire, short, { certificate: { enabled: false } }),
    });
    bases.push({ name: 'quire:md-multipage', bytes: await signed(quire, long, { eventId: 'fuzz-long' }) });
    bases.push({ name: 'quire:md-short-signed-twice', bytes: await signed(quire, shortSigned) });

    const fixtures = join(work, 'fixtures');
    const made = spawnSync('bash', [resolve(corpus, '..', 'tools', 'make-signed-pdfs.sh'), fixtures], {
      encoding: 'utf8',
    });
    if (made.status === 0 && existsSync(join(fixtures, 'signed.pdf'))) {
      bases.push({
        name: 'make-signed-pdfs:signed.pdf',
        bytes: new Uint8Array(readFileSync(join(fixtures, 'signed.pdf'))),
      });
    } else console.log(`make-signed-pdfs.sh failed (left out): ${made.stderr.slice(-400)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  for (const name of [
    'nodesignpdf-signed-twice.pdf',
    'pyhanko-coverage-base.pdf',
    'dss-es-doc-firmado-T.pdf',
    'dss-etsi-plugtest-BG_BOR-1.pdf',
    'pyhanko-adobe-two-fields-signed-twice.pdf',
    'dss-timestamped-and-signed.pdf',
  ]) {
    const path = join(corpus, 'pdf-signed', name);
    if (existsSync(path)) bases.push({ name: `corpus:${name}`, bytes: new Uint8Array(readFileSync(path)) });
    else console.log(`corpus file missing (left out): ${path}`);
  }
  return bases;
}

// ---------------------------------------------------------------------------------------------
// The run.

let bases = [];
const failures = await runFuzz({
  label: 'verify-fuzz',
  options,
  extension: 'pdf',
  prepare: async (quire) => {
    bases = await buildBases(quire);
    console.log(`bases (${bases.length}): ${bases.map((b) => `${b.name} ${b.bytes.length} B`).join(', ')}`);
  },
  makeVariant: (index) => makePdfVariant(bases, seed, index),
  requestFor: (variant) => ({
    path: '/v1/verify',
    init: {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ document: { base64: Buffer.from(variant.bytes).toString('base64') } }),
    },
  }),
});
process.exitCode = failures ? 1 : 0;
