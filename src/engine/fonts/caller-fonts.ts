/**
 * Fonts a caller brings (docs/api.md "Bring your own fonts"): the font files of one request, and
 * those of the account's font library. They are read here, checked to be fonts the painter can
 * embed (TrueType outlines: docs/engine.md "Embedding"), and matched to what a document asks for
 * by their own name table, as Word matches an installed font.
 *
 * A face answers to its family names: the typographic family (nameID 16) and the family
 * (nameID 1), in every language the name table has them (a Japanese document names 游ゴシック,
 * the English name table says Yu Gothic), compared without case or white space. In the family of
 * nameID 1 a face's style is what OS/2 fsSelection says (bold, italic: the four styles Word knows
 * of a family); in the typographic family, where Light and Semibold share the name, a weight of
 * 600 or more is bold, and of the faces that claim a style the one whose weight is nearest to it
 * (400, 700) is taken.
 */
import type { Font } from '@pdf-lib/fontkit';
import type { FontStyle } from './bundled-fonts';
import { isEmbeddedFaceKey } from './embedded-font-match';
import type { FontRequest } from './font-face';
import { normalizeFamilyName } from './font-substitution';
import { type FontkitFace, parseTrueTypeFace } from './fontkit-face';

/** A font a caller brought, parsed, with the names and style it answers to. */
export interface SuppliedFont {
  /** Where it came from, for warnings: `fonts[0] "acme.ttf"`, or the library object's key. */
  readonly source: string;
  readonly face: FontkitFace;
  /** Its family as its name table gives it (typographic family, else family), for messages. */
  readonly family: string;
  /** Its family and style, for messages: "Acme Brand Bold". */
  readonly name: string;
  /** The family names it answers to (callerFamilyKey) and its style in each. */
  readonly claims: readonly FamilyClaim[];
  /** OS/2 usWeightClass (400, or 700 for a bold face, without OS/2). */
  readonly weight: number;
}

export interface FamilyClaim {
  /** callerFamilyKey of the family name. */
  readonly family: string;
  readonly bold: boolean;
  readonly italic: boolean;
}

/**
 * The account's font library (the FONTS R2 bucket, src/services/fonts): the face it keeps for a
 * family in a style, asked for only for the families a document names. undefined: it has none.
 */
export interface FontLibrary {
  find(family: string, style: FontStyle): Promise<LibraryLookup>;
}

export type LibraryLookup =
  | undefined
  | { readonly font: SuppliedFont }
  /** An object the library has that cannot be used: `source` names it, `problem` says why. */
  | { readonly source: string; readonly problem: string };

/** What the first bytes of a file say it is. */
export type FontFileKind = 'truetype' | 'cff' | 'woff' | 'woff2' | 'collection' | 'unknown';

export function sniffFontFile(bytes: Uint8Array): FontFileKind {
  if (bytes.length < 4) return 'unknown';
  const tag = String.fromCharCode(bytes[0] as number, bytes[1] as number, bytes[2] as number, bytes[3] as number);
  if (tag === '\u0000\u0001\u0000\u0000' || tag === 'true') return 'truetype';
  if (tag === 'OTTO') return 'cff';
  if (tag === 'wOFF') return 'woff';
  if (tag === 'wOF2') return 'woff2';
  if (tag === 'ttcf') return 'collection';
  return 'unknown';
}

/**
 * Why a file of each kind cannot be used. The painter embeds TrueType outlines only (a subset of
 * glyf, truetype-subset.ts): fontkit's CFF subsetting is weak, and it cannot subset WOFF2.
 */
const UNSUPPORTED: Record<Exclude<FontFileKind, 'truetype'>, string> = {
  cff: 'is an OpenType font with PostScript (CFF) outlines, which Quire cannot embed in a PDF: send a build of the font with TrueType outlines (most families ship one as .ttf), or convert its outlines (FontForge, fontTools)',
  woff: 'is a WOFF web font: send the TrueType (.ttf) file it was made from',
  woff2:
    'is a WOFF2 web font: send the TrueType (.ttf) file it was made from (fontTools: `fonttools ttLib.woff2 decompress`)',
  collection: 'is a font collection (.ttc) holding several faces: send each face you need as a .ttf file of its own',
  unknown: 'is not a TrueType or OpenType font (it does not start with an sfnt header)',
};

/** A file read as a caller's font, or why it cannot be one. */
export type FontFileReading =
  | { readonly font: Omit<SuppliedFont, 'source'> }
  | {
      /** What is wrong, to follow the file's name: "is a WOFF2 web font: …". */
      readonly problem: string;
      /** True for a file of a kind Quire does not take (415); false for a damaged font (422). */
      readonly unsupported: boolean;
    };

/**
 * Tables the painter and the font stage read from a TrueType font (truetype-subset.ts, pdf-fonts.ts,
 * FontkitFace): without one of them the font could not be measured or embedded.
 */
const REQUIRED_TABLES = ['cmap', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'name', 'post'] as const;
/** Lengths below which the fields read from a table are not all there. */
const MIN_TABLE_LENGTH: Record<string, number> = { head: 54, hhea: 36, maxp: 6 };

/** The first table a TrueType font lacks or has cut short, by the file's table directory. */
function missingTable(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12) return 'its table directory';
  const count = view.getUint16(4);
  if (12 + 16 * count > bytes.length) return 'its table directory';
  const tables = new Map<string, { offset: number; length: number }>();
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    const tag = String.fromCharCode(
      bytes[at] as number,
      bytes[at + 1] as number,
      bytes[at + 2] as number,
      bytes[at + 3] as number,
    );
    tables.set(tag, { offset: view.getUint32(at + 8), length: view.getUint32(at + 12) });
  }
  for (const tag of REQUIRED_TABLES) {
    const table = tables.get(tag);
    if (!table || table.offset + table.length > bytes.length || table.length < (MIN_TABLE_LENGTH[tag] ?? 1)) {
      return `a complete ${tag.trim()} table`;
    }
  }
  return undefined;
}

/** fontkit fields read here that its type declarations leave out. */
interface NamedFont {
  name?: { records?: Record<string, Record<string, unknown> | undefined> };
  'OS/2'?: { usWeightClass?: number; fsSelection?: { bold?: boolean; italic?: boolean; oblique?: boolean } };
  head?: { macStyle?: { bold?: boolean; italic?: boolean } };
}

/** The strings of a name table entry, English first, then every other language it has. */
function namesOf(record: Record<string, unknown> | undefined): string[] {
  if (!record) return [];
  const names = [record.en, ...Object.values(record)].filter(
    (name): name is string => typeof name === 'string' && name.trim() !== '',
  );
  return [...new Set(names.map((name) => name.trim()))];
}

/**
 * Reads a caller's font file: its kind by its first bytes, then fontkit (parseTrueTypeFace: it
 * must parse and shape), the tables the painter needs, and the names and style in its name table.
 * `key` is the face's key, unique within a conversion.
 */
export function readFontFile(bytes: Uint8Array, key: string): FontFileReading {
  if (bytes.length === 0) return { problem: 'is empty', unsupported: false };
  const kind = sniffFontFile(bytes);
  if (kind !== 'truetype') return { problem: UNSUPPORTED[kind], unsupported: true };
  const missing = missingTable(bytes);
  if (missing) return { problem: `is a damaged TrueType font: it lacks ${missing}`, unsupported: false };
  const face = parseTrueTypeFace(key, bytes);
  if (!face) return { problem: 'is a damaged TrueType font: it could not be read', unsupported: false };
  const font = face.font as Font & NamedFont;
  let records: NonNullable<NamedFont['name']>['records'];
  try {
    records = font.name?.records;
  } catch {
    records = undefined;
  }
  const families = namesOf(records?.fontFamily);
  const typographic = namesOf(records?.preferredFamily);
  if (families.length === 0 && typographic.length === 0) {
    return { problem: 'has no family name in its name table (nameID 1 or 16)', unsupported: false };
  }
  const os2 = font['OS/2'];
  const macStyle = font.head?.macStyle;
  const subfamily = namesOf(records?.preferredSubfamily)[0] ?? namesOf(records?.fontSubfamily)[0] ?? '';
  const italic = Boolean(
    os2?.fsSelection?.italic || os2?.fsSelection?.oblique || macStyle?.italic || /italic|oblique/i.test(subfamily),
  );
  const styleBold = Boolean(os2?.fsSelection?.bold || macStyle?.bold || (!os2 && /bold/i.test(subfamily)));
  const weight = os2?.usWeightClass || (styleBold ? 700 : 400);
  const claims = new Map<string, FamilyClaim>();
  const claim = (family: string, bold: boolean) => {
    const key = `${callerFamilyKey(family)}|${bold}|${italic}`;
    if (!claims.has(key)) claims.set(key, { family: callerFamilyKey(family), bold, italic });
  };
  for (const family of families) claim(family, styleBold);
  for (const family of typographic) claim(family, weight >= 600);
  const family = typographic[0] ?? (families[0] as string);
  const name = `${family} ${subfamily || (styleBold ? (italic ? 'Bold Italic' : 'Bold') : italic ? 'Italic' : 'Regular')}`;
  return { font: { face, family, name, claims: [...claims.values()], weight } };
}

/**
 * A family name as caller fonts are matched by, and as the font library's keys spell it: trimmed,
 * unquoted, lower-cased, without white space ("Acme Brand", "acme brand" and "AcmeBrand" are one).
 */
export function callerFamilyKey(family: string): string {
  return normalizeFamilyName(family).normalize('NFC').replace(/\s+/g, '');
}

/** The style a library face stands for, as a claim. */
export function styleClaim(family: string, style: FontStyle): FamilyClaim {
  return { family: callerFamilyKey(family), bold: style.startsWith('Bold'), italic: style.endsWith('Italic') };
}

/**
 * The face among `fonts` for a family in a style (both as callerFamilyKey and FontRequest give
 * them): of those that claim it, the one whose weight is nearest to the style's (400, or 700 for
 * bold); the one sent first of equals.
 */
export function bestSupplied(
  fonts: readonly SuppliedFont[],
  family: string,
  bold: boolean,
  italic: boolean,
): SuppliedFont | undefined {
  const target = bold ? 700 : 400;
  let best: SuppliedFont | undefined;
  for (const font of fonts) {
    if (!font.claims.some((c) => c.family === family && c.bold === bold && c.italic === italic)) continue;
    if (!best || Math.abs(font.weight - target) < Math.abs(best.weight - target)) best = font;
  }
  return best;
}

/** The style of a request in words, for messages. */
export function styleWords(request: Pick<FontRequest, 'bold' | 'italic'>): string {
  if (request.bold) return request.italic ? 'Bold Italic' : 'Bold';
  return request.italic ? 'Italic' : 'Regular';
}

/**
 * Face keys of caller fonts, unique within a conversion: the request's by their part's index, the
 * library's by their object key.
 */
export function requestFaceKey(index: number): string {
  return `request-${index}`;
}

export function libraryFaceKey(objectKey: string): string {
  return `library-${objectKey}`;
}

/**
 * True when the face is the font the document names itself, embedded in it or brought by the
 * caller, not a stand-in: its line metrics are its own (layout's verticalMetrics).
 */
export function isOwnFaceKey(key: string): boolean {
  return isEmbeddedFaceKey(key) || key.startsWith('request-') || key.startsWith('library-');
}
