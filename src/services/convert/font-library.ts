/**
 * Fonts a caller brings: the font files of one request, and an account-wide library in an R2
 * bucket (the optional FONTS binding). Both are read for the family and style their own name
 * tables declare (engine readSuppliedFont) and stand after the document's embedded fonts, before
 * the bundled substitutes (docs/fonts.md). Knows nothing of HTTP.
 */
import { type EmbeddedFont, type FontRequest, normalizeFamilyName, readSuppliedFont } from '../../engine';
import { ApiError } from '../../errors';
import { BoundedCache } from '../../kit';
import { MAX_SUPPLIED_FONT_BYTES, MAX_SUPPLIED_FONT_TOTAL_BYTES, MAX_SUPPLIED_FONTS } from '../../limits';
import { formatBytes } from '../input';

/** The four styles, as the library's object keys name them. */
const STYLE_NAMES = ['Regular', 'Bold', 'Italic', 'BoldItalic'] as const;

function styleName(request: { bold: boolean; italic: boolean }): (typeof STYLE_NAMES)[number] {
  return STYLE_NAMES[(request.bold ? 1 : 0) + (request.italic ? 2 : 0)] as (typeof STYLE_NAMES)[number];
}

/**
 * The key of a family's style in the library: its name as normalized for matching (trimmed, white
 * space collapsed, lower case), a slash, the style, ".ttf": "acme sans/Bold.ttf". A conversion
 * asks for the families and styles its text uses, and nothing is listed.
 */
export function fontLibraryKey(family: string, style: { bold: boolean; italic: boolean }): string {
  return `${normalizeFamilyName(family)}/${styleName(style)}.ttf`;
}

/** What the library had under a key: a font, or nothing, remembered for a while. */
interface LibraryEntry {
  font: EmbeddedFont | undefined;
  /** Why the object there could not be used, for the conversion's warnings. */
  problem?: string;
  at: number;
}

/**
 * Library answers kept per isolate: found fonts (bounded by their bytes) and absences, each for
 * LIBRARY_TTL_MS, so that a font added to or replaced in the bucket is seen within that time.
 */
export type FontLibraryCache = BoundedCache<string, LibraryEntry>;

export const FONT_LIBRARY_CACHE_BYTES = 16 * 1024 * 1024;
const FONT_LIBRARY_CACHE_ENTRIES = 256;
const LIBRARY_TTL_MS = 5 * 60 * 1000;

export function createFontLibraryCache(): FontLibraryCache {
  return new BoundedCache(FONT_LIBRARY_CACHE_ENTRIES, FONT_LIBRARY_CACHE_BYTES);
}

/** True when `fonts` has a face of `family` (any style): its other styles then come from there. */
function hasFamily(fonts: readonly EmbeddedFont[], family: string): boolean {
  const name = normalizeFamilyName(family);
  return fonts.some((font) => normalizeFamilyName(font.family) === name);
}

/**
 * The library's fonts for the requests the document and the caller's own fonts do not cover, and
 * the warnings of objects that could not be used. Families the document embeds or the request
 * brings are not asked for; every style of any other family is (a library may hold Calibri).
 */
export async function libraryFonts(
  bucket: R2Bucket,
  requests: readonly FontRequest[],
  have: readonly EmbeddedFont[],
  cache: FontLibraryCache,
  now: () => number = Date.now,
): Promise<{ fonts: EmbeddedFont[]; warnings: string[] }> {
  const keys = new Map<string, FontRequest>();
  for (const request of requests) {
    if (normalizeFamilyName(request.family) === '' || hasFamily(have, request.family)) continue;
    keys.set(fontLibraryKey(request.family, request), request);
  }
  const entries = await Promise.all([...keys].map(([key, request]) => libraryEntry(bucket, key, request, cache, now)));
  const fonts: EmbeddedFont[] = [];
  const warnings: string[] = [];
  let total = 0;
  for (const entry of entries) {
    if (entry.problem) warnings.push(entry.problem);
    if (!entry.font) continue;
    if (total + entry.font.bytes.length > MAX_SUPPLIED_FONT_TOTAL_BYTES) {
      warnings.push(
        `The font library's ${entry.font.family} is not used: the fonts of one conversion are limited to ${MAX_SUPPLIED_FONT_TOTAL_BYTES} bytes.`,
      );
      continue;
    }
    total += entry.font.bytes.length;
    fonts.push(entry.font);
  }
  return { fonts, warnings };
}

async function libraryEntry(
  bucket: R2Bucket,
  key: string,
  request: FontRequest,
  cache: FontLibraryCache,
  now: () => number,
): Promise<LibraryEntry> {
  const known = cache.get(key);
  if (known && now() - known.at < LIBRARY_TTL_MS) return known;
  const entry = await fetchEntry(bucket, key, request, now());
  cache.set(key, entry);
  cache.weigh(key, entry.font?.bytes.length ?? 0);
  return entry;
}

/**
 * The object under `key`, read as a font. It is filed under the family and style it is used for,
 * whatever its own name table says (a "Bold" file whose family reads "Acme Sans Bold" still serves
 * Acme Sans bold): the key is the caller's statement.
 */
async function fetchEntry(bucket: R2Bucket, key: string, request: FontRequest, at: number): Promise<LibraryEntry> {
  let object: R2ObjectBody | null;
  try {
    object = await bucket.get(key);
  } catch (error) {
    return { font: undefined, problem: `The font library could not be read for ${key}: ${String(error)}.`, at };
  }
  if (!object) return { font: undefined, at };
  if (object.size > MAX_SUPPLIED_FONT_BYTES) {
    await object.body.cancel();
    return {
      font: undefined,
      problem: `The font library's ${key} is not used: it is ${object.size} bytes, more than the ${MAX_SUPPLIED_FONT_BYTES} a font may be.`,
      at,
    };
  }
  const reading = readSuppliedFont(new Uint8Array(await object.arrayBuffer()));
  if (!reading.ok)
    return { font: undefined, problem: `The font library's ${key} is not used: ${reading.problem}.`, at };
  return { font: { ...reading.font, family: request.family, bold: request.bold, italic: request.italic }, at };
}

/** One `fonts` part of a request: its file name (for messages) and bytes. */
export interface FontPart {
  name: string;
  bytes: Uint8Array;
}

/**
 * The fonts a request sends, read and checked: at most MAX_SUPPLIED_FONTS files of at most
 * MAX_SUPPLIED_FONT_BYTES each and MAX_SUPPLIED_FONT_TOTAL_BYTES together, each a TrueType font
 * (readSuppliedFont). The first problem is the answer: 400 for too many, 413 for too large, 415
 * for a file that is not a usable font, naming the part.
 */
export function requestFonts(parts: readonly FontPart[]): EmbeddedFont[] {
  if (parts.length > MAX_SUPPLIED_FONTS) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `The request sends ${parts.length} fonts; at most ${MAX_SUPPLIED_FONTS} may be sent with one document.`,
      { details: [{ field: 'fonts', issue: `at most ${MAX_SUPPLIED_FONTS} font files` }] },
    );
  }
  let total = 0;
  return parts.map((part, index) => {
    const label = `Font ${index + 1} of the request ("${part.name}")`;
    if (part.bytes.length > MAX_SUPPLIED_FONT_BYTES) {
      throw new ApiError(
        'PAYLOAD_TOO_LARGE',
        `${label} is ${part.bytes.length} bytes; a font may be ${formatBytes(MAX_SUPPLIED_FONT_BYTES)} at most. Send a subset of the font.`,
      );
    }
    total += part.bytes.length;
    if (total > MAX_SUPPLIED_FONT_TOTAL_BYTES) {
      throw new ApiError(
        'PAYLOAD_TOO_LARGE',
        `The fonts of the request come to more than ${formatBytes(MAX_SUPPLIED_FONT_TOTAL_BYTES)} together, the limit for one conversion.`,
      );
    }
    const reading = readSuppliedFont(part.bytes);
    if (!reading.ok) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `${label} cannot be used: ${reading.problem}.`);
    return reading.font;
  });
}
