import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  eastAsianVariant,
  type FallbackScript,
  fallbackScriptOf,
  languageVariant,
  scriptClassOf,
} from '../../../src/engine/fonts/fallback-faces';
import {
  createFallbackFontCache,
  createFontCache,
  FALLBACK_FONT_CACHE_BYTES,
} from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { request } from './helpers';

const cp = (char: string) => char.codePointAt(0) as number;

describe('fallback faces', () => {
  it('name the Noto face of each script, and the rFonts slot Word uses', () => {
    expect(fallbackScriptOf(cp('م'), 'sc')).toBe('arabic');
    expect(fallbackScriptOf(cp('ﻻ'), 'sc')).toBe('arabic'); // presentation form
    expect(fallbackScriptOf(cp('ש'), 'sc')).toBe('hebrew');
    expect(fallbackScriptOf(cp('中'), 'sc')).toBe('sc');
    expect(fallbackScriptOf(cp('中'), 'jp')).toBe('jp');
    expect(fallbackScriptOf(cp('の'), 'sc')).toBe('sc');
    expect(fallbackScriptOf(cp('の'), 'kr')).toBe('jp');
    expect(fallbackScriptOf(cp('한'), 'sc')).toBe('kr');
    expect(fallbackScriptOf(cp('ก'), 'sc')).toBe('thai');
    expect(fallbackScriptOf(cp('क'), 'sc')).toBe('devanagari');
    expect(fallbackScriptOf(cp('A'), 'sc')).toBeUndefined();
    expect(scriptClassOf(cp('A'))).toBe('latin');
    expect(scriptClassOf(cp('م'))).toBe('complex');
    expect(scriptClassOf(cp('中'))).toBe('eastAsia');
    expect(scriptClassOf(cp('，'))).toBe('eastAsia');
  });

  it('pick the CJK variant from the East Asian font name', () => {
    expect(eastAsianVariant(undefined)).toBe('sc');
    expect(eastAsianVariant('SimSun')).toBe('sc');
    expect(eastAsianVariant('ＭＳ 明朝')).toBe('jp');
    expect(eastAsianVariant('MS Mincho')).toBe('jp');
    expect(eastAsianVariant('Malgun Gothic')).toBe('kr');
    expect(eastAsianVariant('PMingLiU')).toBe('tc');
  });

  it('pick the CJK variant from the East Asian language when the font name does not say (§17.3.2.20)', () => {
    expect(languageVariant('zh-TW')).toBe('tc');
    expect(languageVariant('zh-Hant-HK')).toBe('tc');
    expect(languageVariant('zh_HK')).toBe('tc');
    expect(languageVariant('zh-CN')).toBe('sc');
    expect(languageVariant('zh')).toBe('sc');
    expect(languageVariant('ja-JP')).toBe('jp');
    expect(languageVariant('ko')).toBe('kr');
    expect(languageVariant('en-US')).toBeUndefined();
    expect(eastAsianVariant(undefined, 'ja-JP')).toBe('jp');
    expect(eastAsianVariant('Arial Unicode MS', 'zh-TW')).toBe('tc');
    // A font that says which, says it: Word draws with it.
    expect(eastAsianVariant('MS Mincho', 'zh-CN')).toBe('jp');
    expect(eastAsianVariant('Noto Sans TC', 'ja')).toBe('tc');
    expect(eastAsianVariant('SimSun', 'ko-KR')).toBe('sc');
  });

  it('draw Arabic, Hebrew and CJK characters the bundled faces lack', async () => {
    const fonts = await loadFontSet([request('Calibri')], {
      assets: env.ASSETS,
      embedded: [],
      cache: createFontCache(),
      fallbackFaces: [
        { script: 'arabic', bold: false },
        { script: 'sc', bold: false },
      ],
    });
    expect(fonts.warnings).toEqual([]);
    expect(fonts.fallback(cp('م'), request('Calibri'))?.key).toBe('NotoSansArabic-Regular');
    expect(fonts.fallback(cp('中'), request('Calibri'))?.key).toBe('NotoSansSC-Regular');
    // Hebrew is in Liberation, which comes before the Noto faces.
    expect(fonts.fallback(cp('ש'), request('Calibri'))?.key).toMatch(/^Liberation/);
    // Bold asked, only Regular loaded: the Regular face serves.
    expect(fonts.fallback(cp('م'), request('Calibri', true))?.key).toBe('NotoSansArabic-Regular');
  });

  it('degrade a face missing from the assets to .notdef and a warning, not an error', async () => {
    const withoutFallbacks = {
      fetch: (input: RequestInfo | URL, init?: RequestInit) =>
        String(input instanceof Request ? input.url : input).includes('/fallback/')
          ? Promise.resolve(new Response('missing', { status: 404 }))
          : env.ASSETS.fetch(input, init),
    } as Fetcher;
    const fonts = await loadFontSet([request('Calibri')], {
      assets: withoutFallbacks,
      embedded: [],
      cache: createFontCache(),
      fallbackFaces: [{ script: 'arabic', bold: false }],
    });
    expect(fonts.warnings).toHaveLength(1);
    expect(fonts.warnings[0]).toContain('Arabic');
    expect(fonts.fallback(cp('م'), request('Calibri'))).toBeUndefined();
    expect(fonts.face(request('Calibri')).key).toBe('Carlito-Regular');
  });

  it('keep the parsed CJK faces per isolate within FALLBACK_FONT_CACHE_BYTES, and the small ones with the bundled', async () => {
    const cache = createFontCache();
    const fallbackCache = createFallbackFontCache();
    const load = (script: FallbackScript, bold = false) =>
      loadFontSet([request('Calibri')], {
        assets: env.ASSETS,
        embedded: [],
        cache,
        fallbackCache,
        fallbackFaces: [{ script, bold }],
      });
    for (const script of ['arabic', 'hebrew', 'kr', 'thai', 'sc', 'devanagari', 'jp', 'tc', 'kr'] as const) {
      await load(script);
      expect(fallbackCache.weight).toBeLessThanOrEqual(FALLBACK_FONT_CACHE_BYTES);
    }
    // The four Regular faces are 29.3 MB, within the 32 MiB.
    expect(fallbackCache.keys()).toEqual([
      'fallback/NotoSansKR-Regular.ttf',
      'fallback/NotoSansSC-Regular.ttf',
      'fallback/NotoSansJP-Regular.ttf',
      'fallback/NotoSansTC-Regular.ttf',
    ]);
    // Noto Sans SC Bold (10.5 MB) pushes out the least recently used until they fit: Korean, and
    // Simplified Chinese Regular (Korean alone would leave 33.7 MB).
    await load('sc', true);
    expect(fallbackCache.weight).toBeLessThanOrEqual(FALLBACK_FONT_CACHE_BYTES);
    expect(fallbackCache.keys()).toEqual([
      'fallback/NotoSansJP-Regular.ttf',
      'fallback/NotoSansTC-Regular.ttf',
      'fallback/NotoSansSC-Bold.ttf',
    ]);
    // Arabic, Hebrew, Thai and Devanagari stay parsed beside the bundled faces.
    expect(cache.keys().filter((key) => key.includes('fallback'))).toEqual([
      'fallback/NotoSansArabic-Regular.ttf',
      'fallback/NotoSansHebrew-Regular.ttf',
      'fallback/NotoSansThai-Regular.ttf',
      'fallback/NotoSansDevanagari-Regular.ttf',
    ]);
  });
});
