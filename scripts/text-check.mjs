#!/usr/bin/env node
// `npm run text-check [-- --corpus DIR] [--out DIR] [--only docx,docx-extra,md,html] [--min 0.99]`
//   Nothing lost, measured: converts every document of the corpora (docx, docx-extra, md, html
//   under --corpus, ../shared/corpus unless told) to PDF through the worker on workerd (in
//   process), then runs ../shared/tools/text-kept.mjs on each corpus (pandoc reads the source,
//   pdftotext the PDF; bag-of-words recall) and prints its summary line and every document below
//   --min with its missing words. For docx and docx-extra it also compares the page count with
//   LibreOffice's rendering (lo-ref, lo-ref-extra) and lists the documents outside 2× of it.
//   With mupdf-tools installed it adds the line of scripts/text-kept-readers.mjs: text kept when
//   any of three readers of the PDF finds a word, and the documents below 0.98 by that count.
//   Needs pandoc and poppler-utils (pdftotext, pdfinfo). The corpora are not part of the project
//   (some sources are copyleft); the PDFs go to --out (a temporary folder unless told).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpIfAsked } from './script-help.mjs';
import { convertFile, sourceFiles, startQuire } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const corpus = resolve(option('--corpus', join(root, '..', 'shared', 'corpus')));
const out = resolve(option('--out', mkdtempSync(join(tmpdir(), 'quire-text-check-'))));
const only = option('--only', 'docx,docx-extra,md,html').split(',');
const min = Number(option('--min', '0.99'));
const tools = join(corpus, '..', 'tools');
/** LibreOffice's renderings of each DOCX corpus, named <category>__<name>.pdf. */
const libreOffice = { docx: 'lo-ref', 'docx-extra': 'lo-ref-extra' };

for (const tool of ['pandoc', 'pdftotext', 'pdfinfo']) {
  if (spawnSync(tool, ['-v'], { stdio: 'ignore' }).error) {
    console.error(`text-check needs ${tool} (apt-get install pandoc poppler-utils)`);
    process.exit(2);
  }
}
if (!existsSync(join(tools, 'text-kept.mjs'))) {
  console.error(`no ${join(tools, 'text-kept.mjs')}: --corpus names the corpus folder beside shared/tools`);
  process.exit(2);
}

const pdfPages = (path) => {
  const info = spawnSync('pdfinfo', [path], { encoding: 'utf8' }).stdout ?? '';
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
};

const hasMutool = !spawnSync('mutool', ['-v'], { stdio: 'ignore' }).error;

const quire = await startQuire();
const converted = {};
try {
  for (const name of only) {
    const dir = join(corpus, name);
    if (!existsSync(dir)) continue;
    const target = join(out, name);
    mkdirSync(target, { recursive: true });
    converted[name] = [];
    for (const file of sourceFiles(dir, ['docx', 'md', 'html'])) {
      const result = await convertFile(quire, file, 'pdf');
      const stem = `${file.category ? `${file.category}__` : ''}${file.name}`;
      if (result.status === 200) writeFileSync(join(target, `${stem}.pdf`), result.body);
      else console.log(`${name}/${stem}: ${result.status} ${new TextDecoder().decode(result.body).slice(0, 200)}`);
      converted[name].push({ stem, status: result.status, pages: result.pages });
    }
  }
} finally {
  await quire.dispose();
}

for (const name of Object.keys(converted)) {
  const run = spawnSync('node', [join(tools, 'text-kept.mjs'), '--pairs', join(corpus, name), join(out, name)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = (run.stdout ?? '').split('\n').filter(Boolean);
  console.log(`\n== ${name}`);
  console.log(lines.find((line) => line.startsWith('documents')) ?? run.stderr.trim());
  for (const line of lines) {
    const [document, , recall] = line.split('\t');
    if (document && recall !== undefined && Number(recall) < min) console.log(`  ${line.slice(0, 400)}`);
  }
  // The same with three readers of the PDF (scripts/text-kept-readers.mjs): what pdftotext's
  // habits cost (a line-end hyphen's word joined) is told apart from what the PDF lacks.
  if (hasMutool) {
    const readers = spawnSync(
      'node',
      [join(root, 'scripts', 'text-kept-readers.mjs'), join(corpus, name), join(out, name)],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    for (const line of (readers.stdout ?? '').split('\n').filter(Boolean)) {
      console.log(line.startsWith('documents') ? `any reader: ${line}` : `  ${line.slice(0, 400)}`);
    }
  }
  const reference = libreOffice[name];
  if (!reference) continue;
  let within = 0;
  const outside = [];
  for (const { stem, pages } of converted[name]) {
    const lo = pdfPages(join(corpus, reference, `${stem}.pdf`));
    if (!lo) continue;
    if (pages > 0 && pages <= 2 * lo && lo <= 2 * pages) within++;
    else outside.push(`${stem} ${pages} vs ${lo}`);
  }
  console.log(`pages within 2× of LibreOffice's: ${within}/${within + outside.length}`);
  for (const line of outside) console.log(`  ${line}`);
}
console.log(`\nPDFs in ${out}`);
