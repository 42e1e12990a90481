import { env } from 'cloudflare:test';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createFallbackFontCache, createFontCache } from '../../../src/engine/fonts/font-cache';
import type { TextItem } from '../../../src/engine/layout/page-items';
import { Budget, DEFAULT_LIMITS } from '../../../src/limits';
import { engineResources } from '../../../src/services/convert/docx-to-pdf';
import { appendPdfPages } from '../../../src/services/sign/append-pages';
import { renderAuditCertificate } from '../../../src/services/sign/audit-certificate';
import { buildAuditModel, certificatePageSize } from '../../../src/services/sign/audit-model';
import { layoutWithFallback } from '../../engine/layout/fallback-layout';
import { pageText, pdfText } from '../../helpers/pdf-text';
import { auditInfo, CERT_SHA256, DOCUMENT_SHA256, manyEvents } from './audit-fixture';

const engine = engineResources(
  { ASSETS: env.ASSETS },
  {
    fontCache: createFontCache(),
    fallbackFontCache: createFallbackFontCache(),
  },
);

async function certificateText(info = auditInfo(), size?: { width: number; height: number }): Promise<string[]> {
  return pdfText(await renderAuditCertificate(info, engine, new Budget(DEFAULT_LIMITS), size));
}

describe('renderAuditCertificate', () => {
  it('shows the title, the summary, every event with its UTC time, the metadata and the certificate', async () => {
    const pages = await certificateText();
    const all = pages.join(' ');
    for (const expected of [
      'Signing certificate',
      DOCUMENT_SHA256,
      'evt_2026_11_22_0001',
      'Ada Lovelace',
      'ada@example.com',
      '203.0.113.7',
      'Mozilla/5.0',
      'Chrome/131.0',
      '2026-11-22T10:07:08.123Z',
      'Sunday, 22 November 2026, 10:07:08 UTC',
      'Document ready',
      'Viewed',
      'Scrolled',
      'Field changed',
      'Submitted',
      'Signed',
      '2026-11-22T10:00:00Z',
      '2026-11-22T10:01:30Z',
      '2026-11-22T10:02:00Z',
      // 10:03:12.250+01:00 in UTC.
      '2026-11-22T09:03:12.250Z',
      '2026-11-22T10:05:00Z',
      '2026-11-22T10:06:00Z',
      'source.device: desktop',
      'source.screen.w: 1920',
      'contract.id: C-42',
      'tags[1]: renewal',
      'CN=Quire Development Signing',
      'covers these certificate pages',
    ]) {
      expect(all, expected).toContain(expected);
    }
    // The fingerprint in byte pairs, as readers show it, and on one page.
    const pairs = CERT_SHA256.toUpperCase().match(/../g) ?? [];
    expect(all).toContain(pairs.join(' '));
    expect(pages).toHaveLength(1);
  });

  it('lists the events in time order even when they arrive out of order', async () => {
    const all = (await certificateText()).join(' ');
    const order = [
      '2026-11-22T09:03:12.250Z',
      '2026-11-22T10:00:00Z',
      '2026-11-22T10:01:30Z',
      '2026-11-22T10:02:00Z',
      '2026-11-22T10:05:00Z',
      '2026-11-22T10:06:00Z',
    ].map((time) => all.indexOf(time));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('flows 300 events over several pages, in time order, the header repeated', async () => {
    const pages = await certificateText(auditInfo({ events: manyEvents(300) }));
    expect(pages.length).toBeGreaterThanOrEqual(4);
    const all = pages.join(' ');
    const markers = [...all.matchAll(/marker: m(\d+)/g)].map((m) => Number(m[1]));
    expect(markers).toEqual(Array.from({ length: 300 }, (_, i) => i));
    for (const page of pages.slice(2, -1)) expect(page).toContain('Time (UTC) Event Details');
    expect(pages.at(-1)).toContain('covers these certificate pages');
    expect(pages.at(-1)).toMatch(new RegExp(`page ${pages.length} of ${pages.length}`));
  });

  it('wraps a 500-character value and a long URL inside the page', async () => {
    const hexValue = 'ab'.repeat(250);
    const url = `https://example.com/${'path-segment/'.repeat(20)}?q=${'x'.repeat(120)}`;
    const info = auditInfo({
      events: [{ type: 'submit', timestamp: '2026-11-22T10:00:00Z', data: { blob: hexValue, url } }],
    });
    const laid = await layoutWithFallback(buildAuditModel(info));
    const page = laid.pages[0];
    if (!page) throw new Error('no page');
    const texts = laid.pages.flatMap((p) => p.items.filter((i): i is TextItem => i.kind === 'text'));
    // Every run ends inside the right margin (48 pt on Letter): measured with its own face.
    const right = page.width - 48 + 0.5;
    for (const item of texts) {
      const face = laid.fonts[item.font];
      if (!face) throw new Error(`no face ${item.font}`);
      const end = item.x + face.measure(item.text.trimEnd()) * item.size;
      expect(end, item.text).toBeLessThanOrEqual(right);
    }
    // …because the long value was broken over lines, not squeezed or cut.
    const blobLines = new Set(texts.filter((t) => /^[ab\u200b]+$/.test(t.text) && t.text.length > 8).map((t) => t.y));
    expect(blobLines.size).toBeGreaterThanOrEqual(3);
    const all = (await certificateText(info)).join(' ').replace(/\s+/g, '');
    expect(all).toContain(hexValue);
  });

  it('prints names in Arabic and Chinese through the fallback faces', async () => {
    const info = auditInfo({ signer: { name: 'ليلى حداد 李小龙', email: 'layla@example.com' } });
    const laid = await layoutWithFallback(buildAuditModel(info));
    const items = (laid.pages[0]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
    const fontOf = (word: string) => items.find((item) => item.text.includes(word))?.font;
    expect(fontOf('李小龙')).toMatch(/^NotoSans(SC|TC|JP)/);
    expect(fontOf('حداد')).toMatch(/^NotoSansArabic/);
    const all = (await certificateText(info)).join(' ');
    expect(all).toContain('李小龙');
    expect(all).toContain('not given');
  });

  it('sets the text inside the margins of an A6 page', async () => {
    const a6 = { width: 298, height: 420 };
    const laid = await layoutWithFallback(buildAuditModel(auditInfo(), a6));
    expect(laid.pages.length).toBeGreaterThan(1);
    for (const page of laid.pages) {
      expect([page.width, page.height]).toEqual([298, 420]);
      for (const item of page.items) {
        if (item.kind !== 'text') continue;
        const face = laid.fonts[item.font];
        if (!face) throw new Error(`no face ${item.font}`);
        expect(item.x + face.measure(item.text.trimEnd()) * item.size, item.text).toBeLessThanOrEqual(298 - 28 + 0.5);
      }
    }
  });

  it('falls back to Letter for a page too small or too large to print on', () => {
    for (const size of [
      { width: 100, height: 100 },
      { width: 14400, height: 792 },
      { width: Number.NaN, height: 792 },
    ]) {
      expect(certificatePageSize(size)).toEqual({ width: 612, height: 792 });
    }
    expect(certificatePageSize({ width: 595.28, height: 841.89 })).toEqual({ width: 595.28, height: 841.89 });
  });

  it('takes the page size it is given', async () => {
    const pdf = await PDFDocument.load(
      await renderAuditCertificate(auditInfo(), engine, new Budget(DEFAULT_LIMITS), { width: 595, height: 842 }),
    );
    expect(pdf.getPage(0).getSize()).toEqual({ width: 595, height: 842 });
    const letter = await PDFDocument.load(
      await renderAuditCertificate(auditInfo(), engine, new Budget(DEFAULT_LIMITS)),
    );
    expect(letter.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
  });
});

describe('appendPdfPages', () => {
  it('adds the pages of one PDF to the end of a pdf-lib document', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 400]);
    doc.addPage([300, 400]);
    const certificate = await renderAuditCertificate(
      auditInfo({ events: manyEvents(120) }),
      engine,
      new Budget(DEFAULT_LIMITS),
    );
    const certificatePages = (await PDFDocument.load(certificate)).getPageCount();
    expect(certificatePages).toBeGreaterThan(1);
    await appendPdfPages(doc, certificate);
    expect(doc.getPageCount()).toBe(2 + certificatePages);
    const saved = await PDFDocument.load(await doc.save());
    expect(saved.getPageCount()).toBe(2 + certificatePages);
    expect(pageText(saved, 2)).toContain('Signing certificate');
    expect(pageText(saved, 1 + certificatePages)).toContain('covers these certificate pages');
  });

  it('scales pages of another size to the size asked for', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 400]);
    await appendPdfPages(doc, await renderAuditCertificate(auditInfo(), engine, new Budget(DEFAULT_LIMITS)), {
      width: 300,
      height: 400,
    });
    for (const page of doc.getPages()) expect(page.getSize()).toEqual({ width: 300, height: 400 });
  });
});
