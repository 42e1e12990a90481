/**
 * Parsed bundled faces kept per isolate. Create one with createFontCache at module scope of the
 * worker entry (or per test) and pass it to loadFontSet: the cache is explicit, and bounded.
 * Entries are promises so that concurrent conversions share one fetch and parse of a face.
 */
import { BoundedCache } from './bounded-cache';
import type { FontkitFace } from './fontkit-face';

/**
 * 28 faces: every bundled file (20, 7.2 MB of font bytes, 0.1–0.8 MB each) and the small Noto
 * fallback faces (Arabic, Hebrew, Thai and Devanagari, Regular and Bold: 8 files, 1 MB), so that
 * no document's faces push another's out, with the words each has measured and shaped.
 */
export const DEFAULT_FONT_CACHE_CAPACITY = 28;

/**
 * The CJK Noto fallback faces (fallback-faces.ts isLargeFallback) kept per isolate: one is 5–10 MB
 * of bytes plus fontkit's tables, so at most four stay parsed (about 40 MB at worst, with room
 * left in the isolate's 128 MB for the document). A conversion holds the faces it loaded until it
 * ends.
 */
export const FALLBACK_FONT_CACHE_CAPACITY = 4;

/** Bundled file name → its parsed face (each face keeps its own bounded width cache). */
export type FontCache = BoundedCache<string, Promise<FontkitFace>>;

export function createFontCache(capacity = DEFAULT_FONT_CACHE_CAPACITY): FontCache {
  return new BoundedCache(capacity);
}
