import { strToU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { concat, ihdr, PNG_SIGNATURE, pngChunk } from '../../engine/read/images/helpers';
import { mintKey, postJson, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { buildDocx, declareZipSize, paragraph } from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';
import { toBase64 } from '../../services/input/helpers';
import { deflateZeros, pdfWith, streamObject } from '../../services/sign/pdf-bombs';

/**
 * Issue 20's hostile shapes through the routes, scaled down so that each still reaches the guard
 * that holds it at full size (`npm run hostile` posts them at the audit's sizes to a local worker
 * and measures time, memory and /v1/health). Shapes whose guard a route test already covers are
 * not repeated here; each describe names the tests that cover the rest of its class. (The page
 * budget, 50,000 page breaks: test/convert/budgets.test.ts; geometry at 2^31 twips and a dot
 * leader across it: test/ooxml/extreme-numbers.test.ts; XML-illegal characters in annotate:
 * test/annotate/xml-chars.test.ts; racing email codes: test/auth/verify-tries.test.ts; Latin-1 and
 * UTF-16 sources: test/input/text-encoding.test.ts; 100,000 nested >:
 * test/markdown/deep-nesting-route.test.ts; two file parts: test/http/multipart-file.test.ts;
 * unknown keys in annotate fields: test/annotate/annotate-route.test.ts; a /Count of 10^9:
 * test/verify/page-tree.test.ts; entity bombs and XXE: test/ooxml/bad-input.test.ts and
 * test/convert/convert-docx.test.ts; deep XML: test/ooxml/bad-input.test.ts; bodies past the
 * size limit: test/http/conventions.test.ts and test/input/document-input.test.ts.)
 */

const MiB = 1024 * 1024;

async function convert(bytes: Uint8Array, query: string, name: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
  return call(`/v1/convert?${query}`, withKey(await mintKey(), { method: 'POST', body: form }));
}

/** The time `run` takes, with its result. */
async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await run();
  return { result, ms: Date.now() - started };
}

const template = () =>
  buildDocx({
    document: `<w:body>${paragraph('Dear {{name}},')}${paragraph('{{pic}}')}${paragraph('Yours.')}</w:body>`,
  });

/** A PNG whose header declares width × height (8-bit RGB) over a few bytes of IDAT: a pixel bomb. */
function pngDeclaring(width: number, height: number): Uint8Array {
  return concat(
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr(width, height, 8, 2)),
    pngChunk('IDAT', deflateZeros(4096)),
    pngChunk('IEND', []),
  );
}

/** A GIF whose screen and frame declare side × side (65,535 is the most a GIF can), with a few codes of LZW. */
function gifDeclaring(side: number): Uint8Array {
  const lo = side & 0xff;
  const hi = side >> 8;
  return concat(
    strToU8('GIF89a'),
    [lo, hi, lo, hi, 0x80, 0, 0],
    [0, 0, 0, 255, 255, 255],
    [0x2c, 0, 0, 0, 0, lo, hi, lo, hi, 0],
    // LZW of minimum code size 2 in one 2-byte sub-block: clear (4), 0, 0, end (5) at 3 bits each,
    // least significant bit first (GIF89a appendix F); then the block terminator and the trailer.
    [2, 2, 0x04, 0x0a, 0, 0x3b],
  );
}

const inlinePicture = (id: string) =>
  `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="p"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

/** Every XML part of a DOCX parses (XML 1.0 well-formedness, as Word and LibreOffice require). */
function expectWellFormedParts(docx: Uint8Array): void {
  for (const [name, bytes] of Object.entries(unzipSync(docx))) {
    if (!/\.(xml|rels)$/.test(name)) continue;
    const text = new TextDecoder().decode(bytes);
    // No C0 control but tab, LF and CR, no U+FFFE/U+FFFF, no lone surrogate (XML 1.0 §2.2 Char).
    expect(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(text), name).toBe(false);
  }
}

describe('one long word, in every source format (the quadratic line breaker)', () => {
  // DOCX: test/layout/long-paragraphs.test.ts converts a DOCX of one 1,000,000-character word.
  it.each([
    ['md', 'from=md&to=pdf', 'word.md', (word: string) => word],
    ['html', 'from=html&to=pdf', 'word.html', (word: string) => `<p>${word}</p>`],
  ])(
    'a %s file of one 200,000-character word converts in linear time, every character kept',
    async (_format, query, name, wrap) => {
      const word = 'ab'.repeat(100_000);
      const { result: res, ms } = await timed(() => convert(strToU8(wrap(word)), query, name));
      expect(res.status).toBe(200);
      expect(ms).toBeLessThan(5000);
      const pages = await pdfText(new Uint8Array(await res.arrayBuffer()));
      expect(pages.join('').replace(/\s/g, '').length).toBe(word.length);
    },
  );

  it('html → docx of one 200,000-character word: a DOCX whose parts parse', async () => {
    const res = await convert(strToU8(`<p>${'x'.repeat(200_000)}</p>`), 'from=html&to=docx', 'word.html');
    expect(res.status).toBe(200);
    expectWellFormedParts(new Uint8Array(await res.arrayBuffer()));
  });
});

describe('ZIP sizes not taken on trust', () => {
  // convert and annotate: test/convert/budgets.test.ts (a directory declaring 480 MB per part);
  // a real bomb through convert: test/convert/convert-docx.test.ts.
  it('a directory declaring 480 MB per part, through /v1/sign (a DOCX is converted first): signed at its real size', async () => {
    const lying = declareZipSize(template(), undefined, 480_000_000);
    const res = await postJson('/v1/sign', {
      document: { base64: toBase64(lying) },
      signer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      auditTrail: [{ type: 'submit', timestamp: '2026-11-22T10:02:10Z' }],
    });
    expect(res.status).toBe(200);
  });

  it('an XML part that inflates past the 32 MiB XML budget, through /v1/annotate?to=pdf: 422 DOCUMENT_TOO_COMPLEX', async () => {
    // 40 MiB of spaces in a run deflate to ~40 KiB: well-formed XML, so only the budget refuses it.
    const bomb = buildDocx({
      document: `<w:body>${paragraph('Dear {{name}},')}<w:p><w:r><w:t xml:space="preserve">${' '.repeat(40 * MiB)}</w:t></w:r></w:p></w:body>`,
    });
    expect(bomb.length).toBeLessThan(200 * 1024);
    const { result: res, ms } = await timed(() =>
      postJson('/v1/annotate?to=pdf', {
        document: { base64: toBase64(bomb) },
        fields: [{ id: 'name', type: 'text', value: 'Ada' }],
      }),
    );
    const body = await expectError(res, 422, 'DOCUMENT_TOO_COMPLEX');
    expect(body.message).toMatch(/32 MiB/);
    expect(ms).toBeLessThan(5000);
    // Building 40 MiB of spaces and deflating them here takes longer than the request.
  }, 30_000);
});

describe('PDF streams that decode to far more than they weigh', () => {
  // /v1/sign refuses them: test/sign/sign-route.test.ts and test/sign/pdf-parse-guard.test.ts.
  it('/v1/verify reads a PDF holding an unreferenced object stream of 32 MiB of zeros in bounded time: 200, unsigned', async () => {
    const pdf = await pdfWith(
      streamObject(99, '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', deflateZeros(32 * MiB)),
    );
    expect(pdf.length).toBeLessThan(MiB);
    const { result: res, ms } = await timed(() => postJson('/v1/verify', { document: { base64: toBase64(pdf) } }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { valid: boolean; signatures: unknown[] };
    expect(body.valid).toBe(false);
    expect(body.signatures).toEqual([]);
    expect(ms).toBeLessThan(5000);
  });
});

describe('pixel bombs through every route that reads images', () => {
  // The decoders: test/images/png.test.ts and gif.test.ts; a PNG bomb in a DOCX through
  // /v1/convert: test/convert/convert-docx.test.ts; in an SVG: test/annotate/picture-svg-hostile.test.ts.
  it('a DOCX with a GIF declaring 65,535 × 65,535: the picture left out with a warning, the text converted', async () => {
    const docx = buildDocx({
      relationships: [{ id: 'rIdImg', type: 'image', target: 'media/bomb.gif' }],
      extraParts: { 'word/media/bomb.gif': gifDeclaring(65_535) },
      document: `<w:body>${paragraph('Before.')}${inlinePicture('rIdImg')}${paragraph('After.')}</w:body>`,
    });
    const res = await convert(docx, 'from=docx&to=pdf', 'gif.docx');
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('X-Quire-Warning-Count'))).toBeGreaterThanOrEqual(1);
    const [text] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('After.');
  });

  it.each([
    ['html → pdf', 'from=html&to=pdf'],
    ['html → docx', 'from=html&to=docx'],
  ])('%s with a data: PNG declaring 100,000 × 100,000: the image left out with a warning', async (_name, query) => {
    const html = `<p>Before.</p><img src="data:image/png;base64,${toBase64(pngDeclaring(100_000, 100_000))}"><p>After.</p>`;
    const res = await convert(strToU8(html), query, 'bomb.html');
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('X-Quire-Warning-Count'))).toBeGreaterThanOrEqual(1);
    await res.arrayBuffer();
  });

  it('an annotate image field of a PNG declaring 100,000 × 100,000: 422 INVALID_DOCUMENT naming the field', async () => {
    const res = await postJson('/v1/annotate?to=pdf', {
      document: { base64: toBase64(template()) },
      fields: [
        { id: 'pic', type: 'image', value: `data:image/png;base64,${toBase64(pngDeclaring(100_000, 100_000))}` },
      ],
    });
    const body = await expectError(res, 422, 'INVALID_DOCUMENT');
    expect(body.message).toContain('pic');
  });
});

describe('deeply nested HTML, to PDF and to DOCX', () => {
  // readHtml itself: test/html/html-hostile.test.ts (10,000 nested divs, spans, lists and tables).
  it.each([
    ['20,000 nested divs', `${'<div>'.repeat(20_000)}deep text${'</div>'.repeat(20_000)}`],
    ['2,000 nested tables', `${'<table><tr><td>'.repeat(2000)}deep text${'</td></tr></table>'.repeat(2000)}`],
    ['20,000 nested lists', `${'<ul><li>'.repeat(20_000)}deep text${'</li></ul>'.repeat(20_000)}`],
  ])('%s: 200 or 422, quickly, and a DOCX whose parts parse', async (_name, html) => {
    for (const to of ['pdf', 'docx']) {
      const { result: res, ms } = await timed(() => convert(strToU8(html), `from=html&to=${to}`, 'deep.html'));
      expect([200, 422]).toContain(res.status);
      expect(ms).toBeLessThan(8000);
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (res.status === 200 && to === 'docx') expectWellFormedParts(bytes);
      if (res.status === 422) expect(JSON.parse(new TextDecoder().decode(bytes)).code).toBe('DOCUMENT_TOO_COMPLEX');
    }
  });
});
