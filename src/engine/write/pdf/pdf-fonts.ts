/**
 * Embeds the faces a display list uses as subset TrueType fonts (Type0 / CIDFontType2 with
 * Identity-H and FontFile2, ISO 32000-1 §9.7 and §9.9), one PDF font per FontFace.key, each with
 * a ToUnicode CMap (§9.10.3) so that text stays extractable.
 *
 * The objects are the ones pdf-lib's subset embedder wrote, but made here: pdf-lib parsed every
 * font file again for every conversion, created a glyph object per character it encoded, and
 * wrote the subset through fontkit's timer-driven stream. Here the isolate's parsed face does the
 * work: glyph ids come from its cmap and widths from its metrics, and the subset is copied from
 * the file (truetype-subset.ts).
 *
 * Glyph codes are CIDs numbered in order of first use in the document (CID 0 is .notdef), mapped
 * to glyphs by the subset itself (CIDToGIDMap /Identity). Each CID's ToUnicode entry is the text
 * that produced the glyph, so it depends on the document alone: for text looked up in the cmap
 * that is the character, for shaped text the code points fontkit tracked through shaping (with
 * FontkitFace.shape). A glyph reached with several texts gets a CID per
 * text (PaintFont's #code).
 */
import type { Font } from '@pdf-lib/fontkit';
import { type PDFDocument, type PDFRef, PDFString } from 'pdf-lib';
import { concatBytes } from '../../../kit';
import {
  CODE_UNIT_CLASS,
  type FontFace,
  FontkitFace,
  PLAIN,
  parseTrueTypeFace,
  type ShapedRun,
  UNSHAPED_TEXT,
} from '../../fonts';
import { mirroredCharacter } from '../../layout';
import type { LaidOutDocument } from '../../pages';
import type { FlateStreams } from './flate-streams';
import { postscriptNameForPdf, subsetTag } from './subset-tag';
import { type ShiftedGlyph, subsetTrueType } from './truetype-subset';

/**
 * Bytes a literal string must escape (§7.3.4.2), to the character after the backslash: the
 * delimiters, the backslash, and CR (a bare CR, or CR LF, in a literal string reads as one LF).
 */
const ESCAPED = new Uint8Array(256);
ESCAPED[0x28] = 0x28; // (
ESCAPED[0x29] = 0x29; // )
ESCAPED[0x5c] = 0x5c; // \
ESCAPED[0x0d] = 0x72; // CR as \r

/** Writes a byte of a literal string's body at `at`, escaped if it must be; returns the next offset. */
function literalByte(out: Uint8Array, at: number, byte: number): number {
  const escaped = ESCAPED[byte] as number;
  if (escaped === 0) {
    out[at] = byte;
    return at + 1;
  }
  out[at] = 0x5c;
  out[at + 1] = escaped;
  return at + 2;
}

/** Writes a CID as two bytes of a literal string (Identity-H, §9.7.5.2); returns the next offset. */
function writeCode(out: Uint8Array, at: number, cid: number): number {
  return literalByte(out, literalByte(out, at, cid >> 8), cid & 0xff);
}

/** Room for one run's codes while they are written: at most four bytes per glyph. */
let scratch = new Uint8Array(1024);

function scratchFor(glyphs: number): Uint8Array {
  if (scratch.length < 4 * glyphs) scratch = new Uint8Array(4 * glyphs);
  return scratch;
}

/** A word's or run of spaces' shown codes, and their advance in thousandths of text space. */
interface EncodedRun {
  codes: Uint8Array;
  advance: number;
}

/** Fields of fontkit's Font that its type declarations leave out (pdf-lib reads the same). */
interface FontTables {
  post: { isFixedPitch: number | boolean };
  'OS/2'?: { sFamilyClass: number };
  head: { macStyle: { italic: boolean } };
}

/** The runs of spaces and of anything else in `text`, as [start, end) pairs, in order. */
function spaceRuns(text: string): [number, number][] {
  const runs: [number, number][] = [];
  for (let start = 0; start < text.length; ) {
    const spaces = text.charCodeAt(start) === 0x20;
    let end = start + 1;
    while (end < text.length && (text.charCodeAt(end) === 0x20) === spaces) end++;
    runs.push([start, end]);
    start = end;
  }
  return runs;
}

/** One face's PDF font during one conversion: the CIDs it has handed out, and what they show. */
export class PaintFont {
  /** The Type0 font dictionary, referenced from page resources before it is written. */
  readonly ref: PDFRef;
  readonly face: FontkitFace;
  /** Face key and PostScript name (BaseFont is the subset tag, "+" and the name). */
  readonly key: string;
  readonly name: string;
  /**
   * The glyph id of each CID; CID 0 is .notdef. A negative entry, -1 - i, is shiftedGlyphs[i]: a
   * copy of a glyph moved within its own outline (ShapedRun.shifts), made by the subset.
   */
  readonly glyphIds: number[] = [0];
  readonly shiftedGlyphs: ShiftedGlyph[] = [];
  /** CIDs of shifted copies, by glyph id, shift and text. */
  readonly #shiftedCids = new Map<string, number>();
  /** CID per glyph id, 0 for none yet (glyph 0 is CID 0 anyway); a map past the font's glyphs. */
  readonly #cids: Int32Array;
  readonly #otherCids = new Map<number, number>();
  /** CIDs of glyphs reached again with other text, by glyph id and text (see #code). */
  readonly #textCids = new Map<string, number>();
  /** ToUnicode text per CID. */
  readonly #unicode: (string | undefined)[] = [];
  /**
   * Each CID's width in thousandths of text space: the font's W array (§9.7.4.3), and what a
   * reader advances the pen by for it (§9.4.4), so what `encodeInto` sums.
   */
  readonly #widths: number[];
  /** 1000 / units per em: glyph advances to thousandths of text space. */
  readonly #scale: number;
  /** Shown glyph codes per word, and per run of spaces by its length (see encode). */
  readonly #encoded = new Map<string, EncodedRun>();
  readonly #spaces: (EncodedRun | undefined)[] = [];
  /** CID plus one of each PLAIN code unit's glyph with that unit as its text (0: not yet), in pages of 256. */
  readonly #unitCidPages: (Int32Array | undefined)[] = [];

  constructor(ref: PDFRef, face: FontkitFace, key: string) {
    this.ref = ref;
    this.face = face;
    this.key = key;
    this.name = postscriptNameForPdf(face.postscriptName, key);
    this.#cids = new Int32Array(Math.max(1, face.font.numGlyphs));
    this.#scale = 1000 / face.font.unitsPerEm;
    this.#widths = [face.glyphAdvance(0) * this.#scale];
  }

  /**
   * Text for a Tj operator, as the face measured it (engine/fonts/shaping.ts), a word at a time: words
   * repeat, and shaping is the expensive part. Shaping each word apart gives the glyphs of shaping
   * the line as long as no lookup left on (ccmp, locl, rlig) reaches across a space: layout's
   * measuring assumes as much when it sums the widths of words, and
   * test/pdf/word-encoding.test.ts checks it for every bundled face.
   *
   * The result is the bytes of a literal string's body (§7.3.4.2): two bytes per glyph, its CID
   * (Identity-H, §9.7.5.2), escaped where a literal string needs it. Half the size of a hex
   * string, which matters: content streams are most of what the painter deflates.
   */
  encode(text: string): Uint8Array {
    const parts: Uint8Array[] = [];
    this.encodeInto(text, (codes, length = codes.length) => parts.push(codes.slice(0, length)));
    return parts.length === 1 ? (parts[0] as Uint8Array) : concatBytes(parts);
  }

  /**
   * `encode`, handing the codes over a word or run of spaces, or a whole text, at a time; no copy
   * is made, so they are for `write` to copy before it returns, not to keep.
   * Returns the advance of the codes written, the sum of their W widths in thousandths of text
   * space, which is how far a reader moves the pen showing them at Tc 0 (§9.4.4).
   */
  encodeInto(text: string, write: (codes: Uint8Array, length?: number) => void, rightToLeft = false): number {
    if (!rightToLeft) {
      const plain = this.#encodePlain(text, write);
      if (plain >= 0) return plain;
    }
    const prepared = this.face.prepareText(text);
    let advance = 0;
    // Runs of spaces and runs of anything else, in turn: from the first for left-to-right text,
    // from the last for right-to-left (TextItem.rtl), whose words show in that order.
    const runs = spaceRuns(prepared);
    if (rightToLeft) runs.reverse();
    for (const [start, end] of runs) {
      const spaces = prepared.charCodeAt(start) === 0x20;
      let run: EncodedRun | undefined;
      if (spaces) {
        // Runs of spaces, mostly single ones between words, by length rather than in the map.
        run = this.#spaces[end - start];
        if (run === undefined) {
          run = this.#encodeUnshaped(' '.repeat(end - start));
          this.#spaces[end - start] = run;
        }
      } else {
        const part = prepared.slice(start, end);
        // Right to left, text drawn as it comes (not shaped) goes last character first; shaping
        // puts a right-to-left script's glyphs in that order itself.
        const key = rightToLeft ? `\u0001${part}` : part;
        run = this.#encoded.get(key);
        if (run === undefined) {
          if (UNSHAPED_TEXT.test(part) || this.face.shapesToNotdefs(part)) {
            run = this.#encodeUnshaped(rightToLeft ? [...part].reverse().join('') : part, rightToLeft);
          } else {
            const shaped = rightToLeft ? this.#mirrored(this.face.shape(part)) : this.face.shape(part);
            run = this.#encodeShaped(shaped);
          }
          this.#encoded.set(key, run);
        }
      }
      write(run.codes);
      advance += run.advance;
    }
    return advance;
  }

  /**
   * Text of PLAIN code units only (code-unit-class.ts; most text): what encodeInto would write a
   * word at a time, written at once, a unit at a time. Such text is its own prepared text, and
   * each of its words and runs of spaces is UNSHAPED_TEXT, encoded by #encodeUnshaped: a unit's
   * glyph from the cmap, with the unit as its text. A unit's CID is the same every time (#code),
   * and a new one is handed out at a unit's first use either way, so the CIDs and bytes are the
   * same, without slicing, hashing and looking up every word. Returns the advance, or -1, writing
   * nothing, for other text.
   */
  #encodePlain(text: string, write: (codes: Uint8Array, length?: number) => void): number {
    for (let i = 0; i < text.length; i++) if (CODE_UNIT_CLASS[text.charCodeAt(i)] !== PLAIN) return -1;
    const out = scratchFor(text.length);
    const widths = this.#widths;
    let at = 0;
    let advance = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let page = this.#unitCidPages[unit >> 8];
      if (!page) {
        page = new Int32Array(256);
        this.#unitCidPages[unit >> 8] = page;
      }
      let cid = (page[unit & 0xff] as number) - 1;
      if (cid < 0) {
        cid = this.#cid(this.face.glyphId(unit), text[i] as string);
        page[unit & 0xff] = cid + 1;
      }
      advance += widths[cid] as number;
      at = writeCode(out, at, cid);
    }
    // The scratch buffer and a length, not a subarray: a view per text item was garbage at once.
    if (at > 0) write(out, at);
    return advance;
  }

  /**
   * Looked up in the cmap, one glyph per UTF-16 unit: for UNSHAPED_TEXT, and for text the font has
   * no glyphs for at all (FontkitFace.shapesToNotdefs), the glyphs shaping would give.
   */
  #encodeUnshaped(text: string, mirror = false): EncodedRun {
    const out = scratchFor(text.length);
    let at = 0;
    let advance = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text[i] as string;
      const glyphId = this.face.glyphId(text.charCodeAt(i));
      const cid = this.#cid(mirror ? this.#mirroredGlyph(glyphId, unit) : glyphId, unit);
      advance += this.#widths[cid] as number;
      at = writeCode(out, at, cid);
    }
    return { codes: out.slice(0, at), advance };
  }

  /**
   * A shaped word drawn right to left with the glyph of each character's mirrored form where it
   * has one (UAX #9 L4, which fontkit does not apply): "(که)" shows its brackets facing the word.
   * The glyphs keep their characters' text.
   */
  #mirrored(shaped: ShapedRun): ShapedRun {
    let glyphIds: number[] | undefined;
    shaped.texts.forEach((text, i) => {
      const glyphId = shaped.glyphIds[i] as number;
      const mirrored = this.#mirroredGlyph(glyphId, text);
      if (mirrored === glyphId) return;
      glyphIds ??= [...shaped.glyphIds];
      glyphIds[i] = mirrored;
    });
    return glyphIds ? { ...shaped, glyphIds } : shaped;
  }

  /** The glyph of `text`'s mirrored form if it is one character that has one in the face, else `glyphId`. */
  #mirroredGlyph(glyphId: number, text: string): number {
    if (text.length !== 1) return glyphId;
    const mirrored = mirroredCharacter(text);
    if (mirrored === undefined) return glyphId;
    const codePoint = mirrored.charCodeAt(0);
    return this.face.hasGlyph(codePoint) ? this.face.glyphId(codePoint) : glyphId;
  }

  #encodeShaped({ glyphIds, texts, shifts }: ShapedRun): EncodedRun {
    const out = scratchFor(glyphIds.length);
    let at = 0;
    let advance = 0;
    for (let i = 0; i < glyphIds.length; i++) {
      const cid = this.#glyphCid(glyphIds[i] as number, texts[i] as string, shifts, i);
      advance += this.#widths[cid] as number;
      at = writeCode(out, at, cid);
    }
    return { codes: out.slice(0, at), advance };
  }

  /**
   * The CID of glyph `index` of a shaped word: #cid's, or, for a glyph the word shifts (a mark on
   * its base, a dot Noto Sans Arabic splits off a letter: ShapedRun.shifts), the CID of a copy of
   * the glyph moved by the shift within its outline, drawn at the pen like any glyph. Moved by
   * TJ and Ts instead, a mark reads to poppler as an overprint, a new line, or a letter before
   * its base with a space before it, and breaks the word; left where the face draws it, a dot sat
   * at the left edge of its letter and above or below where it belongs.
   */
  #glyphCid(glyphId: number, text: string, shifts: readonly number[] | undefined, index: number): number {
    const dx = shifts?.[2 * index] ?? 0;
    const dy = shifts?.[2 * index + 1] ?? 0;
    if (dx === 0 && dy === 0) return this.#cid(glyphId, text);
    const key = `${glyphId},${dx},${dy}\u0000${text}`;
    let cid = this.#shiftedCids.get(key);
    if (cid === undefined) {
      cid = this.glyphIds.length;
      this.glyphIds.push(-1 - this.shiftedGlyphs.length);
      this.shiftedGlyphs.push({ glyphId, dx, dy });
      // The advance of the glyph itself: what measuring summed (FontkitFace.shape).
      this.#widths.push(this.face.glyphAdvance(glyphId) * this.#scale);
      this.#unicode[cid] = text;
      this.#shiftedCids.set(key, cid);
    }
    return cid;
  }

  /** The glyph's CID for that text, handed out on first use (see #code). */
  #cid(glyphId: number, text: string): number {
    let cid = glyphId < this.#cids.length ? (this.#cids[glyphId] as number) : (this.#otherCids.get(glyphId) ?? 0);
    if (cid === 0 && glyphId !== 0) {
      cid = this.#newCid(glyphId, text);
      if (glyphId < this.#cids.length) this.#cids[glyphId] = cid;
      else this.#otherCids.set(glyphId, cid);
    } else if (cid !== 0 && this.#unicode[cid] !== text) {
      // One glyph, several texts: Arabic faces decompose dotted letters (ccmp) into a dotless
      // base shared by several letters (ب ت ث ن ي…) plus dot marks, and a mark glyph is reached
      // both by its own character and, with no text, from a decomposed letter (آ → alef + madda,
      // the letter's text on the alef). A CID maps to one text (§9.10.3), so each text, none
      // included, gets a CID of its own for the same glyph (the subset copies it).
      const key = `${glyphId}\u0000${text}`;
      let variant = this.#textCids.get(key);
      if (variant === undefined) {
        variant = this.#newCid(glyphId, text);
        this.#textCids.set(key, variant);
      }
      cid = variant;
    }
    return cid;
  }

  /** The next CID, for the glyph and the text it shows, with the glyph's width. */
  #newCid(glyphId: number, text: string): number {
    const cid = this.glyphIds.length;
    this.glyphIds.push(glyphId);
    this.#widths.push(this.face.glyphAdvance(glyphId) * this.#scale);
    this.#unicode[cid] = text;
    return cid;
  }

  /** BaseFont: the subset's tag (subset-tag.ts, from the glyphs it holds), "+" and the name. */
  async baseFont(): Promise<string> {
    const shifted = this.shiftedGlyphs.map(({ glyphId, dx, dy }) => `${glyphId}:${dx}:${dy}`).join(',');
    const glyphs = shifted === '' ? this.glyphIds.join(',') : `${this.glyphIds.join(',')}\n${shifted}`;
    return `${await subsetTag(`${this.key}\n${this.name}\n${glyphs}`)}+${this.name}`;
  }

  /** Writes the font's objects (§9.7.4, §9.8, §9.9, §9.10.3) and fills in `ref`. */
  write(streams: FlateStreams, baseFont: string): void {
    const { context } = streams;
    const font = this.face.font as Font & FontTables;
    const scale = 1000 / font.unitsPerEm;
    const program = subsetTrueType(this.face.bytes, this.glyphIds, this.shiftedGlyphs);
    // Length1: the length of the font program before the filter (§9.9, Table 127).
    const fontFile = streams.add(program, { Length1: program.length });
    const { minX, minY, maxX, maxY } = font.bbox;
    const familyClass = font['OS/2']?.sFamilyClass ?? 0;
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: baseFont,
        // Flags as pdf-lib derives them (after pdfkit): FixedPitch, Serif, Symbolic, Script, Italic.
        Flags:
          (font.post.isFixedPitch ? 1 : 0) |
          (familyClass >= 1 && familyClass <= 7 ? 2 : 0) |
          4 |
          (familyClass === 10 ? 8 : 0) |
          (font.head.macStyle.italic ? 64 : 0),
        FontBBox: [minX * scale, minY * scale, maxX * scale, maxY * scale],
        ItalicAngle: font.italicAngle,
        Ascent: font.ascent * scale,
        Descent: font.descent * scale,
        CapHeight: (font.capHeight || font.ascent) * scale,
        XHeight: (font.xHeight || 0) * scale,
        StemV: 0,
        FontFile2: fontFile,
      }),
    );
    // Every CID's width, .notdef's too (without it a reader would use the default of 1000, not
    // the advance layout measured).
    const widths = this.#widths;
    const cidFont = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        CIDToGIDMap: 'Identity',
        BaseFont: baseFont,
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: descriptor,
        W: [0, widths],
      }),
    );
    const toUnicode = streams.add(new TextEncoder().encode(this.#toUnicodeCmap()));
    context.assign(
      this.ref,
      context.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: baseFont,
        Encoding: 'Identity-H',
        DescendantFonts: [cidFont],
        ToUnicode: toUnicode,
      }),
    );
  }

  /** bfchar entries CID → UTF-16BE (§9.10.3), in the text pdf-lib's template wrote. */
  #toUnicodeCmap(): string {
    const hex = (value: number) => value.toString(16).toUpperCase().padStart(4, '0');
    const entries: string[] = [];
    for (let cid = 1; cid < this.glyphIds.length; cid++) {
      // Glyphs without text of their own (marks split off a letter) get no entry.
      if (!this.#unicode[cid]) continue;
      let units = '';
      for (const char of this.#unicode[cid] ?? '') {
        const codePoint = char.codePointAt(0) as number;
        if (codePoint < 0x10000) units += hex(codePoint);
        else units += hex(0xd800 + ((codePoint - 0x10000) >> 10)) + hex(0xdc00 + ((codePoint - 0x10000) & 0x3ff));
      }
      entries.push(`<${hex(cid)}> <${units}>`);
    }
    return `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo <<
  /Registry (Adobe)
  /Ordering (UCS)
  /Supplement 0
>> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000><ffff>
endcodespacerange
${entries.length} beginbfchar
${entries.join('\n')}
endbfchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end`;
  }
}

export type PaintFonts = ReadonlyMap<string, PaintFont>;

/** Every face key text items use, in first-use order. */
function usedFaces(doc: LaidOutDocument): string[] {
  const used = new Set<string>();
  for (const page of doc.pages) {
    for (const item of page.items) if (item.kind === 'text' && item.text !== '') used.add(item.font);
  }
  return [...used];
}

export function asFontkitFace(face: FontFace): FontkitFace {
  if (face instanceof FontkitFace) return face;
  const parsed = parseTrueTypeFace(face.key, face.bytes);
  if (!parsed) throw new Error(`Font ${face.key} is not a TrueType font the painter can embed.`);
  return parsed;
}

/** A PaintFont per face the document's text uses; `writeFonts` writes them once pages are painted. */
export function embedFonts(pdfDoc: PDFDocument, doc: LaidOutDocument): PaintFonts {
  const fonts = new Map<string, PaintFont>();
  for (const key of usedFaces(doc)) {
    const face = doc.fonts[key];
    if (!face) throw new Error(`Text uses font ${key}, which the document's fonts do not have.`);
    fonts.set(key, new PaintFont(pdfDoc.context.nextRef(), asFontkitFace(face), key));
  }
  return fonts;
}

/** Writes every font's objects, in the order the fonts were made. */
export async function writeFonts(streams: FlateStreams, fonts: PaintFonts): Promise<void> {
  const all = [...fonts.values()];
  const names = await Promise.all(all.map((font) => font.baseFont()));
  all.forEach((font, i) => {
    font.write(streams, names[i] as string);
  });
}
