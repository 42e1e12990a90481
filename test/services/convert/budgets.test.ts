import { env } from 'cloudflare:workers';
import { delay, HttpResponse, http } from 'msw';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/config';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import type { Env } from '../../../src/env';
import { Budget, DEFAULT_LIMITS, type Limits } from '../../../src/limits';
import { convertDocxToPdf } from '../../../src/services/convert/docx-to-pdf';
import { convertMarkup } from '../../../src/services/convert/markup-convert';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError, rejection } from '../../helpers/api';
import { buildDocx, declareZipSize, paragraph, tinyPng } from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';
import { network } from '../../setup/network';
import { toBase64 } from '../input/helpers';

const engine = { assets: env.ASSETS, fontCache: createFontCache() };
const limits = (changes: Partial<Limits>): Limits => ({ ...DEFAULT_LIMITS, ...changes });
const pageBreaks = (count: number) =>
  buildDocx({ document: `<w:body><w:p><w:r>${'<w:br w:type="page"/>'.repeat(count)}</w:r></w:p></w:body>` });

describe('the per-request budgets (src/limits.ts)', () => {
  it('stops a conversion past its page budget with DOCUMENT_TOO_COMPLEX naming the budget', async () => {
    const error = await rejection(
      convertDocxToPdf(pageBreaks(50), { revisions: 'markup', limits: limits({ pages: 10 }) }, engine),
    );
    expect(error.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toMatch(/more than 10 pages/);
    // At the budget exactly, it converts.
    const fits = await convertDocxToPdf(pageBreaks(9), { revisions: 'markup', limits: limits({ pages: 10 }) }, engine);
    expect(fits.pages).toBe(10);
  });

  it('stops a conversion at the first page boundary past its time, read from the clock it is given', async () => {
    let now = 0;
    // Every reading of the clock is a second later: the 3 s budget is spent after a few pages.
    const clock = () => (now += 1000);
    const error = await rejection(
      convertDocxToPdf(
        pageBreaks(100),
        { revisions: 'markup', limits: limits({ layoutMs: 3000 }), now: clock },
        engine,
      ),
    );
    expect(error.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(error.message).toMatch(/took more than 3 s \(stopped after \d pages\)/);
  });

  it('holds Markdown and HTML to the same page budget', async () => {
    const markdown = new TextEncoder().encode(
      Array.from({ length: 30 }, (_, i) => `# Part ${i}\n\n<div style="page-break-after: always">x</div>\n`).join('\n'),
    );
    const options = {
      from: 'md',
      to: 'pdf',
      pageSize: { width: 612, height: 792 },
      images: { allowHttp: false, maxImages: 0, maxTotalBytes: 0, maxImageBytes: 0 },
    } as const;
    const error = await rejection(convertMarkup(markdown, { ...options, limits: limits({ pages: 5 }) }, engine));
    expect(error.code).toBe('DOCUMENT_TOO_COMPLEX');
  });

  it("starts an HTML page's layout clock after its images are fetched: waiting on another host is not layout", async () => {
    const png = tinyPng(4, 4);
    network.use(
      http.get('https://slow.example/a.png', async () => {
        await delay(300);
        return HttpResponse.arrayBuffer(png.slice().buffer, { headers: { 'Content-Type': 'image/png' } });
      }),
    );
    const html = new TextEncoder().encode('<p>Before</p><img src="https://slow.example/a.png" alt="A"><p>After</p>');
    const result = await convertMarkup(
      html,
      {
        from: 'html',
        to: 'pdf',
        images: { allowHttp: false, maxImages: 4, maxTotalBytes: 1 << 20, maxImageBytes: 1 << 20 },
        limits: limits({ layoutMs: 250 }),
      },
      engine,
    );
    expect(result.pages).toBe(1);
    expect(result.warnings).toEqual([]);
  });

  it('counts pages and time in a Budget of its own per request', () => {
    let now = 100;
    const budget = new Budget(limits({ pages: 2, layoutMs: 50 }), () => now);
    budget.page();
    budget.page();
    expect(() => budget.page()).toThrow(/more than 2 pages/);
    const slow = new Budget(limits({ layoutMs: 50 }), () => now);
    now += 51;
    expect(() => slow.checkTime()).toThrow(/took more than 0.05 s/);
  });

  it('reads the configurable budgets from the environment, the XML one never above the whole', () => {
    const base = {} as Env;
    expect(readConfig(base).limits).toEqual(DEFAULT_LIMITS);
    const set = readConfig({
      ...base,
      MAX_INFLATED_BYTES: String(1 << 20),
      MAX_INFLATED_XML_BYTES: String(4 << 20),
      MAX_PAGES: '12',
      MAX_LAYOUT_SECONDS: '3',
      MAX_DECODED_PDF_BYTES: '1000',
    });
    expect(set.limits).toEqual({
      inflatedBytes: 1 << 20,
      inflatedXmlBytes: 1 << 20,
      pages: 12,
      layoutMs: 3000,
      decodedPdfStreamBytes: 1000,
    });
    expect(() => readConfig({ ...base, MAX_PAGES: 'lots' })).toThrow(/MAX_PAGES must be a positive whole number/);
  });

  it('POST /v1/convert: 50,000 page breaks in a few kilobytes → 422 DOCUMENT_TOO_COMPLEX, quickly', async () => {
    const docx = pageBreaks(50_000);
    expect(docx.length).toBeLessThan(8 * 1024);
    const form = new FormData();
    form.append('file', new File([docx as Uint8Array<ArrayBuffer>], 'breaks.docx'));
    const started = Date.now();
    const res = await call('/v1/convert', withKey(await mintKey(), { method: 'POST', body: form }));
    const body = await expectError(res, 422, 'DOCUMENT_TOO_COMPLEX');
    expect(body.message).toMatch(/more than 5,000 pages/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  // 1,000 pages laid out, painted and read back: seconds of work, more on a loaded machine.
  it('deflates page contents as they come once many are held, and the PDF reads the same', {
    timeout: 60_000,
  }, async () => {
    // About 10 KB of content a page (hex glyph codes): past 8 MiB held, later pages are deflated as added.
    const text = 'The quick brown fox jumps over the lazy dog, again and again. '.repeat(40);
    const docx = buildDocx({ document: `<w:body>${paragraph(text).repeat(2500)}</w:body>` });
    const { pdf, pages } = await convertDocxToPdf(docx, { revisions: 'markup', limits: DEFAULT_LIMITS }, engine);
    expect(pages).toBeGreaterThan(900);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(pages);
    // Every word is there, on the deflated pages as on the others.
    const texts = await pdfText(pdf);
    const foxes = texts.reduce((sum, page) => sum + (page.match(/fox/g)?.length ?? 0), 0);
    expect(foxes).toBe(2500 * 40);
  });

  it('a DOCX whose ZIP directory declares 480 MB per part converts at its real size, through convert and annotate', async () => {
    const lying = declareZipSize(
      buildDocx({ document: `<w:body>${paragraph('Dear {{name}},')}${paragraph('Small in truth.')}</w:body>` }),
      undefined,
      480_000_000,
    );
    expect(lying.length).toBeLessThan(4096);
    const key = await mintKey();
    const form = new FormData();
    form.append('file', new File([lying as Uint8Array<ArrayBuffer>], 'lying.docx'));
    const converted = await call('/v1/convert', withKey(key, { method: 'POST', body: form }));
    expect(converted.status).toBe(200);
    const [text] = await pdfText(new Uint8Array(await converted.arrayBuffer()));
    expect(text).toContain('Small in truth.');

    const annotated = await call(
      '/v1/annotate?to=pdf',
      withKey(key, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          document: { base64: toBase64(lying) },
          fields: [{ id: 'name', type: 'text', value: 'Ada' }],
        }),
      }),
    );
    expect(annotated.status).toBe(200);
  });
});
