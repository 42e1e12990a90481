import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createFallbackFontCache, createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { collectFontNeeds } from '../../../src/engine/layout/font-requests';
import type { TextItem } from '../../../src/engine/layout/page-items';
import type { DocumentModel } from '../../../src/engine/model/document';
import { layoutDocument } from '../../../src/engine/pages/document-layout';
import { readDocx } from '../../../src/engine/read/ooxml/docx-reader';
import { writeDocx } from '../../../src/engine/write/docx/docx-writer';
import { DEFAULT_LIMITS } from '../../../src/limits';
import { read } from '../../engine/read/html/html-fixtures';
import { paragraphs, readParts } from '../../engine/read/ooxml/model-queries';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { buildDocx, paragraph } from '../../helpers/docx-fixture';

const STYLES = '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>';

/** A package of one paragraph per [text, rPr]. */
function docx(runs: [string, string][]) {
  return {
    styles: STYLES,
    document: `<w:body>${runs.map(([text, rPr]) => paragraph(text, { rPr })).join('')}</w:body>`,
  };
}

/** Lays the model out as the converter does: fonts for the characters it has, then pages. */
async function laidOut(model: DocumentModel) {
  const { requests, fallbackFaces, fallbackCharacters } = collectFontNeeds(model);
  const fonts = await loadFontSet(requests, {
    assets: env.ASSETS,
    embedded: [],
    cache: createFontCache(),
    fallbackCache: createFallbackFontCache(),
    fallbackFaces,
    fallbackCharacters,
  });
  const doc = layoutDocument(model, fonts);
  const items = doc.pages.flatMap((page) => page.items).filter((i): i is TextItem => i.kind === 'text');
  return { items, warnings: fonts.warnings };
}

/** The face that drew each character: [character, face key] for every character of the items. */
function facesByCharacter(items: readonly TextItem[]): Map<string, string> {
  const faces = new Map<string, string>();
  for (const item of items) for (const char of item.text) faces.set(char, item.font);
  return faces;
}

describe('CJK glyph fallback, character by character', () => {
  it('draws Simplified Chinese characters of a zh-TW run in Noto Sans SC, the rest in Noto Sans TC', async () => {
    // 国 and 中 are in both faces; 话, 们 and 说 are in Noto Sans SC only (Noto Sans TC, the run's
    // first choice by its w:lang/@w:eastAsia, has 20,745 characters against SC's 30,890).
    const model = readParts(docx([['中国人们说话', '<w:lang w:eastAsia="zh-TW"/>']]));
    const { items, warnings } = await laidOut(model);
    const faces = facesByCharacter(items);
    expect(faces.get('中')).toBe('NotoSansTC-Regular');
    expect(faces.get('国')).toBe('NotoSansTC-Regular');
    for (const char of '们说话') expect(faces.get(char), char).toBe('NotoSansSC-Regular');
    expect(warnings).toEqual([]);
    // The same text with no language: Simplified Chinese first, one face.
    const plain = await laidOut(readParts(docx([['中国人们说话', '']])));
    expect(new Set(facesByCharacter(plain.items).values())).toEqual(new Set(['NotoSansSC-Regular']));
  });

  it('draws a ja run in Noto Sans JP and a Hangul syllable in it in Noto Sans KR', async () => {
    const model = readParts(docx([['日本語のテキスト한글', '<w:b/><w:lang w:eastAsia="ja-JP"/>']]));
    const { items, warnings } = await laidOut(model);
    const faces = facesByCharacter(items);
    for (const char of '日本語のテキスト') expect(faces.get(char), char).toBe('NotoSansJP-Bold');
    for (const char of '한글') expect(faces.get(char), char).toBe('NotoSansKR-Bold');
    expect(warnings).toEqual([]);
  });

  it('lets the East Asian font name the first face, the language only when the font does not say', async () => {
    // MS Mincho is Japanese: Word draws a zh-CN run in it with Japanese forms.
    const model = readParts(docx([['中国', '<w:rFonts w:eastAsia="MS Mincho"/><w:lang w:eastAsia="zh-CN"/>']]));
    expect(new Set(facesByCharacter((await laidOut(model)).items).values())).toEqual(new Set(['NotoSansJP-Regular']));
  });

  it('takes the first face from an HTML lang attribute, inherited from the root element', async () => {
    const model = await read('<html lang="ja"><body><p>日本語の<span lang="zh-TW">中们</span></p></body></html>');
    const faces = facesByCharacter((await laidOut(model)).items);
    for (const char of '日本語の') expect(faces.get(char), char).toBe('NotoSansJP-Regular');
    expect(faces.get('中')).toBe('NotoSansTC-Regular');
    expect(faces.get('们')).toBe('NotoSansSC-Regular');
    // The DOCX writer keeps the language as w:lang/@w:eastAsia, which reads back.
    const back = readDocx(await writeDocx(model), { revisions: 'markup', limits: DEFAULT_LIMITS });
    const runs = paragraphs(back).flatMap((p) => p.inlines);
    const languages = runs.map((inline) => ('props' in inline ? inline.props.languageEastAsia : undefined));
    expect(languages).toContain('ja');
    expect(languages).toContain('zh-TW');
  });

  it('draws a character no face has as .notdef and names it, once, in a warning', async () => {
    // Ethiopic and Egyptian hieroglyphs: in none of the bundled faces.
    const model = readParts(
      docx([
        ['ሀ ሁ text', ''],
        ['again ሀ and 𓀀', '<w:b/>'],
      ]),
    );
    const { items, warnings } = await laidOut(model);
    expect(items.map((item) => item.text).join(' ')).toContain('ሀ');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('3 characters');
    for (const name of ['ሀ (U+1200)', 'ሁ (U+1201)', '𓀀 (U+13000)']) expect(warnings[0]).toContain(name);
  });

  it('says so in X-Quire-Warnings', async () => {
    const form = new FormData();
    const bytes = buildDocx(docx([['Amharic ሰላም', '']]));
    form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], 'ethiopic.docx'));
    const res = await call('/v1/convert?from=docx&to=pdf', withKey(await mintKey(), { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Quire-Warnings')).toContain('U+1230');
    await res.arrayBuffer();
  });
});
