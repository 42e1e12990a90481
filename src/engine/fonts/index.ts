/**
 * Faces, measuring and shaping (front door of src/engine/fonts): the bundled font set, the per-isolate
 * face caches bounded in bytes, per-character fallback faces, fontkit shaping, and the fonts a
 * caller brings (read, checked and matched by their name table).
 */

export type { FontStyle } from './bundled-fonts';
export {
  callerFamilyKey,
  type FontFileKind,
  type FontFileReading,
  type FontLibrary,
  isOwnFaceKey,
  type LibraryLookup,
  libraryFaceKey,
  readFontFile,
  requestFaceKey,
  type SuppliedFont,
  styleClaim,
} from './caller-fonts';
export { CODE_UNIT_CLASS, isSurelyComposed, PLAIN } from './code-unit-class';
export { CodePointSet, type FallbackCharacters } from './fallback-coverage';
export {
  chineseFontVariant,
  type EastAsianVariant,
  eastAsianVariant,
  type FallbackFaceRequest,
  fallbackScriptOf,
  isAmbiguousQuote,
  scriptClassOf,
} from './fallback-faces';
export { createFallbackFontCache, createFontCache, type FontCache } from './font-cache';
export type { FontFace, FontRequest, FontSet } from './font-face';
export { loadFontSet } from './font-set';
export { FontkitFace, parseTrueTypeFace, type ShapedRun } from './fontkit-face';
export { isDefaultIgnorable, UNSHAPED_TEXT } from './shaping';
export { standInLineMetrics } from './word-line-metrics';
