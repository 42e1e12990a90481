/**
 * Parsed bundled faces kept per isolate. Create one with createFontCache at module scope of the
 * worker entry (or per test) and pass it to loadFontSet: the cache is explicit, and bounded.
 * Entries are promises so that concurrent conversions share one fetch and parse of a face.
 */
import { BoundedCache } from '../../kit';
import type { FontkitFace } from './fontkit-face';

/**
 * 64 faces: the five metric-compatible families (20 files, 7.2 MB of font bytes, 0.1–0.8 MB each),
 * the small Noto fallback faces (Arabic, Hebrew, Thai and Devanagari, Regular and Bold: 8 files,
 * 1 MB) and three dozen of the copied text families' faces (assets/fonts/families, 0.1–1.1 MB
 * each), so that no document's faces push another's out, with the words each has measured and
 * shaped. The 221 documents of the wide corpus use 44 bundled faces (14.4 MiB) besides the
 * fallback ones: with room for 48, a dozen were parsed again on every pass over them. The bytes
 * bound the cache before the count does (DEFAULT_FONT_CACHE_BYTES): the copied families hold 80
 * files.
 */
export const DEFAULT_FONT_CACHE_CAPACITY = 64;

/**
 * 24 MiB of font files: parsed, about 1.3 times that, which with the CJK cache's 32 MiB leaves
 * more than half of the isolate's 128 MB to conversions.
 */
export const DEFAULT_FONT_CACHE_BYTES = 24 * 1024 * 1024;

/**
 * The CJK Noto fallback faces (fallback-faces.ts isLargeFallback) kept per isolate, bounded by
 * their bytes: one is 5.5–10.5 MB, and parsed it holds about 1.3 times that (fontkit's tables), so
 * 32 MiB of them (three faces, or SC Regular and Bold and one more) leave room in the isolate's
 * 128 MB for a conversion's own. A conversion holds the faces it loaded until it ends (at most
 * FALLBACK_FONT_BYTES_PER_CONVERSION), whether or not the cache still does.
 */
export const FALLBACK_FONT_CACHE_BYTES = 32 * 1024 * 1024;

/** Entries of the fallback cache: the eight CJK files; the bytes bound it before this does. */
const FALLBACK_FONT_CACHE_CAPACITY = 8;

/**
 * Bytes of Noto fallback faces one conversion may load: the CJK faces its characters need, per
 * character (fallback-coverage.ts planFallbackFiles). Both weights of Simplified and Traditional
 * Chinese are 35 MB; all four CJK faces in both weights would be 58 MB, more than an isolate can
 * spare. Characters only a face past this budget has print as .notdef, and a warning names them.
 */
export const FALLBACK_FONT_BYTES_PER_CONVERSION = 40 * 1024 * 1024;

/** Bundled file name → its parsed face (each face keeps its own bounded width cache). */
export type FontCache = BoundedCache<string, Promise<FontkitFace>>;

export function createFontCache(
  capacity = DEFAULT_FONT_CACHE_CAPACITY,
  maxBytes = DEFAULT_FONT_CACHE_BYTES,
): FontCache {
  return new BoundedCache(capacity, maxBytes);
}

/** The isolate's cache of CJK fallback faces, bounded by FALLBACK_FONT_CACHE_BYTES. */
export function createFallbackFontCache(maxBytes = FALLBACK_FONT_CACHE_BYTES): FontCache {
  return new BoundedCache(FALLBACK_FONT_CACHE_CAPACITY, maxBytes);
}
