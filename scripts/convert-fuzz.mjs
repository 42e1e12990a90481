#!/usr/bin/env node
// `npm run convert-fuzz -- [--seed N] [--count 2000] [--dir DIR] [--only I[,J…]] [--save DIR]
// [--timeout ms] [--max-growth bytes]`: POST /v1/convert?from=docx&to=pdf, through the worker on
// workerd, with mutated DOCX packages, and counts what comes back. docs/api.md allows 200 (a PDF, with
// warnings for what was not drawn), 413, 415 and 422 with its error body; a 5xx, a request that
// takes longer than the timeout (a hang, 20 s) or an answer outside the contract is a bug.
//
// The bases are the .docx files under --dir (default ../shared/corpus/docx), read at run time and
// never copied into the repository; the mutations are scripts/docx-mutations.mjs, which the
// workerd test (test/convert/convert-fuzz.test.ts) runs too. Each variant draws its base and its
// mutation from (seed, index) alone, so `--seed S --only N` remakes variant N without the others
// (with the same --dir); every failure is written to --save (default /tmp/quire-convert-fuzz).
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { docxBase, makeDocxVariant } from './docx-mutations.mjs';
import { root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';
import { commandOption, docxFiles, fuzzOptions, multipartFile, runFuzz } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const options = fuzzOptions(args, { label: 'convert-fuzz', saveFlag: '--save' });
const dir = resolve(commandOption(args, '--dir', resolve(root, '..', 'shared', 'corpus', 'docx')));
const maxGrowth = Number(commandOption(args, '--max-growth', String(8 * 1024 * 1024)));

const bases = docxFiles(dir).map((file) => docxBase(relative(dir, file.path), new Uint8Array(readFileSync(file.path))));
if (!bases.length) throw new Error(`no .docx under ${dir}`);
console.log(`bases: ${bases.length} documents under ${dir}`);

const failures = await runFuzz({
  label: 'convert-fuzz',
  options,
  extension: 'docx',
  makeVariant: (index) => makeDocxVariant(bases, options.seed, index, { maxGrowth }),
  requestFor: async (variant) => ({
    path: '/v1/convert?from=docx&to=pdf',
    init: { method: 'POST', ...(await multipartFile(variant.bytes, `variant-${variant.index}.docx`)) },
  }),
  check: (res, bytes) =>
    new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-' && res.headers.get('Content-Type') === 'application/pdf'
      ? undefined
      : 'a 200 that is not a PDF',
});
process.exitCode = failures ? 1 : 0;
