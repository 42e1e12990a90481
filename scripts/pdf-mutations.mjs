// Seeded mutations of PDFs, for `npm run verify-fuzz` and `npm run sign-fuzz`: byte flips aimed at
// the ByteRange, /Contents (its hex and the DER inside), the xref table or stream, the trailer,
// startxref, object streams and the signature dictionary; extreme numbers there; truncations;
// spliced, duplicated and removed slices; inserted garbage and nesting; fake incremental updates
// (a classic xref with /Prev loops, hostile /Size and subsections, objects such as a page tree
// of 2^31 pages or 20,000 nested arrays) and fake xref-stream updates (extreme /W and /Index).
// Plain JavaScript with no Node API, like scripts/docx-mutations.mjs, so a workerd test can
// make the same variant from the same (seed, index, bases).
import {
  concatBytes as concat,
  flipBytes,
  fromLatin1,
  latin1,
  pickWeighted,
  rngFor,
  spliceBytes,
} from './fuzz-kit.mjs';

const toHex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
/** Pairs of hex digits as bytes (an even number of them; the callers pad). */
const fromHex = (hex) =>
  Uint8Array.from({ length: hex.length >> 1 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16));

// ---------------------------------------------------------------------------------------------
// Where things are in a PDF (found in its Latin-1 text).

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
  return spliceBytes(bytes, start, end, typeof replacement === 'string' ? fromLatin1(replacement) : replacement);
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
    `<< /Type /Sig /ByteRange [ 0 ${rng.int(1e6)} ${rng.int(1e6)} ${rng.int(1e6)} ] /Contents <${toHex(rng.bytes(rng.range(1, 300)))}> >>`,
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
      const der = fromHex(hex.length % 2 ? `${hex}0` : hex);
      const used = Math.max(2, der.length - (/0*$/.exec(hex)?.[0].length ?? 0) / 2);
      const n = rng.range(1, 8);
      const at = [];
      for (let i = 0; i < n; i++) {
        // Half the flips in the first 64 bytes, where the outer tags and lengths are.
        const position = rng.next() < 0.5 ? rng.int(Math.min(64, used)) : rng.int(used);
        der[position] = rng.next() < 0.5 ? der[position] ^ rng.range(1, 255) : rng.pick([0x00, 0x80, 0x81, 0x84, 0xff]);
        at.push(position);
      }
      const replaced = toHex(der).slice(0, end - start);
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

export const PDF_MUTATION_NAMES = MUTATIONS.map((m) => m.name);

/**
 * `bytes` with 1 mutation (sometimes 2 or 3, stacked) drawn with `rng`: the mutated bytes and
 * what was done, to reproduce and read.
 */
export function mutatePdf(rng, bytes) {
  let out = bytes;
  const steps = [];
  const rounds = rng.next() < 0.85 ? 1 : rng.range(2, 3);
  for (let round = 0; round < rounds; round++) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const mutation = pickWeighted(rng, MUTATIONS);
      const result = mutation.apply(rng, out, regionsOf(out));
      if (!result) continue;
      out = result.bytes;
      steps.push(`${mutation.name} (${result.description})`);
      break;
    }
  }
  return { bytes: out, mutation: steps.join(' + ') };
}

/** Variant `index` of a run seeded with `seed`: a base drawn from `bases` ({ name, bytes }), mutated. */
export function makePdfVariant(bases, seed, index) {
  const rng = rngFor(seed, index);
  const base = rng.pick(bases);
  return { index, base: base.name, ...mutatePdf(rng, base.bytes) };
}
