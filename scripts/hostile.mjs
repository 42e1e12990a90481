#!/usr/bin/env node
// `npm run hostile -- [--only NAME[,NAME…]] [--timeout ms] [--list]`: the hostile-input suite of
// issue 20. Each case builds one hostile shape here, at the size the audit used (a few kilobytes
// that ask for gigabytes or minutes), posts it to the worker on workerd (worker-harness
// startQuire), and prints a row: status, error code, time, the growth of workerd's resident memory
// during the request (VmRSS sampled every 20 ms, peak minus the value before), and the latency of
// GET /v1/health sent right after the answer.
//
// A case passes when it answers 200 or 4xx within 10 s, workerd's RSS grows by less than 128 MB,
// and /v1/health answers within 1 s right after. Some cases also check the answer itself (the
// DOCX annotate returns parses, verify does not report a /Count of 10^9 as the page count, ten
// racing wrong codes are compared at most five times): those are listed apart. The exit code is 1
// when a case fails either.
//
// Safety, for running it against code that does not hold (the audit's worker reached 8 GB): each
// case has a timeout (60 s), a case whose workerd passes 6 GB of RSS is stopped, and after either
// the worker is killed and started again. Every fixture is built here (fflate, pdf-lib, raw bytes
// where a library would refuse); nothing is read from the corpus or written to the repository.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { strToU8, unzipSync, Zlib, zipSync, zlibSync } from 'fflate';
import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import { concatBytes as concat } from './fuzz-kit.mjs';
import { helpIfAsked } from './script-help.mjs';
import { startQuire, workerdRssMiB } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const only = option('--only', undefined)?.split(',');
const timeoutMs = Number(option('--timeout', '60000'));
const MiB = 1024 * 1024;
/** The pass conditions of the issue's "Must show". */
const PASS = { ms: 10_000, rssGrowthMiB: 128, healthMs: 1000 };
/** A case past this much workerd RSS is stopped (the machine is shared). */
const RSS_STOP_MIB = 6 * 1024;

// ---------------------------------------------------------------------------------------------
// Bytes: ZIP, DOCX, PNG, GIF, PDF.

const encoder = new TextEncoder();
const bytesOf = (value) => (typeof value === 'string' ? strToU8(value) : value);

/** A ZIP of `parts` (name → string or bytes), deflated at `level`. */
const zip = (parts, level = 9) =>
  zipSync(Object.fromEntries(Object.entries(parts).map(([name, value]) => [name, bytesOf(value)])), {
    level,
    mtime: new Date('2026-01-01T00:00:00Z'),
  });

/**
 * The archive with every uncompressed size its central directory declares (APPNOTE §4.3.12) set
 * to `size`: a directory that lies about every part.
 */
function declareSizes(archive, size) {
  const out = archive.slice();
  const view = new DataView(out.buffer);
  for (let at = 0; at + 46 <= out.length; at++) {
    if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, size, true);
  }
  return out;
}

/**
 * A ZIP (APPNOTE §4.3) of `parts` stored as they are, and of `deflatedParts` ({ name, data, crc,
 * size }) whose raw deflate data is made elsewhere: a part too large to hold inflated here (450
 * MB of zeros) is deflated a MiB at a time, and written as it comes.
 */
function zipWithDeflatedParts(parts, deflatedParts) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  const entries = [
    ...Object.entries(parts).map(([name, value]) => {
      const raw = bytesOf(value);
      return { name, raw };
    }),
    ...deflatedParts,
  ];
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    let data;
    let method;
    let crc;
    let size;
    if (entry.raw) {
      data = entry.raw;
      method = 0;
      crc = crc32(entry.raw);
      size = entry.raw.length;
    } else {
      ({ data, crc, size } = entry);
      method = 8;
    }
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, method, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, data.length, true);
    lv.setUint32(22, size, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, method, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local, data);
    centrals.push(central);
    offset += local.length + data.length;
  }
  const directory = concat(...centrals);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, directory.length, true);
  ev.setUint32(16, offset, true);
  return concat(...locals, directory, end);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes, crc = 0) {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

const zerosMade = new Map();
/** `length` zero bytes deflated a MiB at a time (about 1,000:1): raw deflate, or zlib; made once per length. */
function deflatedZeros(length, { raw = false } = {}) {
  if (!zerosMade.has(length)) zerosMade.set(length, zlibZeros(length));
  const out = zerosMade.get(length);
  return raw ? out.subarray(2, out.length - 4) : out;
}

function zlibZeros(length) {
  const chunks = [];
  const zeros = new Uint8Array(MiB);
  // fflate's Zlib writes the RFC 1950 wrapper; raw deflate is that without its 2-byte header and 4-byte Adler-32.
  const zlib = new Zlib({ level: 9 }, (chunk) => chunks.push(chunk));
  for (let left = length; left > 0; ) {
    const n = Math.min(left, zeros.length);
    left -= n;
    zlib.push(zeros.subarray(0, n), left === 0);
  }
  return concat(...chunks);
}

/** CRC-32 of `length` zero bytes, as the ZIP entry of deflatedZeros needs. */
function zerosCrc(length) {
  const zeros = new Uint8Array(MiB);
  let crc = 0;
  for (let left = length; left > 0; left -= MiB) crc = crc32(zeros.subarray(0, Math.min(left, MiB)), crc);
  return crc;
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const NAMESPACES = [
  `xmlns:w="${W}"`,
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"',
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"',
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"',
].join(' ');
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * The parts of a DOCX whose body is `body` (the content of w:body), with `relationships` of the
 * main document ({ id, type, target }) and `more` parts; the XML declaration is left out when
 * `prolog` is given (a DOCTYPE, say).
 */
function docxParts(body, { relationships = [], more = {}, prolog = '' } = {}) {
  return {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="gif" ContentType="image/gif"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/_rels/document.xml.rels': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships
      .map((r) => `<Relationship Id="${r.id}" Type="${REL}/${r.type}" Target="${r.target}"/>`)
      .join('')}</Relationships>`,
    'word/document.xml': `${prolog || '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'}<w:document ${NAMESPACES}><w:body>${body}</w:body></w:document>`,
    ...more,
  };
}

const docx = (body, options) => zip(docxParts(body, options));
const paragraph = (text, runProperties = '') =>
  `<w:p><w:r>${runProperties}<w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** An inline picture of relationship `id`, 1 × 1 inch. */
const picture = (id) =>
  `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="p"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

function pngChunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(encoder.encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A PNG whose header declares width × height (8-bit RGB) over a few bytes of IDAT: a pixel bomb. */
function pngDeclaring(width, height) {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return concat(
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflatedZeros(4096)),
    pngChunk('IEND', new Uint8Array(0)),
  );
}

/**
 * A real 8-bit RGBA PNG of side × side, every pixel half transparent: 16 megapixels deflate to
 * about 70 KB, and embedding one means inflating 64 MB and splitting it into two planes.
 */
function rgbaPng(side) {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, side);
  view.setUint32(4, side);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const raw = new Uint8Array(side * (1 + side * 4));
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) raw[y * (1 + side * 4) + 4 + x * 4] = 128;
  return concat(
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlibSync(raw, { level: 9 })),
    pngChunk('IEND', new Uint8Array(0)),
  );
}

/** A GIF whose screen and frame are 65,535 × 65,535 (the largest a GIF can declare), with a few codes of LZW. */
function gifDeclaring(side) {
  const header = encoder.encode('GIF89a');
  const screen = new Uint8Array([side & 0xff, side >> 8, side & 0xff, side >> 8, 0x80, 0, 0]);
  const palette = new Uint8Array([0, 0, 0, 255, 255, 255]);
  const descriptor = new Uint8Array([0x2c, 0, 0, 0, 0, side & 0xff, side >> 8, side & 0xff, side >> 8, 0]);
  // LZW of minimum code size 2 in one 2-byte sub-block: clear (4), 0, 0, end (5) at 3 bits each,
  // least significant bit first (GIF89a appendix F); then the block terminator.
  const lzw = new Uint8Array([2, 2, 0x04, 0x0a, 0]);
  return concat(header, screen, palette, descriptor, lzw, new Uint8Array([0x3b]));
}

/** A one-page PDF (pdf-lib) with `streams` ({ dict, data }) registered as objects nothing refers to. */
async function pdfWithStreams(streams) {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  for (const { dict, data } of streams) doc.context.register(PDFRawStream.of(doc.context.obj(dict), data));
  return doc.save({ useObjectStreams: false });
}

// ---------------------------------------------------------------------------------------------
// Requests.

const base64 = (bytes) => Buffer.from(bytes).toString('base64');

/** A multipart/form-data body with `files` ([name, bytes, filename]) and text `fields` ([name, value]). */
async function multipart(files, fields = []) {
  const form = new FormData();
  for (const [name, bytes, filename] of files) form.append(name, new Blob([bytes]), filename);
  for (const [name, value] of fields) form.append(name, value);
  // Encoded here: startWorker's fetch does not serialise FormData.
  const encoded = new Response(form);
  return { body: await encoded.arrayBuffer(), headers: { 'Content-Type': encoded.headers.get('Content-Type') } };
}

const convert = async (bytes, from, to = 'pdf', filename = `hostile.${from}`) => ({
  path: `/v1/convert?from=${from}&to=${to}`,
  init: { method: 'POST', ...(await multipart([['file', bytes, filename]])) },
});
const json = (path, body) => ({
  path,
  init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
});
const annotate = (bytes, fields, to = 'docx') =>
  json(`/v1/annotate?to=${to}`, { document: { base64: base64(bytes) }, fields });
const SIGNER = { name: 'Ada Lovelace', email: 'ada@example.com' };
const AUDIT = [{ type: 'submit', timestamp: '2026-11-22T10:02:10Z', data: {} }];
const sign = (bytes) => json('/v1/sign', { document: { base64: base64(bytes) }, signer: SIGNER, auditTrail: AUDIT });
const verify = (bytes) => json('/v1/verify', { document: { base64: base64(bytes) } });

/** The text of a PDF by poppler's pdftotext (undefined when it is not installed). */
function pdfText(bytes) {
  const run = spawnSync('pdftotext', ['-q', '-', '-'], { input: bytes, maxBuffer: 256 * MiB });
  return run.status === 0 ? run.stdout.toString('utf8') : undefined;
}

/** What is wrong with a 200 that should hold `words` in its PDF text (undefined when right). */
function pdfHolds(...words) {
  return (answer) => {
    if (answer.status !== 200) return undefined;
    const text = pdfText(answer.bytes);
    if (text === undefined) return undefined;
    const missing = words.filter((w) => !text.includes(w));
    return missing.length ? `the PDF lacks ${missing.map((w) => JSON.stringify(w)).join(', ')}` : undefined;
  };
}

const expectStatus =
  (...statuses) =>
  (answer) =>
    statuses.includes(answer.status) ? undefined : `expected ${statuses.join(' or ')}, got ${answer.status}`;

/** Checks run in order; the first problem is the answer's. */
const all =
  (...checks) =>
  (answer) => {
    for (const check of checks) {
      const problem = check(answer);
      if (problem) return problem;
    }
    return undefined;
  };

/** Not an XML 1.0 Char (§2.2): C0 controls but tab, LF and CR, U+FFFE/U+FFFF, lone surrogates. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** What is wrong with the XML parts of the DOCX annotate answered with (undefined when each is well-formed). */
function docxWellFormed(answer) {
  if (answer.status !== 200) return undefined;
  const uri = JSON.parse(new TextDecoder().decode(answer.bytes)).document.base64;
  const parts = unzipSync(new Uint8Array(Buffer.from(uri.slice(uri.indexOf(',') + 1), 'base64')));
  for (const [name, bytes] of Object.entries(parts)) {
    if (!/\.(xml|rels)$/.test(name)) continue;
    const text = new TextDecoder().decode(bytes);
    const bad = NOT_XML_CHAR.exec(text);
    if (bad)
      return `${name} holds U+${bad[0].codePointAt(0).toString(16).padStart(4, '0').toUpperCase()}, not an XML Char`;
    let error;
    new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') error ??= message;
      },
    }).parseFromString(text, 'application/xml');
    if (error) return `${name} is not well-formed: ${String(error).slice(0, 120)}`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The cases. `request()` builds { path, init }; `run(ctx)` is for the ones that are more than one
// request; `check(answer)` says what is wrong with the answer itself.

let zerosCache;
/** 450 MB of zeros, deflated (~440 KB), built once. */
function zeros450() {
  const size = 450_000_000;
  zerosCache ??= { name: 'word/styles.xml', data: deflatedZeros(size, { raw: true }), crc: zerosCrc(size), size };
  return zerosCache;
}
const stylesRel = { id: 'rIdStyles', type: 'styles', target: 'styles.xml' };

const TEMPLATE = docxParts(`${paragraph('Dear {{name}},')}${paragraph('{{pic}}')}${paragraph('Small in truth.')}`);
const oneWordDocx = (length) => docx(paragraph('a'.repeat(length)));
const sectPr = (attributes) =>
  `<w:sectPr><w:pgSz ${attributes}/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/></w:sectPr>`;

/** A slow but legitimate conversion: `pages` pages of justified text in a DOCX. */
function longDocx(paragraphs) {
  const text =
    'Quire lays out every line of this paragraph, measuring each word in its font and justifying it to the margin, page after page. ';
  return docx(paragraph(text.repeat(4), '<w:rPr><w:sz w:val="20"/></w:rPr>').repeat(paragraphs));
}

const CASES = [
  // Quadratic line breaking.
  {
    name: 'word-20m-docx',
    about: 'a ~20 KB DOCX of one 20,000,000-character word',
    request: () => convert(oneWordDocx(20_000_000), 'docx'),
  },
  {
    name: 'word-400k-docx',
    about: 'a DOCX of one 400,000-character word',
    request: () => convert(oneWordDocx(400_000), 'docx'),
    check: expectStatus(200),
  },
  {
    name: 'word-20k-docx',
    about: 'a DOCX of one 20,000-character word',
    request: () => convert(oneWordDocx(20_000), 'docx'),
    check: expectStatus(200),
  },
  {
    name: 'word-4.9mb-md',
    about: 'a 4.9 MB Markdown file of one word',
    request: () => convert(strToU8('a'.repeat(4_900_000)), 'md'),
  },
  // ZIP sizes taken on trust.
  {
    name: 'zip-declares-480mb',
    about: 'a ~2 KB DOCX whose ZIP directory declares 480 MB per part, /v1/convert',
    request: () => convert(declareSizes(zip(TEMPLATE), 480_000_000), 'docx'),
    check: all(expectStatus(200), pdfHolds('Small in truth.')),
  },
  {
    name: 'zip-declares-480mb-annotate',
    about: 'the same through /v1/annotate?to=pdf',
    request: () =>
      annotate(declareSizes(zip(TEMPLATE), 480_000_000), [{ id: 'name', type: 'text', value: 'Ada' }], 'pdf'),
    check: expectStatus(200),
  },
  {
    name: 'zip-zeros-450mb',
    about: 'a ~440 KB DOCX whose styles part is 450 MB of zeros, /v1/convert',
    request: () =>
      convert(
        zipWithDeflatedParts(docxParts(paragraph('Zeros follow.'), { relationships: [stylesRel] }), [zeros450()]),
        'docx',
      ),
    check: expectStatus(422),
  },
  {
    name: 'zip-zeros-450mb-annotate',
    about: 'the same through /v1/annotate?to=pdf',
    request: () =>
      annotate(
        zipWithDeflatedParts(docxParts(paragraph('Dear {{name}},'), { relationships: [stylesRel] }), [zeros450()]),
        [{ id: 'name', type: 'text', value: 'Ada' }],
        'pdf',
      ),
    check: expectStatus(422),
  },
  {
    name: 'zip-60k-entries',
    about: 'a DOCX of 60,000 empty entries beside its parts',
    request: () => {
      const parts = docxParts(paragraph('Many entries.'));
      for (let i = 0; i < 60_000; i++) parts[`customXml/item${i}.xml`] = '';
      return convert(zip(parts, 0), 'docx');
    },
  },
  // Object-stream bombs in /v1/sign.
  {
    name: 'sign-objstm-1gib',
    about: 'a 1 MB PDF with an unreferenced object stream inflating to 1 GiB, /v1/sign',
    request: async () =>
      sign(
        await pdfWithStreams([
          { dict: { Type: 'ObjStm', N: 1, First: 4, Filter: 'FlateDecode' }, data: deflatedZeros(1024 * MiB) },
        ]),
      ),
    check: expectStatus(422),
  },
  {
    name: 'sign-objstm-4x1gib',
    about: 'a 4 MB PDF with four of them',
    request: async () => {
      const data = deflatedZeros(1024 * MiB);
      const dict = { Type: 'ObjStm', N: 1, First: 4, Filter: 'FlateDecode' };
      return sign(await pdfWithStreams([1, 2, 3, 4].map(() => ({ dict, data }))));
    },
    check: expectStatus(422),
  },
  {
    name: 'verify-objstm-1gib',
    about: 'the 1 GiB object stream through /v1/verify (its own bounded reader)',
    request: async () =>
      verify(
        await pdfWithStreams([
          { dict: { Type: 'ObjStm', N: 1, First: 4, Filter: 'FlateDecode' }, data: deflatedZeros(1024 * MiB) },
        ]),
      ),
  },
  // No cap on output.
  {
    name: 'page-breaks-50k',
    about: 'a 7 KB DOCX of 50,000 page breaks',
    request: () => convert(docx(`<w:p><w:r>${'<w:br w:type="page"/>'.repeat(50_000)}</w:r></w:p>`), 'docx'),
    check: expectStatus(422),
  },
  {
    name: 'spaces-10kb',
    about: 'a ~13 KB DOCX of 77,000 paragraphs of one space (the audit: 1,374 pages, 1.25 GB)',
    request: () => convert(docx(paragraph(' ').repeat(77_000)), 'docx'),
  },
  {
    name: 'spaces-one-paragraph',
    about: 'a ~10 KB DOCX of one paragraph of 10,000,000 spaces',
    request: () => convert(docx(paragraph(' '.repeat(10_000_000))), 'docx'),
  },
  {
    name: 'spaces-runs',
    about: 'a DOCX of one paragraph of 500,000 runs of a space each',
    request: () =>
      convert(docx(`<w:p>${'<w:r><w:t xml:space="preserve"> </w:t></w:r>'.repeat(500_000)}</w:p>`), 'docx'),
  },
  {
    name: 'page-wide-dot-leader',
    about: 'a page 99,999,999,999,999 twips wide with a dot-leader tab stop near its edge',
    request: () =>
      convert(
        docx(
          `<w:p><w:pPr><w:tabs><w:tab w:val="left" w:leader="dot" w:pos="99999999990000"/></w:tabs></w:pPr><w:r><w:t>Name</w:t><w:tab/><w:t>1</w:t></w:r></w:p>${sectPr('w:w="99999999999999" w:h="15840"')}`,
        ),
        'docx',
      ),
    check: expectStatus(200),
  },
  {
    name: 'page-width-2^31',
    about: 'a page 2^31 twips wide and high, text with default tab stops across it',
    request: () =>
      convert(
        docx(
          `<w:p><w:r><w:t>Wide</w:t><w:tab/><w:t>page</w:t><w:tab/><w:t>with tabs</w:t></w:r></w:p>${sectPr('w:w="2147483648" w:h="2147483648"')}`,
        ),
        'docx',
      ),
    check: expectStatus(200),
  },
  // Annotate writes XML-illegal characters.
  {
    name: 'annotate-control-chars',
    about: 'annotate text holding U+0000–U+001F and U+FFFE/U+FFFF; the DOCX must parse',
    request: () => {
      let value = 'start';
      for (let c = 0; c < 0x20; c++) value += String.fromCharCode(c);
      value += '\uFFFE\uFFFFend';
      return annotate(zip(TEMPLATE), [{ id: 'name', type: 'text', value }]);
    },
    check: all(expectStatus(200), docxWellFormed),
  },
  // The smaller ones.
  {
    name: 'email-code-10-racing',
    about: '10 concurrent wrong guesses of one email code: at most 5 compared',
    run: racingGuesses,
  },
  {
    name: 'md-latin1',
    about: 'Markdown in Latin-1',
    request: () =>
      convert(Buffer.from('# Caf\u00e9\n\nna\u00efve r\u00e9sum\u00e9 \u00e0 la cr\u00e8me\n', 'latin1'), 'md'),
    check: all(expectStatus(200), pdfHolds('Café', 'crème')),
  },
  {
    name: 'md-utf16le-bom',
    about: 'Markdown in UTF-16LE with a BOM',
    request: () => convert(Buffer.from('\uFEFF# Caf\u00e9\n\n\u65e5\u672c\u8a9e and cr\u00e8me\n', 'utf16le'), 'md'),
    check: all(expectStatus(200), pdfHolds('Café', 'crème')),
  },
  {
    name: 'html-latin1',
    about: 'HTML in Latin-1 without a charset',
    request: () =>
      convert(Buffer.from('<!doctype html><p>Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e</p>', 'latin1'), 'html'),
    check: all(expectStatus(200), pdfHolds('Café', 'crème')),
  },
  {
    name: 'html-utf16le',
    about: 'HTML in UTF-16LE without a BOM',
    request: () =>
      convert(Buffer.from('<!doctype html><p>Caf\u00e9 cr\u00e8me br\u00fbl\u00e9e</p>', 'utf16le'), 'html'),
    check: all(expectStatus(200), pdfHolds('Café', 'crème')),
  },
  {
    name: 'md-nested-100k',
    about: 'Markdown of 100,000 nested > before its text',
    request: () => convert(strToU8(`${'>'.repeat(100_000)} deep quoted text\n`), 'md'),
    check: all(expectStatus(200), pdfHolds('deep quoted text')),
  },
  {
    name: 'two-file-parts',
    about: 'two multipart parts named file',
    request: async () => ({
      path: '/v1/convert?from=md&to=pdf',
      init: {
        method: 'POST',
        ...(await multipart([
          ['file', strToU8('# One'), 'one.md'],
          ['file', strToU8('# Two'), 'two.md'],
        ])),
      },
    }),
    check: (answer) =>
      answer.status === 400 &&
      /one|two|2/i.test(answer.message ?? '') &&
      !/Attach the document/.test(answer.message ?? '')
        ? undefined
        : `expected a 400 saying one file part is expected, got ${answer.status}: ${answer.message}`,
  },
  {
    name: 'annotate-unknown-keys',
    about: 'annotate field objects with unknown keys (colour, options.size)',
    request: () =>
      annotate(zip(TEMPLATE), [{ id: 'name', type: 'text', value: 'Ada', colour: 'red', options: { size: 3 } }]),
    check: expectStatus(400),
  },
  {
    name: 'verify-count-1e9',
    about: 'a one-page PDF whose page tree /Count is 10^9, /v1/verify',
    request: async () => {
      const doc = await PDFDocument.create();
      doc.addPage([612, 792]);
      doc.catalog.Pages().set(PDFName.of('Count'), PDFNumber.of(1_000_000_000));
      return verify(await doc.save({ useObjectStreams: false }));
    },
    check: (answer) => {
      if (answer.status !== 200) return `expected 200, got ${answer.status}`;
      const pages = JSON.parse(new TextDecoder().decode(answer.bytes)).document?.pages;
      return pages === 1 ? undefined : `document.pages is ${pages}, not 1`;
    },
  },
  {
    name: 'sign-count-1e9',
    about: 'the same PDF through /v1/sign',
    request: async () => {
      const doc = await PDFDocument.create();
      doc.addPage([612, 792]);
      doc.catalog.Pages().set(PDFName.of('Count'), PDFNumber.of(1_000_000_000));
      return sign(await doc.save({ useObjectStreams: false }));
    },
  },
  {
    name: 'health-during-slow',
    about: 'GET /v1/health every 250 ms while a slow conversion runs',
    run: healthDuringSlow,
  },
  // The classes the tests already know.
  {
    name: 'billion-laughs-docx',
    about: 'an entity bomb (DOCTYPE) in word/document.xml',
    request: () => {
      let entities = '<!ENTITY a0 "lollollollollollollollollollol">';
      for (let i = 1; i <= 9; i++) entities += `<!ENTITY a${i} "${`&a${i - 1};`.repeat(10)}">`;
      return convert(
        docx(paragraph('&a9;'), { prolog: `<?xml version="1.0"?><!DOCTYPE w:document [${entities}]>` }),
        'docx',
      );
    },
    check: expectStatus(422),
  },
  {
    name: 'xxe-docx',
    about: 'an external entity naming /etc/passwd in word/document.xml',
    request: () =>
      convert(
        docx(paragraph('&xxe;'), {
          prolog: '<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
        }),
        'docx',
      ),
    check: expectStatus(422),
  },
  {
    name: 'billion-laughs-svg-annotate',
    about: 'an entity bomb in an SVG image field of annotate',
    request: () => {
      let entities = '<!ENTITY a0 "lollollollollollollollollollol">';
      for (let i = 1; i <= 9; i++) entities += `<!ENTITY a${i} "${`&a${i - 1};`.repeat(10)}">`;
      const svg = `<?xml version="1.0"?><!DOCTYPE svg [${entities}]><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><text y="20">&a9;</text></svg>`;
      return annotate(
        zip(TEMPLATE),
        [{ id: 'pic', type: 'image', value: `data:image/svg+xml;base64,${base64(strToU8(svg))}` }],
        'pdf',
      );
    },
  },
  {
    name: 'deep-xml-nesting-docx',
    about: 'word/document.xml nested 100,000 elements deep',
    request: () =>
      convert(
        docx(`${'<w:customXml w:element="a">'.repeat(100_000)}${paragraph('deep')}${'</w:customXml>'.repeat(100_000)}`),
        'docx',
      ),
    check: expectStatus(422),
  },
  {
    name: 'png-100k-docx',
    about: 'a DOCX with a PNG declaring 100,000 × 100,000 pixels',
    request: () =>
      convert(
        zip(
          docxParts(`${paragraph('Before.')}${picture('rIdImg')}${paragraph('After.')}`, {
            relationships: [{ id: 'rIdImg', type: 'image', target: 'media/bomb.png' }],
            more: { 'word/media/bomb.png': pngDeclaring(100_000, 100_000) },
          }),
        ),
        'docx',
      ),
    check: all(expectStatus(200), pdfHolds('After.')),
  },
  {
    name: 'png-16mp-x20-docx',
    about:
      'a 1.3 MB DOCX of twenty 15.9-megapixel RGBA PNGs (26 s and 1.3 GB before the image budget; 200 megapixels are read, the rest left out with warnings)',
    request: () => {
      const png = rgbaPng(3990);
      const ids = Array.from({ length: 20 }, (_, i) => i);
      return convert(
        zip(
          docxParts(`${ids.map((i) => picture(`rIdImg${i}`)).join('')}${paragraph('After.')}`, {
            relationships: ids.map((i) => ({ id: `rIdImg${i}`, type: 'image', target: `media/big${i}.png` })),
            more: Object.fromEntries(ids.map((i) => [`word/media/big${i}.png`, png])),
          }),
          0,
        ),
        'docx',
      );
    },
    check: all(expectStatus(200), pdfHolds('After.')),
  },
  {
    name: 'gif-65k-docx',
    about: 'a DOCX with a GIF declaring 65,535 × 65,535 pixels (a GIF can declare no more)',
    request: () =>
      convert(
        zip(
          docxParts(`${paragraph('Before.')}${picture('rIdImg')}${paragraph('After.')}`, {
            relationships: [{ id: 'rIdImg', type: 'image', target: 'media/bomb.gif' }],
            more: { 'word/media/bomb.gif': gifDeclaring(65_535) },
          }),
        ),
        'docx',
      ),
    check: all(expectStatus(200), pdfHolds('After.')),
  },
  {
    name: 'png-100k-annotate',
    about: 'an annotate image field of a PNG declaring 100,000 × 100,000 pixels',
    request: () =>
      annotate(
        zip(TEMPLATE),
        [{ id: 'pic', type: 'image', value: `data:image/png;base64,${base64(pngDeclaring(100_000, 100_000))}` }],
        'pdf',
      ),
  },
  {
    name: 'png-100k-html',
    about: 'HTML with a data: PNG declaring 100,000 × 100,000 pixels',
    request: () =>
      convert(
        strToU8(
          `<p>Before.</p><img src="data:image/png;base64,${base64(pngDeclaring(100_000, 100_000))}"><p>After.</p>`,
        ),
        'html',
      ),
    check: all(expectStatus(200), pdfHolds('After.')),
  },
  {
    name: 'html-nested-divs-100k',
    about: 'HTML of 100,000 nested <div>',
    request: () => convert(strToU8(`${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}`), 'html'),
  },
  {
    name: 'html-nested-tables-10k',
    about: 'HTML of 10,000 nested tables',
    request: () =>
      convert(strToU8(`${'<table><tr><td>'.repeat(10_000)}deep${'</td></tr></table>'.repeat(10_000)}`), 'html'),
  },
  {
    name: 'svg-huge-annotate',
    about: 'an annotate image field of a 12 MB SVG (300,000 shapes) on a 100,000 px canvas',
    request: () => {
      const shapes = Array.from(
        { length: 300_000 },
        (_, i) => `<rect x="${i % 1000}" y="${i % 997}" width="9" height="9"/>`,
      ).join('');
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000">${shapes}</svg>`;
      return annotate(
        zip(TEMPLATE),
        [{ id: 'pic', type: 'image', value: `data:image/svg+xml;base64,${base64(strToU8(svg))}` }],
        'pdf',
      );
    },
  },
  {
    name: 'base64-34mb-sign',
    about: 'a /v1/sign body whose document.base64 is 34 MB (over the 25 MiB document limit)',
    request: () => json('/v1/sign', { document: { base64: 'A'.repeat(34 * MiB) }, signer: SIGNER, auditTrail: AUDIT }),
    check: expectStatus(413),
  },
  {
    name: 'base64-24mb-verify',
    about: 'a /v1/verify body of 24 MB of base64 that decodes to no PDF',
    request: () => verify(randomBytes(18 * MiB)),
  },
];

/** Register an email, then 10 concurrent wrong guesses: how many were compared (their messages say tries left). */
async function racingGuesses({ quire, signal }) {
  const email = `hostile-${Date.now()}-${randomBytes(4).toString('hex')}@example.com`;
  // A fresh client address for this run, so the per-address limit of earlier runs does not answer.
  const address = `198.51.100.${1 + (Date.now() % 250)}`;
  const headers = { 'CF-Connecting-IP': address };
  const registered = await quire.fetch(`/v1/auth/register?email=${encodeURIComponent(email)}`, { headers, signal });
  await registered.arrayBuffer();
  if (registered.status !== 200)
    return { status: registered.status, problem: `register answered ${registered.status}` };
  const answers = await Promise.all(
    Array.from({ length: 10 }, async () => {
      const res = await quire.fetch(`/v1/auth/verify?email=${encodeURIComponent(email)}&code=000000`, {
        headers,
        signal,
      });
      return { status: res.status, body: await res.json().catch(() => ({})) };
    }),
  );
  const compared = answers.filter((a) => /^The code is wrong/.test(a.body.message ?? '')).length;
  const limited = answers.filter((a) => a.status === 429).length;
  const statuses = [...new Set(answers.map((a) => a.status))].sort();
  return {
    status: statuses.length === 1 ? statuses[0] : statuses.join('/'),
    statusOk: answers.every((a) => a.status < 500),
    code: answers.find((a) => a.body.code)?.body.code,
    note: `${compared} compared${limited ? `, ${limited} 429 (1 register + 10 verifies is over the 10/min per email)` : ''}`,
    problem: compared > 5 ? `${compared} wrong guesses were compared (at most 5 may be)` : undefined,
  };
}

/**
 * A long legitimate conversion (a DOCX of some 2,700 pages), and GET /v1/health every 250 ms while
 * it runs: the worst latency of those probes. One isolate runs one JavaScript thread, so a
 * conversion that never yields holds every request queued behind it.
 */
async function healthDuringSlow({ quire, signal }) {
  const { path, init } = await convert(longDocx(30_000), 'docx');
  const started = performance.now();
  let done = false;
  const conversion = quire.fetch(path, { ...init, signal }).then(async (res) => {
    const bytes = new Uint8Array(await res.arrayBuffer());
    done = true;
    return { res, bytes, ms: performance.now() - started };
  });
  conversion.catch(() => {
    done = true;
  });
  const probes = [];
  await new Promise((r) => setTimeout(r, 300));
  while (!done && !signal.aborted) {
    const t0 = performance.now();
    const res = await quire.fetch('/v1/health', { signal });
    await res.arrayBuffer();
    probes.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 250));
  }
  const { res, bytes, ms } = await conversion;
  const worst = probes.length ? Math.max(...probes) : 0;
  let code;
  if (res.status !== 200) code = JSON.parse(new TextDecoder().decode(bytes)).code;
  return {
    status: res.status,
    code,
    ms,
    note: `${res.headers.get('X-Quire-Pages') ?? '?'} pages; health during: worst ${worst.toFixed(0)} ms of ${probes.length} probes`,
    during: worst,
  };
}

// ---------------------------------------------------------------------------------------------
// The run.

/** Samples workerd's RSS every 20 ms until stopped; `peak` and `over` (past RSS_STOP_MIB). */
function rssSampler(onOver) {
  const sampler = { peak: workerdRssMiB() ?? 0, over: false };
  const timer = setInterval(() => {
    const rss = workerdRssMiB() ?? 0;
    if (rss > sampler.peak) sampler.peak = rss;
    if (rss > RSS_STOP_MIB && !sampler.over) {
      sampler.over = true;
      onOver();
    }
  }, 20);
  sampler.stop = () => clearInterval(timer);
  return sampler;
}

/** One request of a case: { status, code, message, ms, bytes, pages, warnings }. */
async function send(quire, { path, init }, signal) {
  const started = performance.now();
  const res = await quire.fetch(path, { ...init, signal });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - started;
  const answer = {
    status: res.status,
    ms,
    bytes,
    pages: res.headers.get('X-Quire-Pages'),
    warnings: res.headers.get('X-Quire-Warning-Count'),
  };
  if (res.status >= 400) {
    try {
      const body = JSON.parse(new TextDecoder().decode(bytes));
      answer.code = body.code;
      answer.message = body.message;
    } catch {
      answer.code = '(not JSON)';
    }
  }
  return answer;
}

const describeSize = (n) => (n >= MiB ? `${(n / MiB).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`);

async function healthMs(quire) {
  const t0 = performance.now();
  try {
    const res = await quire.fetch('/v1/health', { signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    return res.status === 200 ? performance.now() - t0 : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const cases = only ? CASES.filter((c) => only.includes(c.name)) : CASES;
if (args.includes('--list') || (only && cases.length !== only.length)) {
  for (const c of CASES) console.log(`${c.name.padEnd(30)} ${c.about}`);
  if (only && cases.length !== only.length) {
    console.error(`\nunknown case: ${only.filter((n) => !CASES.some((c) => c.name === n)).join(', ')}`);
    process.exit(2);
  }
  process.exit(0);
}

let quire = await startQuire();
const rows = [];
const columns = ['case', 'status', 'code', 'ms', 'RSS+ MiB', 'health ms', 'note'];
const widths = [30, 7, 22, 8, 9, 10, 0];
const line = (cells) =>
  cells
    .map((cell, i) =>
      i === 0 || i === 2 || i === 6 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]),
    )
    .join(' ');
console.log(line(columns));
try {
  for (const c of cases) {
    const request = c.request ? await c.request() : undefined;
    // Let the previous case's garbage settle a moment, so the baseline is the worker at rest.
    await new Promise((r) => setTimeout(r, 200));
    const before = workerdRssMiB() ?? 0;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), timeoutMs);
    const sampler = rssSampler(() => controller.abort(new DOMException('rss', 'AbortError')));
    let answer;
    const started = performance.now();
    try {
      answer = request
        ? await send(quire, request, controller.signal)
        : await c.run({ quire, signal: controller.signal });
      answer.ms ??= performance.now() - started;
    } catch (error) {
      const ms = performance.now() - started;
      const why = sampler.over
        ? `stopped past ${RSS_STOP_MIB} MiB RSS`
        : controller.signal.aborted
          ? `no answer in ${timeoutMs / 1000} s`
          : String(error?.cause ?? error);
      answer = { status: sampler.over ? 'rss' : controller.signal.aborted ? 'timeout' : 'error', ms, note: why };
    } finally {
      clearTimeout(timer);
      sampler.stop();
    }
    const growth = Math.max(0, sampler.peak - before);
    const failed = typeof answer.status !== 'number' && !answer.statusOk;
    const health = failed ? Number.POSITIVE_INFINITY : await healthMs(quire);
    const problem = !failed && c.check ? c.check(answer) : answer.problem;
    const statusOk =
      answer.statusOk ??
      (typeof answer.status === 'number' && (answer.status === 200 || (answer.status >= 400 && answer.status < 500)));
    const conditions = [];
    if (!statusOk) conditions.push(`answered ${answer.status}`);
    if (answer.ms > PASS.ms) conditions.push(`took ${(answer.ms / 1000).toFixed(1)} s`);
    if (growth >= PASS.rssGrowthMiB) conditions.push(`RSS grew ${growth.toFixed(0)} MiB`);
    if (!(health < PASS.healthMs))
      conditions.push(`health after ${Number.isFinite(health) ? `${health.toFixed(0)} ms` : 'no answer'}`);
    const notes = [];
    const sent = request?.init.body;
    if (sent) notes.push(`${describeSize(typeof sent === 'string' ? sent.length : sent.byteLength)} in`);
    if (answer.note) notes.push(answer.note);
    if (answer.status === 200 && answer.pages) notes.push(`${answer.pages} pages`);
    if (answer.warnings && answer.warnings !== '0') notes.push(`${answer.warnings} warnings`);
    if (answer.status === 200 && answer.bytes) notes.push(`${describeSize(answer.bytes.length)} out`);
    if (problem) notes.push(`CHECK: ${problem}`);
    if (conditions.length) notes.push(`FAIL: ${conditions.join(', ')}`);
    const row = { name: c.name, about: c.about, answer, growth, health, conditions, problem };
    rows.push(row);
    console.log(
      line([
        c.name,
        answer.status,
        answer.code ?? '',
        answer.ms.toFixed(0),
        growth.toFixed(0),
        Number.isFinite(health) ? health.toFixed(0) : '—',
        notes.join('; '),
      ]),
    );
    if (failed) {
      // The isolate may still be at it: a fresh worker for the rest.
      await quire.dispose().catch(() => {});
      quire = await startQuire();
    }
  }
} finally {
  await quire.dispose().catch(() => {});
}

const failing = rows.filter((r) => r.conditions.length);
const checked = rows.filter((r) => CASES.find((c) => c.name === r.name)?.check || r.problem !== undefined);
const wrong = rows.filter((r) => r.problem);
console.log(
  `\ncases ${rows.length}  ok ${rows.length - failing.length}  (200 or 4xx within ${PASS.ms / 1000} s, RSS growth < ${PASS.rssGrowthMiB} MB, health after < ${PASS.healthMs / 1000} s)`,
);
for (const r of failing) console.log(`  FAIL ${r.name}: ${r.conditions.join(', ')}  (${r.about})`);
console.log(`checks ${checked.length}  ok ${checked.length - wrong.length}  (the answer each case expects)`);
for (const r of wrong) console.log(`  WRONG ${r.name}: ${r.problem}  (${r.about})`);
process.exitCode = failing.length || wrong.length ? 1 : 0;
