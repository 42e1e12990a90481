#!/usr/bin/env node
// `npm run markup-check -- [MD_DIR] [HTML_DIR] [--out DIR]`: the Markdown/HTML figures, with
// pandoc and LibreOffice as external judges (apt-get install pandoc libreoffice-writer-nogui).
// Every file converts through the worker on workerd to DOCX and to PDF; then, per document:
//   - LibreOffice converts our DOCX (`soffice --headless --convert-to pdf`);
//   - coverage: the words pandoc reads from our DOCX (`pandoc -f docx -t plain`) against the
//     words pandoc reads from the source itself (`pandoc -f gfm|html -t plain`), as a multiset
//     (see `words` and `plainOrHtmlText` below for what counts as a word);
//   - headings, tables and list items in our DOCX against pandoc's own `-t docx` output;
//   - time: ours (md/html → docx, through HTTP on workerd, median of 3 after a warm-up pass)
//     against pandoc's `-t docx` (one run: a process per document is how pandoc is used).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { helpIfAsked } from './script-help.mjs';
import { convertFile, emptyRoundTripMs, sourceFiles, startQuire } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(outAt >= 0 ? args.splice(outAt, 2)[1] : '/tmp/quire-markup');
const dirs = args.length ? args : ['../shared/corpus/md', '../shared/corpus/html'];
mkdirSync(join(out, 'lo'), { recursive: true });
mkdirSync(join(out, 'pandoc'), { recursive: true });

const TIMED_RUNS = 3;
const files = dirs.flatMap((dir) => sourceFiles(resolve(dir), ['md', 'html']));
const quire = await startQuire();
const rows = [];
let harnessMs = 0;
try {
  // A warm-up pass (code compiled, fonts loaded), then the median of TIMED_RUNS per document.
  for (const file of files) await convertFile(quire, file, 'docx');
  quire.renewKey();
  harnessMs = await emptyRoundTripMs(quire);
  for (const file of files) {
    const runs = [];
    for (let i = 0; i < TIMED_RUNS; i++) runs.push(await convertFile(quire, file, 'docx'));
    runs.sort((a, b) => a.ms - b.ms);
    const docx = runs[TIMED_RUNS >> 1];
    const pdf = await convertFile(quire, file, 'pdf');
    const base = join(out, file.name);
    if (docx.status === 200) writeFileSync(`${base}.docx`, docx.body);
    if (pdf.status === 200) writeFileSync(`${base}.pdf`, pdf.body);
    rows.push({ file, docx, pdf, base });
    if (rows.length % 20 === 0) quire.renewKey();
  }
} finally {
  await quire.dispose();
}

const pandocFrom = (file) => (file.extension === 'md' ? 'gfm' : 'html');
// Words are what is left of each whitespace-separated token once the punctuation around it is
// taken off: pandoc's plain writer decorates (images as [alt], table rules as dashes, bullets),
// and those decorations are not words of the document.
const words = (text) => {
  const counts = new Map();
  for (const token of text.normalize('NFKC').split(/\s+/)) {
    const word = token.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
    if (/[\p{L}\p{N}]/u.test(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
};
// pandoc's plain writer prints "[TABLE]" for a table with merged cells, which its DOCX reader
// makes from w:gridSpan/w:vMerge; the table's words are then read from pandoc's HTML instead.
const plainOrHtmlText = (argv) => {
  const plain = pandoc([...argv, '-t', 'plain', '--wrap=none']).stdout ?? '';
  if (!plain.includes('[TABLE]')) return plain;
  const html = pandoc([...argv, '-t', 'html']).stdout ?? '';
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
};
const pandoc = (argv) => spawnSync('pandoc', argv, { maxBuffer: 1 << 28, encoding: 'utf8' });
const docxPart = (parts, name) => (parts[name] ? new TextDecoder().decode(parts[name]) : '');
/**
 * Headings (Heading1–9 paragraphs), tables (w:tbl, nested ones too) and list items: paragraphs
 * whose w:numPr names a level that shows a label. pandoc gives a list item's later paragraphs a
 * numbering level whose text is a space, and Quire one with no text, so that they keep the
 * item's indent; those are paragraphs of an item, not items.
 */
const census = (path) => {
  const parts = unzipSync(readFileSync(path));
  const xml = docxPart(parts, 'word/document.xml');
  const numbering = docxPart(parts, 'word/numbering.xml');
  const abstractOf = new Map();
  for (const m of numbering.matchAll(/<w:num w:numId="(\d+)"\s*>\s*<w:abstractNumId w:val="(\d+)"/g))
    abstractOf.set(m[1], m[2]);
  const visible = new Set();
  for (const m of numbering.matchAll(/<w:abstractNum [^>]*w:abstractNumId="(\d+)"[^>]*>([\s\S]*?)<\/w:abstractNum>/g)) {
    for (const level of m[2].matchAll(/<w:lvl [^>]*w:ilvl="(\d+)"[^>]*>([\s\S]*?)<\/w:lvl>/g)) {
      const format = /<w:numFmt w:val="([^"]*)"/.exec(level[2])?.[1];
      const text = /<w:lvlText w:val="([^"]*)"/.exec(level[2])?.[1] ?? '';
      if (format !== 'none' && text.trim() !== '') visible.add(`${m[1]}/${level[1]}`);
    }
  }
  let items = 0;
  for (const m of xml.matchAll(/<w:numPr\s*>\s*<w:ilvl w:val="(\d+)"\s*\/>\s*<w:numId w:val="(\d+)"\s*\/>/g)) {
    if (visible.has(`${abstractOf.get(m[2])}/${m[1]}`)) items++;
  }
  return {
    headings: (xml.match(/<w:pStyle w:val="Heading[1-9]"\s*\/>/g) ?? []).length,
    tables: (xml.match(/<w:tbl\s*>/g) ?? []).length,
    items,
  };
};
const near = (ours, theirs) => Math.abs(ours - theirs) <= Math.max(0, Math.floor(theirs * 0.05));

// LibreOffice in one run over every DOCX (its start-up dominates otherwise).
const docxPaths = rows.filter((row) => row.docx.status === 200).map((row) => `${row.base}.docx`);
if (docxPaths.length) {
  spawnSync('soffice', ['--headless', '--convert-to', 'pdf', '--outdir', join(out, 'lo'), ...docxPaths], {
    stdio: 'ignore',
  });
}

let coverageSum = 0;
let minCoverage = 1;
let loOk = 0;
let censusOk = 0;
let oursMs = 0;
let pandocMs = 0;
const ratios = [];
const engineRatios = [];
console.log('status docx/pdf  coverage  LO  headings  tables  items (ours/pandoc)  ms ours/pandoc  file');
for (const { file, docx, pdf, base } of rows) {
  const from = pandocFrom(file);
  const started = performance.now();
  const theirs = pandoc(['-f', from, '-t', 'docx', '-o', join(out, 'pandoc', `${file.name}.docx`), file.path]);
  const theirMs = performance.now() - started;
  const lo = existsSync(join(out, 'lo', `${file.name}.pdf`));
  let coverage = 0;
  let line = '';
  if (docx.status === 200) {
    const source = words(plainOrHtmlText(['-f', from, file.path]));
    const ours = words(plainOrHtmlText(['-f', 'docx', `${base}.docx`]));
    let total = 0;
    let hit = 0;
    for (const [word, n] of source) {
      total += n;
      hit += Math.min(n, ours.get(word) ?? 0);
    }
    coverage = total ? hit / total : 1;
    const a = census(`${base}.docx`);
    const b = theirs.status === 0 ? census(join(out, 'pandoc', `${file.name}.docx`)) : a;
    const ok = near(a.headings, b.headings) && near(a.tables, b.tables) && near(a.items, b.items);
    if (ok) censusOk++;
    line = `${a.headings}/${b.headings}  ${a.tables}/${b.tables}  ${a.items}/${b.items}${ok ? '' : '  <-'}`;
  }
  if (lo) loOk++;
  coverageSum += coverage;
  minCoverage = Math.min(minCoverage, coverage);
  oursMs += docx.ms;
  pandocMs += theirMs;
  ratios.push(theirMs / docx.ms);
  engineRatios.push(theirMs / Math.max(0.1, docx.ms - harnessMs));
  console.log(
    `${docx.status}/${pdf.status}  ${coverage.toFixed(3)}  ${lo ? 'ok' : 'FAIL'}  ${line}  ${docx.ms.toFixed(0)}/${theirMs.toFixed(0)}  ${file.name}.${file.extension}`,
  );
}
ratios.sort((a, b) => a - b);
engineRatios.sort((a, b) => a - b);
const n = rows.length;
const converted = rows.filter((row) => row.docx.status === 200 && row.pdf.status === 200).length;
console.log(
  `documents ${n}  converted ${converted}/${n}  LibreOffice opens ${loOk}/${n}  mean coverage ${(coverageSum / n).toFixed(3)}  min coverage ${minCoverage.toFixed(3)}  census within 5% ${censusOk}/${n}  time ours ${oursMs.toFixed(0)} ms pandoc ${pandocMs.toFixed(0)} ms (${(pandocMs / oursMs).toFixed(1)}x)  median per-document ratio ${ratios[n >> 1]?.toFixed(1)}x  lowest ${ratios[0]?.toFixed(1)}x`,
);
console.log(
  `without the harness round trip (${harnessMs.toFixed(2)} ms, GET /v1/health p50, in every request): median per-document ratio ${engineRatios[n >> 1]?.toFixed(1)}x  lowest ${engineRatios[0]?.toFixed(1)}x`,
);
