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
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { concatBytes as concat, flipBytes, pickWeighted, rngFor } from './fuzz-kit.mjs';
import { root } from './local-setup.mjs';
import { LONG_MD, markdownPdf, SHORT_MD, signed } from './signed-inputs.mjs';
import { fuzzOptions, runFuzz } from './worker-harness.mjs';

const options = fuzzOptions(process.argv.slice(2), { label: 'verify-fuzz', saveFlag: '--out' });
const { seed } = options;
const corpus = resolve(root, '..', 'shared', 'corpus');

// ---------------------------------------------------------------------------------------------
// Where things are in a PDF (found in its Latin-1 text).

const latin1 = (bytes) => Buffer.from(bytes).toString('latin1');
const fromLatin1 = (text) => new Uint8Array(Buffer.from(text, 'latin1'));

function spans(text, pattern, group = 0) {
  const out = [];
  for (const match of text.matchAll(pattern)) {
    const start = match.index + (group ? match[0].indexOf(match[group]) : 0);
    const length = match[group].length;
    if (length > 0) out.push([start, start + length]);
  }
  return out;
}

/** The regions the aimed mutations target, each a list of [start, end) spans. */
function regionsOf(bytes) {
  const text = latin1(bytes);
  return {
    byteRange: spans(text, /\/ByteRange\s*\[[^\]]{0,200}\]/g),
    contents: spans(text, /\/Contents\s*<([0-9A-Fa-f\s]+)>/g, 1),
    xref: [
      ...spans(text, /(?<=[\r\n])xref[\r\n ][\s\S]{0,200000}?(?=trailer)/g),
      ...spans(text, /\/Type\s*\/XRef[\s\S]{0,200000}?endstream/g),
    ],
    trailer: spans(text, /trailer\s*<<[\s\S]{0,2000}?>>/g),
    startxref: spans(text, /startxref\s*(\d+)/g, 1),
    objStm: spans(text, /\/Type\s*\/ObjStm[\s\S]{0,500000}?endstream/g),
    sigDict: spans(text, /\/Type\s*\/Sig\b[\s\S]{0,400}/g),
  };
}

const INTERESTING = [
  '0',
  '-1',
  '1',
  '-2147483648',
  '2147483647',
  '4294967295',
  '4294967296',
  '9007199254740993',
  '99999999999999999999999',
  '1e308',
  '3.5',
  '-0',
  '',
  'null',
  '00000000000000000000000000000001',
];

function interestingNumber(rng, length) {
  return rng.pick([...INTERESTING, String(length), String(length + 1), String(length - 1), String(rng.int(length))]);
}

/** Replaces [start, end) of `bytes` by `replacement` (a string or bytes). */
function splice(bytes, start, end, replacement) {
  const middle = typeof replacement === 'string' ? fromLatin1(replacement) : replacement;
  return concat(bytes.subarray(0, start), middle, bytes.subarray(end));
}

// ---------------------------------------------------------------------------------------------
// Mutations: each takes (rng, bytes, regions) and returns { bytes, description }, or undefined
// when the base has nothing for it to aim at (another mutation is drawn then).

const aimed = (region, label, count) => (rng, bytes, regions) => {
  const list = regions[region];
  if (!list.length) return undefined;
  const span = rng.pick(list);
  const n = rng.range(1, count);
  const flipped = flipBytes(rng, bytes, n, span);
  return { bytes: flipped.bytes, description: `${label}: ${n} byte(s) at ${flipped.at.join(',')}` };
};

/** Replaces one integer token inside a region by an interesting number. */
const numberIn = (region) => (rng, bytes, regions) => {
  const list = regions[region];
  if (!list.length) return undefined;
  const [start, end] = rng.pick(list);
  const text = latin1(bytes.subarray(start, end));
  const numbers = [...text.matchAll(/-?\d+/g)];
  if (!numbers.length) return undefined;
  const number = rng.pick(numbers);
  const value = interestingNumber(rng, bytes.length);
  const at = start + number.index;
  return {
    bytes: splice(bytes, at, at + number[0].length, value),
    description: `${region} number at ${at}: ${number[0]} -> '${value}'`,
  };
};

function lastStartxref(bytes) {
  const matches = [...latin1(bytes).matchAll(/startxref\s*(\d+)/g)];
  return matches.length ? Number(matches.at(-1)[1]) : 0;
}

function rootRef(bytes) {
  return [...latin1(bytes).matchAll(/\/Root\s+(\d+\s+\d+\s+R)/g)].at(-1)?.[1] ?? '1 0 R';
}

function objectNumbers(bytes) {
  return [...latin1(bytes).matchAll(/(?<=[\r\n ])(\d+)\s+0\s+obj\b/g)].map((m) => Number(m[1]));
}

const FAKE_OBJECTS = [
  () => '<< /Type /Catalog >>',
  () => '<< /Type /Catalog /Pages 9999 0 R /AcroForm << /Fields [ 9999 0 R ] >> >>',
  () => '<< /Type /Pages /Kids [ ] /Count 2147483647 >>',
  (_rng, n) => `<< /Type /Pages /Kids [ ${n} 0 R ] /Count 1 >>`,
  (_rng, n) => `${n} 0 R`,
  () =>
    '<< /FT /Sig /T (Fake) /V << /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [ 0 10 20 30 ] /Contents <3082> >> >>',
  (rng) =>
    `<< /Type /Sig /ByteRange [ 0 ${rng.int(1e6)} ${rng.int(1e6)} ${rng.int(1e6)} ] /Contents <${Buffer.from(rng.bytes(rng.range(1, 300))).toString('hex')}> >>`,
  (rng) => `${'['.repeat(rng.pick([100, 1000, 20000]))}${']'.repeat(rng.pick([0, 5, 20000]))}`,
  (rng) => `${'<< /A '.repeat(rng.pick([100, 1000, 20000]))}null${' >>'.repeat(rng.pick([0, 20000]))}`,
  (rng) => `(${'\\('.repeat(rng.pick([10, 5000]))}unterminated`,
  () => '<< /Length 99999999 >>\nstream\nabc\nendstream',
  () => '<< /Length -5 /Filter /FlateDecode >>\nstream\nxyz\nendstream',
  (rng) =>
    `<< /Length 64 /Filter [ /FlateDecode /ASCIIHexDecode /LZWDecode ] >>\nstream\n${latin1(rng.bytes(64))}\nendstream`,
  (rng) => `<< /Type /ObjStm /N 2147483647 /First 0 /Length 16 >>\nstream\n${latin1(rng.bytes(16))}\nendstream`,
  () => '<< /Type /Annot /Subtype /Widget /FT /Sig /V 1 0 R /P 1 0 R >>',
  (rng) => latin1(rng.bytes(rng.range(1, 200))),
];

/** An incremental update with one object, a classic xref table and a trailer; `prev` as given. */
function incrementalUpdate(bytes, { prev, size, subsection, objectText, objectNumber }) {
  const objectOffset = bytes.length + 1;
  const object = `\n${objectNumber} 0 obj\n${objectText}\nendobj\n`;
  const xrefOffset = bytes.length + object.length;
  const entry = `${String(objectOffset).padStart(10, '0')} 00000 n\r\n`;
  const tail =
    `xref\n${subsection ?? `${objectNumber} 1`}\n${entry}trailer\n<< /Size ${size} /Root ${rootRef(bytes)} /Prev ${prev === 'self' ? xrefOffset : prev} >>\n` +
    `startxref\n${xrefOffset}\n%%EOF\n`;
  return concat(bytes, fromLatin1(object + tail));
}

function fakeUpdate(rng, bytes) {
  const numbers = objectNumbers(bytes);
  const maxObject = numbers.length ? Math.max(...numbers) : 10;
  const objectNumber = rng.next() < 0.6 && numbers.length ? rng.pick(numbers) : maxObject + rng.range(1, 3);
  const objectKind = rng.int(FAKE_OBJECTS.length);
  const objectText = FAKE_OBJECTS[objectKind](rng, objectNumber);
  const realPrev = lastStartxref(bytes);
  const prevKind = rng.pick(['real', 'real', 'real', 'self', 'zero', 'beyond', 'negative', 'middle']);
  const prev = {
    real: realPrev,
    self: 'self',
    zero: 0,
    beyond: bytes.length * 4 + 17,
    negative: -1,
    middle: rng.int(bytes.length),
  }[prevKind];
  const sizeKind = rng.pick(['ok', 'ok', 'huge', 'zero']);
  const size = { ok: Math.max(maxObject, objectNumber) + 1, huge: 2147483647, zero: 0 }[sizeKind];
  const subsection = rng.next() < 0.2 ? rng.pick(['0 999999999', `${objectNumber} 2`, '-1 1', 'x y']) : undefined;
  const updated = incrementalUpdate(bytes, { prev, size, subsection, objectText, objectNumber });
  return {
    bytes: updated,
    description: `fake incremental update: object ${objectNumber} kind ${objectKind}, /Prev ${prevKind}, /Size ${sizeKind}${subsection ? `, xref subsection '${subsection}'` : ''}`,
  };
}

/** An update whose cross-reference section is a stream with random or extreme /W and /Index. */
function fakeXrefStreamUpdate(rng, bytes) {
  const numbers = objectNumbers(bytes);
  const next = (numbers.length ? Math.max(...numbers) : 10) + 1;
  const w = rng.pick(['[1 2 1]', '[1 4 2]', '[0 0 0]', '[9 9 9]', '[1 -1 1]', '[1 2]', '[4294967296 1 1]']);
  const index = rng.pick([`[${next} 1]`, '[0 999999999]', `[${next} 1 0 5]`, '[]', '[-5 3]']);
  const data = rng.bytes(rng.pick([0, 4, 16, 64]));
  const offset = bytes.length + 1;
  const dict = `<< /Type /XRef /Size ${next + 1} /W ${w} /Index ${index} /Root ${rootRef(bytes)} /Prev ${lastStartxref(bytes)} /Length ${data.length} >>`;
  const tail = concat(
    fromLatin1(`\n${next} 0 obj\n${dict}\nstream\n`),
    data,
    fromLatin1(`\nendstream\nendobj\nstartxref\n${offset}\n%%EOF\n`),
  );
  return {
    bytes: concat(bytes, tail),
    description: `fake xref-stream update: /W ${w} /Index ${index}, ${data.length} data bytes`,
  };
}

const MUTATIONS = [
  {
    name: 'flip',
    weight: 6,
    apply: (rng, bytes) => {
      const n = rng.range(1, 32);
      const flipped = flipBytes(rng, bytes, n);
      return {
        bytes: flipped.bytes,
        description: `flip ${n} byte(s) at ${flipped.at.slice(0, 8).join(',')}${n > 8 ? ',…' : ''}`,
      };
    },
  },
  { name: 'flip-byterange', weight: 3, apply: aimed('byteRange', 'flip in /ByteRange', 4) },
  { name: 'number-byterange', weight: 3, apply: numberIn('byteRange') },
  {
    name: 'replace-byterange',
    weight: 2,
    apply: (rng, bytes, regions) => {
      if (!regions.byteRange.length) return undefined;
      const [start, end] = rng.pick(regions.byteRange);
      const n = bytes.length;
      const replacement = rng.pick([
        '/ByteRange [0 0 0 0]',
        `/ByteRange [0 ${n} 0 0]`,
        `/ByteRange [0 ${n} ${n} 0]`,
        `/ByteRange [0 ${n + 100} ${n + 200} 10]`,
        '/ByteRange [0 10 5 10]',
        `/ByteRange [${n} 10 0 10]`,
        '/ByteRange [-10 20 30 -40]',
        '/ByteRange [0 1 2 3 4 5]',
        '/ByteRange [0 1]',
        '/ByteRange []',
        '/ByteRange [/a /b /c /d]',
        '/ByteRange [0 2147483647 2147483647 2147483647]',
        '/ByteRange 5 0 R',
        `/ByteRange [0 ${rng.int(n)} ${rng.int(n)} ${rng.int(n)}]`,
      ]);
      return { bytes: splice(bytes, start, end, replacement), description: `ByteRange at ${start} -> ${replacement}` };
    },
  },
  {
    name: 'flip-contents-hex',
    weight: 3,
    apply: (rng, bytes, regions) => {
      if (!regions.contents.length) return undefined;
      const [start, end] = rng.pick(regions.contents);
      // Aim at the DER itself, not the zero padding after it.
      const hex = latin1(bytes.subarray(start, end));
      const used = Math.max(2, hex.replace(/0+\s*$/, '').length);
      const copy = new Uint8Array(bytes);
      const n = rng.range(1, 16);
      const at = [];
      for (let i = 0; i < n; i++) {
        const position = start + rng.int(Math.min(used, end - start));
        copy[position] = rng.pick([...'0123456789abcdefABCDEF'].map((c) => c.charCodeAt(0)).concat([0x47, 0x20, 0x3e]));
        at.push(position);
      }
      return { bytes: copy, description: `/Contents hex: ${n} digit(s) at ${at.slice(0, 8).join(',')}` };
    },
  },
  {
    name: 'cms-der',
    weight: 3,
    apply: (rng, bytes, regions) => {
      // Flips bytes of the decoded CMS (lengths, tags) and writes it back in place.
      if (!regions.contents.length) return undefined;
      const [start, end] = rng.pick(regions.contents);
      const hex = latin1(bytes.subarray(start, end)).replace(/\s/g, '');
      if (hex.length !== end - start || hex.length < 4) return undefined;
      const der = Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
      const used = Math.max(2, der.length - (/0*$/.exec(hex)?.[0].length ?? 0) / 2);
      const n = rng.range(1, 8);
      const at = [];
      for (let i = 0; i < n; i++) {
        // Half the flips in the first 64 bytes, where the outer tags and lengths are.
        const position = rng.next() < 0.5 ? rng.int(Math.min(64, used)) : rng.int(used);
        der[position] = rng.next() < 0.5 ? der[position] ^ rng.range(1, 255) : rng.pick([0x00, 0x80, 0x81, 0x84, 0xff]);
        at.push(position);
      }
      const replaced = der.toString('hex').slice(0, end - start);
      return { bytes: splice(bytes, start, end, replaced), description: `CMS DER: ${n} byte(s) at ${at.join(',')}` };
    },
  },
  {
    name: 'cms-truncate',
    weight: 1,
    apply: (rng, bytes, regions) => {
      if (!regions.contents.length) return undefined;
      const [start, end] = rng.pick(regions.contents);
      const keep = rng.int(Math.min(4000, end - start));
      const zeros = '0'.repeat(end - start - keep);
      return {
        bytes: splice(bytes, start + keep, end, zeros),
        description: `CMS hex zeroed after ${keep} digits`,
      };
    },
  },
  { name: 'flip-xref', weight: 3, apply: aimed('xref', 'flip in xref', 16) },
  { name: 'number-xref', weight: 2, apply: numberIn('xref') },
  { name: 'flip-trailer', weight: 2, apply: aimed('trailer', 'flip in trailer', 8) },
  { name: 'number-trailer', weight: 2, apply: numberIn('trailer') },
  { name: 'number-startxref', weight: 2, apply: numberIn('startxref') },
  { name: 'flip-objstm', weight: 1, apply: aimed('objStm', 'flip in object stream', 16) },
  { name: 'flip-sigdict', weight: 2, apply: aimed('sigDict', 'flip in signature dictionary', 8) },
  { name: 'number-sigdict', weight: 1, apply: numberIn('sigDict') },
  {
    name: 'truncate',
    weight: 3,
    apply: (rng, bytes) => {
      // Half the cuts in the last 4 KiB, where the trailer and the last update are.
      const at = rng.next() < 0.5 ? Math.max(0, bytes.length - 1 - rng.int(4096)) : rng.int(bytes.length);
      return { bytes: bytes.slice(0, at), description: `truncate at ${at} of ${bytes.length}` };
    },
  },
  {
    name: 'duplicate-slice',
    weight: 2,
    apply: (rng, bytes) => {
      const start = rng.int(bytes.length);
      const length = rng.range(1, Math.min(bytes.length - start, rng.pick([16, 512, 8192])));
      const to = rng.int(bytes.length + 1);
      return {
        bytes: splice(bytes, to, to, bytes.slice(start, start + length)),
        description: `duplicate [${start}, +${length}) at ${to}`,
      };
    },
  },
  {
    name: 'remove-slice',
    weight: 2,
    apply: (rng, bytes) => {
      const start = rng.int(bytes.length);
      const length = rng.range(1, Math.min(bytes.length - start, rng.pick([1, 16, 512, 8192])));
      return { bytes: splice(bytes, start, start + length, ''), description: `remove [${start}, +${length})` };
    },
  },
  {
    name: 'insert-garbage',
    weight: 2,
    apply: (rng, bytes) => {
      const at = rng.int(bytes.length + 1);
      const kind = rng.pick(['random', 'random', 'tokens', 'nesting', 'eof']);
      const garbage =
        kind === 'random'
          ? rng.bytes(rng.range(1, 256))
          : fromLatin1(
              kind === 'tokens'
                ? Array.from({ length: rng.range(1, 40) }, () =>
                    rng.pick([
                      'obj',
                      'endobj',
                      '<<',
                      '>>',
                      '[',
                      ']',
                      'stream\n',
                      'endstream',
                      'xref',
                      'trailer',
                      'startxref',
                      '%%EOF',
                      '/ByteRange',
                      '/Contents',
                      '0 0 R',
                      '(',
                      ')',
                      '<',
                      '>',
                    ]),
                  ).join(' ')
                : kind === 'nesting'
                  ? rng.pick(['[', '<<', '(']).repeat(rng.pick([500, 50000]))
                  : '\n%%EOF\n',
            );
      return {
        bytes: splice(bytes, at, at, garbage),
        description: `insert ${garbage.length} ${kind} byte(s) at ${at}`,
      };
    },
  },
  { name: 'fake-update', weight: 4, apply: fakeUpdate },
  { name: 'fake-xref-stream-update', weight: 2, apply: fakeXrefStreamUpdate },
  {
    name: 'append-garbage',
    weight: 1,
    apply: (rng, bytes) => {
      const garbage = rng.bytes(rng.range(1, 2048));
      return { bytes: concat(bytes, garbage), description: `append ${garbage.length} random byte(s)` };
    },
  },
];

/** Variant `index`: its base and 1 mutation (sometimes 2 or 3, stacked), drawn from (seed, index). */
function makeVariant(bases, index) {
  const rng = rngFor(seed, index);
  const base = rng.pick(bases);
  let bytes = base.bytes;
  const steps = [];
  const rounds = rng.next() < 0.85 ? 1 : rng.range(2, 3);
  for (let round = 0; round < rounds; round++) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const mutation = pickWeighted(rng, MUTATIONS);
      const result = mutation.apply(rng, bytes, regionsOf(bytes));
      if (!result) continue;
      bytes = result.bytes;
      steps.push(`${mutation.name} (${result.description})`);
      break;
    }
  }
  return { index, base: base.name, bytes, mutation: steps.join(' + ') };
}

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
  makeVariant: (index) => makeVariant(bases, index),
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
