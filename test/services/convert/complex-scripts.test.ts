import { describe, expect, it } from 'vitest';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { buildDocx, paragraph } from '../../helpers/docx-fixture';
import { pdfText } from '../../helpers/pdf-text';

async function convert(bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], 'scripts.docx'));
  return call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
}

/** A right-to-left word as the content stream shows it: glyphs in visual order, one per letter here. */
const visual = (word: string) => [...word].reverse().join('');

describe('complex scripts in docx → pdf', () => {
  it('draws Latin, Arabic, Hebrew and Chinese in one paragraph, each extracting as its words', async () => {
    const docx = buildDocx({
      styles: '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>',
      document: `<w:body>${paragraph('Quire مرحبا שלום 中文排版 done')}${paragraph('تين بيت نبت', {
        pPr: '<w:bidi/>',
        rPr: '<w:rtl/>',
      })}</w:body>`,
    });
    const res = await convert(docx);
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Quire-Warnings')).toBeNull();
    const [shown = ''] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    // The dots Noto Sans Arabic draws as glyphs of their own carry no text (their letter's base
    // glyph maps to the whole letter): the test reader shows them as U+FFFD, pdftotext skips them.
    const text = shown.replaceAll('\uFFFD', '');
    expect(text).toContain('Quire');
    expect(text).toContain('done');
    expect(text).toContain('中文排版');
    expect(text).toContain(visual('שלום'));
    expect(text).toContain(visual('مرحبا'));
    // Noto Sans Arabic draws ت ب ن ي from one dotless base glyph plus dots: each letter still
    // maps back to itself (one CID per glyph and text).
    for (const word of ['تين', 'بيت', 'نبت']) expect(text).toContain(visual(word));
  });

  it('keeps a ZWNJ inside a Persian word: shaped with, drawn in the face of its letters, extracted', async () => {
    // The run's own faces (Times New Roman → Liberation Serif) lack the letters, which go to the
    // Arabic fallback face; the ZWNJ, which every face "has", must go with them.
    const docx = buildDocx({
      styles: '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>',
      document: `<w:body>${paragraph('می\u200cشود', {
        pPr: '<w:bidi/>',
        rPr: '<w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:cs="Times New Roman"/><w:rtl/>',
      })}</w:body>`,
    });
    const res = await convert(docx);
    expect(res.status).toBe(200);
    const [shown = ''] = await pdfText(new Uint8Array(await res.arrayBuffer()));
    // One word, in visual order, with the ZWNJ between ش and ی.
    expect(shown.replaceAll('\uFFFD', '')).toBe(visual('می\u200cشود'));
  });

  it('draws a mark on its letter from the pen, in one string: each reads right after its letter', async () => {
    // Marks moved by TJ/Ts into their letter's box read before it, with a space before them
    // (pdftotext gave "ا ّولین" for اوّلین): a copy shifted in the font is drawn at the pen.
    const words = ['اوّلین', 'إِنَّ', 'ٱلَّذِينَ', 'בְּרֵאשִׁית'];
    const docx = buildDocx({
      styles: '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>',
      document: `<w:body>${paragraph(words.join(' '), { pPr: '<w:bidi/>', rPr: '<w:rtl/>' })}</w:body>`,
    });
    const res = await convert(docx);
    expect(res.status).toBe(200);
    const pdf = new Uint8Array(await res.arrayBuffer());
    const [shown = ''] = await pdfText(pdf);
    const text = shown.replaceAll('\uFFFD', '');
    for (const word of words) expect(text).toContain(visual(word));
    // No operator moves a glyph inside the line: it is shown as one string.
    const content = new TextDecoder('latin1').decode(pdf);
    expect(content).not.toMatch(/\d Ts\n/);
  });
});
