/**
 * A FontFace over a font parsed by fontkit: the only kind the font stage makes. The painter
 * embeds its bytes and encodes text through prepareText, the same text measure shapes.
 */
// Before fontkit: its shapers call the regenerator runtime (see the module).
import './regenerator-global';
import fontkit, { type Font } from '@pdf-lib/fontkit';
import { BoundedCache } from '../../kit';
import { CODE_UNIT_CLASS, PLAIN, UNMAPPED_CANDIDATE } from './code-unit-class';
import type { FontFace } from './font-face';
import { isDefaultIgnorable, isJoiner, prepareText, shapingFeatures, standInsFor, UNSHAPED_TEXT } from './shaping';
import { wordLineMetrics } from './word-line-metrics';

/** Widths remembered per face: enough for the distinct words of a long document. */
export const MEASURE_CACHE_CAPACITY = 4096;
/** Longer strings (whole lines) are measured but not remembered: they rarely repeat. */
const MEASURE_CACHE_MAX_LENGTH = 64;
/**
 * Shaped words remembered per face, for measuring and painting alike: shaping (fontkit's GSUB and
 * GPOS passes) is the most expensive thing both do for Arabic and other shaped scripts. Enough for
 * the distinct words of a long book (a 166-page Arabic report has about 8,400; a least-recently-used
 * cache smaller than that misses every word, painting after measuring); an entry is about 0.3 KB,
 * and only faces that shape fill theirs (Arabic, Hebrew, Indic, Thai fallbacks; rarely a Latin face).
 */
export const SHAPE_CACHE_CAPACITY = 16384;

/** A word as shaping gives it: what measuring sums and the painter encodes. */
export interface ShapedRun {
  /** Glyph ids in visual order (fontkit reverses a right-to-left run). */
  readonly glyphIds: readonly number[];
  /**
   * The code points shaping tracked to each glyph, as a string ('' for a mark split off a letter).
   * A joiner (ZWNJ, ZWJ) draws nothing: its text goes after the text of the glyph before it in
   * visual order, or before the text of the glyph after it, so that text read in visual order, as
   * pdftotext gives it, or reordered as a right-to-left run, has it between the right letters.
   */
  readonly texts: readonly string[];
  /** Sum of the glyphs' advance widths, in font units. */
  readonly advance: number;
  /**
   * Where GPOS moves glyphs off the pen (marks onto their base, mark and mkmk features: Arabic
   * harakat, Hebrew niqqud, and the dots Noto Sans Arabic splits off its letters): x and y per
   * glyph, in whole font units, two numbers a glyph; absent when nothing moves (most words). The
   * painter draws such a glyph at the pen as a copy shifted by these (PaintFont), so that no
   * operator moves it.
   */
  shifts?: readonly number[];
}

/** Per code point tables are kept in pages of 256, made on first use. */
const PAGE_BITS = 8;
const PAGE_MASK = (1 << PAGE_BITS) - 1;

/** The parts of a decoded GSUB (fontkit 1.x) that gsubStartsAt reads. */
interface Coverage {
  version: number;
  glyphs?: number[];
  rangeRecords?: { start: number; end: number }[];
}
interface GsubSubtable {
  coverage?: Coverage;
  coverages?: Coverage[];
  inputCoverage?: Coverage[];
  extension?: GsubSubtable;
}
interface Gsub {
  lookupList: { length: number; get(index: number): { lookupType: number; subTables: GsubSubtable[] } };
}

/**
 * True when some GSUB lookup could start at one of `glyphs`: a lookup applies at a position only
 * if the glyph there is in the coverage of its subtable (the first input coverage for the
 * contextual formats), so when none covers them, text of those glyphs alone comes out of
 * shaping as it went in. Fonts have no reason to substitute .notdef or the space; none of the
 * bundled ones does.
 */
function gsubStartsAt(gsub: Gsub | undefined, glyphs: readonly number[]): boolean {
  if (!gsub) return false;
  const covers = (coverage: Coverage | undefined): boolean =>
    glyphs.some((glyph) =>
      coverage?.version === 1
        ? (coverage.glyphs ?? []).includes(glyph)
        : (coverage?.rangeRecords ?? []).some((range) => range.start <= glyph && glyph <= range.end),
    );
  const list = gsub.lookupList;
  for (let i = 0; i < list.length; i++) {
    const lookup = list.get(i);
    for (const subtable of lookup.subTables) {
      const table = lookup.lookupType === 7 ? subtable.extension : subtable;
      if (covers(table?.coverage ?? table?.coverages?.[0] ?? table?.inputCoverage?.[0])) return true;
    }
  }
  return false;
}

/** Fields read here that fontkit's type declarations leave out. */
interface SfntTables {
  'OS/2'?: { winAscent?: number; winDescent?: number };
  hhea?: { ascent?: number; descent?: number; lineGap?: number };
  directory?: { tables?: Record<string, unknown> };
  GSUB?: Gsub;
}

/** fontkit 1.x internals that paintingFont relies on (see there). */
interface FontkitInternals {
  /** Glyph objects by id, each made with the code points that first reached it. */
  _glyphs: Record<number, unknown>;
  /** Cached getter: the LayoutEngine that shapes with this font (and its glyph cache). */
  readonly _layoutEngine: { constructor: new (font: Font) => unknown };
  /** Cached getters, read once here so that every painting view shares them. */
  readonly _cmapProcessor: unknown;
  readonly _variationProcessor: unknown;
  readonly bbox: unknown;
}

export class FontkitFace implements FontFace {
  readonly key: string;
  readonly bytes: Uint8Array;
  readonly font: Font;
  readonly ascent: number;
  readonly descent: number;
  readonly lineGap: number;
  readonly underlinePosition: number;
  readonly underlineThickness: number;
  /**
   * The factor every advance width is multiplied by: 1, but for a stand-in measured with the widths
   * of the Word font it replaces (widthScaled). Measuring, shaping and the painter's W widths all
   * read advances through this face, so lines are laid out and drawn with the same numbers.
   */
  readonly widthScale: number;
  /**
   * Advance widths in font units by glyph id that replace the font's own: a Word font's real
   * widths, for a stand-in that draws it (withWidths). Glyphs without one take widthScale.
   */
  readonly #glyphWidths: ReadonlyMap<number, number> | undefined;
  /**
   * The widthScaled and withWidths faces made of this one, by name: kept as long as this face is
   * (in the isolate's font cache), so that their measuring caches serve later conversions too. A
   * handful at most: one per Word font this face stands in for (font-substitution.ts STAND_INS).
   */
  readonly #derived = new Map<string, FontkitFace>();
  /** fontkit reads unitsPerEm through two getters on every access. */
  readonly #unitsPerEm: number;
  readonly #standIns: ReadonlyMap<number, number>;
  readonly #widths = new BoundedCache<string, number>(MEASURE_CACHE_CAPACITY);
  /** Advance per code point, in font units (NaN: not looked up yet). */
  readonly #advancePages: (Float64Array | undefined)[] = [];
  /** hasGlyph per code point: 0 not asked yet, 1 no, 2 yes. */
  readonly #glyphPages: (Uint8Array | undefined)[] = [];
  /** Glyph id per code point from the cmap, plus one (0: not looked up yet). */
  readonly #glyphIdPages: (Int32Array | undefined)[] = [];
  /** Advance per glyph id, in font units (NaN: not looked up yet). */
  readonly #glyphAdvancePages: (Float64Array | undefined)[] = [];
  /** The string of each code point shaped words hold (see #charText). */
  readonly #charTextPages: (string[] | undefined)[] = [];
  /** Whether text of .notdefs alone shapes to itself (see shapesToNotdefs), once asked. */
  #notdefsStay: boolean | undefined;
  /** #sumPlain's result, read right after each call (measuring allocates nothing per word). */
  readonly #plain = { units: 0, headUnits: 0, simple: true, mapped: false, unmapped: false };
  readonly #shaped = new BoundedCache<string, ShapedRun>(SHAPE_CACHE_CAPACITY);
  /** The view `shape` shapes with, made on first use (see shapingFont). */
  #shaping: Font | undefined;

  constructor(key: string, bytes: Uint8Array, font: Font, widthScale = 1, glyphWidths?: ReadonlyMap<number, number>) {
    this.key = key;
    this.bytes = bytes;
    this.font = font;
    this.widthScale = widthScale;
    this.#glyphWidths = glyphWidths;
    const upm = font.unitsPerEm;
    this.#unitsPerEm = upm;
    const { 'OS/2': os2, hhea } = font as Font & SfntTables;
    const metrics = wordLineMetrics({
      unitsPerEm: upm,
      winAscent: os2?.winAscent,
      winDescent: os2?.winDescent,
      hheaAscent: hhea?.ascent ?? font.ascent,
      hheaDescent: hhea?.descent ?? font.descent,
      hheaLineGap: hhea?.lineGap ?? 0,
    });
    this.ascent = metrics.ascent;
    this.descent = metrics.descent;
    this.lineGap = metrics.lineGap;
    // post.underlinePosition: OpenType calls it the top of the stroke; many fonts put its centre.
    this.underlinePosition = font.underlinePosition / upm;
    this.underlineThickness = font.underlineThickness / upm;
    this.#standIns = standInsFor(font);
  }

  /**
   * The same font with every advance width multiplied by `scale`, under its own key (its own PDF
   * font: the W array carries the scaled widths, ISO 32000-1 §9.7.4.3, so a reader places the
   * glyphs where layout put them; the outlines keep their design). For a stand-in whose design is
   * close to a Word font's but whose widths are not (docs/fonts.md): its lines then hold what
   * Word's do. The parsed font and its decoded tables are shared; measuring caches are not.
   */
  widthScaled(scale: number): FontkitFace {
    const key = `${this.key}-w${Math.round(scale * 10000)}`;
    let scaled = this.#derived.get(key);
    if (!scaled) {
      scaled = new FontkitFace(key, this.bytes, this.font, scale);
      this.#derived.set(key, scaled);
    }
    return scaled;
  }

  /**
   * The same font measured with another font's advance widths: `widths` in thousandths of an em
   * by code point (word-widths.ts), each given to the glyph this font draws the code point with;
   * glyphs it does not list are scaled by `scale`. Its own PDF font, whose W array carries those
   * widths (ISO 32000-1 §9.7.4.3), named `name` ("DejaVuSans-Regular-verdana").
   */
  withWidths(name: string, widths: ReadonlyMap<number, number>, scale: number): FontkitFace {
    const key = `${this.key}-${name}`;
    let derived = this.#derived.get(key);
    if (!derived) {
      const upm = this.#unitsPerEm;
      const byGlyph = new Map<number, number>();
      for (const [codePoint, width] of widths) {
        const glyph = this.font.glyphForCodePoint(codePoint).id;
        if (glyph !== 0) byGlyph.set(glyph, (width * upm) / 1000);
      }
      derived = new FontkitFace(key, this.bytes, this.font, scale, byGlyph);
      this.#derived.set(key, derived);
    }
    return derived;
  }

  /** A glyph's advance in font units as this face measures it: a listed width, else scaled. */
  #glyphWidth(glyphId: number, fontAdvance: number): number {
    const listed = this.#glyphWidths?.get(glyphId);
    return listed ?? fontAdvance * this.widthScale;
  }

  /**
   * The parsed font for one conversion's painter: a view of `font` that shares its decoded tables
   * (cmap, hmtx, loca, GSUB, GPOS… fontkit decodes them lazily and keeps them) but has a glyph
   * cache and shaping state of its own, empty. fontkit makes each glyph object with the code points
   * that first reached it and pdf-lib writes the ToUnicode CMap (§9.10.3) from those, so a font
   * shared with measuring, or with the isolate's earlier conversions, would make the CMap depend on
   * what the isolate did before; a fresh parse per conversion gave the same bytes as this, at the
   * cost of parsing the file and decoding its tables again. Relies on fontkit 1.x internals:
   * `_glyphs`, the glyph cache, and `_layoutEngine`, a cached getter whose LayoutEngine keeps the
   * font it shapes with (test/pdf/paint-determinism.test.ts checks the outcome).
   */
  paintingFont(): Font {
    const base = this.font as Font & FontkitInternals;
    // Cache these on the base first, so that views inherit them instead of making their own.
    void base._cmapProcessor;
    void base._variationProcessor;
    void base.bbox;
    const view = Object.create(base) as Font & FontkitInternals;
    view._glyphs = {};
    const LayoutEngine = base._layoutEngine.constructor;
    // A cached getter stores its value as a read-only own property, so it is defined, not assigned.
    Object.defineProperty(view, '_layoutEngine', { value: new LayoutEngine(view) });
    return view;
  }

  /**
   * A painting view whose glyph objects are made anew for every glyph shaping asks for, so that
   * each carries the code points shaping tracked to it in this word. fontkit keeps one object per
   * glyph id, made with the code points that first reached it (fontkit 1.x getGlyph and its
   * `_glyphs` cache), so a glyph several characters share (see PaintFont's #code) would read as
   * the first of them everywhere, and the result of shaping would depend on what was shaped
   * before. Outlines are not needed, only ids, code points and advances; the metrics a glyph
   * decodes (hmtx, and the glyf header for its box) depend on its id alone, so they are shared
   * between the objects of one id (static fonts only: a variable font's depend on its axes).
   */
  #shapingFont(): Font {
    const font = this.paintingFont();
    const Glyph = font.getGlyph(0).constructor as new (
      id: number,
      codePoints: number[],
      font: Font,
    ) => { _metrics?: unknown; _getMetrics(): unknown };
    const shareMetrics = !(font as Font & FontkitInternals)._variationProcessor;
    const metrics = new Map<number, unknown>();
    Object.defineProperty(font, 'getGlyph', {
      value: (id: number, codePoints: number[] = []) => {
        const glyph = new Glyph(id, codePoints, font);
        if (shareMetrics) {
          const known = metrics.get(id);
          if (known) glyph._metrics = known;
          else metrics.set(id, glyph._getMetrics());
        }
        return glyph;
      },
    });
    return font;
  }

  /**
   * Shapes `prepared` (text as prepareText returns it, without spaces: a word) with
   * SHAPING_FEATURES; remembered per face, for measuring and the painter alike. The result depends
   * on the text alone (see #shapingFont), never on what the isolate shaped before.
   */
  shape(prepared: string): ShapedRun {
    const known = this.#shaped.get(prepared);
    if (known) return known;
    const { glyphs, positions, direction } = this.#layout(prepared);
    // fontkit swaps each default ignorable for the space glyph once shaping is done (fontkit 1.x
    // hideDefaultIgnorables); a word has no spaces, so those are the joiners prepareText kept, in
    // the order the glyphs are (visual: reversed for a right-to-left run).
    const joiners = [...prepared].filter((char) => isJoiner(char.codePointAt(0) ?? 0));
    if (direction === 'rtl') joiners.reverse();
    let joiner = 0;
    const glyphIds: number[] = [];
    const texts: string[] = [];
    const advances: number[] = [];
    /** Each joiner with the index of the glyph after it (visual order). */
    const hidden: [string, number][] = [];
    const shifts: number[] = [];
    let shifted = false;
    let advance = 0;
    glyphs.forEach((glyph, i) => {
      const codePoints = glyph.codePoints;
      if (joiner < joiners.length && codePoints.length === 1 && codePoints[0] === 0x20) {
        hidden.push([joiners[joiner++] as string, glyphIds.length]);
        return;
      }
      // A glyph GPOS moves (a mark onto its base, or a dot Noto Sans Arabic split off a letter,
      // with no text: see texts) is drawn where GPOS puts it as a glyph shifted in the font itself
      // (shifts), at the pen, not moved there by operators: poppler takes a glyph moved over the
      // one before for an overprint, or one raised for a new line, and ends the word there; and a
      // mark with text, moved into its base's box, read before its base and a space before it
      // (اوّلین came out "ا ّولین"). At the pen, with no advance, it reads just after its base.
      // Whole font units: the shifted copy's component offset is an integer (glyf).
      const position = positions[i];
      const dx = Math.round(position?.xOffset ?? 0);
      const dy = Math.round(position?.yOffset ?? 0);
      shifts.push(dx, dy);
      if (dx !== 0 || dy !== 0) shifted = true;
      glyphIds.push(glyph.id);
      texts.push(
        codePoints.length === 1 ? this.#charText(codePoints[0] as number) : String.fromCodePoint(...codePoints),
      );
      const glyphAdvance = this.#glyphWidth(glyph.id, glyph.advanceWidth);
      advances.push(glyphAdvance);
      advance += glyphAdvance;
    });
    // A joiner's text goes with the wider of the glyphs beside it: after the one before it, or
    // before the one after it, which reads the same in visual order. Text extractors share a
    // glyph's width among its characters (poppler), and a character that starts within a tenth
    // of an em of the one before reads to poppler as an overprinted duplicate, which ends the word.
    for (const [text, after] of hidden) {
      const before = after - 1;
      if (before >= 0 && (after >= texts.length || (advances[before] as number) >= (advances[after] as number))) {
        texts[before] += text;
      } else if (after < texts.length) texts[after] = text + texts[after];
    }
    const run: ShapedRun = { glyphIds, texts, advance };
    if (shifted) run.shifts = shifts;
    if (prepared.length <= MEASURE_CACHE_MAX_LENGTH) this.#shaped.set(prepared, run);
    return run;
  }

  /**
   * fontkit's layout of a word with SHAPING_FEATURES; without mark positioning when fontkit cannot
   * read the face's mark anchors (fontkit 1.x GPOSProcessor.getAnchor fails on a missing anchor,
   * which real faces have), so that such a word is drawn with its marks where the face puts them.
   */
  #layout(prepared: string): ReturnType<Font['layout']> {
    const font = this.#shaping ?? this.#shapingFont();
    this.#shaping = font;
    try {
      return font.layout(prepared, shapingFeatures());
    } catch {
      return font.layout(prepared, { ...shapingFeatures(), mark: false, mkmk: false });
    }
  }

  /** PostScript name, for the PDF's BaseFont; falls back to the key for nameless fonts. */
  get postscriptName(): string {
    return this.font.postscriptName || this.key;
  }

  hasGlyph(codePoint: number): boolean {
    const pageIndex = codePoint >> PAGE_BITS;
    let page = this.#glyphPages[pageIndex];
    if (!page) {
      page = new Uint8Array(1 << PAGE_BITS);
      this.#glyphPages[pageIndex] = page;
    }
    const known = page[codePoint & PAGE_MASK];
    if (known) return known === 2;
    const has =
      this.font.hasGlyphForCodePoint(codePoint) || isDefaultIgnorable(codePoint) || this.#standIns.has(codePoint);
    page[codePoint & PAGE_MASK] = has ? 2 : 1;
    return has;
  }

  hasGlyphsBelow(text: string, limit: number): boolean {
    // hasGlyph's table, read a page at a time: most words stay on one.
    let pageIndex = -1;
    let page: Uint8Array | undefined;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= limit) return false;
      if (unit < 0x20) continue;
      if (unit >> PAGE_BITS !== pageIndex) {
        pageIndex = unit >> PAGE_BITS;
        page = this.#glyphPages[pageIndex];
      }
      const known = page?.[unit & PAGE_MASK];
      if (known === 2) continue;
      if (known === 1 || !this.hasGlyph(unit)) return false;
      page = this.#glyphPages[pageIndex];
    }
    return true;
  }

  /** The text as it is shaped and painted (see shaping.ts); the painter encodes exactly this. */
  prepareText(text: string): string {
    // PLAIN text (nearly all Latin and Cyrillic) is already as shaping.ts would prepare it.
    for (let i = 0; i < text.length; i++) {
      if (CODE_UNIT_CLASS[text.charCodeAt(i)] !== PLAIN) return prepareText(text, this.#standIns);
    }
    return text;
  }

  /**
   * True when shaping `prepared` (text as prepareText returns it) gives the glyphs the cmap gives
   * its UTF-16 units, so that it can be measured and painted without shaping: BMP text whose
   * characters the font does not map (.notdef: a script no bundled face has, such as Arabic or CJK,
   * before fallback faces exist), and spaces, in a font with no AAT morx table and no GSUB lookup
   * that starts at .notdef or the space. A right-to-left run comes out of shaping reversed, which
   * neither its width nor a run without spaces (what the painter asks about) can tell.
   */
  shapesToNotdefs(prepared: string): boolean {
    let unmapped = false;
    for (let i = 0; i < prepared.length; i++) {
      const unit = prepared.charCodeAt(i);
      if (unit === 0x20) continue;
      if ((unit >= 0xd800 && unit <= 0xdfff) || this.hasGlyph(unit)) return false;
      unmapped = true;
    }
    if (!unmapped) return false;
    if (this.#notdefsStay === undefined) {
      const font = this.font as Font & SfntTables;
      try {
        this.#notdefsStay = !font.directory?.tables?.morx && !gsubStartsAt(font.GSUB, [0, this.glyphId(0x20)]);
      } catch {
        this.#notdefsStay = false; // a GSUB fontkit cannot read through: shape, as before
      }
    }
    return this.#notdefsStay;
  }

  /**
   * The plain pass over text[0, end) that measure starts with: the advances of PLAIN units and of
   * units the face lacks, summed in order, stopping at the first unit that needs more (`simple`
   * false); `headUnits` is the sum before `head` (-1: none wanted). Written to #plain.
   */
  #sumPlain(text: string, end: number, head: number): void {
    const sum = this.#plain;
    let units = 0;
    let headUnits = 0;
    let simple = true;
    let mapped = false;
    let unmapped = false;
    // The advance page of the last unit: words mostly stay on one.
    let pageIndex = -1;
    let page: Float64Array | undefined;
    for (let i = 0; i < end; i++) {
      if (i === head) headUnits = units;
      const unit = text.charCodeAt(i);
      const kind = CODE_UNIT_CLASS[unit];
      if (kind === PLAIN) {
        if (unit !== 0x20) mapped = true;
      } else if (kind === UNMAPPED_CANDIDATE && !this.hasGlyph(unit)) unmapped = true;
      else {
        simple = false;
        break;
      }
      if (unit >> PAGE_BITS !== pageIndex) {
        pageIndex = unit >> PAGE_BITS;
        page = this.#advancePage(pageIndex);
      }
      const advance = (page as Float64Array)[unit & PAGE_MASK] as number;
      units += Number.isNaN(advance) ? this.#advance(unit) : advance;
    }
    sum.units = units;
    sum.headUnits = headUnits;
    sum.simple = simple;
    sum.mapped = mapped;
    sum.unmapped = unmapped;
  }

  measure(text: string, end = text.length): number {
    // Without preparing, caching or shaping when every unit is PLAIN, or when the text is spaces
    // and characters the face lacks (see CODE_UNIT_CLASS).
    this.#sumPlain(text, end, -1);
    let { units } = this.#plain;
    const { simple, mapped, unmapped } = this.#plain;
    if (end < text.length) {
      // The head's own measure: the same sum when it is simple and mapped; else worked out alone.
      return simple && !unmapped ? units / this.#unitsPerEm : this.measure(text.slice(0, end));
    }
    if (simple && (!unmapped || (!mapped && this.shapesToNotdefs(text)))) return units / this.#unitsPerEm;
    const cacheable = text.length <= MEASURE_CACHE_MAX_LENGTH;
    if (cacheable) {
      const known = this.#widths.get(text);
      if (known !== undefined) return known;
    }
    const prepared = this.prepareText(text);
    units = 0;
    if (UNSHAPED_TEXT.test(prepared) || this.shapesToNotdefs(prepared)) {
      for (let i = 0; i < prepared.length; i++) units += this.#advance(prepared.charCodeAt(i));
    } else {
      // A word at a time, as the painter shapes and encodes it (see PaintFont.encode), so that
      // both find the same shaped words in the cache; spaces from the cmap.
      for (let start = 0; start < prepared.length; ) {
        let end = start + 1;
        if (prepared.charCodeAt(start) === 0x20) {
          units += this.#advance(0x20);
          start = end;
          continue;
        }
        while (end < prepared.length && prepared.charCodeAt(end) !== 0x20) end++;
        const word = prepared.slice(start, end);
        if (UNSHAPED_TEXT.test(word) || this.shapesToNotdefs(word)) {
          for (let i = 0; i < word.length; i++) units += this.#advance(word.charCodeAt(i));
        } else units += this.shape(word).advance;
        start = end;
      }
    }
    const width = units / this.#unitsPerEm;
    if (cacheable) this.#widths.set(text, width);
    return width;
  }

  measureWithHead(text: string, head: number, widths: Float64Array): void {
    // measure's plain pass, noting the sum where the head ends: the head's own pass would add the
    // same advances in the same order, so both numbers are measure's to the last bit.
    this.#sumPlain(text, text.length, head);
    const { units, headUnits, simple, unmapped } = this.#plain;
    if (simple && !unmapped && head < text.length) {
      widths[0] = units / this.#unitsPerEm;
      widths[1] = headUnits / this.#unitsPerEm;
      return;
    }
    widths[0] = this.measure(text);
    widths[1] = this.measure(text, head);
  }

  inkBounds(text: string): { top: number; bottom: number } | undefined {
    let top = Number.NEGATIVE_INFINITY;
    let bottom = Number.POSITIVE_INFINITY;
    let offsets: ArrayLike<number> | undefined;
    try {
      offsets = (this.font as Font & { loca?: { offsets?: ArrayLike<number> } }).loca?.offsets;
    } catch {
      return undefined;
    }
    for (const char of this.prepareText(text)) {
      const codePoint = char.codePointAt(0) ?? 0;
      if (/\s/u.test(char) || isDefaultIgnorable(codePoint)) continue;
      const id = this.glyphId(codePoint);
      // A glyph without outlines has no glyf entry: fontkit's box would be the next glyph's.
      if (offsets !== undefined && offsets[id] === offsets[id + 1]) continue;
      let box: { minY: number; maxY: number };
      try {
        box = this.font.getGlyph(id).cbox;
      } catch {
        continue; // a glyph fontkit cannot read: its ink is not known
      }
      if (!(box.maxY > box.minY)) continue;
      top = Math.max(top, box.maxY);
      bottom = Math.min(bottom, box.minY);
    }
    if (top === Number.NEGATIVE_INFINITY) return undefined;
    return { top: top / this.#unitsPerEm, bottom: bottom / this.#unitsPerEm };
  }

  /** The glyph the font's cmap gives a code point (0, .notdef, when it has none). */
  glyphId(codePoint: number): number {
    const pageIndex = codePoint >> PAGE_BITS;
    let page = this.#glyphIdPages[pageIndex];
    if (!page) {
      page = new Int32Array(1 << PAGE_BITS);
      this.#glyphIdPages[pageIndex] = page;
    }
    const known = page[codePoint & PAGE_MASK] as number;
    if (known) return known - 1;
    const id = this.font.glyphForCodePoint(codePoint).id;
    page[codePoint & PAGE_MASK] = id + 1;
    return id;
  }

  /** A glyph's advance width in font units (what pdf-lib and measuring use: fontkit's advanceWidth). */
  glyphAdvance(glyphId: number): number {
    const pageIndex = glyphId >> PAGE_BITS;
    let page = this.#glyphAdvancePages[pageIndex];
    if (!page) {
      page = new Float64Array(1 << PAGE_BITS).fill(Number.NaN);
      this.#glyphAdvancePages[pageIndex] = page;
    }
    let advance = page[glyphId & PAGE_MASK] as number;
    if (Number.isNaN(advance)) {
      advance = this.#glyphWidth(glyphId, this.font.getGlyph(glyphId).advanceWidth);
      page[glyphId & PAGE_MASK] = advance;
    }
    return advance;
  }

  /** One string per code point for the texts of shaped words, which are mostly single letters. */
  #charText(codePoint: number): string {
    const pageIndex = codePoint >> PAGE_BITS;
    let page = this.#charTextPages[pageIndex];
    if (!page) {
      page = [];
      this.#charTextPages[pageIndex] = page;
    }
    let text = page[codePoint & PAGE_MASK];
    if (text === undefined) {
      text = String.fromCodePoint(codePoint);
      page[codePoint & PAGE_MASK] = text;
    }
    return text;
  }

  #advancePage(pageIndex: number): Float64Array {
    let page = this.#advancePages[pageIndex];
    if (!page) {
      page = new Float64Array(1 << PAGE_BITS).fill(Number.NaN);
      this.#advancePages[pageIndex] = page;
    }
    return page;
  }

  #advance(codePoint: number): number {
    const page = this.#advancePage(codePoint >> PAGE_BITS);
    let advance = page[codePoint & PAGE_MASK] as number;
    if (Number.isNaN(advance)) {
      const glyph = this.font.glyphForCodePoint(codePoint);
      advance = this.#glyphWidth(glyph.id, glyph.advanceWidth);
      page[codePoint & PAGE_MASK] = advance;
    }
    return advance;
  }

  /** Entries in the cache of shaped words (for tests of its bound). */
  get shapedCount(): number {
    return this.#shaped.size;
  }

  /** Entries in the width cache, which only text off the plain path uses (for tests of its bound). */
  get measuredCount(): number {
    return this.#widths.size;
  }
}

/**
 * True for an sfnt with TrueType outlines: version 0x00010000 or 'true'. CFF ('OTTO'), WOFF,
 * WOFF2 and collections are refused: fontkit subsets CFF poorly and cannot subset WOFF2
 * (TOOLCHAIN.md), and the PDF embeds TrueType (docs/engine.md "Embedding").
 */
export function isTrueTypeSfnt(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const tag = ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0);
  return tag === 0x00010000 || tag === 0x74727565; // 'true'
}

/**
 * Parses TrueType bytes into a face, or undefined when fontkit cannot read them or they are not
 * TrueType: callers skip such a font (an embedded font) or report it (a bundled one).
 */
export function parseTrueTypeFace(key: string, bytes: Uint8Array): FontkitFace | undefined {
  if (!isTrueTypeSfnt(bytes)) return undefined;
  try {
    const font = fontkit.create(bytes);
    if (!(font as Font & SfntTables).directory?.tables?.glyf || font.unitsPerEm <= 0) return undefined;
    // fontkit decodes tables lazily: shape once now so a broken cmap or GSUB fails here, not
    // in the middle of layout.
    font.layout('Ag', shapingFeatures());
    return new FontkitFace(key, bytes, font);
  } catch {
    return undefined;
  }
}
