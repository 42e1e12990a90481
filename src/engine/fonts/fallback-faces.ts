/**
 * The Noto faces of glyph fallback (docs/engine.md "Glyph fallback"): scripts the bundled Latin faces
 * lack. They are static assets under fonts/fallback/, copied from their npm packages by
 * scripts/fallback-fonts.mjs (too large for git: a CJK face is 5–10 MB); a file missing there
 * leaves its characters as .notdef, with a warning, never an error.
 */

export type FallbackScript = 'arabic' | 'hebrew' | 'sc' | 'tc' | 'jp' | 'kr' | 'thai' | 'devanagari' | 'emoji' | 'math';

/** A fallback face a document needs: its script and weight. */
export interface FallbackFaceRequest {
  script: FallbackScript;
  bold: boolean;
}

const STEMS: Record<FallbackScript, string> = {
  arabic: 'NotoSansArabic',
  hebrew: 'NotoSansHebrew',
  sc: 'NotoSansSC',
  tc: 'NotoSansTC',
  jp: 'NotoSansJP',
  kr: 'NotoSansKR',
  thai: 'NotoSansThai',
  devanagari: 'NotoSansDevanagari',
  emoji: 'NotoEmoji',
  math: 'NotoSansMath',
};

/** Human names for warnings. */
const SCRIPT_NAMES: Record<FallbackScript, string> = {
  arabic: 'Arabic',
  hebrew: 'Hebrew',
  sc: 'Simplified Chinese',
  tc: 'Traditional Chinese',
  jp: 'Japanese',
  kr: 'Korean',
  thai: 'Thai',
  devanagari: 'Devanagari',
  emoji: 'emoji and symbol',
  math: 'mathematical symbol',
};

export function scriptName(script: FallbackScript): string {
  return SCRIPT_NAMES[script];
}

/**
 * "NotoSansSC-Bold.ttf": Noto's families here have Regular and Bold only (italic is drawn upright);
 * Noto Sans Math has Regular only, which bold text uses too.
 */
export function fallbackFileName(script: FallbackScript, bold: boolean): string {
  return `${STEMS[script]}-${bold && script !== 'math' ? 'Bold' : 'Regular'}.ttf`;
}

/** The CJK faces, 5–10 MB each, which the fallback cache keeps apart (FALLBACK_FONT_CACHE_CAPACITY). */
export function isLargeFallback(script: FallbackScript): boolean {
  return script === 'sc' || script === 'tc' || script === 'jp' || script === 'kr';
}

export function fallbackFontUrlPath(fileName: string): string {
  return `fallback/${fileName}`;
}

/** East Asian variants, for the ideographs and punctuation the four CJK faces share. */
export type EastAsianVariant = 'sc' | 'tc' | 'jp' | 'kr';

/** Chinese font names in Latin letters (those in Chinese characters are recognised by those). */
const CHINESE_LATIN_NAMES =
  /^(n?simsun|simhei|simkai|simfang|kaiti|fangsong|microsoft yahei|dengxian|p?mingliu|microsoft jhenghei|dfkai-sb|st(song|kaiti|fangsong|heiti|xihei|zhongsong|xinwei|xingkai|liti|hupo|caiyun))/;
const HAN = /[\u3400-\u9fff]/;

/**
 * Which CJK face suits a run: its East Asian font's (w:rFonts/@w:eastAsia, theme fonts already
 * resolved for the w:lang/@w:eastAsia script) when the name is one Word's East Asian defaults
 * make known, else its East Asian language's (w:lang/@w:eastAsia, ECMA-376 Part 1 §17.3.2.20;
 * an HTML lang attribute), else Simplified Chinese, the variant most documents in the wild use.
 * The font comes first: it is what Word draws with (MS Mincho draws a zh-CN run's ideographs in
 * Japanese forms). This is the first choice only: a character that face lacks goes on to the
 * other faces that have it (fallbackCandidates).
 */
export function eastAsianVariant(fontName: string | undefined, language?: string): EastAsianVariant {
  return (fontName && fontNameVariant(fontName)) || languageVariant(language) || 'sc';
}

/** The variant a font name stands for, or undefined for a name that says none. */
function fontNameVariant(fontName: string): EastAsianVariant | undefined {
  const name = fontName.toLowerCase();
  // Korean and Traditional Chinese first: "Malgun Gothic" is Korean, not a Japanese gothic.
  if (/batang|gulim|dotum|gungsuh|malgun|바탕|굴림|돋움|맑은|kr$/.test(name)) return 'kr';
  if (/mingliu|jhenghei|新細明體|細明體|微軟正黑|dfkai|標楷體|tc$|hk$/.test(name)) return 'tc';
  if (/mincho|gothic|meiryo|yu |游|ｍｓ|明朝|ゴシック|hiragino|osaka|jp$/.test(name)) return 'jp';
  if (HAN.test(fontName) || CHINESE_LATIN_NAMES.test(name) || /\bsc$/.test(name)) return 'sc';
  return undefined;
}

/**
 * The variant of a BCP 47 language tag (w:lang/@w:eastAsia, HTML lang): ja, ko, and Chinese by
 * script subtag or region (Hant, TW, HK, MO: Traditional); undefined for any other language.
 */
export function languageVariant(language: string | undefined): EastAsianVariant | undefined {
  if (!language) return undefined;
  const tag = language.trim().toLowerCase().replace(/_/g, '-');
  const primary = tag.split('-', 1)[0];
  if (primary === 'ja') return 'jp';
  if (primary === 'ko') return 'kr';
  if (primary !== 'zh') return undefined;
  if (/-hant\b|-(tw|hk|mo)\b/.test(tag)) return 'tc';
  return 'sc';
}

/**
 * The curly quotation marks ‘ ’ “ ”: General Punctuation, whose rFonts slot is the hAnsi font, or
 * the East Asian font when the run's w:hint is eastAsia ([MS-OI29500] §2.1.88 on §17.3.2.26).
 */
export function isAmbiguousQuote(cp: number): boolean {
  return cp === 0x2018 || cp === 0x2019 || cp === 0x201c || cp === 0x201d;
}

/**
 * The CJK variant of a Chinese font (SimSun, 宋体, 华文楷体, PMingLiU …), undefined for any other
 * font. Chinese fonts draw the curly quotation marks full-width, the mark in the corner of an
 * ideograph's cell: GB 2312 and Big5 code them as full-width characters.
 */
export function chineseFontVariant(fontName: string | undefined): 'sc' | 'tc' | undefined {
  if (!fontName) return undefined;
  const variant = eastAsianVariant(fontName);
  if (variant !== 'sc' && variant !== 'tc') return undefined;
  return HAN.test(fontName) || CHINESE_LATIN_NAMES.test(fontName.toLowerCase()) ? variant : undefined;
}

/** Script class of a code point for font choice (Word's w:hint/rFonts slots, §17.3.2.26). */
export type ScriptClass = 'latin' | 'eastAsia' | 'complex';

/**
 * Which rFonts slot Word uses for a character: East Asian for CJK ideographs, kana, Hangul and
 * their punctuation and fullwidth forms; complex script for right-to-left and Indic/Thai scripts;
 * the ASCII/hAnsi face for everything else.
 */
export function scriptClassOf(cp: number): ScriptClass {
  if (cp < 0x0590) return 'latin';
  if (cp <= 0x08ff) return 'complex'; // Hebrew, Arabic, Syriac, Thaana, NKo…
  if (cp >= 0x0900 && cp <= 0x0dff) return 'complex'; // Indic
  if (cp >= 0x0e00 && cp <= 0x0eff) return 'complex'; // Thai, Lao
  if (cp >= 0x1100 && cp <= 0x11ff) return 'eastAsia'; // Hangul jamo
  if (cp >= 0x2e80 && cp <= 0x9fff) return 'eastAsia'; // CJK radicals … unified ideographs
  if (cp >= 0xa960 && cp <= 0xa97f) return 'eastAsia';
  if (cp >= 0xac00 && cp <= 0xd7ff) return 'eastAsia'; // Hangul syllables
  if (cp >= 0xf900 && cp <= 0xfaff) return 'eastAsia';
  if (cp >= 0xfb1d && cp <= 0xfdff) return 'complex'; // Hebrew and Arabic presentation forms
  if (cp >= 0xfe30 && cp <= 0xfe4f) return 'eastAsia';
  if (cp >= 0xfe70 && cp <= 0xfeff) return 'complex';
  if (cp >= 0xff00 && cp <= 0xffef) return 'eastAsia'; // fullwidth and halfwidth forms
  if (cp >= 0x20000 && cp <= 0x3ffff) return 'eastAsia';
  return 'latin';
}

/**
 * The Noto face that draws a code point, or undefined when none of them does (or a bundled face
 * is expected to). `variant` picks among the CJK faces for ideographs and shared punctuation;
 * kana prefer Japanese and Hangul needs Korean whatever the run says.
 */
export function fallbackScriptOf(cp: number, variant: EastAsianVariant): FallbackScript | undefined {
  if (cp < 0x0590) return undefined;
  if (cp <= 0x05ff || (cp >= 0xfb1d && cp <= 0xfb4f)) return 'hebrew';
  if (cp <= 0x06ff || (cp >= 0x0750 && cp <= 0x077f) || (cp >= 0x08a0 && cp <= 0x08ff)) return 'arabic';
  if ((cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff)) return 'arabic';
  if (cp >= 0x0900 && cp <= 0x097f) return 'devanagari';
  if (cp >= 0xa8e0 && cp <= 0xa8ff) return 'devanagari';
  if (cp >= 0x0e00 && cp <= 0x0e7f) return 'thai';
  if ((cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0xac00 && cp <= 0xd7af)) return 'kr';
  if (isEmojiOrSymbol(cp)) return 'emoji';
  if (isMathSymbol(cp)) return 'math';
  if (cp >= 0x3040 && cp <= 0x30ff) return variant === 'sc' || variant === 'tc' ? variant : 'jp';
  if (
    (cp >= 0x2460 && cp <= 0x24ff) || // enclosed alphanumerics (①), drawn by CJK faces
    (cp >= 0x2e80 && cp <= 0x9fff) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xffef) ||
    (cp >= 0x20000 && cp <= 0x3ffff)
  )
    return variant;
  return undefined;
}

/** The faces other than the CJK ones, smallest first-choice scripts: 25 kB to 1 MB each. */
const SMALL_FACES: readonly FallbackScript[] = ['math', 'emoji', 'arabic', 'hebrew', 'devanagari', 'thai'];

/**
 * The CJK faces in the order text of a variant tries them: its own, then the nearest forms. Korean
 * hanja and Japanese kyūjitai are traditional forms, Japanese shinjitai closer to Traditional than
 * to Simplified Chinese. The four faces share most ideographs but not all: Noto Sans TC (20,745
 * characters) lacks about 11,900 that Noto Sans SC (30,890) has, such as 话 and 们.
 */
const CJK_ORDER: Record<EastAsianVariant, readonly EastAsianVariant[]> = {
  sc: ['sc', 'tc', 'jp', 'kr'],
  tc: ['tc', 'sc', 'jp', 'kr'],
  jp: ['jp', 'tc', 'sc', 'kr'],
  kr: ['kr', 'tc', 'jp', 'sc'],
};

const candidateLists = new Map<string, readonly FallbackScript[]>();

/**
 * Every Noto face, in the order glyph fallback tries them for a character (docs/engine.md "Glyph
 * fallback", a character at a time): the face of its script first (fallbackScriptOf), then the
 * other CJK faces in the variant's order for a CJK character, else the small faces; a character
 * of no script tries the small faces first (loading one of them costs far less than a CJK face).
 */
export function fallbackCandidates(cp: number, variant: EastAsianVariant): readonly FallbackScript[] {
  const first = fallbackScriptOf(cp, variant);
  const key = `${first ?? ''}|${variant}`;
  let list = candidateLists.get(key);
  if (!list) {
    const cjkFirst = first !== undefined && isLargeFallback(first);
    const ordered: FallbackScript[] = first === undefined ? [] : [first];
    const groups = cjkFirst ? [CJK_ORDER[variant], SMALL_FACES] : [SMALL_FACES, CJK_ORDER[variant]];
    for (const group of groups) for (const script of group) if (!ordered.includes(script)) ordered.push(script);
    list = ordered;
    candidateLists.set(key, list);
  }
  return list;
}

/**
 * Emoji and pictographic symbols, which Noto Emoji (monochrome, glyf outlines) draws when neither
 * the run's face nor a bundled one has them: miscellaneous technical (⌚ ⏰), miscellaneous symbols
 * and dingbats (☀ ✔ ❤), arrows and shapes (⬆ ⭐), the emoji presentation selector and the
 * supplementary-plane emoji blocks (🐱 🙂 🀄).
 */
function isEmojiOrSymbol(cp: number): boolean {
  return (
    (cp >= 0x2300 && cp <= 0x23ff) ||
    (cp >= 0x2600 && cp <= 0x27bf) ||
    (cp >= 0x2b00 && cp <= 0x2bff) ||
    cp === 0xfe0f ||
    (cp >= 0x1f000 && cp <= 0x1faff)
  );
}

/**
 * Arrows and mathematical operators the Latin faces mostly lack (∇ ⋯ ⋅ ⟨ ⨯), and the mathematical
 * alphanumerics (𝑥 𝐁): equations (Office Math, MathML) are full of them. Noto Sans Math draws them.
 */
function isMathSymbol(cp: number): boolean {
  return (
    (cp >= 0x2190 && cp <= 0x22ff) ||
    (cp >= 0x27c0 && cp <= 0x27ef) ||
    (cp >= 0x27f0 && cp <= 0x27ff) ||
    (cp >= 0x2900 && cp <= 0x2aff) ||
    (cp >= 0x1d400 && cp <= 0x1d7ff)
  );
}
