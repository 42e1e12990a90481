import { strFromU8, unzipSync } from 'fflate';
import { HttpResponse, http } from 'msw';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { buildDocx, paragraph, tinyPng } from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';
import { network } from '../../setup/network';

/** POST /v1/convert with `query` and the form's other fields beside the file. */
async function convert(source: string | Uint8Array, name: string, query = '', fields: Record<string, string> = {}) {
  const bytes = typeof source === 'string' ? new TextEncoder().encode(source) : source;
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  return call(`/v1/convert?${query}`, withKey(await mintKey(), { method: 'POST', body: form }));
}

async function pageSizes(res: Response): Promise<number[][]> {
  expect(res.status).toBe(200);
  const doc = await PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
  return doc.getPages().map((page) => {
    const { width, height } = page.getSize();
    return [Math.round(width), Math.round(height)];
  });
}

async function docxParts(res: Response): Promise<Record<string, Uint8Array>> {
  expect(res.status).toBe(200);
  return unzipSync(new Uint8Array(await res.arrayBuffer()));
}

const documentXml = (parts: Record<string, Uint8Array>) => strFromU8(parts['word/document.xml'] as Uint8Array);
const warnings = (res: Response) => res.headers.get('X-Quire-Warnings') ?? '';
const HTML = '<p>Hello</p>';

/** Four pages, "Page one" to "Page four", by page breaks. */
const FOUR_PAGE_DOCX = buildDocx({
  styles: '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>',
  document: `<w:body>${['one', 'two', 'three', 'four']
    .map((word, i) => `${i > 0 ? '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' : ''}${paragraph(`Page ${word}`)}`)
    .join('')}</w:body>`,
});

/** Enough paragraphs for several Letter pages, each numbered. */
const LONG_HTML = Array.from({ length: 160 }, (_, i) => `<p>Paragraph number ${i + 1} of the long document.</p>`).join(
  '',
);

describe('POST /v1/convert print options: paper', () => {
  it('takes pageSize as a query parameter or a form field, any case; absent, letter', async () => {
    expect(await pageSizes(await convert(HTML, 'a.html', 'pageSize=A5'))).toEqual([[420, 595]]);
    expect(await pageSizes(await convert(HTML, 'a.html', '', { pageSize: 'legal' }))).toEqual([[612, 1008]]);
    expect(await pageSizes(await convert(HTML, 'a.html', 'pageSize=a3'))).toEqual([[842, 1191]]);
    expect(await pageSizes(await convert(HTML, 'a.html'))).toEqual([[612, 792]]);
  });

  it('takes a custom size in CSS absolute lengths, width first', async () => {
    expect(await pageSizes(await convert(HTML, 'a.html', 'pageSize=210mm%20x%20297mm'))).toEqual([[595, 842]]);
    expect(await pageSizes(await convert(HTML, 'a.html', '', { pageSize: '6in 9in' }))).toEqual([[432, 648]]);
    expect(await pageSizes(await convert(HTML, 'a.html', 'pageSize=800pxx600px'))).toEqual([[600, 450]]);
  });

  it('turns the paper to landscape (query or form, true/1): the MediaBox is wider than tall', async () => {
    expect(await pageSizes(await convert(HTML, 'a.html', 'pageSize=a4&landscape=true'))).toEqual([[842, 595]]);
    expect(await pageSizes(await convert('# Hi\n', 'a.md', '', { landscape: '1' }))).toEqual([[792, 612]]);
    expect(await pageSizes(await convert(HTML, 'a.html', 'landscape=0'))).toEqual([[612, 792]]);
  });

  it('takes margin as CSS shorthand, query or form: the DOCX section carries it in twips', async () => {
    const byQuery = documentXml(await docxParts(await convert(HTML, 'a.html', 'to=docx&margin=1in%202in')));
    expect(byQuery).toMatch(/<w:pgMar w:top="1440" w:right="2880" w:bottom="1440" w:left="2880"/);
    const byForm = documentXml(await docxParts(await convert(HTML, 'a.html', 'to=docx', { margin: '10mm' })));
    expect(byForm).toMatch(/<w:pgMar w:top="567" w:right="567" w:bottom="567" w:left="567"/);
  });

  it('keeps 1in margins for HTML to DOCX and Markdown when nothing gives any', async () => {
    expect(documentXml(await docxParts(await convert(HTML, 'a.html', 'to=docx')))).toMatch(
      /<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/,
    );
  });

  it('takes printBackground as query or form: to DOCX backgrounds print unless told not to', async () => {
    expect((await convert(HTML, 'a.html', 'printBackground=true')).status).toBe(200);
    const dark = '<body style="background: #222; color: #eee"><p style="background: #0c0">green</p></body>';
    // The body's background is the page colour (w:background, shown with displayBackgroundShape).
    const kept = await docxParts(await convert(dark, 'a.html', 'to=docx'));
    expect(documentXml(kept)).toMatch(/<w:document [^>]*><w:background w:color="222222"\/><w:body>/);
    expect(documentXml(kept)).toContain('w:fill="00CC00"');
    expect(strFromU8(kept['word/settings.xml'] as Uint8Array)).toContain('<w:displayBackgroundShape/>');
    const left = await docxParts(await convert(dark, 'a.html', 'to=docx', { printBackground: 'false' }));
    expect(documentXml(left)).not.toContain('w:background');
    expect(documentXml(left)).not.toContain('00CC00');
    expect(strFromU8(left['word/settings.xml'] as Uint8Array)).not.toContain('displayBackgroundShape');
  });
});

describe('POST /v1/convert print options: refused', () => {
  it.each([
    ['pageSize', 'b9', 'is not a page size'],
    ['pageSize', '600x800', 'has no unit'],
    ['pageSize', '0.5in x 11in', 'outside the sides'],
    ['margin', '-1in', 'negative'],
    ['margin', '1in 1in 1in 1in 1in', 'is not a margin'],
    ['margin', '1em', 'is not a length'],
    ['margin', '4in', 'margins must leave at least 1in'],
    ['landscape', 'yes', 'is not true, false, 1 or 0'],
    ['printBackground', 'maybe', 'is not true, false, 1 or 0'],
    ['pageRanges', '3-1', 'runs backwards'],
    ['pageRanges', '1,,2', 'is not a page range'],
    ['baseUrl', 'images/', 'is not an absolute URL'],
    ['baseUrl', 'ftp://example.com/', 'give an https URL'],
    ['baseUrl', 'http://example.com/', 'plain http:'],
  ])('%s=%j is 400 naming the field, as query and as form field', async (field, value, issue) => {
    for (const res of [
      await convert(HTML, 'a.html', `${field}=${encodeURIComponent(value)}`),
      await convert(HTML, 'a.html', '', { [field]: value }),
    ]) {
      const body = await expectError(res, 400, 'VALIDATION_ERROR');
      expect(body.details?.[0]?.field).toBe(field);
      expect(body.details?.[0]?.issue).toContain(issue);
    }
  });

  it('a margin too large for the caller’s landscape paper is refused; the same fits portrait', async () => {
    expect((await convert(HTML, 'a.html', 'pageSize=a5&margin=0%203in')).status).toBe(400);
    expect((await convert(HTML, 'a.html', 'pageSize=a5&margin=3.5in%200')).status).toBe(200);
    const body = await expectError(
      await convert(HTML, 'a.html', 'pageSize=a5&landscape=true&margin=3.5in%200'),
      400,
      'VALIDATION_ERROR',
    );
    expect(body.details?.[0]?.field).toBe('margin');
  });

  it('the same option given as query and form must agree: differing is 400 naming it, agreeing is fine', async () => {
    const body = await expectError(
      await convert(HTML, 'a.html', 'pageSize=a4', { pageSize: 'letter' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(body.details?.[0]).toMatchObject({ field: 'pageSize' });
    expect(body.message).toContain('query parameter');
    expect(await pageSizes(await convert(HTML, 'a.html', 'pageSize=a4', { pageSize: 'A4' }))).toEqual([[595, 842]]);
    expect((await convert(HTML, 'a.html', 'landscape=true', { landscape: '1' })).status).toBe(200);
  });

  it('page options with a DOCX source are 400 naming the option; pageRanges to DOCX is 400', async () => {
    for (const [field, value] of [
      ['pageSize', 'a4'],
      ['landscape', 'true'],
      ['margin', '1in'],
      ['printBackground', 'true'],
      ['baseUrl', 'https://example.com/'],
    ]) {
      const body = await expectError(
        await convert(FOUR_PAGE_DOCX, 'a.docx', `${field}=${value}`),
        400,
        'VALIDATION_ERROR',
      );
      expect(body.details?.[0]).toMatchObject({ field });
      expect(body.message).toContain('md and html sources');
    }
    const body = await expectError(await convert(HTML, 'a.html', 'to=docx&pageRanges=1'), 400, 'VALIDATION_ERROR');
    expect(body.details?.[0]).toMatchObject({ field: 'pageRanges' });
  });
});

describe('POST /v1/convert pageRanges', () => {
  it('writes only the pages chosen of a DOCX, in document order, each once (query or form)', async () => {
    for (const res of [
      await convert(FOUR_PAGE_DOCX, 'a.docx', 'pageRanges=4,2,2'),
      await convert(FOUR_PAGE_DOCX, 'a.docx', '', { pageRanges: '2, 4-4' }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('X-Quire-Pages')).toBe('2');
      const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
      expect(text).toEqual(['Page two', 'Page four']);
    }
  });

  it('an open range runs to the end; past the last page is a warning with the pages that exist', async () => {
    const open = await convert(FOUR_PAGE_DOCX, 'a.docx', 'pageRanges=3-');
    expect(await pdfText(new Uint8Array(await open.arrayBuffer()))).toEqual(['Page three', 'Page four']);
    expect(warnings(open)).toBe('');

    const beyond = await convert(FOUR_PAGE_DOCX, 'a.docx', 'pageRanges=1,3-9,12');
    expect(await pdfText(new Uint8Array(await beyond.arrayBuffer()))).toEqual(['Page one', 'Page three', 'Page four']);
    expect(warnings(beyond)).toContain('pageRanges 3-9, 12 reach past the last page (the document has 4 pages)');
  });

  it('choosing no page that exists is 400 naming pageRanges', async () => {
    const body = await expectError(await convert(FOUR_PAGE_DOCX, 'a.docx', 'pageRanges=5-'), 400, 'VALIDATION_ERROR');
    expect(body.details?.[0]).toEqual({ field: 'pageRanges', issue: 'chooses no page: the document has 4 pages' });
  });

  it('applies to HTML to PDF: the pages written are the ones the whole document has there', async () => {
    const all = await pdfText(new Uint8Array(await (await convert(LONG_HTML, 'long.html')).arrayBuffer()));
    expect(all.length).toBeGreaterThanOrEqual(3);
    const res = await convert(LONG_HTML, 'long.html', 'pageRanges=2-3');
    expect(res.headers.get('X-Quire-Pages')).toBe('2');
    expect(await pdfText(new Uint8Array(await res.arrayBuffer()))).toEqual(all.slice(1, 3));
  });
});

describe('POST /v1/convert URLs: baseUrl, <base href>, protocol-relative', () => {
  const png = tinyPng(6, 3);
  const serve = (url: string) =>
    http.get(url, () => HttpResponse.arrayBuffer(png.slice().buffer, { headers: { 'Content-Type': 'image/png' } }));
  const media = (parts: Record<string, Uint8Array>) => Object.keys(parts).filter((n) => n.startsWith('word/media/'));
  const rels = (parts: Record<string, Uint8Array>) => strFromU8(parts['word/_rels/document.xml.rels'] as Uint8Array);

  it('baseUrl resolves relative images and links (query or form), and Markdown gets the same', async () => {
    network.use(serve('https://site.example/docs/img/a.png'));
    const html = '<p><img src="img/a.png" alt="A"> <a href="../about.html#team">About</a></p>';
    for (const res of [
      await convert(html, 'a.html', 'to=docx&baseUrl=https://site.example/docs/index.html'),
      await convert(html, 'a.html', 'to=docx', { baseUrl: 'https://site.example/docs/' }),
      await convert('![A](img/a.png) [About](../about.html#team)\n', 'a.md', 'to=docx', {
        baseUrl: 'https://site.example/docs/',
      }),
    ]) {
      expect(res.headers.get('X-Quire-Warning-Count')).toBeNull();
      const parts = await docxParts(res);
      expect(media(parts)).toHaveLength(1);
      expect(rels(parts)).toContain('https://site.example/about.html#team');
    }
  });

  it('a <base href> in the document wins, itself resolved against baseUrl', async () => {
    network.use(serve('https://cdn.example/assets/b.png'), serve('https://site.example/docs/static/c.png'));
    const absolute = await convert(
      '<head><base href="https://cdn.example/assets/"></head><img src="b.png">',
      'a.html',
      'to=docx&baseUrl=https://site.example/docs/',
    );
    expect(media(await docxParts(absolute))).toHaveLength(1);
    const relative = await convert(
      '<base href="static/"><img src="c.png"><a href="d.html">d</a>',
      'a.html',
      'to=docx',
      {
        baseUrl: 'https://site.example/docs/',
      },
    );
    expect(relative.headers.get('X-Quire-Warning-Count')).toBeNull();
    const parts = await docxParts(relative);
    expect(media(parts)).toHaveLength(1);
    expect(rels(parts)).toContain('https://site.example/docs/static/d.html');
  });

  it('a protocol-relative URL without any base takes https:', async () => {
    network.use(serve('https://cdn.example/p.png'));
    const res = await convert('<img src="//cdn.example/p.png"><a href="//cdn.example/q">q</a>', 'a.html', 'to=docx');
    expect(warnings(res)).toBe('');
    const parts = await docxParts(res);
    expect(media(parts)).toHaveLength(1);
    expect(rels(parts)).toContain('https://cdn.example/q');
  });

  it('a relative image or link without a base is a warning asking for baseUrl', async () => {
    const res = await convert('<img src="img/a.png" alt="Fig"><a href="more.html">more</a>', 'a.html');
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Quire-Warning-Count')).toBe('2');
    expect(warnings(res)).toContain('a relative image URL cannot be fetched without a base URL; send baseUrl');
    expect(warnings(res)).toContain('a link has a relative URL (more.html)');
  });
});
