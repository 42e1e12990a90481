import { createExecutionContext, env } from 'cloudflare:test';
import { strFromU8, unzipSync } from 'fflate';
import { HttpResponse, http } from 'msw';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { tinyPng } from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';
import { network } from '../../setup/network';
import { toBase64 } from '../input/helpers';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function convert(source: string | Uint8Array, query: string, name: string) {
  const bytes = typeof source === 'string' ? new TextEncoder().encode(source) : source;
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
  return call(`/v1/convert?${query}`, withKey(await mintKey(), { method: 'POST', body: form }));
}

async function docxParts(res: Response): Promise<Record<string, string>> {
  const parts = unzipSync(new Uint8Array(await res.arrayBuffer()));
  return Object.fromEntries(
    Object.entries(parts)
      .filter(([name]) => name.endsWith('.xml') || name.endsWith('.rels'))
      .map(([name, bytes]) => [name, strFromU8(bytes)]),
  );
}

const README = `---
title: Field Guide
---

# Getting started

Some *emphasis*, **strong**, ~~struck~~ and \`inline code\` text.[^1]

1. first
2. second
   - nested

| Name | Score |
|:-----|------:|
| Ada  |    10 |

[^1]: The footnote text.
`;

describe('POST /v1/convert md/html → docx/pdf', () => {
  it('Markdown to DOCX: heading styles, lists, a table, a real footnote and the title', async () => {
    const res = await convert(README, 'from=md&to=docx', 'guide.md');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe(DOCX_TYPE);
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="guide.docx"');
    const parts = await docxParts(res);
    const document = parts['word/document.xml'] ?? '';
    expect(document).toContain('<w:pStyle w:val="Heading1"/>');
    expect(document).toContain('Getting started');
    expect(document).toContain('<w:numPr>');
    expect(document).toContain('<w:tbl>');
    // A Markdown table shows its grid (source: 'markdown'); a bare HTML table would have none.
    expect(document).toMatch(/<w:tblBorders><w:top w:val="single"[^>]*w:color="BFBFBF"/);
    expect(document).toContain('<w:footnoteReference');
    expect(parts['word/footnotes.xml']).toContain('The footnote text.');
    expect(parts['word/numbering.xml']).toContain('w:abstractNum');
    expect(parts['docProps/core.xml']).toContain('Field Guide');
  });

  it('Markdown to PDF (the default target) goes through the same layout: text in order, A4 on request', async () => {
    const res = await convert(README, 'from=md&pageSize=a4', 'guide.md');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/pdf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const [text] = await pdfText(bytes);
    expect(text).toMatch(/Getting started.*emphasis.*strong.*first.*second.*nested.*Ada.*10/);
    const doc = await PDFDocument.load(bytes);
    const { width, height } = doc.getPage(0).getSize();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    expect(doc.getTitle()).toBe('Field Guide');
  });

  it('HTML to DOCX and PDF: headings, links, a table with spans; scripts and styles never reach the output', async () => {
    const html = `<!doctype html><html><head><title>Report</title><style>.warn{color:#c00}</style><script>alert("x")</script></head>
<body><h2 id="top">Summary</h2><p class="warn">Careful <a href="https://example.com/x">now</a> and <a href="javascript:alert(1)">never</a>.</p>
<table border="1"><tr><th colspan="2">Both</th></tr><tr><td>left</td><td>right</td></tr></table><!-- hidden comment --></body></html>`;
    const docx = await convert(html, 'from=html&to=docx', 'report.html');
    expect(docx.status).toBe(200);
    const parts = await docxParts(docx);
    const document = parts['word/document.xml'] ?? '';
    expect(document).toContain('<w:pStyle w:val="Heading2"/>');
    expect(document).toContain('<w:gridSpan w:val="2"/>');
    expect(document).not.toContain('BFBFBF');
    expect(document).toContain('C00');
    expect(document).not.toContain('alert');
    expect(document).not.toContain('hidden comment');
    expect(parts['word/_rels/document.xml.rels']).toContain('https://example.com/x');
    expect(parts['word/_rels/document.xml.rels']).not.toContain('javascript');

    const pdf = await convert(html, 'from=html&to=pdf', 'report.html');
    expect(pdf.status).toBe(200);
    const [text] = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toMatch(/Summary.*Careful now and never.*Both.*left.*right/);
  });

  it("keeps a list item's later paragraphs in the list without a second label", async () => {
    const html = '<ul><li><p>Bob Fossil</p><p>Oh I am so glad.</p></li><li>Second</li></ul>';
    const parts = await docxParts(await convert(html, 'from=html&to=docx', 'comments.html'));
    const document = parts['word/document.xml'] ?? '';
    const numIds = [...document.matchAll(/<w:numId w:val="(\d+)"\/>/g)].map((m) => m[1]);
    expect(numIds).toHaveLength(3);
    expect(numIds[0]).toBe(numIds[2]);
    expect(numIds[1]).not.toBe(numIds[0]);
    expect(parts['word/numbering.xml']).toContain(
      '<w:numFmt w:val="none"/><w:suff w:val="nothing"/><w:lvlText w:val=""/>',
    );
    const pdf = await convert(html, 'from=html&to=pdf', 'comments.html');
    const [text] = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text?.match(/•/g)).toHaveLength(2);
    expect(text).toMatch(/Bob Fossil.*Oh I am so glad\..*Second/);
  });

  it('fetches remote images through the guarded fetcher; one that fails leaves its alt text and a warning', async () => {
    network.use(
      http.get('https://images.example/ok.png', () =>
        HttpResponse.arrayBuffer(tinyPng(8, 4).slice().buffer, { headers: { 'Content-Type': 'image/png' } }),
      ),
      http.get('https://images.example/missing.png', () => new HttpResponse(null, { status: 404 })),
    );
    const md = `![A chart](https://images.example/ok.png)\n\n![Lost figure](https://images.example/missing.png)\n\n![Inline](data:image/png;base64,${toBase64(tinyPng(2, 2))})\n`;
    const res = await convert(md, 'from=md&to=docx', 'figures.md');
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('X-Quire-Warning-Count'))).toBe(1);
    expect(res.headers.get('X-Quire-Warnings')).toContain('missing.png');
    const parts = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(parts).filter((name) => name.startsWith('word/media/'))).toHaveLength(2);
    expect(strFromU8(parts['word/document.xml'] as Uint8Array)).toContain('[Lost figure]');
  });

  it('refuses an image URL that points inside the network, as a warning, not a failure', async () => {
    const res = await convert('![x](https://127.0.0.1/secret.png)\n', 'from=md&to=pdf', 'a.md');
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('X-Quire-Warning-Count'))).toBe(1);
  });

  it('hostile HTML gets a clear result: 10,000 nested levels, a 1 MB attribute, unclosed tags', async () => {
    const deep = `${'<div>'.repeat(10_000)}deep text${'</div>'.repeat(10_000)}`;
    const res = await convert(deep, 'from=html&to=pdf', 'deep.html');
    expect(res.status).toBe(200);
    expect((await pdfText(new Uint8Array(await res.arrayBuffer())))[0]).toContain('deep text');

    const nestedLists = `${'<ul><li>'.repeat(5_000)}bottom`;
    expect((await convert(nestedLists, 'from=html&to=docx', 'lists.html')).status).toBe(200);

    const attribute = `<p title="${'a'.repeat(1024 * 1024)}">after a big attribute</p><p><b>unclosed <i>tags<table><tr><td>cell`;
    const big = await convert(attribute, 'from=html&to=docx', 'big.html');
    expect(big.status).toBe(200);
    const document = (await docxParts(big))['word/document.xml'] ?? '';
    expect(document).toContain('after a big attribute');
    expect(document).toContain('cell');
    expect(document).not.toContain('aaaaaaaa');
  });

  it('shapes text in Indic and other syllable-based scripts (fontkit state machines)', async () => {
    const html = '<p>Hindi नमस्ते दुनिया, Bengali বাংলা ভাষা, Tamil தமிழ் மொழி, Khmer ភាសាខ្មែរ.</p>';
    const res = await convert(html, 'from=html&to=pdf', 'scripts.html');
    expect(res.status).toBe(200);
    expect((await pdfText(new Uint8Array(await res.arrayBuffer())))[0]).toContain('Hindi');
  });

  it('hostile Markdown: deep nesting and a huge line', async () => {
    const md = `${'> '.repeat(10_000)}quoted\n\n${'- '.repeat(5_000)}item\n\n${'x'.repeat(1024 * 1024)}\n`;
    const res = await convert(md, 'from=md&to=docx', 'deep.md');
    expect(res.status).toBe(200);
  });

  it('answers 400 for an unsupported pair, 415 for bytes that are not the source format, 413 over the markup limit', async () => {
    await expectError(await convert('# x', 'from=md&to=md', 'a.md'), 400, 'VALIDATION_ERROR');
    const pdf = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
    await expectError(await convert(pdf, 'from=html&to=docx', 'a.html'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    // Over the document limit (2 MiB in the tests; Markdown and HTML are held to at most 5 MiB).
    const huge = `<p>${'word '.repeat(500_000)}</p>`;
    const body = await expectError(await convert(huge, 'from=html&to=pdf', 'a.html'), 413, 'PAYLOAD_TOO_LARGE');
    expect(body.message).toContain('set by MAX_DOCUMENT_BYTES');
  });

  it('names the fixed 5 MiB markup limit, not MAX_DOCUMENT_BYTES, when that is the one passed', async () => {
    // A deployment allowing 8 MiB documents: the HTML is within it, but past the markup limit.
    const app = createApp();
    const form = new FormData();
    const html = `<p>${'word '.repeat(1_100_000)}</p>`;
    form.append('file', new File([html], 'a.html'));
    const request = new Request(
      'https://quire.test/v1/convert?from=html&to=pdf',
      withKey(await mintKey(), { method: 'POST', body: form }),
    );
    const res = await app.fetch(
      request,
      { ...env, MAX_DOCUMENT_BYTES: String(8 * 1024 * 1024) },
      createExecutionContext(),
    );
    const body = await expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(body.message).toContain(
      'The limit is 5 MiB (5,242,880 bytes), the fixed limit for Markdown and HTML sources',
    );
    expect(body.message).not.toContain('MAX_DOCUMENT_BYTES');
  });
});
