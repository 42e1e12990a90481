#!/usr/bin/env node
// `npm run annotate-check -- [DIR] [--out DIR]`: the annotate figures, with LibreOffice and
// poppler as external judges (apt-get install libreoffice-writer-nogui poppler-utils).
// For every template under DIR (default ../shared/corpus/docx/templates), this script finds the
// fields itself, independently of Quire's discovery: every {{name}} placeholder (tags stripped
// within each paragraph, so placeholders Word split over runs count) and every content control
// with a w:tag (a JSON tag's fieldId/id, else the tag itself). Each gets a distinct value: text,
// or a small PNG for picture controls and image-typed JSON tags. Then, through the worker on
// workerd:
//   - to=docx: LibreOffice converts the filled DOCX (`soffice --headless --convert-to pdf`), and
//     pdftotext of its PDF must contain every text value and no filled {{name}};
//   - to=pdf: pdftotext of Quire's PDF must contain every text value.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { helpIfAsked } from './script-help.mjs';
import { sourceFiles, startQuire } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(outAt >= 0 ? args.splice(outAt, 2)[1] : '/tmp/quire-annotate');
const dir = resolve(args[0] ?? '../shared/corpus/docx/templates');
mkdirSync(join(out, 'lo'), { recursive: true });

const PNG_1x1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const decode = (bytes) => new TextDecoder().decode(bytes);
const unescapeXml = (text) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Every XML part of the story: document, headers, footers, notes. */
function storyParts(parts) {
  return Object.keys(parts).filter((name) =>
    /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/.test(name),
  );
}

function discover(bytes) {
  const parts = unzipSync(bytes);
  const placeholders = new Set();
  const controls = new Map(); // id -> 'text' | 'image'
  for (const name of storyParts(parts)) {
    const xml = decode(parts[name]);
    for (const paragraph of xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)) {
      const text = unescapeXml([...paragraph[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''));
      for (const m of text.matchAll(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g)) placeholders.add(m[1]);
    }
    for (const sdt of xml.matchAll(/<w:sdtPr>([\s\S]*?)<\/w:sdtPr>/g)) {
      const tag = /<w:tag w:val="([^"]*)"/.exec(sdt[1])?.[1];
      if (tag === undefined || tag === '') continue;
      let id = unescapeXml(tag);
      let kind = /<w:picture\s*\/>/.test(sdt[1]) ? 'image' : 'text';
      try {
        const json = JSON.parse(id);
        if (json && typeof json === 'object') {
          id = String(json.fieldId ?? json.id ?? id);
          if (/image|signature/i.test(String(json.fieldType ?? json.type ?? ''))) kind = 'image';
        }
      } catch {}
      if (/<w14:checkbox/.test(sdt[1])) kind = 'checkbox';
      controls.set(id, kind);
    }
  }
  return { placeholders: [...placeholders], controls };
}

const pdftotext = (path) => spawnSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).stdout ?? '';
const squash = (text) => text.replace(/\s+/g, '');

const files = sourceFiles(dir, ['docx']);
const quire = await startQuire();
const rows = [];
try {
  for (const file of files) {
    const bytes = readFileSync(file.path);
    const { placeholders, controls } = discover(bytes);
    const fields = [];
    const textValues = [];
    let n = 0;
    const nextValue = () => `QV${String(++n).padStart(2, '0')}x${file.name.length}`;
    for (const name of placeholders) {
      const value = nextValue();
      fields.push({ id: name, type: 'text', value });
      textValues.push(value);
    }
    for (const [id, kind] of controls) {
      if (placeholders.includes(id)) continue;
      if (kind === 'image') fields.push({ id, type: 'image', value: PNG_1x1, options: { dimensions: { width: 40 } } });
      else if (kind === 'checkbox') fields.push({ id, type: 'checkbox', value: 'true' });
      else {
        const value = nextValue();
        fields.push({ id, type: 'text', value });
        textValues.push(value);
      }
    }
    const result = { file, fields: fields.length, textValues, placeholders };
    if (fields.length === 0) {
      rows.push({ ...result, note: 'no fields' });
      continue;
    }
    const document = { base64: Buffer.from(bytes).toString('base64') };
    for (const to of ['docx', 'pdf']) {
      const res = await quire.fetch(`/v1/annotate?to=${to}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ document, fields }),
      });
      const body = await res.json();
      result[to] = { status: res.status, error: res.status === 200 ? undefined : body };
      if (res.status === 200) {
        const data = Buffer.from(body.document.base64.replace(/^data:[^,]*,/, ''), 'base64');
        const path = join(out, `${file.name}.${to}`);
        writeFileSync(path, data);
        result[to].path = path;
      }
    }
    rows.push(result);
  }
} finally {
  await quire.dispose();
}

const docxPaths = rows.filter((row) => row.docx?.path).map((row) => row.docx.path);
if (docxPaths.length) {
  spawnSync('soffice', ['--headless', '--convert-to', 'pdf', '--outdir', join(out, 'lo'), ...docxPaths], {
    stdio: 'ignore',
  });
}

let passed = 0;
let withFields = 0;
console.log('fields  docx/pdf  LO  values in LO  values in ours  leftover {{}}  template');
for (const row of rows) {
  if (row.note) {
    console.log(`0  -  -  -  -  -  ${row.file.name}  (${row.note})`);
    continue;
  }
  withFields++;
  const loPdf = join(out, 'lo', `${row.file.name}.pdf`);
  const lo = existsSync(loPdf);
  const loText = lo ? squash(pdftotext(loPdf)) : '';
  const ourText = row.pdf?.path ? squash(pdftotext(row.pdf.path)) : '';
  const inLo = row.textValues.filter((v) => loText.includes(v)).length;
  const inOurs = row.textValues.filter((v) => ourText.includes(v)).length;
  const leftovers = row.placeholders.filter((name) =>
    new RegExp(`\\{\\{\\s*${name.replace(/[.]/g, '\\.')}\\s*\\}\\}`).test(loText),
  );
  const ok =
    row.docx?.status === 200 &&
    row.pdf?.status === 200 &&
    lo &&
    inLo === row.textValues.length &&
    inOurs === row.textValues.length &&
    leftovers.length === 0;
  if (ok) passed++;
  const status = `${row.docx?.status}/${row.pdf?.status}`;
  const error = row.docx?.error ?? row.pdf?.error;
  console.log(
    `${row.fields}  ${status}  ${lo ? 'ok' : 'FAIL'}  ${inLo}/${row.textValues.length}  ${inOurs}/${row.textValues.length}  ${leftovers.length ? leftovers.join(',') : '0'}  ${row.file.name}${ok ? '' : '  <-'}${error ? `  ${error.code}: ${error.message}` : ''}`,
  );
  if (!ok) {
    const missing = row.textValues.filter((v) => !loText.includes(v) || !ourText.includes(v));
    if (missing.length) console.log(`    missing: ${missing.join(' ')}`);
  }
}
console.log(`templates ${rows.length}  with fields ${withFields}  passing ${passed}/${withFields}`);
