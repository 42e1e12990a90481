/**
 * Fonts a caller brings (front door of src/services/fonts): the `fonts` parts of a request, read
 * and checked, and the account's font library in the FONTS R2 bucket with its per-isolate cache.
 */
export { FONT_LIBRARY_TTL_MS, FontLibraryCache, fontLibrary, libraryObjectKey } from './font-library';
export { type FontUpload, fontPartLabel, readRequestFonts, requestFontLimits } from './request-fonts';
