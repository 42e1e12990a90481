#!/usr/bin/env node
// `npm run sign-fuzz -- [--seed N] [--count 2000] [--only I[,J…]] [--save DIR] [--timeout ms]
// [--verify-every 20]`: POST /v1/sign, through the worker on workerd, with mutated documents and
// mutated JSON bodies, and counts what comes back. A 5xx, a request that takes longer than the
// timeout (a hang, 20 s) or an answer outside docs/api.md "POST /v1/sign" is a bug:
//   - a mutated document (a PDF's bytes as verify-fuzz mutates them, scripts/pdf-mutations.mjs;
//     a DOCX as convert-fuzz does, scripts/docx-mutations.mjs) sent with a valid body may get 200,
//     415 (not a PDF or DOCX) or 422 (damaged, encrypted, too complex), and 413 for a DOCX;
//   - a valid document with a mutated body (missing, extra and mistyped fields, strings at and
//     past their limits, Unicode edge cases, invalid emails and IPs, 0 / 2,000 / 2,001 events,
//     odd timestamps, event data and metadata at 16 KiB and one byte past, `level`, base64 with
//     whitespace, stray characters and data-URI prefixes, refused `document.url`s, malformed
//     JSON, other content types) gets the status the contract names for it where it names one;
//   - every 4xx carries the contract's error body; every 200 carries a PDF (`%PDF-` to `%%EOF`)
//     whose signature dictionary names the signer as asked; every `--verify-every`th 200, and
//     every 200 whose name, email, reason or location is an edge case, is sent to /v1/verify,
//     which must find the new signature intact, valid and covering the whole file, and the
//     document valid unless an earlier signature fails on its own.
// No request leaves the machine: every `document.url` is one the address guard refuses before
// any fetch (a loopback, private or reserved address, a local name, a scheme other than https:,
// credentials), and the answer must say so (422 DOCUMENT_FETCH_FAILED, or 400 when not a URL).
//
// The bases are made at run time: PDFs by pdf-lib (one page and several with a classic xref, one
// with object streams and an xref stream, one with a filled form), the one-page PDF signed by
// /v1/sign itself, one encrypted with an empty user password by qpdf (when qpdf is installed),
// and two small DOCX packages. Each variant draws what it is from a PRNG seeded with (seed, index)
// alone, so `--seed S --only N` remakes variant N without the others; every failure's request
// body is written to --save (default /tmp/quire-sign-fuzz).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { docxBase, mutateDocx } from './docx-mutations.mjs';
import { latin1, pickWeighted, rngFor } from './fuzz-kit.mjs';
import { mutatePdf } from './pdf-mutations.mjs';
import { helpIfAsked } from './script-help.mjs';
import { signer as baseSigner, auditTrail as baseTrail, signed } from './signed-inputs.mjs';
import { commandOption, fetchRetrying, fuzzOptions, runFuzz } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const options = fuzzOptions(args, { label: 'sign-fuzz', saveFlag: '--save' });
const { seed } = options;
const verifyEvery = Number(commandOption(args, '--verify-every', '20'));

const encoder = new TextEncoder();
const base64 = (bytes) => Buffer.from(bytes).toString('base64');
const clone = (value) => structuredClone(value);

// ---------------------------------------------------------------------------------------------
// The documents the variants start from.

async function pdfWithPages(count, { title, objectStreams }) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.setTitle(title);
  for (let i = 0; i < count; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${title}, page ${i + 1} of ${count}`, { x: 72, y: 760, size: 14, font });
    for (let line = 0; line < 30; line++) {
      page.drawText(`Clause ${i + 1}.${line + 1}: the parties agree to the terms set out here.`, {
        x: 72,
        y: 720 - line * 20,
        size: 10,
        font,
      });
    }
  }
  return doc.save({ useObjectStreams: objectStreams });
}

async function formPdf() {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const form = doc.getForm();
  const name = form.createTextField('applicant.name');
  name.setText('Ada Lovelace');
  name.addToPage(page, { x: 72, y: 700, width: 300, height: 24 });
  const agree = form.createCheckBox('applicant.agrees');
  agree.check();
  agree.addToPage(page, { x: 72, y: 660, width: 16, height: 16 });
  const plan = form.createDropdown('applicant.plan');
  plan.addOptions(['basic', 'pro']);
  plan.select('pro');
  plan.addToPage(page, { x: 72, y: 620, width: 200, height: 24 });
  const choice = form.createRadioGroup('applicant.term');
  choice.addOptionToPage('12', page, { x: 72, y: 580, width: 16, height: 16 });
  choice.addOptionToPage('24', page, { x: 100, y: 580, width: 16, height: 16 });
  choice.select('24');
  return doc.save({ useObjectStreams: false });
}

/** `pdf` encrypted by qpdf (AES-128, empty user password), or undefined without qpdf. */
function encryptedPdf(pdf) {
  const work = mkdtempSync(join(tmpdir(), 'quire-sign-fuzz-'));
  try {
    writeFileSync(join(work, 'in.pdf'), pdf);
    const made = spawnSync(
      'qpdf',
      ['--encrypt', '', 'owner-secret', '128', '--use-aes=y', '--', join(work, 'in.pdf'), join(work, 'out.pdf')],
      { encoding: 'utf8' },
    );
    if (made.error || made.status !== 0) {
      console.log(`qpdf could not encrypt (base left out): ${made.error ?? made.stderr.slice(-300)}`);
      return undefined;
    }
    return new Uint8Array(readFileSync(join(work, 'out.pdf')));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function docx(body) {
  const files = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`,
  };
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, encoder.encode(text)])), {
    mtime: new Date('2026-01-01T00:00:00Z'),
  });
}

const paragraph = (text, pPr = '') =>
  `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const cell = (text) => `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>${paragraph(text)}</w:tc>`;

const MINIMAL_DOCX = () => docx(paragraph('The parties agree to the terms below.'));
const TABLE_DOCX = () =>
  docx(
    `${paragraph('<w:b/>Service agreement', '<w:jc w:val="center"/>')}${paragraph('Term: 12 months. Fee: 100 EUR.')}<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>${Array.from(
      { length: 8 },
      (_, i) => `<w:tr>${cell(`Item ${i + 1}`)}${cell(`${(i + 1) * 10}.00`)}${cell('due')}</w:tr>`,
    ).join('')}</w:tbl>${paragraph('Signed below.')}`,
  );

/**
 * The bases: `pdf` ones get verify-fuzz's byte mutations, `docx` ones convert-fuzz's; `clean` ones
 * are also the document of the body mutations, which expect it to sign (so no encrypted one).
 */
async function buildBases(quire) {
  const onePage = await pdfWithPages(1, { title: 'One page', objectStreams: false });
  const bases = [
    { name: 'pdf:one-page', kind: 'pdf', clean: true, bytes: onePage },
    {
      name: 'pdf:multi-page',
      kind: 'pdf',
      clean: true,
      bytes: await pdfWithPages(12, { title: 'Twelve pages', objectStreams: false }),
    },
    {
      name: 'pdf:object-streams',
      kind: 'pdf',
      clean: true,
      bytes: await pdfWithPages(3, { title: 'Object streams', objectStreams: true }),
    },
    { name: 'pdf:form', kind: 'pdf', clean: true, bytes: await formPdf() },
    {
      name: 'pdf:signed-by-quire',
      kind: 'pdf',
      clean: true,
      signed: true,
      bytes: await signed(quire, onePage, { eventId: 'sign-fuzz-base' }),
    },
  ];
  const encrypted = encryptedPdf(onePage);
  if (encrypted) bases.push({ name: 'pdf:encrypted-aes128-empty-password', kind: 'pdf', bytes: encrypted });
  for (const [name, bytes] of [
    ['docx:minimal', MINIMAL_DOCX()],
    ['docx:table', TABLE_DOCX()],
  ]) {
    bases.push({ name, kind: 'docx', clean: true, bytes, docx: docxBase(name, bytes) });
  }
  return bases;
}

/** `level` as the running worker's OpenAPI document describes it, if the field exists. */
async function levelField(quire) {
  const res = await quire.fetch('/openapi.json');
  const schema = (await res.json())?.components?.schemas?.SignRequest;
  const level = schema?.properties?.level;
  if (!level) return { exists: false, values: [] };
  const values = level.enum ?? level.anyOf?.flatMap((s) => s.enum ?? []) ?? [];
  return { exists: true, values };
}

// ---------------------------------------------------------------------------------------------
// Values at the edges.

const RTL_OVERRIDE = '\u202e';
const COMBINING = '\u0301\u0308\u0327\u0334\u0336\u0489';

/** Names and other free text: [label, value]. Lone surrogates travel as JSON escapes (JSON.stringify). */
const UNICODE_TEXTS = [
  ['arabic', 'محمد بن موسى الخوارزمي'],
  ['hebrew', 'עדה לאבלייס'],
  ['rtl-override', `Ada ${RTL_OVERRIDE}ecalevoL${'\u202c'} Lovelace`],
  ['mixed-direction', 'Ada אדה 123 لوفليس'],
  ['combining', `A${COMBINING.repeat(40)}da`],
  ['zalgo', [...'Ada Lovelace'].map((c) => c + COMBINING).join('')],
  ['decomposed', 'Ade\u0301le\u0300 Cafe\u0301'],
  ['emoji', 'Ada 👩🏽‍💻 Lovelace 🇬🇧'],
  ['emoji-only', '👩‍👩‍👧‍👦🏳️‍🌈'],
  ['cjk', '山田 太郎'],
  ['devanagari-thai', 'देवनागरी ภาษาไทย'],
  ['math-bold', '𝐀𝐝𝐚 𝐋𝐨𝐯𝐞𝐥𝐚𝐜𝐞'],
  ['nul', 'Ada\u0000Lovelace'],
  ['controls', 'Ada\u0007\u001b[31m\u0008Lovelace\r\n'],
  ['newlines', 'Ada\nLovelace\u2028\u2029'],
  ['lone-high-surrogate', 'Ada \ud800 Lovelace'],
  ['lone-low-surrogate', 'Ada Lovelace\udfff'],
  ['reversed-pair', 'Ada \udc00\ud800'],
  ['bom-inside', 'Ada\ufeffLovelace'],
  ['zero-width', '\u200b\u200c\u200d\u2060'],
  ['noncharacters', 'Ada \ufffe\uffff \u{10ffff}'],
  ['private-use', '\ue000\uf8ff Ada'],
  ['tags', `Ada${String.fromCodePoint(0xe0041, 0xe007f)}`],
  ['pdf-syntax', 'Ada) /Type /Catalog >> endobj ( \\ \\\\ %%EOF'],
  ['pdf-hex', '<FEFF0041> <<>> [ ] { }'],
  ['html', '<script>alert(1)</script>&amp;'],
  ['fullwidth', 'Ａｄａ　Ｌｏｖｅｌａｃｅ'],
  ['casefold', 'İstanbul ß ﬃ ǅ'],
];

/** Names that contain something a stricter service could refuse (NUL, controls, lone surrogates). */
const DOUBTFUL_TEXT = new Set([
  'nul',
  'controls',
  'newlines',
  'lone-high-surrogate',
  'lone-low-surrogate',
  'reversed-pair',
  'noncharacters',
  'tags',
]);

const EMAILS = [
  // [value, expected statuses, or undefined where docs/api.md ("valid") does not decide]
  ['ada@example.com', [200]],
  ['a.b+tag@sub.example.co.uk', [200]],
  [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`, [200]], // 255
  [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.com`, [400]], // 256
  ['', [400]],
  ['ada', [400]],
  ['ada@', [400]],
  ['@example.com', [400]],
  ['ada lovelace@example.com', [400]],
  ['ada@@example.com', [400]],
  ['ada@example..com', [400]],
  ['<ada@example.com>', [400]],
  ['Ada Lovelace <ada@example.com>', [400]],
  ['ada@example.com\u0000', [400]],
  ['ada@example.com\nBcc: eve@example.com', [400]],
  ['ada@example', undefined],
  ['.ada@example.com', undefined],
  ['ada@-example.com', undefined],
  ['"ada"@example.com', undefined],
  ['ада@пример.рф', undefined],
  ['ada@xn--e1afmkfd.xn--p1ai', undefined],
  ['ada@[127.0.0.1]', undefined],
  [' ada@example.com ', undefined],
  ['ADA@EXAMPLE.COM', [200]],
];

const IPS = [
  ['203.0.113.7', [200]],
  ['0.0.0.0', [200]],
  ['255.255.255.255', [200]],
  ['127.0.0.1', [200]],
  ['::', [200]],
  ['::1', [200]],
  ['2001:db8::1', [200]],
  ['2001:0db8:0000:0000:0000:0000:0000:0001', [200]],
  ['::ffff:192.0.2.1', [200]],
  ['fe80::1', [200]],
  ['256.0.0.1', [400]],
  ['1.2.3', [400]],
  ['1.2.3.4.5', [400]],
  ['1.2.3.4/24', [400]],
  ['1.2.3.4:80', [400]],
  ['[::1]', [400]],
  ['::g', [400]],
  ['1:2:3:4:5:6:7:8:9', [400]],
  ['localhost', [400]],
  ['', [400]],
  ['ada', [400]],
  [' 1.2.3.4', [400]],
  ['01.2.3.4', undefined],
  ['1.2.3.04', undefined],
  ['fe80::1%eth0', undefined],
  ['::ffff:1.2.3.256', undefined],
  ['0x7f.0.0.1', undefined],
];

const TIMESTAMPS = [
  ['2026-11-22T10:00:00Z', [200]],
  ['2026-11-22T10:00:00+02:00', [200]],
  ['2026-11-22T10:00:00-12:00', [200]],
  ['2026-11-22T10:00:00+14:00', [200]],
  ['2026-11-22T10:00:00.123Z', [200]],
  ['2026-11-22T10:00:00.123456789Z', [200]],
  ['0001-01-01T00:00:00Z', [200]],
  ['0001-01-01T00:00:00+14:00', [200]], // the year 0 in UTC
  ['9999-12-31T23:59:59Z', [200]],
  ['9999-12-31T23:59:59-12:00', [200]], // the year 10000 in UTC
  ['2024-02-29T12:00:00Z', [200]],
  ['1970-01-01T00:00:00Z', [200]],
  ['2026-11-22T10:00:00', [400]],
  ['2026-11-22', [400]],
  ['10:00:00Z', [400]],
  ['', [400]],
  ['yesterday', [400]],
  ['2026-11-22T10:00:00.Z', [400]],
  ['2026-13-01T00:00:00Z', [400]],
  ['2016-12-31T23:59:60Z', undefined], // a leap second
  ['2026-02-30T00:00:00Z', undefined],
  ['2023-02-29T00:00:00Z', undefined],
  ['2026-11-22T24:00:00Z', undefined],
  ['0000-01-01T00:00:00Z', undefined],
  ['+275760-09-13T00:00:00Z', undefined],
  ['-000001-01-01T00:00:00Z', undefined],
  ['2026-11-22T10:00:00+99:99', undefined],
  ['2026-11-22T10:00:00+0200', undefined],
  ['2026-11-22t10:00:00z', undefined],
  ['2026-11-22 10:00:00Z', undefined],
  ['2026-11-22T10:00Z', undefined],
  ['2026-W47-7T10:00:00Z', undefined],
];

const REFUSED_URLS = [
  // [url, status]: 422 DOCUMENT_FETCH_FAILED when refused by the address guard, 400 when not a URL
  ['http://127.0.0.1/contract.pdf', 422],
  ['http://127.0.0.1:8787/v1/health', 422],
  ['https://127.0.0.1/contract.pdf', 422],
  ['https://127.1/', 422],
  ['https://0x7f.1/', 422],
  ['https://2130706433/', 422],
  ['https://0/', 422],
  ['https://[::1]/', 422],
  ['https://[::ffff:127.0.0.1]/', 422],
  ['https://[fe80::1]/', 422],
  ['https://[fc00::1]/', 422],
  ['https://10.0.0.1/contract.pdf', 422],
  ['https://192.168.1.1/', 422],
  ['https://100.64.0.1/', 422],
  ['https://169.254.169.254/latest/meta-data/', 422],
  ['https://localhost/contract.pdf', 422],
  ['https://LOCALHOST./', 422],
  ['https://printer/', 422],
  ['https://nas.local/contract.pdf', 422],
  ['https://db.internal/', 422],
  ['https://router.home.arpa/', 422],
  ['https://user:secret@10.0.0.1/contract.pdf', 422],
  ['file:///etc/passwd', 422],
  ['ftp://10.0.0.1/contract.pdf', 422],
  ['gopher://localhost:70/', 422],
  ['javascript:alert(1)', 422],
  ['data:application/pdf;base64,JVBERi0xLjcK', 422],
  ['ws://localhost/', 422],
  [`https://localhost/${'a'.repeat(100_000)}.pdf`, 422],
  [`https://10.0.0.1/?q=${'b'.repeat(2_000_000)}`, 422],
  ['not a url', 400],
  ['', 400],
  ['//localhost/contract.pdf', 400],
  ['https://', 400],
  ['contract.pdf', 400],
];

// ---------------------------------------------------------------------------------------------
// Body mutations: each takes (rng, body, context) and edits `body` (a valid body's copy) in
// place, returning { description, expect, verify?, dictionary? }, or { raw, … } for a body that
// is not JSON.stringify(body), or { contentType, … } to send it as something else.

const TRAIL_TIME = (i) => new Date(Date.UTC(2026, 10, 22, 10, 0, 0) + i * 1000).toISOString();

function events(count, { submit = true, data } = {}) {
  const types = ['ready', 'view', 'scroll', 'field_change', 'sign'];
  return Array.from({ length: count }, (_, i) => ({
    type: submit && i === count - 1 ? 'submit' : types[i % types.length],
    timestamp: TRAIL_TIME(i),
    ...(data ? { data: data(i) } : {}),
  }));
}

const utf8Length = (value) => encoder.encode(stringifyBody(value)).length;

/** An object of one string entry whose JSON is exactly `bytes` bytes of UTF-8, made of `unit`. */
function objectOfBytes(bytes, unit = 'x') {
  const unitBytes = utf8Length(unit) - 2; // as JSON writes it: a NUL is \u0000, 6 bytes
  const empty = utf8Length({ v: '' });
  const count = Math.floor((bytes - empty) / unitBytes);
  const pad = bytes - empty - count * unitBytes;
  return { v: 'p'.repeat(pad) + unit.repeat(count) };
}

/** Objects nested `depth` deep under key `a`, as built JSON (the parser, not this script, recurses). */
const nestedJson = (depth, open, close, leaf = '1') => `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;

/**
 * A value sent as the JSON text it holds: nesting thousands deep, which Node's JSON.stringify and
 * structuredClone would overflow their stack on here (the worker has to cope with it, not this script).
 */
class RawJson {
  constructor(text) {
    this.text = text;
  }
}

/** `body` as JSON, with every RawJson written as its text. */
function stringifyBody(body) {
  const raws = [];
  const json = JSON.stringify(body, (_key, value) => {
    if (!(value instanceof RawJson)) return value;
    raws.push(value.text);
    return `\u0000raw-${raws.length - 1}\u0000`;
  });
  return json.replace(/"\\u0000raw-(\d+)\\u0000"/g, (_match, n) => raws[Number(n)]);
}

/** Objects nested `depth` deep, as a RawJson: `depth` × 6 + 2 bytes. */
const deepObject = (depth) => new RawJson(nestedJson(depth, '{"a":', '}', '{}'));
/** An object holding arrays nested `depth` deep: `depth` × 2 + 7 bytes. */
const deepArrays = (depth) => new RawJson(`{"a":${nestedJson(depth, '[', ']', '1')}}`);

const typeOf = (value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

const FIELDS = [
  ['document', 'object', true],
  ['document.base64', 'string', true],
  ['signer', 'object', true],
  ['signer.name', 'string', true],
  ['signer.email', 'string', true],
  ['signer.ip', 'string', false],
  ['signer.userAgent', 'string', false],
  ['auditTrail', 'array', true],
  ['auditTrail.1', 'object', true],
  ['auditTrail.1.type', 'string', true],
  ['auditTrail.1.timestamp', 'string', true],
  ['auditTrail.1.data', 'object', false],
  ['eventId', 'string', false],
  ['metadata', 'object', false],
  ['certificate', 'object', false],
  ['certificate.enabled', 'boolean', true],
];

const WRONG_VALUES = [null, 0, -1, 1.5, 1e308, true, false, '', 'x', '0', 'true', 'null', [], [1], {}, { a: 1 }];

function parentOf(body, path) {
  const keys = path.split('.');
  let at = body;
  for (const key of keys.slice(0, -1)) {
    if (at[key] === undefined) at[key] = key === 'certificate' ? { enabled: true } : {};
    at = at[key];
  }
  return [at, keys.at(-1)];
}

/** The field's value set to `value` (its parents made when absent). */
function setField(body, path, value) {
  const [parent, key] = parentOf(body, path);
  parent[key] = value;
}

/** `data` without padding and with characters added until its length is 4n + 1 (RFC 4648 §4: no whole byte). */
function oneTooMany(data) {
  const bare = data.replace(/=+$/, '');
  return `${bare}${'A'.repeat((5 - (bare.length % 4)) % 4 || 4)}`;
}

/** Characters as the schema counts them (zod's lengths are code points; a lone surrogate is one). */
const chars = (text) => [...text].length;
/** `unit` repeated to exactly `length` code points (no pair cut in half). */
const codePoints = (unit, length) => [...unit.repeat(length)].slice(0, length).join('');

const BODY_MUTATIONS = [
  {
    name: 'wrong-type',
    weight: 8,
    apply: (rng, body) => {
      const [path, type] = rng.pick(FIELDS);
      const value = rng.pick(WRONG_VALUES);
      setField(body, path, clone(value));
      const same = typeOf(value) === type;
      return { description: `${path} = ${JSON.stringify(value)}`, expect: same ? undefined : [400] };
    },
  },
  {
    name: 'missing-field',
    weight: 5,
    apply: (rng, body) => {
      const [path, , required] = rng.pick(FIELDS.filter(([p]) => p !== 'auditTrail.1'));
      const [parent, key] = parentOf(body, path);
      delete parent[key];
      return { description: `without ${path}`, expect: [required ? 400 : 200] };
    },
  },
  {
    name: 'extra-field',
    weight: 5,
    apply: (rng, body) => {
      const where = rng.pick([
        '',
        'signer',
        'document',
        'certificate',
        'auditTrail.0',
        'metadata',
        'auditTrail.1.data',
      ]);
      const key = rng.pick(['extra', 'role', 'Document', 'document ', '', 'constructor', 'toString', 'signature']);
      const target = where ? parentOf(body, `${where}.x`)[0] : body;
      if (key in target && Object.hasOwn(target, key)) return undefined;
      target[key] = rng.pick([1, 'x', null, {}]);
      // metadata and event data are free-form objects: any key is theirs to hold.
      const freeForm = where === 'metadata' || where === 'auditTrail.1.data';
      return { description: `${where || 'top level'} gets key ${JSON.stringify(key)}`, expect: [freeForm ? 200 : 400] };
    },
  },
  {
    name: 'proto-key',
    weight: 1,
    apply: (rng, body) => {
      const where = rng.pick(['top', 'signer', 'metadata']);
      const json = JSON.stringify(body);
      const injected = '"__proto__":{"polluted":true,"enabled":false},';
      const raw =
        where === 'top' ? `{${injected}${json.slice(1)}` : json.replace(`"${where}":{`, `"${where}":{${injected}`);
      if (where === 'metadata' && !body.metadata) return undefined;
      return { raw, description: `"__proto__" key in ${where}`, expect: [where === 'metadata' ? 200 : 400] };
    },
  },
  {
    name: 'level',
    weight: 3,
    apply: (rng, body, { level }) => {
      const value = rng.pick([...level.values, 'B-B', 'B-T', 'B-LT', 'B-LTA', 'b-b', 'PAdES-B-B', '', 'B-X', 3, null]);
      body.level = value;
      const valid = level.exists && level.values.includes(value);
      // Without the field, any `level` is an unknown key (400); with it, only its values pass.
      return { description: `level = ${JSON.stringify(value)}`, expect: valid ? undefined : [400] };
    },
  },
  {
    name: 'name-unicode',
    weight: 6,
    apply: (rng, body) => {
      const [label, text] = rng.pick(UNICODE_TEXTS);
      body.signer.name = rng.next() < 0.7 ? text : `  ${text}  `;
      const trimmed = chars(body.signer.name.trim());
      const fits = trimmed >= 2 && trimmed <= 255;
      return {
        description: `signer.name ${label} ${JSON.stringify(body.signer.name).slice(0, 120)}`,
        expect: !fits ? [400] : DOUBTFUL_TEXT.has(label) ? [200, 400] : [200],
        verify: true,
        dictionary: { Name: body.signer.name.trim() },
      };
    },
  },
  {
    name: 'name-length',
    weight: 3,
    apply: (rng, body) => {
      const length = rng.pick([0, 1, 2, 254, 255, 256, 10_000, 1_000_000]);
      const unit = rng.pick(['a', 'é', '😀', ' a', 'e\u0301']);
      const name = codePoints(unit, length);
      body.signer.name = rng.next() < 0.3 ? ` ${name} ` : name;
      const trimmed = body.signer.name.trim();
      const fits = chars(trimmed) >= 2 && chars(trimmed) <= 255;
      return {
        description: `signer.name of ${chars(body.signer.name)} characters of ${JSON.stringify(unit)}`,
        expect: [fits ? 200 : 400],
        dictionary: fits ? { Name: trimmed } : undefined,
      };
    },
  },
  {
    name: 'email',
    weight: 4,
    apply: (rng, body) => {
      const [email, expect] = rng.pick(EMAILS);
      body.signer.email = email;
      return {
        description: `signer.email = ${JSON.stringify(email).slice(0, 120)}`,
        expect,
        verify: true,
        dictionary: { ContactInfo: email },
      };
    },
  },
  {
    name: 'ip',
    weight: 3,
    apply: (rng, body) => {
      const [ip, expect] = rng.pick(IPS);
      body.signer.ip = ip;
      delete body.metadata;
      return { description: `signer.ip = ${JSON.stringify(ip)}`, expect, dictionary: { Location: `IP ${ip}` } };
    },
  },
  {
    name: 'user-agent',
    weight: 2,
    apply: (rng, body) => {
      const length = rng.pick([0, 1, 1024, 1025, 100_000]);
      const [label, text] = rng.pick(UNICODE_TEXTS);
      body.signer.userAgent = rng.next() < 0.5 ? codePoints(text, length) : text;
      const fits = chars(body.signer.userAgent) <= 1024;
      return {
        description: `signer.userAgent of ${chars(body.signer.userAgent)} characters of ${label}`,
        expect: !fits ? [400] : DOUBTFUL_TEXT.has(label) ? [200, 400] : [200],
      };
    },
  },
  {
    name: 'event-id',
    weight: 3,
    apply: (rng, body) => {
      const [label, text] = rng.pick([
        ['empty', ''],
        ['one', 'e'],
        ['255', 'e'.repeat(255)],
        ['256', 'e'.repeat(256)],
        ['uuid', '6f1c2a0e-8d2b-4c3a-9f5e-1a2b3c4d5e6f'],
        ['header-injection', 'evt-1\r\nX-Injected: 1'],
        ['spaces', '  evt 1  '],
        ...UNICODE_TEXTS,
      ]);
      body.eventId = text;
      const fits = chars(text) >= 1 && chars(text) <= 255;
      return {
        description: `eventId ${label} ${JSON.stringify(text).slice(0, 80)}`,
        expect: !fits ? [400] : DOUBTFUL_TEXT.has(label) ? [200, 400] : [200],
      };
    },
  },
  {
    name: 'trail-size',
    weight: 3,
    apply: (rng, body) => {
      const [label, trail, status] = rng.pick([
        ['0 events', [], 400],
        ['1 submit', events(1), 200],
        ['2 submits', [...events(1), ...events(1)], 200],
        ['2,000 events', events(2000), 200],
        ['2,001 events', events(2001), 400],
        ['2,000 events, none submit', events(2000, { submit: false }), 400],
        // Hundreds of certificate pages: past the layout budget, a 422 DOCUMENT_TOO_COMPLEX is the contract's answer.
        [
          '2,000 events with 1 KiB of data each',
          events(2000, { data: (i) => objectOfBytes(1024, String(i % 10)) }),
          [200, 422],
        ],
        ['a submit first, 1,999 after it', [...events(1), ...events(1999, { submit: false })], 200],
      ]);
      body.auditTrail = trail;
      return { description: `auditTrail: ${label}`, expect: [status].flat() };
    },
  },
  {
    name: 'event-type',
    weight: 2,
    apply: (rng, body) => {
      const type = rng.pick(['SUBMIT', 'Submit', 'click', '', ' submit', 'submit\u0000', 'sign', 'ready']);
      body.auditTrail[0].type = type;
      const valid = ['ready', 'view', 'scroll', 'field_change', 'submit', 'sign'].includes(type);
      return { description: `auditTrail[0].type = ${JSON.stringify(type)}`, expect: [valid ? 200 : 400] };
    },
  },
  {
    name: 'timestamp',
    weight: 5,
    apply: (rng, body) => {
      const [timestamp, expect] = rng.pick(TIMESTAMPS);
      const at = rng.int(body.auditTrail.length);
      body.auditTrail[at].timestamp = timestamp;
      return { description: `auditTrail[${at}].timestamp = ${JSON.stringify(timestamp)}`, expect };
    },
  },
  {
    name: 'event-data',
    weight: 5,
    apply: (rng, body) => {
      const limit = 16 * 1024;
      const [label, data, status] = rng.pick([
        ['{}', {}, 200],
        ['16 KiB of ASCII', objectOfBytes(limit), 200],
        ['16 KiB + 1 of ASCII', objectOfBytes(limit + 1), 400],
        ['16 KiB of é', objectOfBytes(limit, 'é'), 200],
        ['16 KiB + 1 with é', objectOfBytes(limit + 1, 'é'), 400],
        ['16 KiB of emoji', objectOfBytes(limit, '😀'), 200],
        ['16 KiB of NUL (escaped, 6 bytes each)', objectOfBytes(limit, '\u0000'), 200],
        ['one word of 16,000 characters', { word: 'w'.repeat(16_000) }, 200],
        ['1,300 small keys', Object.fromEntries(Array.from({ length: 1300 }, (_, i) => [`k${i}`, i])), 200],
        ['an array of 4,000 numbers', { list: Array.from({ length: 4000 }, (_, i) => i % 10) }, 200],
        ['numbers at the edges', { a: 1e308, b: -0, c: 5e-324, d: 2 ** 53, e: -Number.MAX_VALUE }, 200],
        ['unicode keys and values', Object.fromEntries(UNICODE_TEXTS.map(([k, v]) => [v, k])), 200],
        // docs/api.md names no depth: a refusal that says so (400) is as good an answer as a signature.
        ['objects nested 500 deep', deepObject(500), [200, 400]],
        ['objects nested 2,700 deep', deepObject(2700), [200, 400]],
        ['arrays nested 5,000 deep', deepArrays(5000), [200, 400]],
        ['arrays nested 8,180 deep', deepArrays(8180), [200, 400]],
        ['null', null, 400],
        ['a string', 'x', 400],
        ['an array', [1, 2], 400],
      ]);
      const at = rng.int(body.auditTrail.length);
      body.auditTrail[at].data = data;
      return { description: `auditTrail[${at}].data: ${label} (${utf8Length(data)} B)`, expect: [status].flat() };
    },
  },
  {
    name: 'metadata',
    weight: 5,
    apply: (rng, body) => {
      const limit = 16 * 1024;
      const text = rng.pick(UNICODE_TEXTS);
      const [label, metadata, status] = rng.pick([
        ['{}', {}, 200],
        ['16 KiB', objectOfBytes(limit), 200],
        ['16 KiB + 1', objectOfBytes(limit + 1), 400],
        ['16 KiB of é', objectOfBytes(limit, 'é'), 200],
        [`reason ${text[0]}`, { reason: text[1] }, 200],
        [`location ${text[0]}`, { location: text[1] }, 200],
        ['empty reason and location', { reason: '', location: '' }, 200],
        ['blank reason and location', { reason: '   ', location: '\t\n' }, 200],
        ['reason of 10,000 characters', { reason: 'r'.repeat(10_000) }, 200],
        ['reason of 3,000 emoji', { reason: '😀'.repeat(3_000) }, 200],
        ['reason a number, location an object', { reason: 42, location: { city: 'London' } }, 200],
        ['reason null, location an array', { reason: null, location: ['London'] }, 200],
        ['objects nested 2,700 deep', deepObject(2700), [200, 400]],
        ['arrays nested 8,180 deep', deepArrays(8180), [200, 400]],
        ['an array', ['reason'], 400],
        ['a string', 'reason', 400],
        ['null', null, 400],
      ]);
      body.metadata = metadata;
      const asked = (key) => {
        const value = metadata?.[key];
        return typeof value === 'string' && value.trim() !== '' && value === value.trim() && value.length <= 255
          ? value
          : undefined;
      };
      const dictionary = {};
      if (asked('reason')) dictionary.Reason = asked('reason');
      if (asked('location')) dictionary.Location = asked('location');
      return {
        description: `metadata: ${label}`,
        expect: [status].flat(),
        verify: typeOf(metadata) === 'object' && ('reason' in metadata || 'location' in metadata),
        dictionary,
      };
    },
  },
  {
    name: 'certificate',
    weight: 3,
    apply: (rng, body) => {
      const [value, status] = rng.pick([
        [{ enabled: false }, 200],
        [{ enabled: true }, 200],
        [{}, 400],
        [{ enabled: 'false' }, 400],
        [{ enabled: 0 }, 400],
        [{ enabled: null }, 400],
        [{ enabled: false, pages: 0 }, 400],
        [null, 400],
        [true, 400],
        [false, 400],
      ]);
      body.certificate = value;
      return { description: `certificate = ${JSON.stringify(value)}`, expect: [status] };
    },
  },
  {
    name: 'base64-form',
    weight: 6,
    apply: (rng, body) => {
      const data = body.document.base64;
      const lines = (width, eol) => data.match(new RegExp(`.{1,${width}}`, 'g')).join(eol);
      const middle = rng.int(data.length);
      const at = (insert) => `${data.slice(0, middle)}${insert}${data.slice(middle)}`;
      const urlSafe = data.replace(/[+/]/g, (c) => (c === '+' ? '-' : '_'));
      const [label, value, status] = rng.pick([
        ['MIME lines of 76 with CRLF', lines(76, '\r\n'), 200],
        ['lines of 64 with LF', lines(64, '\n'), 200],
        ['a space every 4', lines(4, ' '), 200],
        ['tabs and form feeds', lines(16, '\t\f'), 200],
        ['leading and trailing whitespace', `\n\t  ${data}  \r\n`, 200],
        ['URL-safe alphabet', urlSafe, 200],
        ['no padding', data.replace(/=+$/, ''), 200],
        ['data URI', `data:application/pdf;base64,${data}`, 200],
        ['data URI, other type', `data:application/octet-stream;base64,${data}`, 200],
        ['data URI, upper case', `DATA:APPLICATION/PDF;BASE64,${data}`, 200],
        ['data URI, no type', `data:;base64,${data}`, 200],
        ['data URI with parameters', `data:application/pdf;name=contract.pdf;base64,${data}`, 200],
        ['data URI after whitespace', `  data:application/pdf;base64,${data}`, 200],
        ['data URI without ;base64', `data:application/pdf,${data}`, 400],
        ['data URI without a comma', `data:application/pdf;base64${data}`, 400],
        ['data URI with nothing after the comma', 'data:application/pdf;base64,', 400],
        ['data URI, percent-encoded', `data:application/pdf;base64,${data.slice(0, 40)}%2B${data.slice(40)}`, 400],
        ['a no-break space inside', at('\u00a0'), 400],
        ['a "!" inside', at('!'), 400],
        ['a "." inside', at('.'), 400],
        ['an "é" inside', at('é'), 400],
        ['a NUL inside', at('\u0000'), 400],
        ['an emoji inside', at('😀'), 400],
        ['three "=" at the end', `${data.replace(/=+$/, '')}===`, 400],
        ['"=" in the middle', at('='), 400],
        ['a length of 4n + 1 characters', oneTooMany(data), 400],
        ['only whitespace', ' \n\t ', 400],
        ['only padding', '====', 400],
        ['an https URL in base64', 'https://10.0.0.1/contract.pdf', 400],
        ['base64 of text', base64(encoder.encode('just text, no document')), 415],
        ['base64 of "%PDF-" alone', base64(encoder.encode('%PDF-')), 422],
        ['base64 of a PDF header and garbage', base64(encoder.encode(`%PDF-1.7\n${'garbage '.repeat(100)}`)), 422],
        ['base64 of an empty ZIP', base64(zipSync({})), undefined],
        ['base64 of a ZIP without word/document.xml', base64(zipSync({ 'a.txt': encoder.encode('a') })), 415],
      ]);
      body.document.base64 = value;
      return { description: `document.base64: ${label}`, expect: status === undefined ? undefined : [status] };
    },
  },
  {
    name: 'base64-too-large',
    weight: 0.3,
    apply: (rng, body) => {
      // 35.5 M characters decode to 26.6 MB, past MAX_DOCUMENT_BYTES (25 MiB) and under the body
      // limit; 37 M pass the body limit (ceil(25 MiB / 3) x 4 + 1 MiB = 36,001,112 bytes).
      const length = rng.pick([35_500_000, 37_000_000]);
      body.document.base64 = 'A'.repeat(length);
      return { description: `document.base64 of ${length} characters`, expect: [413] };
    },
  },
  {
    name: 'document-shape',
    weight: 2,
    apply: (rng, body) => {
      const [label, value] = rng.pick([
        ['both base64 and url', { base64: body.document.base64, url: 'https://10.0.0.1/a.pdf' }],
        ['neither', {}],
        ['a string', body.document.base64],
        ['an array', [body.document]],
        ['base64 null', { base64: null }],
        ['url a number', { url: 5 }],
        ['an extra key', { ...body.document, name: 'contract.pdf' }],
        ['base64 empty', { base64: '' }],
      ]);
      body.document = value;
      return { description: `document: ${label}`, expect: [400] };
    },
  },
  {
    name: 'refused-url',
    weight: 5,
    apply: (rng, body) => {
      const [url, status] = rng.pick(REFUSED_URLS);
      body.document = { url };
      return {
        refusedUrl: true,
        description: `document.url = ${JSON.stringify(url.length > 100 ? `${url.slice(0, 60)}…` : url)} (${url.length} characters)`,
        expect: [status],
      };
    },
  },
  {
    name: 'huge-string',
    weight: 1,
    apply: (rng, body) => {
      const [path, limit] = rng.pick([
        ['signer.name', 255],
        ['signer.email', 255],
        ['signer.userAgent', 1024],
        ['eventId', 255],
        ['auditTrail.0.type', 0],
        ['auditTrail.0.timestamp', 0],
        ['metadata.reason', 16 * 1024],
      ]);
      const length = rng.pick([1_000_000, 8_000_000, 36_500_000]);
      setField(body, path, 'x'.repeat(length));
      // Past the body limit the size is refused before validation; under it, the field is.
      const status = length > 36_001_112 ? 413 : limit < length ? 400 : 200;
      return { description: `${path} of ${length} characters`, expect: [status] };
    },
  },
  {
    name: 'malformed-json',
    weight: 4,
    apply: (rng, body) => {
      const json = JSON.stringify(body);
      const [label, raw, status] = rng.pick([
        ['empty', '', 400],
        ['null', 'null', 400],
        ['an array', `[${json}]`, 400],
        ['a string', JSON.stringify(json), 400],
        ['a number', '42', 400],
        ['truncated', json.slice(0, rng.int(json.length)), 400],
        ['a trailing comma', `${json.slice(0, -1)},}`, 400],
        ['single quotes', json.replace(/"/g, "'"), 400],
        ['a comment', `/* c */${json}`, 400],
        ['NaN', json.replace(/"auditTrail":/, '"x":NaN,"auditTrail":'), 400],
        ['two bodies', `${json}${json}`, 400],
        ['a BOM first', `\ufeff${json}`, undefined],
        ['trailing whitespace', `${json}\n\n  `, 200],
        ['keys twice, the valid one last', `{"signer":{"name":1},${json.slice(1)}`, 200],
        ['arrays nested 100,000 deep', nestedJson(100_000, '[', ']'), 400],
        ['objects nested 100,000 deep', nestedJson(100_000, '{"a":', '}'), 400],
        ['a bare word', 'sign', 400],
        ['invalid UTF-8 escapes', json.replace('"Ada', '"\\uZZZZAda'), 400],
      ]);
      return {
        raw,
        description: `body: ${label} (${raw.length} characters)`,
        expect: status === undefined ? undefined : [status],
      };
    },
  },
  {
    name: 'content-type',
    weight: 2,
    apply: (rng) => {
      const [contentType, status] = rng.pick([
        ['text/plain', 415],
        ['', 415],
        ['application/x-www-form-urlencoded', 415],
        // A form is a body sign takes (issue 25): JSON text under that type is a malformed form.
        ['multipart/form-data; boundary=x', 400],
        ['application/jsonx', 415],
        ['application/pdf', 415],
        ['application/json; charset=utf-8', 200],
        ['Application/JSON', 200],
        ['application/json;charset=UTF-8;foo=bar', 200],
      ]);
      return { contentType, description: `Content-Type ${JSON.stringify(contentType)}`, expect: [status] };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Variants.

/** A valid body for `documentBase64`, with the scripts' signer and audit trail and a drawn option or two. */
function validBody(rng, documentBase64) {
  const body = { document: { base64: documentBase64 }, signer: clone(baseSigner), auditTrail: clone(baseTrail) };
  if (rng.next() < 0.3) body.certificate = { enabled: false };
  if (rng.next() < 0.3) body.eventId = `sign-fuzz-${rng.int(1e9)}`;
  if (rng.next() < 0.2) body.metadata = { reason: 'Approved', location: 'London', ticket: rng.int(1e6) };
  return body;
}

const KINDS = [
  { name: 'pdf', weight: 45 },
  { name: 'docx', weight: 8 },
  { name: 'body', weight: 47 },
];

/**
 * Variant `index`: what it is (a mutated PDF, a mutated DOCX or a mutated body) and its request,
 * drawn from (seed, index) alone. `bytes` is the request body, as sent.
 */
function makeVariant(bases, level, index) {
  const rng = rngFor(seed, index);
  const kind = pickWeighted(rng, KINDS).name;
  if (kind === 'pdf' || kind === 'docx') {
    const base = rng.pick(bases.filter((b) => b.kind === kind));
    const mutated = kind === 'pdf' ? mutatePdf(rng, base.bytes) : mutateDocx(rng, base.docx, { maxGrowth: 1 << 20 });
    const body = validBody(rng, base64(mutated.bytes));
    return finish(index, base.name, body, {
      description: `${mutated.mutation}${body.certificate ? ', certificate disabled' : ''}`,
      // An empty document (a truncation at 0) is an empty base64 string: 400 by the schema.
      expect: mutated.bytes.length === 0 ? [400] : kind === 'pdf' ? [200, 415, 422] : [200, 413, 415, 422],
    });
  }
  // Most body variants carry the one-page PDF; the rest, another clean base.
  const clean = bases.filter((b) => b.clean);
  const base = rng.next() < 0.6 ? clean[0] : rng.pick(clean);
  const body = validBody(rng, base64(base.bytes));
  for (let attempt = 0; attempt < 20; attempt++) {
    const mutation = pickWeighted(rng, BODY_MUTATIONS);
    const tried = clone(body);
    const result = mutation.apply(rng, tried, { level });
    if (!result) continue;
    return finish(index, base.name, tried, { ...result, description: `${mutation.name}: ${result.description}` });
  }
  throw new Error(`variant ${index}: no body mutation applied`);
}

function finish(index, base, body, { description, expect, raw, contentType, verify, dictionary, refusedUrl }) {
  const text = raw ?? stringifyBody(body);
  return {
    index,
    base,
    bytes: encoder.encode(text),
    mutation: description,
    expect,
    contentType: contentType ?? 'application/json',
    verify: Boolean(verify),
    // What the 200 is checked against, when the body sent is the one built here.
    sent: raw === undefined ? body : undefined,
    dictionary: dictionary && Object.keys(dictionary).length ? dictionary : undefined,
    refusedUrl: Boolean(refusedUrl),
  };
}

// ---------------------------------------------------------------------------------------------
// The checks of a 200.

/** A text string of the last signature dictionary (`/Key <hex>` or `/Key (literal)`), decoded. */
function signatureEntry(pdfText, key) {
  const start = pdfText.lastIndexOf('/Type /Sig');
  if (start < 0) return undefined;
  const end = pdfText.indexOf('endobj', start);
  const dict = pdfText.slice(Math.max(0, pdfText.lastIndexOf('obj', start)), end < 0 ? undefined : end);
  const hex = new RegExp(`/${key}\\s*<([0-9A-Fa-f\\s]*)>`).exec(dict);
  if (!hex) return undefined;
  const bytes = Buffer.from(hex[1].replace(/\s/g, ''), 'hex');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    let out = '';
    for (let i = 2; i + 1 < bytes.length; i += 2) out += String.fromCharCode((bytes[i] << 8) | bytes[i + 1]);
    return out;
  }
  return latin1(bytes);
}

/** What the 200s were checked for beyond their shape, for the line after the summary. */
const checked = { dictionaries: 0, verified: 0 };

/** POST /v1/verify of `documentBase64`: { status, text }, or { error } when no answer came. */
async function verifyAnswer(quire, documentBase64) {
  try {
    const res = await fetchRetrying(quire, '/v1/verify', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ document: { base64: documentBase64 } }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    return { status: res.status, text: await res.text() };
  } catch (error) {
    return { error: error?.name === 'TimeoutError' ? `no answer in ${options.timeoutMs} ms` : String(error) };
  }
}

async function verifyProblem(quire, pdf, variant) {
  checked.verified++;
  const answer = await verifyAnswer(quire, base64(pdf));
  if (answer.error) return `/v1/verify of the signed PDF failed: ${answer.error}`;
  const { text } = answer;
  if (answer.status !== 200) {
    // Says whether verify refuses the document as it was sent too: then sign took a file verify will not read.
    const input = variant.sent?.document?.base64;
    const before =
      typeof input === 'string' && input.startsWith('JVBER') ? await verifyAnswer(quire, input) : undefined;
    const inputSaid = before
      ? `; of the PDF as sent: ${before.error ?? `${before.status} ${before.text.slice(0, 200)}`}`
      : '';
    return `/v1/verify of the signed PDF answered ${answer.status}: ${text.slice(0, 300)}${inputSaid}`;
  }
  let report;
  try {
    report = JSON.parse(text);
  } catch {
    return '/v1/verify answered 200 with a body that is not JSON';
  }
  // The new signature's field is the last one written (the signer names it SignatureN).
  const field = [...latin1(pdf).matchAll(/\/T\s*\((Signature\d+)\)/g)].at(-1)?.[1];
  const last = report.signatures?.find((s) => s.field === field) ?? report.signatures?.at(-1);
  if (!last) return `/v1/verify found no signature in the signed PDF: ${report.reason}`;
  if (!last.intact || !last.cryptographicallyValid || last.coverage !== 'entire-file') {
    return `/v1/verify: the new signature (${last.field} of ${report.signatures.map((s) => s.field).join(', ')}) is ${JSON.stringify({ intact: last.intact, cryptographicallyValid: last.cryptographicallyValid, coverage: last.coverage, problems: last.problems })}`;
  }
  if (report.valid) return undefined;
  // valid:false is the right answer only when an earlier signature fails on its own (a mutated
  // signed base, or a fake signature a mutation wrote).
  const earlierFails = report.signatures
    .filter((s) => s !== last)
    .some(
      (s) =>
        !s.intact ||
        !s.cryptographicallyValid ||
        s.coverage === 'partial' ||
        !['none', 'signatures'].includes(s.modificationsAfterSigning),
    );
  return earlierFails
    ? undefined
    : `/v1/verify: valid false with no earlier signature failing (${report.reason}) [variant ${variant.index}]`;
}

/**
 * The X-Quire-Event-Id docs/api.md gives for `eventId`: characters outside visible ASCII as
 * \uXXXX (\u{X…} beyond U+FFFF), without the leading and trailing spaces the Headers API strips.
 */
function eventIdHeader(eventId) {
  let out = '';
  for (const char of eventId) {
    const code = char.codePointAt(0);
    if (code >= 0x20 && code < 0x7f) out += char;
    else out += code < 0x10000 ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
  }
  return out.replace(/^ +| +$/g, '');
}

async function checkSigned(res, bytes, { variant, quire }) {
  if (!/^application\/json/.test(res.headers.get('Content-Type') ?? '')) return 'a 200 that is not application/json';
  let answer;
  try {
    answer = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return 'a 200 whose body is not JSON';
  }
  if (answer?.document?.contentType !== 'application/pdf') return 'document.contentType is not application/pdf';
  if (typeof answer.document.base64 !== 'string') return 'document.base64 is not a string';
  const pdf = new Uint8Array(Buffer.from(answer.document.base64, 'base64'));
  const text = latin1(pdf);
  if (!text.startsWith('%PDF-')) return 'the signed document does not start with %PDF-';
  if (!/%%EOF[\r\n]*$/.test(text.slice(-64))) return 'the signed document does not end with %%EOF';
  const eventId = res.headers.get('X-Quire-Event-Id');
  if (!eventId) return 'no X-Quire-Event-Id';
  const sent = variant.sent;
  if (typeof sent?.eventId === 'string' && eventId !== eventIdHeader(sent.eventId)) {
    return `X-Quire-Event-Id ${JSON.stringify(eventId)} is not the eventId sent`;
  }
  const pages = res.headers.get('X-Quire-Certificate-Pages');
  if (!/^\d+$/.test(pages ?? '')) return `X-Quire-Certificate-Pages ${JSON.stringify(pages)}`;
  if (sent?.certificate?.enabled === false && pages !== '0') return `certificate disabled, yet ${pages} pages`;
  if (variant.dictionary) checked.dictionaries++;
  for (const [key, value] of Object.entries(variant.dictionary ?? {})) {
    const found = signatureEntry(text, key);
    if (found !== value) {
      return `/${key} of the signature is ${JSON.stringify(found)?.slice(0, 120)}, not ${JSON.stringify(value).slice(0, 120)}`;
    }
  }
  if (variant.verify || variant.index % verifyEvery === 0) return verifyProblem(quire, pdf, variant);
  return undefined;
}

/**
 * A refused `document.url` must be refused by the address guard, before any fetch (docs/api.md
 * "Document input object"): 422 DOCUMENT_FETCH_FAILED saying only public URLs are fetched, or a
 * 400 naming document.url when it is not a URL at all.
 */
function checkRefusal(res, body, { variant }) {
  if (!variant.refusedUrl) return undefined;
  if (res.status === 422) {
    return body.code === 'DOCUMENT_FETCH_FAILED' && /only public (http and )?https URLs are fetched/.test(body.message)
      ? undefined
      : `document.url not refused by the address guard: ${body.code} ${body.message.slice(0, 200)}`;
  }
  return body.details?.some((d) => d.field.startsWith('document'))
    ? undefined
    : 'a 400 that does not name document.url';
}

// ---------------------------------------------------------------------------------------------
// The run.

let bases = [];
let level = { exists: false, values: [] };
const failures = await runFuzz({
  label: 'sign-fuzz',
  options,
  extension: 'json',
  prepare: async (quire) => {
    bases = await buildBases(quire);
    level = await levelField(quire);
    console.log(`bases (${bases.length}): ${bases.map((b) => `${b.name} ${b.bytes.length} B`).join(', ')}`);
    console.log(
      level.exists ? `level: ${level.values.join(', ') || '(no enum)'}` : 'level: not in the schema (an unknown key)',
    );
  },
  makeVariant: (index) => makeVariant(bases, level, index),
  requestFor: (variant) => ({
    path: '/v1/sign',
    init: {
      method: 'POST',
      headers: variant.contentType ? { 'Content-Type': variant.contentType } : {},
      body: variant.bytes,
    },
  }),
  check: checkSigned,
  checkError: checkRefusal,
});
console.log(
  `signed PDFs sent to /v1/verify: ${checked.verified} (every ${verifyEvery}th 200 and each edge-case name, email, reason or location); signature dictionaries read: ${checked.dictionaries}`,
);
process.exitCode = failures ? 1 : 0;
