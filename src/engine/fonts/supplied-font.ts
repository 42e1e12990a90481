/**
 * Fonts a caller supplies besides the document (a request's font files, an account's font
 * library): each read for the family and style its own tables declare, and checked to be one the
 * painter can embed. They then stand beside the document's embedded fonts (loadFontSet tries the
 * document's own first), matched by family name as a document names it.
 */
import type { EmbeddedFont } from '../model';
import { normalizeFamilyName } from './font-substitution';
import { type FontkitFace, parseTrueTypeFace } from './fontkit-face';

export type SuppliedFontReading = { ok: true; font: EmbeddedFont } | { ok: false; problem: string };

/** The sfnt and container signatures (OpenType §"Organization of an OpenType font"; WOFF 1 and 2). */
const SIGNATURES: Record<string, string> = {
  OTTO: 'an OpenType font with CFF (PostScript) outlines, which the PDF painter cannot embed: send its TrueType (.ttf) build',
  ttcf: 'a font collection (.ttc): send the one font of it the document uses as a .ttf',
  wOFF: 'a WOFF web font: send the TrueType (.ttf) file it was made from',
  wOF2: 'a WOFF2 web font: send the TrueType (.ttf) file it was made from',
};

interface NamedFont {
  familyName?: string;
  getName?(key: string): string | null;
  'OS/2'?: { fsSelection?: { italic?: boolean; bold?: boolean }; usWeightClass?: number };
  head?: { macStyle?: { bold?: boolean; italic?: boolean } };
}

/**
 * Reads a supplied font file: its family (the typographic family, name ID 16, else the family,
 * name ID 1: OpenType "name" table) and style (OS/2 fsSelection's ITALIC and BOLD bits, a weight of
 * 600 or more, or head.macStyle), or why it cannot be used.
 */
export function readSuppliedFont(bytes: Uint8Array): SuppliedFontReading {
  if (bytes.length < 12) return { ok: false, problem: 'it is too short to be a font file' };
  const tag = String.fromCharCode(bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0, bytes[3] ?? 0);
  const refused = SIGNATURES[tag];
  if (refused) return { ok: false, problem: `it is ${refused}` };
  const face = parseTrueTypeFace('supplied', bytes);
  if (!face) return { ok: false, problem: 'it is not a TrueType font (.ttf) that can be read' };
  const family = familyOf(face);
  if (!family) return { ok: false, problem: 'its name table gives no family name' };
  return { ok: true, font: { family, ...styleOfFace(face), bytes } };
}

function familyOf(face: FontkitFace): string | undefined {
  const font = face.font as unknown as NamedFont;
  let typographic: string | null | undefined;
  try {
    typographic = font.getName?.('preferredFamily');
  } catch {
    typographic = undefined;
  }
  const name = (typographic || font.familyName || '').trim();
  return normalizeFamilyName(name) === '' ? undefined : name;
}

function styleOfFace(face: FontkitFace): { bold: boolean; italic: boolean } {
  const font = face.font as unknown as NamedFont;
  const os2 = font['OS/2'];
  const mac = font.head?.macStyle;
  const bold = os2?.fsSelection?.bold === true || (os2?.usWeightClass ?? 400) >= 600 || mac?.bold === true;
  const italic = os2?.fsSelection?.italic === true || mac?.italic === true;
  return { bold, italic };
}
