#!/usr/bin/env node
// `npm run markup-check -- [MD_DIR] [HTML_DIR] [--out DIR]`: the Markdown/HTML figures, with
// pandoc and LibreOffice as external judges (apt-get install pandoc libreoffice-writer-nogui).
// Every file converts through the worker on workerd to DOCX and to PDF; then, per document:
//   - LibreOffice converts our DOCX (`soffice --headless --convert-to pdf`);
//   - coverage: the words pandoc reads from our DOCX (`pandoc -f docx -t plain`) against the
//     words pandoc reads from the source itself (`pandoc -f gfm|html -t plain`), as a multiset;
//   - headings, tables and list items in our DOCX against pandoc's own `-t docx` output;
//   - time: ours (md/html → docx, through HTTP on workerd) against pandoc's `-t docx`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { convertFile, sourceFiles, startQuire } from './worker-harness.mjs';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(outAt >= 0 ? args.splice(outAt, 2)[1] : '/tmp/quire-markup');
const dirs = args.length ? args : ['../shared/corpus/md', '../shared/corpus/html'];
mkdirSync(join(out, 'lo'), { recursive: true });
mkdirSync(join(out, 'pandoc'), { recursive: true });

const files = dirs.flatMap((dir) => sourceFiles(resolve(dir), ['md', 'html']));
const quire = await startQuire();
const rows = [];
try {
  for (const file of files) {
    const docx = await convertFile(quire, file, 'docx');
    const pdf = await convertFile(quire, file, 'pdf');
    const base = join(out, file.name);
    if (docx.status === 200) writeFileSync(`${base}.docx`, docx.body);
    if (pdf.status === 200) writeFileSync(`${base}.pdf`, pdf.body);
    rows.push({ file, docx, pdf, base });
    if (rows.length % 12 === 0) quire.renewKey();
  }
} finally {
  await quire.dispose();
}

const pandocFrom = (file) => (file.extension === 'md' ? 'gfm' : 'html');
const words = (text) => {
  const counts = new Map();
  for (const word of text.normalize('NFKC').split(/\s+/)) if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
};
const pandoc = (argv) => spawnSync('pandoc', argv, { maxBuffer: 1 << 28, encoding: 'utf8' });
const documentXml = (path) => new TextDecoder().decode(unzipSync(readFileSync(path))['word/document.xml']);
const census = (xml) => ({
  headings: (xml.match(/<w:pStyle w:val="Heading[1-9]"\/>/g) ?? []).length,
  tables: (xml.match(/<w:tbl>/g) ?? []).length,
  items: (xml.match(/<w:numPr>/g) ?? []).length,
});
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
    const source = words(pandoc(['-f', from, '-t', 'plain', '--wrap=none', file.path]).stdout ?? '');
    const ours = words(pandoc(['-f', 'docx', '-t', 'plain', '--wrap=none', `${base}.docx`]).stdout ?? '');
    let total = 0;
    let hit = 0;
    for (const [word, n] of source) {
      total += n;
      hit += Math.min(n, ours.get(word) ?? 0);
    }
    coverage = total ? hit / total : 1;
    const a = census(documentXml(`${base}.docx`));
    const b = theirs.status === 0 ? census(documentXml(join(out, 'pandoc', `${file.name}.docx`))) : a;
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
  console.log(
    `${docx.status}/${pdf.status}  ${coverage.toFixed(3)}  ${lo ? 'ok' : 'FAIL'}  ${line}  ${docx.ms.toFixed(0)}/${theirMs.toFixed(0)}  ${file.name}.${file.extension}`,
  );
}
ratios.sort((a, b) => a - b);
const n = rows.length;
const converted = rows.filter((row) => row.docx.status === 200 && row.pdf.status === 200).length;
console.log(
  `documents ${n}  converted ${converted}/${n}  LibreOffice opens ${loOk}/${n}  mean coverage ${(coverageSum / n).toFixed(3)}  min coverage ${minCoverage.toFixed(3)}  census within 5% ${censusOk}/${n}  time ours ${oursMs.toFixed(0)} ms pandoc ${pandocMs.toFixed(0)} ms (${(pandocMs / oursMs).toFixed(1)}x)  median per-document ratio ${ratios[n >> 1]?.toFixed(1)}x  slowest-ratio ${ratios[0]?.toFixed(1)}x`,
);
