// Long words and long paragraphs: line breaking is linear in the paragraph's length, nothing of a
// word is lost where it is broken, and a paragraph past MAX_PARAGRAPH_CHARACTERS is a 422.
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import type { FontSet } from '../../../src/engine/fonts/font-face';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontRequests } from '../../../src/engine/layout/font-requests';
import { type LaidParagraph, layoutParagraph } from '../../../src/engine/layout/paragraph-layout';
import type { Paragraph } from '../../../src/engine/model/document';
import { ApiError } from '../../../src/errors';
import { MAX_PARAGRAPH_CHARACTERS, MAX_PARAGRAPH_LINES } from '../../../src/limits';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { buildDocx } from '../../helpers/docx-fixture';
import { documentModel, paragraph, section, text } from '../../helpers/model-builder';

let cache: ReturnType<typeof createFontCache>;
beforeAll(() => {
  cache = createFontCache();
});

const CONTEXT = { areaWidth: 468, defaultTabStop: 36 };

async function fontsFor(p: Paragraph): Promise<FontSet> {
  return loadFontSet(collectFontRequests(documentModel([section([p])])), { assets: env.ASSETS, embedded: [], cache });
}

/** The text of each line, in order. */
function lineTexts(laid: LaidParagraph): string[] {
  return laid.lines.map((line) => line.fragments.map((f) => f.text).join(''));
}

/** The widest line, from its first fragment's left edge to its last one's right edge. */
function widest(laid: LaidParagraph): number {
  let widest = 0;
  for (const { fragments } of laid.lines) {
    const first = fragments[0];
    const last = fragments[fragments.length - 1];
    if (first && last) widest = Math.max(widest, last.x + last.width - first.x);
  }
  return widest;
}

describe('breaking long words', () => {
  it('refuses a paragraph that breaks into more than MAX_PARAGRAPH_LINES lines, before holding them all', async () => {
    // A column two points wide takes a character a line: 200,000 characters, 200,000 lines.
    const p = paragraph('w'.repeat(200_000));
    const fonts = await fontsFor(p);
    const started = Date.now();
    let error: unknown;
    try {
      layoutParagraph(p, fonts, { areaWidth: 2, defaultTabStop: 36 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('DOCUMENT_TOO_COMPLEX');
    expect((error as ApiError).message).toContain(`${MAX_PARAGRAPH_LINES.toLocaleString('en-US')} lines`);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('breaks a 1,000,000-character word into lines in well under a second, losing nothing', async () => {
    const word = 'abcdefghij'.repeat(100_000);
    const p = paragraph(word);
    const fonts = await fontsFor(p);
    const started = Date.now();
    const laid = layoutParagraph(p, fonts, CONTEXT);
    const elapsed = Date.now() - started;
    // Was quadratic: 400,000 characters took 12.5 s, 20 million never finished.
    expect(elapsed).toBeLessThan(1000);
    const lines = lineTexts(laid);
    expect(lines.length).toBeGreaterThan(5000);
    expect(lines.join('')).toBe(word);
    expect(widest(laid)).toBeLessThanOrEqual(CONTEXT.areaWidth + 0.01);
    // Every line but the last is full: one character more would not have fitted.
    expect(Math.min(...lines.slice(0, -1).map((line) => line.length))).toBeGreaterThan(60);
  });

  it('breaks a long word the same wherever it starts: each full line holds as many characters', async () => {
    const p = paragraph('m'.repeat(50_000));
    const lines = lineTexts(layoutParagraph(p, await fontsFor(p), CONTEXT));
    const full = lines.slice(0, -1);
    expect(new Set(full.map((line) => line.length)).size).toBe(1);
    expect(full.length * (full[0]?.length ?? 0) + (lines.at(-1)?.length ?? 0)).toBe(50_000);
  });

  it('breaks a word set in alternating runs at the margin, as one set in one run', async () => {
    // Bold "ab" and plain "cd", 100,000 times: one word of 400,000 characters in 200,000 runs. It
    // used to be placed whole on one line (run past the margin; a page of 200,000 items).
    const inlines = Array.from({ length: 200_000 }, (_, i) => text(i % 2 ? 'cd' : 'ab', { bold: i % 2 === 0 }));
    const p = paragraph(inlines);
    const started = Date.now();
    const laid = layoutParagraph(p, await fontsFor(p), CONTEXT);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(lineTexts(laid).join('')).toBe('abcd'.repeat(100_000));
    expect(laid.lines.length).toBeGreaterThan(3000);
    expect(widest(laid)).toBeLessThanOrEqual(CONTEXT.areaWidth + 0.01);
  });

  it('starts a too-long word of several runs on a line of its own, as one of one run, and keeps its spaces', async () => {
    const long = 'x'.repeat(300);
    const p = paragraph([text('start '), text(long, { bold: true }), text(`${long} `), text('end')]);
    const lines = lineTexts(layoutParagraph(p, await fontsFor(p), CONTEXT));
    expect(lines[0]).toBe('start ');
    expect(lines.join('')).toBe(`start ${long}${long} end`);
    expect(lines.at(-1)?.endsWith('end')).toBe(true);
  });

  it('lays out a paragraph of 1,000,000 characters in words, justified, in time linear in its length', async () => {
    const words = 'lorem ipsum dolor sit amet '.repeat(37_000);
    const p = paragraph(words, { align: 'both' });
    const fonts = await fontsFor(p);
    const started = Date.now();
    const laid = layoutParagraph(p, fonts, CONTEXT);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(lineTexts(laid).join('').replace(/ /g, '')).toBe(words.replace(/ /g, ''));
  });
});

describe('the per-paragraph budget', () => {
  it(`refuses a paragraph of more than ${MAX_PARAGRAPH_CHARACTERS} characters with DOCUMENT_TOO_COMPLEX`, async () => {
    const p = paragraph([text('a'.repeat(MAX_PARAGRAPH_CHARACTERS)), text('b')]);
    const fonts = await fontsFor(p);
    let error: unknown;
    try {
      layoutParagraph(p, fonts, CONTEXT);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('DOCUMENT_TOO_COMPLEX');
    expect((error as ApiError).message).toMatch(/paragraph holds more than 1,000,000 characters/);
    // The limit itself is allowed.
    const most = paragraph([text('a'.repeat(MAX_PARAGRAPH_CHARACTERS))]);
    expect(layoutParagraph(most, fonts, CONTEXT).lines.length).toBeGreaterThan(1000);
  });

  async function convert(bytes: Uint8Array, query: string, name: string): Promise<Response> {
    const form = new FormData();
    form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
    return call(`/v1/convert?${query}`, withKey(await mintKey(), { method: 'POST', body: form }));
  }

  it('answers 422 for such a paragraph in a DOCX and in Markdown, naming the budget', async () => {
    const long = 'word '.repeat(MAX_PARAGRAPH_CHARACTERS / 5 + 1);
    const docx = buildDocx({ document: `<w:body><w:p><w:r><w:t>${long}</w:t></w:r></w:p></w:body>` });
    const fromDocx = await expectError(
      await convert(docx, 'from=docx&to=pdf', 'long.docx'),
      422,
      'DOCUMENT_TOO_COMPLEX',
    );
    expect(fromDocx.message).toMatch(/1,000,000 characters per paragraph/);
    const markdown = new TextEncoder().encode(`# Title\n\n${long}\n`);
    const fromMarkdown = await expectError(
      await convert(markdown, 'from=md&to=pdf', 'long.md'),
      422,
      'DOCUMENT_TOO_COMPLEX',
    );
    expect(fromMarkdown.message).toMatch(/paragraph/);
  });

  it('converts a DOCX of one 1,000,000-character word in a few seconds', async () => {
    const docx = buildDocx({
      document: `<w:body><w:p><w:r><w:t>${'a'.repeat(MAX_PARAGRAPH_CHARACTERS)}</w:t></w:r></w:p></w:body>`,
    });
    const started = Date.now();
    const res = await convert(docx, 'from=docx&to=pdf', 'word.docx');
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(Date.now() - started).toBeLessThan(8000);
  });
});
