/**
 * The account's font library: an optional R2 bucket bound as FONTS (docs/api.md "Bring your own
 * fonts", README "Configuration"). One object per family and style, under a key the family name
 * gives, so that a conversion reads only the faces of the families its document names, with no
 * listing: `<family>/<Style>.ttf`, where <family> is the family name lower-cased without white
 * space (callerFamilyKey: "Acme Brand" → `acmebrand`) and <Style> is Regular, Bold, Italic or
 * BoldItalic. The key says which family and style the face is; its name table is not consulted.
 *
 * Answers are kept per isolate (FontLibraryCache), the parsed faces bounded in bytes like the
 * bundled ones, and trusted for FONT_LIBRARY_TTL_MS; after that the object is read again only if
 * its ETag changed (a conditional read), so a replaced or removed font is seen within a minute.
 * An object that is not a usable font is a warning for the conversions that ask for it, never a
 * failure.
 */
import {
  callerFamilyKey,
  type FontLibrary,
  type FontStyle,
  type LibraryLookup,
  libraryFaceKey,
  readFontFile,
  styleClaim,
} from '../../engine';
import { BoundedCache } from '../../kit';
import { MAX_FONT_BYTES, MAX_FONT_LIBRARY_BYTES } from '../../limits';
import { formatBytes } from '../input';

/** How long an answer of the library (a face, a problem, or no such object) is trusted. */
export const FONT_LIBRARY_TTL_MS = 60_000;

/**
 * Parsed library faces kept per isolate: 12 MiB of font files (about 16 MB parsed), a few brand
 * families' worth, beside the bundled faces' 24 MiB and the CJK faces' 32 MiB (font-cache.ts).
 * Entries for objects the library does not have weigh nothing; 256 of them at most.
 */
export const FONT_LIBRARY_CACHE_BYTES = 12 * 1024 * 1024;
const FONT_LIBRARY_CACHE_ENTRIES = 256;

/** Family keys longer than this are not looked up (R2 keys are at most 1,024 bytes). */
const MAX_FAMILY_KEY_LENGTH = 200;

interface LibraryEntry {
  /** When R2 last answered for it (Date.now). */
  readonly checkedAt: number;
  /** The object's ETag, for the conditional read once the entry is stale. */
  readonly etag?: string;
  /** The font's bytes, when it is usable (what the cache weighs). */
  readonly bytes: number;
  readonly result: LibraryLookup;
}

/** The isolate's answers of the library, by object key (create one per app, like createFontCache). */
export class FontLibraryCache {
  readonly entries: BoundedCache<string, Promise<LibraryEntry>>;

  constructor(maxBytes = FONT_LIBRARY_CACHE_BYTES, capacity = FONT_LIBRARY_CACHE_ENTRIES) {
    this.entries = new BoundedCache(capacity, maxBytes);
  }
}

/** The object key of a family's face in a style, or undefined for a name that cannot be one. */
export function libraryObjectKey(family: string, style: FontStyle): string | undefined {
  const key = callerFamilyKey(family);
  if (key === '' || key.length > MAX_FAMILY_KEY_LENGTH || key.includes('/')) return undefined;
  return `${key}/${style}.ttf`;
}

/**
 * The library as one conversion sees it: faces from the isolate's cache or R2, and at most
 * MAX_FONT_LIBRARY_BYTES of them (src/limits.ts); a face past that is a problem, as an unusable one is.
 */
export function fontLibrary(bucket: R2Bucket, cache: FontLibraryCache, now: () => number = Date.now): FontLibrary {
  let left = MAX_FONT_LIBRARY_BYTES;
  const taken = new Set<string>();
  return {
    async find(family: string, style: FontStyle): Promise<LibraryLookup> {
      const key = libraryObjectKey(family, style);
      if (key === undefined) return undefined;
      let entry: LibraryEntry;
      try {
        entry = await entryFor(bucket, cache, key, family, style, now);
      } catch {
        return { source: key, problem: 'could not be read from the font library (R2 did not answer)' };
      }
      if (entry.result && 'font' in entry.result && !taken.has(key)) {
        if (entry.bytes > left) {
          return {
            source: key,
            problem: `was not loaded: the library fonts of this document together are larger than ${formatBytes(MAX_FONT_LIBRARY_BYTES)}, the most one conversion may read`,
          };
        }
        left -= entry.bytes;
        taken.add(key);
      }
      return entry.result;
    },
  };
}

/** The cached answer for `key` while it is fresh; else R2's, put in the cache (a failure is not kept). */
async function entryFor(
  bucket: R2Bucket,
  cache: FontLibraryCache,
  key: string,
  family: string,
  style: FontStyle,
  now: () => number,
): Promise<LibraryEntry> {
  const cached = cache.entries.get(key);
  const previous = cached ? await cached.catch(() => undefined) : undefined;
  if (previous && now() - previous.checkedAt < FONT_LIBRARY_TTL_MS) return previous;
  const loading = readObject(bucket, key, family, style, previous, now);
  cache.entries.set(key, loading);
  loading.then(
    (entry) => cache.entries.weigh(key, entry.bytes),
    () => {
      if (cache.entries.get(key) === loading) cache.entries.delete(key);
    },
  );
  return loading;
}

async function readObject(
  bucket: R2Bucket,
  key: string,
  family: string,
  style: FontStyle,
  previous: LibraryEntry | undefined,
  now: () => number,
): Promise<LibraryEntry> {
  const object = await bucket.get(key, previous?.etag ? { onlyIf: { etagDoesNotMatch: previous.etag } } : {});
  const checkedAt = now();
  if (object === null) return { checkedAt, bytes: 0, result: undefined };
  // The condition failed: the object is the one already read.
  if (!('body' in object)) return previous ? { ...previous, checkedAt } : { checkedAt, bytes: 0, result: undefined };
  const etag = object.etag;
  if (object.size > MAX_FONT_BYTES) {
    await object.body.cancel();
    return {
      checkedAt,
      etag,
      bytes: 0,
      result: {
        source: key,
        problem: `is ${formatBytes(object.size)}, more than the ${formatBytes(MAX_FONT_BYTES)} one font may have`,
      },
    };
  }
  const bytes = new Uint8Array(await object.arrayBuffer());
  const reading = readFontFile(bytes, libraryFaceKey(key));
  if ('problem' in reading) return { checkedAt, etag, bytes: 0, result: { source: key, problem: reading.problem } };
  const claim = styleClaim(family, style);
  return {
    checkedAt,
    etag,
    bytes: bytes.byteLength,
    result: {
      font: {
        ...reading.font,
        source: `font library object "${key}"`,
        // The key says which family and style the face is.
        claims: [claim],
        weight: claim.bold ? 700 : 400,
      },
    },
  };
}
