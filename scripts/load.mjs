#!/usr/bin/env node
// `npm run load -- [--seconds 30] [--only convert,sign,verify]`: the audit's load run, on
// loopback against the worker on workerd (worker-harness startQuire). Three scenarios, one after
// the other, each a closed loop of `concurrency` clients sending the next request as soon as the
// last one has answered, for --seconds each:
//   convert  POST /v1/convert of a 15-page DOCX (headings, justified text, a table), c = 8
//   sign     POST /v1/sign of a 6-page PDF (pdf-lib), c = 8
//   verify   POST /v1/verify of that PDF signed by the worker first, c = 16
// Each prints requests, status counts, 5xx, p50/p99/max latency and req/s (over the requests the
// worker answered, 429s apart), and workerd's RSS peak. The worker keeps the production per-key
// rate limit (120 a minute; startQuire's productionRateLimits), which would otherwise answer most
// of them: a pool of keys is minted up front, in one batch, and the requests go round it, so each
// key stays within its limit; a 429 that still comes is counted apart and left out of the
// latencies. The fixtures are built here; nothing is read from the corpus. The exit code is 1 when
// a scenario got a 5xx or a failed connection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ISSUE_KEY_STATEMENTS } from '../src/api/auth/account-store.ts';
import { generateApiKey, hashApiKey } from '../src/api/auth/api-key.ts';
import { applyLocalMigrations, wrangler } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';
import { startQuire, workerdRssMiB } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const seconds = Number(option('--seconds', '30'));
const only = option('--only', 'convert,sign,verify').split(',');

// ---------------------------------------------------------------------------------------------
// Keys.

/**
 * `count` API keys minted in one batch into the local D1, by the worker's own statements and key
 * format (as `npm run key` mints one: a wrangler call per key would take some 6 s each).
 */
async function mintKeyPool(count) {
  const literal = (value) => `'${String(value).replaceAll("'", "''")}'`;
  const now = new Date().toISOString();
  const run = Date.now().toString(36);
  const keys = [];
  const statements = [];
  for (let i = 0; i < count; i++) {
    const key = generateApiKey();
    keys.push(key);
    const params = [`load-${run}-${i}@quire.local`, await hashApiKey(key), 'cli', now].map(literal);
    for (const statement of ISSUE_KEY_STATEMENTS) {
      statements.push(`${statement.replace(/\?(\d)/g, (_, n) => params[n - 1])};`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'quire-load-keys-'));
  try {
    applyLocalMigrations();
    const file = join(dir, 'keys.sql');
    writeFileSync(file, statements.join('\n'));
    wrangler(['d1', 'execute', 'DB', '--local', `--file=${file}`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return keys;
}

// ---------------------------------------------------------------------------------------------
// Fixtures.

const WORDS =
  'the quick brown fox jumps over the lazy dog while quire lays out each line measuring every word in its font and justifying it to the margin'.split(
    ' ',
  );
const sentence = (i, n) => Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');

/** A DOCX of some 15 pages: headings, justified paragraphs with bold and italic runs, and a 60-row table. */
function reportDocx() {
  const w = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const body = [];
  for (let section = 0; section < 24; section++) {
    body.push(
      `<w:p><w:pPr><w:spacing w:before="240" w:after="120"/></w:pPr><w:r><w:rPr><w:b/><w:sz w:val="32"/></w:rPr><w:t>${section + 1}. Section ${section + 1}</w:t></w:r></w:p>`,
    );
    for (let p = 0; p < 6; p++) {
      const i = section * 10 + p;
      body.push(
        `<w:p><w:pPr><w:jc w:val="both"/><w:spacing w:after="120"/></w:pPr><w:r><w:t xml:space="preserve">${sentence(i, 40)} </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${sentence(i + 1, 6)} </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">${sentence(i + 2, 30)}.</w:t></w:r></w:p>`,
      );
    }
  }
  const cell = (text) =>
    `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
  const border = (side) => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="808080"/>`;
  const rows = Array.from(
    { length: 60 },
    (_, r) =>
      `<w:tr>${r === 0 ? '<w:trPr><w:tblHeader/></w:trPr>' : ''}${cell(r === 0 ? 'Item' : `Item ${r}`)}${cell(sentence(r, 3))}${cell(String(r * 17))}</w:tr>`,
  ).join('');
  body.push(
    `<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/><w:tblBorders>${['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map(border).join('')}</w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>${rows}</w:tbl>`,
  );
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const parts = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${w}"><w:body>${body.join('')}<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/></w:sectPr></w:body></w:document>`,
  };
  return zipSync(Object.fromEntries(Object.entries(parts).map(([name, text]) => [name, strToU8(text)])), {
    mtime: new Date('2026-01-01T00:00:00Z'),
  });
}

/** A PDF of `pages` pages of text (pdf-lib, Helvetica). */
async function textPdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 40; line++) {
      page.drawText(`Page ${p + 1}, line ${line + 1}: ${sentence(p * 40 + line, 12)}`, {
        x: 72,
        y: 720 - line * 16,
        size: 10,
        font,
      });
    }
  }
  return doc.save();
}

const SIGNER = { name: 'Ada Lovelace', email: 'ada@example.com', ip: '203.0.113.7', userAgent: 'QuireLoad/1.0' };
const AUDIT = [
  { type: 'view', timestamp: '2026-11-22T10:00:05Z', data: { page: 1 } },
  { type: 'submit', timestamp: '2026-11-22T10:02:10Z', data: { fields: 3 } },
];
const signBody = (pdf) =>
  JSON.stringify({ document: { base64: Buffer.from(pdf).toString('base64') }, signer: SIGNER, auditTrail: AUDIT });

// ---------------------------------------------------------------------------------------------
// The run.

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0;

/**
 * `concurrency` clients sending `request()` ({ path, init }) back to back for `seconds`, each
 * with the next key of the pool; a few requests first to warm the isolate (not counted).
 */
async function scenario(quire, keys, { name, concurrency, request }) {
  let next = 0;
  const send = async () => {
    const key = keys[next++ % keys.length];
    const { path, init } = request();
    const started = performance.now();
    try {
      const res = await quire.fetch(path, { ...init, headers: { ...init.headers, Authorization: `Bearer ${key}` } });
      const bytes = await res.arrayBuffer();
      const ms = performance.now() - started;
      // The body of an error, to show the first of each status (a 500's says only its requestId: the log has the rest).
      const body = res.status >= 400 ? new TextDecoder().decode(bytes).slice(0, 300) : undefined;
      return { status: res.status, ms, body };
    } catch (error) {
      return { status: 'fetch-error', ms: performance.now() - started, error: String(error?.cause ?? error) };
    }
  };
  for (const warm of await Promise.all(Array.from({ length: concurrency }, send))) {
    if (warm.status !== 200) console.log(`  ${name} warm-up answered ${warm.status}`);
  }
  const results = [];
  let rssPeak = workerdRssMiB() ?? 0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, workerdRssMiB() ?? 0);
  }, 100);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) results.push(await send());
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);

  const counts = new Map();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const answered = results.filter((r) => r.status !== 429 && r.status !== 'fetch-error');
  const times = answered.map((r) => r.ms).sort((a, b) => a - b);
  const fiveXX = results.filter((r) => typeof r.status === 'number' && r.status >= 500).length;
  const limited = counts.get(429) ?? 0;
  const failed = counts.get('fetch-error') ?? 0;
  const statusText = [...counts.keys()]
    .filter((s) => s !== 429)
    .sort()
    .map((s) => `${s}: ${counts.get(s)}`)
    .join('  ');
  console.log(
    `${name.padEnd(8)} c=${String(concurrency).padEnd(3)} requests ${String(answered.length).padStart(5)}  ${statusText}  5xx ${fiveXX}  429 ${limited}  p50 ${percentile(times, 0.5).toFixed(0)} ms  p99 ${percentile(times, 0.99).toFixed(0)} ms  max ${(times.at(-1) ?? 0).toFixed(0)} ms  ${(answered.length / elapsed).toFixed(1)} req/s  RSS peak ${rssPeak.toFixed(0)} MiB`,
  );
  const firstError = results.find((r) => r.error);
  if (firstError) console.log(`  first failed connection: ${firstError.error}`);
  for (const status of [...counts.keys()].filter((s) => typeof s === 'number' && s >= 400)) {
    console.log(`  first ${status}: ${results.find((r) => r.status === status).body}`);
  }
  return fiveXX + failed;
}

const docx = reportDocx();
const pdf = await textPdf(6);
// Each key may send 120 a minute: enough keys that the fastest scenario stays well under that.
const keys = await mintKeyPool(Number(option('--keys', '400')));
const quire = await startQuire({ productionRateLimits: true });
let bad = 0;
try {
  const form = new FormData();
  form.append('file', new Blob([docx]), 'report.docx');
  const encoded = new Response(form);
  const convertBody = new Uint8Array(await encoded.arrayBuffer());
  const convertType = encoded.headers.get('Content-Type');
  const probe = await quire.fetch('/v1/convert?from=docx&to=pdf', {
    method: 'POST',
    body: convertBody,
    headers: { 'Content-Type': convertType },
  });
  await probe.arrayBuffer();
  const signedRes = await quire.fetch('/v1/sign', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: signBody(pdf),
  });
  const signed = (await signedRes.json()).document?.base64;
  if (!signed) throw new Error(`/v1/sign answered ${signedRes.status}: the PDF to verify could not be signed`);
  console.log(
    `fixtures: DOCX ${(docx.length / 1024).toFixed(0)} KiB, ${probe.headers.get('X-Quire-Pages')} pages; PDF ${(pdf.length / 1024).toFixed(0)} KiB, 6 pages; signed ${((signed.length * 3) / 4 / 1024).toFixed(0)} KiB; ${keys.length} keys; ${seconds} s each`,
  );
  const verifyBody = JSON.stringify({ document: { base64: signed } });
  const scenarios = [
    {
      name: 'convert',
      concurrency: 8,
      request: () => ({
        path: '/v1/convert?from=docx&to=pdf',
        init: { method: 'POST', body: convertBody, headers: { 'Content-Type': convertType } },
      }),
    },
    {
      name: 'sign',
      concurrency: 8,
      request: () => ({
        path: '/v1/sign',
        init: { method: 'POST', body: signBody(pdf), headers: { 'Content-Type': 'application/json' } },
      }),
    },
    {
      name: 'verify',
      concurrency: 16,
      request: () => ({
        path: '/v1/verify',
        init: { method: 'POST', body: verifyBody, headers: { 'Content-Type': 'application/json' } },
      }),
    },
  ];
  for (const s of scenarios.filter((s) => only.includes(s.name))) bad += await scenario(quire, keys, s);
} finally {
  await quire.dispose();
}
process.exitCode = bad ? 1 : 0;
