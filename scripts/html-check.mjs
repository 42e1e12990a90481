#!/usr/bin/env node
// `npm run html-check [-- DIR …] [--out DIR] [--browser-styles]`: our PDF of every HTML and Markdown file against
// headless Chromium's print of the same file (issue 26). DIRs default to ../shared/corpus/html
// and ../shared/corpus/md (the files directly in each, *.html and *.md), relative to the root.
//   - Quire: the file is posted to /v1/convert?to=pdf (Letter, the default) through the worker
//     on workerd in process (worker-harness convertFile); its time is the request's round trip.
//   - Chromium: `chromium --headless --print-to-pdf` of file://FILE, Letter (Chromium's default
//     paper), no header or footer, a fresh profile; its time is the process's wall time, start-up
//     included. A Markdown file is first rendered to HTML by Quire's own Markdown reader
//     (src/engine/read/markdown, bundled with esbuild: markdown-it with GFM tables and
//     strikethrough, footnotes, task lists, autolinks) into a minimal HTML document beside the
//     PDFs, which Chromium prints. The network is closed on this machine: remote images and
//     style sheets are missing from both PDFs alike.
//   - Markdown has no style sheet of its own, so what a browser prints of it is a choice of
//     style: Chromium's defaults (Times 16 px, 1 cm margins) or a site's. Quire prints Markdown
//     as a document (docs/engine.md: Calibri 11 pt, 1 in margins, Word's heading sizes). To
//     compare layout rather than that choice, the Markdown's HTML carries QUIRE_MARKDOWN_CSS, the
//     same styles in CSS (with Quire's bundled Carlito, Calibri's metric twin); `--browser-styles`
//     prints it with Chromium's defaults instead. `overflow-wrap: break-word` as Word breaks an
//     over-long word: without it one long URL makes Chromium shrink the whole print to fit.
//   - Recall: both PDFs go through `pdftotext -enc UTF-8 FILE -`; each text is lowercased and
//     split into words on whatever is not a letter, mark or digit, and every Han, Hiragana,
//     Katakana or Hangul character counts as a word of its own (so Chinese and Japanese, written
//     without spaces, are measured too). Recall is the share of Chromium's words, as a multiset,
//     that our text also has: a word Chromium shows 5 times and we show 3 times counts 3 of 5.
//     It says what text we lose, not where we put it or what we add.
// Prints a row per file (pages ours and Chromium's, recall, ms ours and Chromium's), then a
// summary line per folder and overall: median and minimum recall, files under 0.97, files whose
// page count is outside ±30% of Chromium's, and the total times. PDFs, texts and the Markdown's
// HTML go to --out (/tmp/quire-html-check unless told), outside the repository.
// Needs Chromium (/usr/bin/chromium, or $CHROMIUM) and poppler-utils (pdftotext, pdfinfo); without
// Chromium it says so and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { CHROMIUM_FLAGS, chromiumPath } from './chromium.mjs';
import { helpIfAsked } from './script-help.mjs';
import { convertFile, startQuire } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(outAt >= 0 ? args.splice(outAt, 2)[1] : '/tmp/quire-html-check');
const dirs = (args.length ? args : ['../shared/corpus/html', '../shared/corpus/md']).map((dir) => resolve(root, dir));
const browserStyles = args.includes('--browser-styles');
if (browserStyles) args.splice(args.indexOf('--browser-styles'), 1);
const RECALL_FLOOR = 0.97;
const PAGE_SPREAD = 0.3;

if (!existsSync(chromiumPath)) {
  console.log(`html-check: skipped, no Chromium at ${chromiumPath} (set $CHROMIUM to use another)`);
  process.exit(0);
}
for (const tool of ['pdftotext', 'pdfinfo']) {
  if (spawnSync(tool, ['-v'], { stdio: 'ignore' }).error) {
    console.error(`html-check needs ${tool} (apt-get install poppler-utils)`);
    process.exit(2);
  }
}

// Without a CJK face Chromium prints Chinese and Japanese with none (and different pages).
const cjkFaces = spawnSync('fc-list', [':lang=ja'], { encoding: 'utf8' }).stdout ?? '';
if (!cjkFaces.trim()) {
  console.log(
    'html-check: note: no Japanese face for Chromium (apt-get install fonts-noto-cjk); CJK pages will differ',
  );
}

/** Quire's Markdown reader (Markdown → HTML), bundled from src for Node. */
async function markdownRenderer() {
  const bundle = join(out, 'markdown-reader.mjs');
  await build({
    entryPoints: [join(root, 'src/engine/read/markdown/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: bundle,
    logLevel: 'error',
    // CommonJS dependencies (yaml) require Node's built-ins.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return (await import(pathToFileURL(bundle).href)).renderMarkdown;
}

/**
 * src/engine/read/markup/markup-styles.ts in CSS: the same faces, sizes (half-points / 2),
 * spacing (twentieths / 20) and page, so Chromium lays the Markdown out with Quire's styles. Word's
 * line spacing "auto 264" is 1.1 times the face's own line height (Carlito's 1.2207 em, the same
 * in Word's and CSS's reading of its metrics), hence 1.343.
 */
const fontUrl = (file) => pathToFileURL(join(root, 'assets/fonts', file)).href;
const QUIRE_MARKDOWN_CSS = `
@font-face { font-family: QuireCarlito; src: url(${fontUrl('Carlito-Regular.ttf')}); }
@font-face { font-family: QuireCarlito; font-weight: bold; src: url(${fontUrl('Carlito-Bold.ttf')}); }
@font-face { font-family: QuireCarlito; font-style: italic; src: url(${fontUrl('Carlito-Italic.ttf')}); }
@font-face { font-family: QuireCarlito; font-weight: bold; font-style: italic; src: url(${fontUrl('Carlito-BoldItalic.ttf')}); }
@page { size: letter; margin: 1in; }
body { margin: 0; font: 11pt/1.343 QuireCarlito, Carlito, Calibri, sans-serif; overflow-wrap: break-word; }
p, ul, ol, dl, table, blockquote { margin: 0 0 6pt; }
li { margin: 0 0 3pt; }
li > p { margin: 0; }
h1, h2, h3, h4, h5, h6 { color: #1F3864; margin: 0 0 4pt; }
h1 { font-size: 18pt; margin-top: 18pt; } h2 { font-size: 15pt; margin-top: 16pt; }
h3 { font-size: 13pt; margin-top: 14pt; } h4 { font-size: 12pt; margin-top: 12pt; font-style: italic; }
h5 { font-size: 11pt; margin-top: 12pt; } h6 { font-size: 11pt; margin-top: 12pt; font-style: italic; }
pre { font: 9.5pt/normal 'Liberation Mono', 'Courier New', monospace; background: #F2F2F2; padding: 4pt; margin: 3pt 4.3pt 9pt; white-space: pre-wrap; }
code { font-family: 'Liberation Mono', 'Courier New', monospace; font-size: 10pt; }
pre code { font-size: inherit; }
blockquote { border-left: 2.25pt solid #BFBFBF; padding-left: 8pt; margin-left: 18pt; margin-right: 18pt; font-style: italic; color: #404040; }
table { border-collapse: collapse; }
th, td { padding: 1.45pt 4.3pt; }
th, td, th p, td p { margin: 1pt 0; line-height: normal; }
`;

const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Chromium's PDF of `input` (an .html file) at `target`: pages, ms, or the error. */
function printWithChromium(input, target) {
  const profile = mkdtempSync(join(tmpdir(), 'quire-html-check-chromium-'));
  const started = performance.now();
  const run = spawnSync(
    chromiumPath,
    [
      ...CHROMIUM_FLAGS,
      `--user-data-dir=${profile}`,
      '--no-pdf-header-footer',
      `--print-to-pdf=${target}`,
      pathToFileURL(input).href,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  const ms = performance.now() - started;
  rmSync(profile, { recursive: true, force: true });
  if (run.status !== 0 || !existsSync(target)) {
    return { ms, error: run.error?.message ?? `exit ${run.status}: ${(run.stderr ?? '').trim().split('\n').at(-1)}` };
  }
  return { ms, pages: pdfPages(target) };
}

function pdfPages(path) {
  const info = spawnSync('pdfinfo', [path], { encoding: 'utf8' }).stdout ?? '';
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
}

/** pdftotext's text of `pdf`, also kept as `<pdf>.txt`. */
function pdfText(pdf) {
  const text =
    spawnSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout ?? '';
  writeFileSync(pdf.replace(/\.pdf$/, '.txt'), text);
  return text;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** Lowercased words: runs of letters, marks and digits, each CJK character a word of its own. */
function words(text) {
  return text
    .toLowerCase()
    .replace(CJK, ' $& ')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean);
}

/** Share of `reference`'s words (a multiset) that `ours` has. */
function recall(ours, reference) {
  const counts = new Map();
  for (const word of words(ours)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const wanted = words(reference);
  if (!wanted.length) return 1;
  let found = 0;
  for (const word of wanted) {
    const left = counts.get(word) ?? 0;
    if (left > 0) {
      found++;
      counts.set(word, left - 1);
    }
  }
  return found / wanted.length;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function summary(label, rows) {
  const measured = rows.filter((row) => row.recall !== undefined);
  const recalls = measured.map((row) => row.recall);
  const under = measured.filter((row) => row.recall < RECALL_FLOOR).length;
  const pagesOff = measured.filter(
    (row) => Math.abs(row.ourPages - row.chromiumPages) > PAGE_SPREAD * row.chromiumPages,
  ).length;
  const failed = rows.length - measured.length;
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const quireMs = rows.reduce((sum, row) => sum + (row.ourMs ?? 0), 0);
  const chromiumMs = rows.reduce((sum, row) => sum + (row.chromiumMs ?? 0), 0);
  return (
    `html-check ${label}: ${rows.length} files${failed ? ` (${failed} failed)` : ''}, ` +
    `recall median ${recalls.length ? median(recalls).toFixed(3) : '-'} min ${recalls.length ? Math.min(...recalls).toFixed(3) : '-'}, ` +
    `${under} under ${RECALL_FLOOR}, ${pagesOff} pages outside ±${PAGE_SPREAD * 100}%, ` +
    `Quire ${seconds(quireMs)}, Chromium ${seconds(chromiumMs)}`
  );
}

mkdirSync(out, { recursive: true });
const renderMarkdown = await markdownRenderer();
const quire = await startQuire();
const byDir = [];
try {
  for (const dir of dirs) {
    const label = basename(dir);
    const target = join(out, label);
    mkdirSync(target, { recursive: true });
    const files = readdirSync(dir)
      .filter((name) => /\.(html|md)$/i.test(name))
      .sort();
    const rows = [];
    console.log(`${label} (${dir})`);
    console.log(
      `${'file'.padEnd(42)} ${'ours'.padStart(5)} ${'chrom'.padStart(5)} ${'recall'.padStart(6)} ${'our ms'.padStart(8)} ${'chrom ms'.padStart(8)}`,
    );
    for (const name of files) {
      const path = join(dir, name);
      const dot = name.lastIndexOf('.');
      const stem = name.slice(0, dot);
      const extension = name.slice(dot + 1).toLowerCase();
      const row = { name };
      rows.push(row);

      const ours = await convertFile(quire, { path, name: stem, extension }, 'pdf');
      row.ourMs = ours.ms;
      const ourPdf = join(target, `${stem}.quire.pdf`);
      if (ours.status === 200) {
        writeFileSync(ourPdf, ours.body);
        row.ourPages = pdfPages(ourPdf);
      } else row.error = `Quire ${ours.status} ${new TextDecoder().decode(ours.body).slice(0, 200)}`;

      let printed = path;
      if (extension === 'md') {
        const { html, title } = renderMarkdown(readFileSync(path, 'utf8'));
        printed = join(target, `${stem}.md.html`);
        writeFileSync(
          printed,
          `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title ?? stem)}</title>${browserStyles ? '' : `<style>${QUIRE_MARKDOWN_CSS}</style>`}</head>\n<body>\n${html}</body></html>\n`,
        );
      }
      const chromiumPdf = join(target, `${stem}.chromium.pdf`);
      rmSync(chromiumPdf, { force: true });
      const theirs = printWithChromium(printed, chromiumPdf);
      row.chromiumMs = theirs.ms;
      if (theirs.error) row.error = `${row.error ? `${row.error}; ` : ''}Chromium ${theirs.error}`;
      else row.chromiumPages = theirs.pages;

      if (!row.error) row.recall = recall(pdfText(ourPdf), pdfText(chromiumPdf));
      const cell = (value, width) => String(value ?? '-').padStart(width);
      console.log(
        `${name.padEnd(42)} ${cell(row.ourPages, 5)} ${cell(row.chromiumPages, 5)} ${cell(row.recall?.toFixed(3), 6)} ${cell(row.ourMs?.toFixed(0), 8)} ${cell(row.chromiumMs?.toFixed(0), 8)}${row.error ? `  ${row.error}` : ''}`,
      );
    }
    byDir.push([label, rows]);
  }
} finally {
  await quire.dispose();
}
for (const [label, rows] of byDir) console.log(summary(label, rows));
const everyRow = byDir.flatMap(([, rows]) => rows);
if (byDir.length > 1) console.log(summary('all', everyRow));
console.log(`PDFs and texts in ${out}`);
