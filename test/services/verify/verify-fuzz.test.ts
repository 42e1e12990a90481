import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { flipBytes, rngFor, spliceBytes } from '../../../scripts/fuzz-kit.mjs';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { toBase64 } from '../input/helpers';
import { ascii, concat, text } from './verify-fixtures';

/**
 * Seeded mutations of PDFs the test signs itself through POST /v1/sign (the project's signer and
 * the run's signing identity), each sent to POST /v1/verify: docs/api.md allows 200, 415 (not a PDF)
 * and 422 (damaged), never a 5xx. `npm run verify-fuzz` is the larger run against more signers.
 */

const SEED = 0x5eed_2026;
const VARIANTS = 200;
/** Requests per key: under the per-key rate limit (120 a minute). */
const PER_KEY = 100;

type Rng = ReturnType<typeof rngFor>;

/** The match spans of `pattern` in `source`. */
function spans(source: string, pattern: RegExp): [number, number][] {
  return [...source.matchAll(pattern)].map((m) => [m.index, m.index + m[0].length]);
}

const NUMBERS = ['0', '-1', '2147483647', '4294967296', '99999999999999999999', '1e308', '', 'null'];

type Mutation = (rng: Rng, bytes: Uint8Array) => Uint8Array | undefined;

/** Flips 1..n bytes inside one match of `pattern`, or undefined when the PDF has none. */
const aimed =
  (pattern: RegExp, n: number): Mutation =>
  (rng, bytes) => {
    const found = spans(text(bytes), pattern);
    return found.length ? flipBytes(rng, bytes, 1 + rng.int(n), rng.pick(found)).bytes : undefined;
  };

/** Replaces a number inside one match of `pattern` with an extreme one. */
const renumber =
  (pattern: RegExp): Mutation =>
  (rng, bytes) => {
    const found = spans(text(bytes), pattern);
    if (!found.length) return undefined;
    const [start, end] = rng.pick(found);
    const numbers = [...text(bytes.subarray(start, end)).matchAll(/\d+/g)];
    if (!numbers.length) return undefined;
    const number = rng.pick(numbers);
    const at = start + number.index;
    return spliceBytes(bytes, at, at + number[0].length, ascii(rng.pick(NUMBERS)));
  };

const MUTATIONS: Record<string, Mutation> = {
  flip: (rng, bytes) => flipBytes(rng, bytes, 1 + rng.int(32)).bytes,
  byteRange: aimed(/\/ByteRange\s*\[[^\]]*\]/g, 4),
  byteRangeNumber: renumber(/\/ByteRange\s*\[[^\]]*\]/g),
  contents: aimed(/\/Contents\s*<[0-9A-Fa-f]{0,600}/g, 8),
  xref: aimed(/xref[\r\n][\s\S]*?trailer|\/Type\s*\/XRef[\s\S]*?endstream/g, 16),
  xrefNumber: renumber(/xref[\r\n][\s\S]*?trailer|\/Type\s*\/XRef[^>]*>>/g),
  trailer: aimed(/trailer\s*<<[\s\S]*?>>/g, 8),
  startxref: renumber(/startxref\s*\d+/g),
  truncate: (rng, bytes) =>
    bytes.slice(0, rng.next() < 0.5 ? bytes.length - 1 - rng.int(Math.min(4096, bytes.length)) : rng.int(bytes.length)),
  removeSlice: (rng, bytes) => {
    const start = rng.int(bytes.length);
    return spliceBytes(bytes, start, Math.min(bytes.length, start + 1 + rng.int(512)), new Uint8Array());
  },
  duplicateSlice: (rng, bytes) => {
    const start = rng.int(bytes.length);
    const to = rng.int(bytes.length);
    return spliceBytes(bytes, to, to, bytes.slice(start, start + 1 + rng.int(512)));
  },
  garbage: (rng, bytes) => {
    const at = rng.int(bytes.length);
    const garbage =
      rng.next() < 0.3
        ? ascii(rng.pick(['[', '<<', '(']).repeat(rng.pick([500, 20000])))
        : Uint8Array.from({ length: 1 + rng.int(256) }, () => rng.int(256));
    return spliceBytes(bytes, at, at, garbage);
  },
  fakeUpdate: (rng, bytes) => {
    const source = text(bytes);
    const startxref = Number([...source.matchAll(/startxref\s*(\d+)/g)].at(-1)?.[1] ?? 0);
    const root = [...source.matchAll(/\/Root\s+(\d+ \d+ R)/g)].at(-1)?.[1] ?? '1 0 R';
    const objects = [...source.matchAll(/(\d+) 0 obj/g)].map((m) => Number(m[1]));
    const number = rng.next() < 0.6 ? rng.pick(objects) : Math.max(...objects) + 1;
    const body = rng.pick([
      '<< /Type /Catalog >>',
      `${number} 0 R`,
      '<< /Type /Pages /Kids [ ] /Count 2147483647 >>',
      '<< /FT /Sig /V << /Type /Sig /ByteRange [ 0 10 20 30 ] /Contents <3082> >> >>',
      '['.repeat(5000),
      '<< /Length 99999999 >>\nstream\nabc\nendstream',
    ]);
    const object = `\n${number} 0 obj\n${body}\nendobj\n`;
    const xrefAt = bytes.length + object.length;
    const prev = rng.pick([String(startxref), String(xrefAt), '0', '-1', String(bytes.length * 3)]);
    const entry = `${String(bytes.length + 1).padStart(10, '0')} 00000 n\r\n`;
    const tail = `xref\n${number} 1\n${entry}trailer\n<< /Size ${rng.pick([number + 1, 2147483647])} /Root ${root} /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    return concat(bytes, ascii(object + tail));
  },
};
const NAMES = Object.keys(MUTATIONS);

function variant(bases: Uint8Array[], index: number): { bytes: Uint8Array; mutation: string } {
  const rng = rngFor(SEED, index);
  const base = rng.int(bases.length);
  let bytes = bases[base] as Uint8Array;
  for (let attempt = 0; attempt < 20; attempt++) {
    const name = rng.pick(NAMES);
    const mutated = MUTATIONS[name]?.(rng, bytes);
    if (mutated) return { bytes: mutated, mutation: `base ${base} ${name}` };
  }
  bytes = flipBytes(rng, bytes, 1).bytes;
  return { bytes, mutation: `base ${base} flip` };
}

async function post(key: string, path: string, body: unknown): Promise<Response> {
  return call(
    path,
    withKey(key, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  );
}

async function sign(key: string, pdf: Uint8Array, certificate: boolean): Promise<Uint8Array> {
  const res = await post(key, '/v1/sign', {
    document: { base64: toBase64(pdf) },
    signer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    auditTrail: [{ type: 'submit', timestamp: '2026-11-22T10:02:10Z' }],
    certificate: { enabled: certificate },
  });
  expect(res.status).toBe(200);
  const { document } = (await res.json()) as { document: { base64: string } };
  return Uint8Array.from(atob(document.base64), (c) => c.charCodeAt(0));
}

async function twoPagePdf(objectStreams: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const label of ['one', 'two']) {
    doc.addPage([612, 792]).drawText(`Page ${label}`, { x: 72, y: 700, size: 14, font });
  }
  return doc.save({ useObjectStreams: objectStreams });
}

describe('POST /v1/verify under seeded mutations', () => {
  it(`answers ${VARIANTS} mutated signed PDFs with 200, 415 or 422 only`, { timeout: 120_000 }, async () => {
    const key = await mintKey();
    const once = await sign(key, await twoPagePdf(true), false);
    const bases = [
      once,
      await sign(key, await twoPagePdf(false), true),
      await sign(key, once, false), // signed twice
    ];
    // The originals verify valid, so the mutations start from a signature that checks out.
    for (const base of bases) {
      const res = await post(key, '/v1/verify', { document: { base64: toBase64(base) } });
      expect(((await res.json()) as { valid: boolean }).valid).toBe(true);
    }

    const unexpected: string[] = [];
    const statuses = new Map<number, number>();
    let current = key;
    for (let index = 0; index < VARIANTS; index++) {
      if (index % PER_KEY === 0) current = await mintKey();
      const { bytes, mutation } = variant(bases, index);
      const res = await post(current, '/v1/verify', { document: { base64: toBase64(bytes) } });
      const body = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (![200, 415, 422].includes(res.status)) {
        unexpected.push(`variant ${index} (${mutation}): ${res.status} ${body.slice(0, 300)}`);
      }
    }
    console.info(`verify-fuzz: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(unexpected, JSON.stringify(Object.fromEntries(statuses))).toEqual([]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(VARIANTS);
  });

  // Found by `npm run verify-fuzz` (seed 20261122, variant 1026): a whole-file parser loops /W
  // times per field; the verifier reads xref streams itself, capping /W and /Index.
  it('answers an xref stream with /W [1 2 4294967296] without hanging', async () => {
    const key = await mintKey();
    const signed = await sign(key, await twoPagePdf(true), false);
    const source = text(signed);
    const w = [...source.matchAll(/\/W\s*\[\s*1\s+(\d+)\s+(\d+)\s*\]/g)].at(-1);
    expect(w).toBeDefined();
    const at = (w?.index ?? 0) + (w?.[0].lastIndexOf(w?.[2] ?? '') ?? 0);
    const mutated = spliceBytes(signed, at, at + (w?.[2]?.length ?? 0), ascii('4294967296'));
    const res = await post(key, '/v1/verify', { document: { base64: toBase64(mutated) } });
    expect([200, 415, 422]).toContain(res.status);
  });
});
