/**
 * Embeds the faces a display list uses as subset TrueType fonts (Type0 / CIDFontType2 with
 * Identity-H and FontFile2, ISO 32000-1 §9.7 and §9.9), one PDF font per FontFace.key. pdf-lib
 * writes the ToUnicode CMap (§9.10.3) from the glyphs it encodes, so text stays extractable.
 */
import fontkit from '@pdf-lib/fontkit';
import { type PDFDocument, type PDFFont, PDFHexString } from 'pdf-lib';
import type { FontFace } from '../fonts/font-face';
import { FontkitFace, parseTrueTypeFace } from '../fonts/fontkit-face';
import { SHAPING_FEATURES, UNSHAPED_TEXT } from '../fonts/shaping';
import type { LaidOutDocument } from '../layout/display-list';
import { postscriptNameForPdf, subsetTag } from './subset-tag';

export interface PaintFont {
  pdfFont: PDFFont;
  face: FontkitFace;
  /** Glyph-id hex per word or run of spaces, for this conversion: shaping is the painter's cost. */
  encoded: Map<string, string>;
}

export type PaintFonts = ReadonlyMap<string, PaintFont>;

/**
 * Encodes text for a Tj operator exactly as the face measured it (fonts/shaping.ts), a word at
 * a time: fontkit's shaping is 90% of painting, and words repeat. Shaping each word apart gives
 * the glyphs of shaping the line as long as no lookup left on (ccmp, locl, rlig) reaches across
 * a space: layout's measuring assumes as much when it sums the widths of words, and
 * test/pdf/word-encoding.test.ts checks it for every bundled face.
 */
export function encodeText(font: PaintFont, text: string): PDFHexString {
  let hex = '';
  for (const part of font.face.prepareText(text).split(/( +)/)) {
    if (part === '') continue;
    let glyphs = font.encoded.get(part);
    if (glyphs === undefined) {
      glyphs = UNSHAPED_TEXT.test(part) ? encodeUnshaped(font, part) : font.pdfFont.encodeText(part).asString();
      font.encoded.set(part, glyphs);
    }
    hex += glyphs;
  }
  return PDFHexString.of(hex);
}

/** The parts of pdf-lib's subset embedder that encoding touches (not in its public types). */
interface SubsetEmbedder {
  font: { glyphForCodePoint(codePoint: number): { id: number } };
  subset: { includeGlyph(glyph: unknown): number };
  glyphs: unknown[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
}

/**
 * What pdf-lib's CustomFontSubsetEmbedder.encodeText does, with the glyphs looked up in the cmap
 * instead of shaped: for UNSHAPED_TEXT that is the same glyphs (see shaping.ts) at a fraction of
 * the cost. The glyphs come from the embedder's own font, so subset and ToUnicode stay its own.
 */
function encodeUnshaped(font: PaintFont, text: string): string {
  const embedder = (font.pdfFont as unknown as { embedder: SubsetEmbedder }).embedder;
  let hex = '';
  for (let i = 0; i < text.length; i++) {
    const glyph = embedder.font.glyphForCodePoint(text.charCodeAt(i));
    const subsetId = embedder.subset.includeGlyph(glyph);
    embedder.glyphs[subsetId - 1] = glyph;
    embedder.glyphIdMap.set(glyph.id, subsetId);
    hex += subsetId.toString(16).toUpperCase().padStart(4, '0');
  }
  embedder.glyphCache.invalidate();
  return hex;
}

/** Every face key text items use, in first-use order, with the characters drawn in it. */
function usedFaces(doc: LaidOutDocument): Map<string, Set<number>> {
  const used = new Map<string, Set<number>>();
  for (const page of doc.pages) {
    for (const item of page.items) {
      if (item.kind !== 'text' || item.text === '') continue;
      let codePoints = used.get(item.font);
      if (!codePoints) {
        codePoints = new Set();
        used.set(item.font, codePoints);
      }
      for (const char of item.text) codePoints.add(char.codePointAt(0) ?? 0);
    }
  }
  return used;
}

function asFontkitFace(face: FontFace): FontkitFace {
  if (face instanceof FontkitFace) return face;
  const parsed = parseTrueTypeFace(face.key, face.bytes);
  if (!parsed) throw new Error(`Font ${face.key} is not a TrueType font the painter can embed.`);
  return parsed;
}

export async function embedFonts(pdfDoc: PDFDocument, doc: LaidOutDocument): Promise<PaintFonts> {
  const used = usedFaces(doc);
  const faces = new Map<string, FontkitFace>();
  for (const key of used.keys()) {
    const face = doc.fonts[key];
    if (!face) throw new Error(`Text uses font ${key}, which the document's fonts do not have.`);
    faces.set(key, asFontkitFace(face));
  }

  // pdf-lib parses each font again, on purpose: fontkit caches glyph objects with the code points
  // that first reached them, and pdf-lib writes ToUnicode from those. Sharing the isolate's
  // measuring font would make the CMap depend on what the isolate converted before; a fresh parse
  // (a few ms once warm) keeps the bytes a function of the input. Shaping is deterministic, so
  // the glyphs and advances are the same as measured.
  pdfDoc.registerFontkit(fontkit);

  const fonts = new Map<string, PaintFont>();
  for (const [key, codePoints] of used) {
    const face = faces.get(key) as FontkitFace;
    const name = postscriptNameForPdf(face.postscriptName, key);
    const tag = await subsetTag(`${key}\n${name}\n${[...codePoints].sort((a, b) => a - b).join(',')}`);
    const pdfFont = await pdfDoc.embedFont(face.bytes, {
      subset: true,
      customName: `${tag}+${name}`,
      features: SHAPING_FEATURES,
    });
    fonts.set(key, { pdfFont, face, encoded: new Map() });
  }
  return fonts;
}
