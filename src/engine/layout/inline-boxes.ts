/**
 * A paragraph's inlines as measured boxes grouped into unbreakable segments: the input of the
 * line breaker. Break opportunities follow UAX #14 over the whole paragraph text, so a word split
 * across runs (bold "foo" + plain "bar") stays one segment.
 */

import { MAX_PARAGRAPH_CHARACTERS, tooComplex } from '../../limits';
import {
  chineseFontVariant,
  type EastAsianVariant,
  eastAsianVariant,
  type FontFace,
  type FontRequest,
  type FontSet,
  isAmbiguousQuote,
  isDefaultIgnorable,
  isOwnFaceKey,
  isSurelyComposed,
  scriptClassOf,
  standInLineMetrics,
} from '../fonts';
import {
  type Inline,
  type LinkTarget,
  mathText,
  type Paragraph,
  type ParagraphProperties,
  type PositionalTab,
  type RevisionMark,
  type RunProperties,
} from '../model';
import { hasRightToLeft, lineBreakOpportunities, trailingWhiteSpaceStart } from '../text';
import { layoutMath, type MathBox } from './math-layout';

export type BoxKind = 'text' | 'tab' | 'image' | 'drawing' | 'field' | 'anchor' | 'math';

export interface Box {
  kind: BoxKind;
  /** Text as painted (caps applied); for fields the placeholder used for measuring. */
  text: string;
  face: FontFace;
  /** Point size as painted (superscript and small caps already scaled). */
  size: number;
  props: RunProperties;
  width: number;
  ascent: number;
  descent: number;
  /** Baseline shift, points, positive = up (superscript, w:position). */
  rise: number;
  /** Whitespace only: hangs past the line end and is not counted when fitting. */
  space: boolean;
  /**
   * The width of the text before its first space when everything from that space on is white
   * space (a word and the spaces after it): justification splits the word off and would measure
   * it again. Only set on a box whose text is that word and its spaces.
   */
  headWidth?: number;
  /**
   * The width without the trailing white space, when the box was measured with it in one pass
   * (trimmedBox): what finishSegment would measure again.
   */
  keptWidth?: number;
  /**
   * The text has a strong right-to-left character (bidi-reorder.ts hasRightToLeft), found when the
   * box is made: layout asks once per paragraph whether its lines need reordering.
   */
  rightToLeft?: boolean;
  /** Characters of the East Asian slot (ideographs, kana, their punctuation), set in a CJK face. */
  eastAsian?: boolean;
  link?: LinkTarget;
  revision?: RevisionMark;
  /** image: the resource id; anchor: the bookmark name; field: the inline it came from. */
  imageId?: string;
  /** The mark of a footnote or endnote reference: page flow puts the note on this line's page. */
  note?: NoteTarget;
  anchor?: string;
  field?: Extract<Inline, { kind: 'field' }>;
  /** A chart, shape or SmartArt drawing, painted by engine/pages/drawing-layout.ts. */
  drawing?: Extract<Inline, { kind: 'drawing' }>;
  /** An equation or a piece of one, set by math-layout.ts: its items are relative to the box's baseline. */
  math?: MathBox;
  /** Display math: the line it is alone on is aligned this way, not as the paragraph is. */
  displayMath?: 'left' | 'right' | 'center';
  /** tab: an absolute position tab (w:ptab), which ignores the tab stops (line-breaker.ts). */
  ptab?: PositionalTab;
}

/** A piece of a laid-out line: a box, or a word of one in a justified line (paragraph-layout.ts). */
export interface Fragment {
  box: Box;
  /** Text painted by this fragment (a word of a justified line, or the whole box). */
  text: string;
  x: number;
  width: number;
  leader?: string;
  /** At an odd bidi level (UAX #9): its text is right to left, so a neighbour to its left follows it. */
  rtl?: boolean;
}

export interface NoteTarget {
  note: 'footnote' | 'endnote';
  id: string;
}

/** Where a box came from: what it links to, the change it belongs to, the note it refers to. */
interface BoxSource {
  link?: LinkTarget;
  revision?: RevisionMark;
  note?: NoteTarget;
}

export interface Segment {
  boxes: Box[];
  /** Width without trailing spaces. */
  width: number;
  /** Width of trailing spaces (kept when the segment is not last on its line). */
  trailing: number;
  /**
   * Of `trailing`, the hanging punctuation (HANGING_PUNCTUATION): visible, so it counts at a line
   * end when it fits the measure.
   */
  hanging?: number;
  /** A hard break follows this segment. */
  breakAfter?: 'line' | 'page' | 'column';
}

/** Word scales super- and subscript to about two thirds and shifts them by a third / a sixth. */
const SCRIPT_SCALE = 0.65;
const SMALL_CAPS_SCALE = 0.8;

export function faceFor(fonts: FontSet, props: RunProperties): FontFace {
  return fonts.face({ family: props.font, bold: props.bold, italic: props.italic });
}

/**
 * Ascent and descent per 1 pt that a run's face gives a line, the external leading below the
 * descent (word-line-metrics.ts). A bundled stand-in takes the metrics of the font the run names
 * (Caladea drawing Cambria is as tall as Cambria); a font embedded in the document, or brought by the
 * caller, is the real one.
 */
export function verticalMetrics(face: FontFace, family: string): { ascent: number; descent: number } {
  const { ascent, descent, lineGap } = lineMetricsOf(face, family);
  return { ascent, descent: descent + lineGap };
}

/** The face's or its stand-in's line metrics, as they are (verticalMetrics without a new object). */
function lineMetricsOf(face: FontFace, family: string): { ascent: number; descent: number; lineGap: number } {
  return (!isOwnFaceKey(face.key) && standInLineMetrics(family)) || face;
}

/** The face request for complex-script characters: w:cs face, w:bCs and w:iCs (not w:b, w:i). */
export function complexFontRequest(props: RunProperties): { family: string; bold: boolean; italic: boolean } {
  return {
    family: props.fontComplex ?? props.font,
    bold: props.boldComplex === true,
    italic: props.italicComplex === true,
  };
}

/** `size` (the run's own by default) as painted: super- and subscript smaller. */
function scriptSize(props: RunProperties, size = props.size): number {
  return props.verticalAlign === 'baseline' ? size : size * SCRIPT_SCALE;
}

function rise(props: RunProperties): number {
  const shift =
    props.verticalAlign === 'superscript' ? props.size / 3 : props.verticalAlign === 'subscript' ? -props.size / 6 : 0;
  return shift + props.position;
}

/**
 * `metrics` is the face whose ascent and descent the box takes: the face the run asked for, also
 * when a fallback face draws it. Word, which has the document's font, gets the line height from
 * that font; Noto Sans Arabic is far taller (2.17 em against Times New Roman's 1.15 em) and
 * would spread the lines.
 */
function textBox(
  text: string,
  face: FontFace,
  size: number,
  props: RunProperties,
  source: BoxSource,
  metrics: FontFace = face,
): Box {
  // verticalMetrics, without making an object per word.
  const vertical = lineMetricsOf(metrics, props.font);
  return measuredText(
    text,
    face,
    size,
    props,
    vertical.ascent * size,
    (vertical.descent + vertical.lineGap) * size,
    rise(props),
    source,
    true,
  );
}

/** Scratch for FontFace.measureWithHead, read right after each call. */
const widths = new Float64Array(2);

/**
 * A text box, measured. A word with trailing white space (most words: segments end after their
 * spaces) is measured with and without it in one pass, for finishSegment.
 */
function measuredText(
  text: string,
  face: FontFace,
  size: number,
  props: RunProperties,
  ascent: number,
  descent: number,
  rise: number,
  source: BoxSource,
  /** False for text known to be below U+0590 (plainBox's), which has no right-to-left character. */
  mayBeRightToLeft: boolean,
): Box {
  const characterSpacing = props.characterSpacing;
  const spacing = characterSpacing === 0 ? 0 : characterSpacing * [...text].length;
  const keep = trailingWhiteSpaceStart(text);
  let width: number;
  let keptWidth: number | undefined;
  if (keep > 0 && keep < text.length) {
    face.measureWithHead(text, keep, widths);
    width = (widths[0] as number) * size + spacing;
    // finishSegment's sum, term for term.
    keptWidth =
      (widths[1] as number) * size + (characterSpacing === 0 ? 0 : characterSpacing * [...text.slice(0, keep)].length);
  } else width = face.measure(text) * size + spacing;
  // Every field a box may get, in newBox's order, from the start (see there).
  return {
    kind: 'text',
    text,
    face,
    size,
    props,
    width,
    ascent,
    descent,
    rise,
    // isAllWhiteSpace(text)
    space: text.length > 0 && keep === 0,
    headWidth: undefined,
    keptWidth,
    rightToLeft: mayBeRightToLeft && hasRightToLeft(text) ? true : undefined,
    eastAsian: undefined,
    link: source.link,
    revision: source.revision,
    note: source.note,
    imageId: undefined,
    anchor: undefined,
    field: undefined,
    drawing: undefined,
    math: undefined,
    displayMath: undefined,
    ptab: undefined,
  };
}

/**
 * A box with every field Box has, those not given undefined: all boxes, of every kind, have one
 * shape (measuredText's literal has the same fields in the same order). Boxes made with some
 * fields and given others later came in a dozen hidden classes, and every site reading them (line
 * breaking, line metrics, justification, painting) went megamorphic; adding a field also grew a
 * second array onto most boxes.
 */
export function newBox(
  kind: BoxKind,
  text: string,
  face: FontFace,
  size: number,
  props: RunProperties,
  width: number,
  ascent: number,
  descent: number,
): Box {
  return {
    kind,
    text,
    face,
    size,
    props,
    width,
    ascent,
    descent,
    rise: 0,
    space: false,
    headWidth: undefined,
    keptWidth: undefined,
    rightToLeft: undefined,
    eastAsian: undefined,
    link: undefined,
    revision: undefined,
    note: undefined,
    imageId: undefined,
    anchor: undefined,
    field: undefined,
    drawing: undefined,
    math: undefined,
    displayMath: undefined,
    ptab: undefined,
  };
}

/**
 * What the boxes of one run share, worked out once per run rather than once per word: the face,
 * size and metrics textBox would find for text the run's own face draws.
 */
interface RunStyle {
  props: RunProperties;
  primary: FontFace;
  /** Point size as painted (scriptSize). */
  size: number;
  rise: number;
  /** The primary face's ascent and descent with external leading at `size` (textBox's). */
  ascent: number;
  descent: number;
  /** No caps, small caps, w:rtl or w:cs: text the primary face has is one box (measuredBoxes). */
  plain: boolean;
  /** What measuredBoxes asks for characters outside the primary face, once it first does. */
  scripts?: ScriptRequests;
  complexFace?: FontFace;
  /** The run's East Asian face (w:eastAsia), once measuredBoxes first asks for it. */
  eastAsiaFace?: FontFace;
  /**
   * The face whose line metrics measuredBoxes last gave a box, and those metrics (lineMetricsOf):
   * a run of CJK text is a box per character, and the stand-in lookup normalises the family name.
   */
  metricsFace?: FontFace;
  metrics?: { ascent: number; descent: number; lineGap: number };
}

/**
 * East Asian and complex-script characters take the run's w:eastAsia and w:cs faces (§17.3.2.26);
 * complex-script ones, and all of a w:rtl or w:cs run, its szCs/bCs/iCs too.
 */
interface ScriptRequests {
  request: FontRequest;
  eastAsiaRequest: FontRequest;
  complexRequest: FontRequest;
  /** A w:rtl or w:cs run: its Latin text takes the complex-script face and size too. */
  allComplex: boolean;
  variant: EastAsianVariant;
  complexSize: number;
}

function scriptRequests(props: RunProperties): ScriptRequests {
  const request = { family: props.font, bold: props.bold, italic: props.italic };
  return {
    request,
    eastAsiaRequest: props.fontEastAsia ? { ...request, family: props.fontEastAsia } : request,
    complexRequest: complexFontRequest(props),
    allComplex: props.rtl === true || props.complexScript === true,
    variant: eastAsianVariant(props.fontEastAsia, props.languageEastAsia),
    complexSize: scriptSize(props, props.sizeComplex ?? props.size),
  };
}

function runStyle(props: RunProperties, fonts: FontSet): RunStyle {
  const primary = faceFor(fonts, props);
  const size = scriptSize(props);
  const vertical = lineMetricsOf(primary, props.font);
  return {
    props,
    primary,
    size,
    rise: rise(props),
    ascent: vertical.ascent * size,
    descent: (vertical.descent + vertical.lineGap) * size,
    plain: !props.caps && !props.smallCaps && !props.rtl && !props.complexScript,
  };
}

/** textBox for text of a plain run that its primary face draws (the common case), from the run's style. */
function plainBox(text: string, style: RunStyle, source: BoxSource): Box {
  return measuredText(
    text,
    style.primary,
    style.size,
    style.props,
    style.ascent,
    style.descent,
    style.rise,
    source,
    false,
  );
}

/**
 * Splits `text` into boxes of one face each: characters the run's face lacks go to a fallback
 * face (docs/engine.md "Glyph fallback"), and small caps set lower-case letters smaller.
 */
function measuredBoxes(text: string, style: RunStyle, fonts: FontSet, source: BoxSource): Box[] {
  const { props, primary, size } = style;
  // Most text is one box: no caps, nothing past U+058F, every character in the run's face.
  if (style.plain && inPrimaryFace(text, primary)) return text === '' ? [] : [plainBox(text, style, source)];
  style.scripts ??= scriptRequests(props);
  const { request, eastAsiaRequest, complexRequest, allComplex, variant, complexSize } = style.scripts;
  const complexPrimary = allComplex ? complexFaceOf(style, complexRequest, fonts) : primary;
  const boxes: Box[] = [];
  // Characters shown as they are make boxes of slices of `text` (from `from`); caps and small
  // caps, which may change a character's length, of the characters shown, gathered in `current`.
  const transform = props.caps || props.smallCaps;
  let current = '';
  let from = 0;
  let currentFace = primary;
  let currentMetrics = primary;
  let currentSize = size;
  let currentEastAsian = false;
  for (let i = 0, next = 0; i < text.length; i = next) {
    let cp = text.codePointAt(i) as number;
    next = i + (cp > 0xffff ? 2 : 1);
    let shown = '';
    let chSize = size;
    if (transform) {
      const ch = text.slice(i, next);
      shown = ch.toUpperCase();
      if (props.smallCaps && shown !== ch) chSize = size * SMALL_CAPS_SCALE;
      cp = shown.codePointAt(0) ?? 32;
    }
    // A default ignorable draws nothing and belongs to the letters around it: a ZWNJ inside a
    // Persian word stays in the word's face, which shapes with it (shaping.ts isJoiner), rather
    // than going to the run's own face, which has it (every face "has" the ignorables) but not
    // the letters around it.
    if ((transform ? current !== '' : i > from) && isDefaultIgnorable(cp)) {
      current += shown;
      continue;
    }
    let face = primary;
    let metrics = primary;
    const scriptClass = cp >= 0x0590 ? scriptClassOf(cp) : 'latin';
    let eastAsian = scriptClass === 'eastAsia';
    const quoteFace = isAmbiguousQuote(cp) ? chineseQuoteFace(cp, props, fonts) : undefined;
    if (quoteFace) {
      face = quoteFace;
      metrics = quoteFace;
      eastAsian = true;
    } else if (scriptClass === 'complex' || (allComplex && scriptClass === 'latin')) {
      chSize = complexSize;
      const own = allComplex ? complexPrimary : complexFaceOf(style, complexRequest, fonts);
      face = cp < 32 || own.hasGlyph(cp) ? own : (fonts.fallback(cp, complexRequest, variant) ?? own);
      metrics = own;
    } else if (scriptClass === 'eastAsia') {
      const own = eastAsiaFaceOf(style, eastAsiaRequest, fonts);
      face = own.hasGlyph(cp) ? own : (fonts.fallback(cp, eastAsiaRequest, variant) ?? own);
      // East Asian lines keep the CJK face's own height: closer to what Word and LibreOffice
      // give with their CJK faces than a Latin substitute's (test corpus: Japanese 10 pages
      // with it, 8 without, against LibreOffice's 10).
      metrics = face;
    } else if (cp >= 32 && !primary.hasGlyph(cp)) face = fonts.fallback(cp, request, variant) ?? primary;
    if (
      face !== currentFace ||
      chSize !== currentSize ||
      metrics !== currentMetrics ||
      eastAsian !== currentEastAsian
    ) {
      if (transform ? current !== '' : i > from) {
        boxes.push(
          faceRunBox(
            transform ? current : text.slice(from, i),
            currentFace,
            currentSize,
            style,
            source,
            currentMetrics,
            currentEastAsian,
          ),
        );
      }
      current = '';
      from = i;
      currentFace = face;
      currentMetrics = metrics;
      currentSize = chSize;
      currentEastAsian = eastAsian;
    }
    current += shown;
  }
  if (transform ? current !== '' : text.length > from) {
    boxes.push(
      faceRunBox(
        transform ? current : text.slice(from),
        currentFace,
        currentSize,
        style,
        source,
        currentMetrics,
        currentEastAsian,
      ),
    );
  }
  return boxes;
}

/** The run's w:cs face, asked for once per run. */
function complexFaceOf(style: RunStyle, request: FontRequest, fonts: FontSet): FontFace {
  style.complexFace ??= fonts.face(request);
  return style.complexFace;
}

/** The run's w:eastAsia face, asked for once per run rather than once per character. */
function eastAsiaFaceOf(style: RunStyle, request: FontRequest, fonts: FontSet): FontFace {
  style.eastAsiaFace ??= fonts.face(request);
  return style.eastAsiaFace;
}

/** A box of measuredBoxes: textBox, with the metrics face's line metrics remembered on the run's style. */
function faceRunBox(
  text: string,
  face: FontFace,
  size: number,
  style: RunStyle,
  source: BoxSource,
  metrics: FontFace,
  eastAsian: boolean,
): Box {
  if (style.metricsFace !== metrics || !style.metrics) {
    style.metricsFace = metrics;
    style.metrics = lineMetricsOf(metrics, style.props.font);
  }
  const vertical = style.metrics;
  const box = measuredText(
    text,
    face,
    size,
    style.props,
    vertical.ascent * size,
    (vertical.descent + vertical.lineGap) * size,
    style.rise,
    source,
    true,
  );
  if (eastAsian) box.eastAsian = true;
  return box;
}

/** The font of a run's curly quotation marks: hAnsi, or eastAsia under w:hint (fallback-faces.ts isAmbiguousQuote). */
export function quoteFont(props: RunProperties): string {
  return props.fontHintEastAsia ? (props.fontEastAsia ?? props.font) : props.font;
}

/** A character every CJK face has: asking for its face finds the face of the run's ideographs. */
const IDEOGRAPH = 0x4e00;

/**
 * The face of a curly quotation mark whose rFonts slot (hAnsi, or eastAsia under w:hint) names a
 * Chinese font: the face that draws the run's ideographs, in which the mark is full-width as in
 * SimSun (fallback-faces.ts chineseFontVariant). Undefined for any other slot font.
 */
function chineseQuoteFace(cp: number, props: RunProperties, fonts: FontSet): FontFace | undefined {
  const slotFont = quoteFont(props);
  const variant = chineseFontVariant(slotFont);
  if (!variant) return undefined;
  const face = fonts.fallback(IDEOGRAPH, { family: slotFont, bold: props.bold, italic: props.italic }, variant, true);
  return face?.hasGlyph(cp) ? face : undefined;
}

/** True when measuredBoxes would give every character of `text` to `primary` at the run's size. */
function inPrimaryFace(text: string, primary: FontFace): boolean {
  return primary.hasGlyphsBelow(text, 0x0590);
}

const OBJECT = '\uFFFC';

/** One entry per inline, aligned with the paragraph string built for break analysis. */
interface Piece {
  inline: Inline;
  start: number;
  end: number;
}

/**
 * One box for a field's result, painted whole with one face (its value is known only when the
 * page is painted): the face of the first piece that shows something, so that a result in
 * another script than the run's face has ("\u200cأ", an Arabic page number after its joiner
 * control) is drawn in the face that has it, as wide as all its pieces.
 */
function fieldBox(boxes: Box[]): Box | undefined {
  if (boxes.length <= 1) return boxes[0];
  const visible = (box: Box) => [...box.text].some((ch) => !isDefaultIgnorable(ch.codePointAt(0) as number));
  const main = boxes.find(visible) ?? (boxes[0] as Box);
  let width = 0;
  let ascent = 0;
  let descent = 0;
  let text = '';
  for (const box of boxes) {
    width += box.width;
    ascent = Math.max(ascent, box.ascent);
    descent = Math.max(descent, box.descent);
    text += box.text;
  }
  return { ...main, text, width, ascent, descent };
}

/** Text a field is measured with before its value is known: Word's cached result, or a digit. */
function fieldPlaceholder(inline: Extract<Inline, { kind: 'field' }>): string {
  return inline.cached.trim() || '0';
}

function pieceText(inline: Inline): string {
  switch (inline.kind) {
    case 'text':
      // NFC first: a base letter and a combining accent must not split across fallback faces.
      return inline.props.hidden ? '' : composed(inline.text);
    case 'tab':
      return '\t';
    case 'break':
      return '\n';
    case 'image':
    case 'drawing':
      return OBJECT;
    case 'field':
      return fieldPlaceholder(inline);
    case 'bookmark':
      return '';
    case 'noteReference':
      return inline.props.hidden ? '' : composed(inline.mark);
    case 'math':
      // An equation stands alone like a picture (math-layout.ts sets it; inline math may break
      // between its pieces).
      return inline.props.hidden ? '' : OBJECT;
  }
}

/** `text` in NFC, without normalising (which makes a new string) the text that is already. */
function composed(text: string): string {
  return isSurelyComposed(text) ? text : text.normalize('NFC');
}

/**
 * Where segments end, ascending: the UAX #14 break positions (offsets into `text` after which a
 * line may end), and both sides of every object and explicit break, which always delimit
 * segments; never 0, always `text.length` when there is text.
 */
function cutPositions(text: string, pieces: readonly Piece[]): number[] {
  // Ascending, above 0, the last one text.length.
  const cuts = lineBreakOpportunities(text);
  let objects = false;
  for (const piece of pieces) {
    const objectKind = piece.inline.kind;
    if (
      objectKind === 'tab' ||
      objectKind === 'image' ||
      objectKind === 'drawing' ||
      objectKind === 'break' ||
      (objectKind === 'math' && piece.end > piece.start)
    ) {
      cuts.push(piece.start, piece.end);
      objects = true;
    }
  }
  if (!objects) return cuts;
  cuts.sort((a, b) => a - b);
  let kept = 0;
  for (const cut of cuts) if (cut > 0 && cut !== cuts[kept - 1]) cuts[kept++] = cut;
  cuts.length = kept;
  return cuts;
}

/**
 * The boxes of a segment being made that has none yet: shared, never added to (addBox replaces
 * it), and never handed on (closeSegment gives a kept segment its own).
 */
const NO_BOXES: Box[] = [];

/**
 * Adds a box to a segment. Its first box makes the array, sized for one: most segments are one
 * word, and a first push would size it for seventeen.
 */
function addBox(segment: Segment, box: Box): void {
  if (segment.boxes.length === 0) segment.boxes = [box];
  else segment.boxes.push(box);
}

/**
 * The 422 of a paragraph past MAX_PARAGRAPH_CHARACTERS (counted in UTF-16 units, as the text is
 * held). Every paragraph of every source format (DOCX, Markdown, HTML; body, table cell, header,
 * note, text box) is segmented here before it is laid out, so this is the one place it is checked.
 */
function paragraphTooLong(): Error {
  const limit = MAX_PARAGRAPH_CHARACTERS.toLocaleString('en-US');
  return tooComplex(`a paragraph holds more than ${limit} characters`, `${limit} characters per paragraph`);
}

/** Turns a paragraph's inlines into segments of measured boxes. */
export function paragraphSegments(paragraph: Paragraph, fonts: FontSet): Segment[] {
  const pieces: Piece[] = [];
  let text = '';
  // An equation counts its characters too, though it stands in the text as one object.
  let mathCharacters = 0;
  for (const inline of paragraph.inlines) {
    const piece = pieceText(inline);
    pieces.push({ inline, start: text.length, end: text.length + piece.length });
    text += piece;
    if (inline.kind === 'math' && piece !== '') mathCharacters += mathText(inline.nodes).length;
    if (text.length + mathCharacters > MAX_PARAGRAPH_CHARACTERS) throw paragraphTooLong();
  }
  const cuts = cutPositions(text, pieces);

  const segments: Segment[] = [];
  let segment: Segment = { boxes: NO_BOXES, width: 0, trailing: 0 };
  let cutIndex = 0;
  // East Asian autospace (w:autoSpaceDE, w:autoSpaceDN, on by default, ECMA-376 Part 1
  // §17.3.1.2–3): a quarter em between ideographs or kana and Latin letters or digits. It widens
  // the box before the boundary, in whichever segment that box is.
  let lastText: Box | undefined;
  let lastTextSegment: Segment | undefined;
  const pushText = (box: Box) => {
    if (lastText && lastTextSegment) {
      const gap = autoSpace(lastText, box, paragraph.props);
      if (gap > 0) {
        lastText.width += gap;
        if (lastTextSegment !== segment) lastTextSegment.width += gap;
      }
    }
    addBox(segment, box);
    lastText = box;
    lastTextSegment = segment;
  };
  const closeSegment = () => {
    finishSegment(segment);
    if (segment.boxes.length > 0) segments.push(segment);
    else if (segment.breakAfter) {
      segment.boxes = [];
      segments.push(segment);
    }
    segment = { boxes: NO_BOXES, width: 0, trailing: 0 };
  };

  let style: RunStyle | undefined;
  // After display math, what follows starts a line of its own (§22.1.2.77: an m:oMathPara is
  // its own lines of the paragraph).
  let afterDisplay = false;
  for (const piece of pieces) {
    const { inline } = piece;
    if (inline.kind === 'bookmark') {
      addBox(segment, anchorBox(inline.name, paragraph, fonts));
      continue;
    }
    if (afterDisplay && piece.end > piece.start) {
      breakLineBefore(segments, segment, closeSegment);
      afterDisplay = false;
    }
    if (inline.kind === 'math') {
      if (piece.end === piece.start) continue;
      if (inline.display) breakLineBefore(segments, segment, closeSegment);
      lastText = undefined;
      const face = faceFor(fonts, inline.props);
      // The line keeps at least the height the paragraph's text would give it.
      const vertical = verticalMetrics(face, inline.props.font);
      for (const part of layoutMath(inline, fonts)) {
        const box = newBox(
          'math',
          '',
          face,
          inline.props.size,
          inline.props,
          part.width,
          Math.max(part.ascent, vertical.ascent * inline.props.size),
          Math.max(part.descent, vertical.descent * inline.props.size),
        );
        box.math = part;
        if (inline.display) box.displayMath = inline.justification ?? 'center';
        box.link = inline.link;
        box.revision = inline.revision;
        addBox(segment, box);
        closeSegment();
      }
      afterDisplay = inline.display;
      while (cutIndex < cuts.length && (cuts[cutIndex] ?? 0) <= piece.end) cutIndex++;
      continue;
    }
    if (inline.kind !== 'text' && inline.kind !== 'noteReference') lastText = undefined;
    if (inline.kind === 'break') {
      segment.breakAfter = inline.type;
      closeSegment();
      while (cutIndex < cuts.length && (cuts[cutIndex] ?? 0) <= piece.end) cutIndex++;
      continue;
    }
    // Assigned rather than spread in (one object per inline, not three).
    const source: BoxSource = {};
    if (inline.link) source.link = inline.link;
    if (inline.revision) source.revision = inline.revision;
    if (inline.kind === 'tab' || inline.kind === 'image' || inline.kind === 'drawing') {
      // Tabs, pictures and drawings stand alone: each is its own segment, sized by the line
      // breaker (tabs) or by the document (pictures and drawings, which sit on the baseline; a
      // floating drawing takes no room at all).
      const face = faceFor(fonts, inline.props);
      const vertical = verticalMetrics(face, inline.props.font);
      const picture = inline.kind === 'image' || (inline.kind === 'drawing' && !inline.floating);
      const box = newBox(
        inline.kind,
        '',
        face,
        inline.props.size,
        inline.props,
        picture ? inline.width : 0,
        picture ? inline.height : inline.kind === 'drawing' ? 0 : vertical.ascent * inline.props.size,
        picture || inline.kind === 'drawing' ? 0 : vertical.descent * inline.props.size,
      );
      if (inline.kind === 'image') box.imageId = inline.imageId;
      if (inline.kind === 'drawing') box.drawing = inline;
      if (inline.kind === 'tab' && inline.absolute) box.ptab = inline.absolute;
      box.link = source.link;
      box.revision = source.revision;
      addBox(segment, box);
      closeSegment();
      while (cutIndex < cuts.length && (cuts[cutIndex] ?? 0) <= piece.end) cutIndex++;
      continue;
    }
    if (inline.kind === 'field') {
      const box = fieldBox(measuredBoxes(fieldPlaceholder(inline), runStyle(inline.props, fonts), fonts, source));
      if (box) addBox(segment, { ...box, kind: 'field', field: inline, space: false });
      while (cutIndex < cuts.length && (cuts[cutIndex] ?? 0) < piece.end) cutIndex++;
      if (cuts[cutIndex] === piece.end) {
        closeSegment();
        cutIndex++;
      }
      continue;
    }
    if (inline.kind === 'noteReference') {
      source.note = { note: inline.note, id: inline.id };
      // A mark that prints nothing still ties its note to this line.
      if (piece.start === piece.end)
        addBox(segment, textBox('', faceFor(fonts, inline.props), 0, inline.props, source));
    }
    // Text and note marks: cut at every break position inside. Neighbouring runs mostly share
    // their (interned) properties, and so their style.
    if (style?.props !== inline.props) style = runStyle(inline.props, fonts);
    let from = piece.start;
    while (from < piece.end) {
      while (cutIndex < cuts.length && (cuts[cutIndex] ?? 0) <= from) cutIndex++;
      const cut = Math.min(cuts[cutIndex] ?? piece.end, piece.end);
      const part = text.slice(from, cut);
      if (part) {
        if (style.plain && inPrimaryFace(part, style.primary)) pushText(plainBox(part, style, source));
        else {
          const boxes = measuredBoxes(part, style, fonts, source);
          for (let b = 0; b < boxes.length; b++) pushText(boxes[b] as Box);
        }
      }
      if (cut === cuts[cutIndex]) {
        closeSegment();
        cutIndex++;
      }
      from = cut;
    }
  }
  closeSegment();
  return segments;
}

/**
 * Ends the line before what comes next: the segment being made is closed, and the last segment
 * made breaks the line after it, unless nothing precedes in the paragraph or a break already does.
 */
function breakLineBefore(segments: Segment[], pending: Segment, closeSegment: () => void): void {
  // Bookmarks alone stay with what follows: they would make an empty line of their own.
  if (pending.boxes.some((box) => box.kind !== 'anchor')) closeSegment();
  const last = segments[segments.length - 1];
  if (last && !last.breakAfter) last.breakAfter = 'line';
}

/** Ideographs and kana: the East Asian side of autospace (a UTF-16 unit). */
function isAutoSpaceEastAsian(unit: number): boolean {
  return (
    (unit >= 0x3040 && unit <= 0x30ff) ||
    (unit >= 0x3400 && unit <= 0x4dbf) ||
    (unit >= 0x4e00 && unit <= 0x9fff) ||
    (unit >= 0xf900 && unit <= 0xfaff)
  );
}

/** Latin letters (w:autoSpaceDE): the other side. */
function isAutoSpaceLetter(unit: number): boolean {
  return (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a) || (unit >= 0xc0 && unit <= 0x24f);
}

/** Digits (w:autoSpaceDN): the other side too. */
function isAutoSpaceDigit(unit: number): boolean {
  return unit >= 0x30 && unit <= 0x39;
}

/**
 * The autospace between two adjacent text boxes, points: a quarter em between East Asian text
 * and Latin letters unless w:autoSpaceDE is off, and digits unless w:autoSpaceDN is off.
 */
function autoSpace(before: Box, after: Box, props: ParagraphProperties): number {
  if (before.kind !== 'text' || after.kind !== 'text' || before.text === '' || after.text === '') return 0;
  const last = before.text.charCodeAt(before.text.length - 1);
  const first = after.text.charCodeAt(0);
  const lastEastAsian = isAutoSpaceEastAsian(last);
  const firstEastAsian = isAutoSpaceEastAsian(first);
  // Nearly every boundary has ideographs on neither side.
  if (!lastEastAsian && !firstEastAsian) return 0;
  if (lastEastAsian && isAutoSpaceOther(first, props)) return before.size / 4;
  if (isAutoSpaceOther(last, props) && firstEastAsian) return after.size / 4;
  return 0;
}

/** The other side of autospace, as the paragraph's w:autoSpaceDE and w:autoSpaceDN allow. */
function isAutoSpaceOther(unit: number, props: ParagraphProperties): boolean {
  return (
    (props.autoSpaceLatin !== false && isAutoSpaceLetter(unit)) ||
    (props.autoSpaceDigits !== false && isAutoSpaceDigit(unit))
  );
}

function anchorBox(name: string, paragraph: Paragraph, fonts: FontSet): Box {
  const mark = paragraph.markProps;
  const box = newBox('anchor', '', faceFor(fonts, mark), mark.size, mark, 0, 0, 0);
  box.anchor = name;
  return box;
}

/**
 * Full-width East Asian punctuation that may not start a line hangs past the line end like spaces
 * (w:overflowPunct, on by default, ECMA-376 Part 1 §17.3.1.21: "punctuation characters … allowed
 * to extend one character past the text extents"), so a line that fits but for its final "，" or
 * "！" keeps it rather than sending the character before it down too: 、。，．；：！？ and the
 * closing brackets ）〉》」』】〕. Latin punctuation does not hang.
 */
function isHangingPunctuation(unit: number): boolean {
  switch (unit) {
    case 0x3001:
    case 0x3002:
    case 0xff0c:
    case 0xff0e:
    case 0xff1b:
    case 0xff1a:
    case 0xff01:
    case 0xff1f:
    case 0xff09:
    case 0x3009:
    case 0x300b:
    case 0x300d:
    case 0x300f:
    case 0x3011:
    case 0x3015:
      return true;
    default:
      return false;
  }
}

/** Splits trailing whitespace (and hanging punctuation) off the last box so it can hang at a line end. */
function finishSegment(segment: Segment): void {
  let width = 0;
  for (const box of segment.boxes) width += box.width;
  let trailing = 0;
  for (let i = segment.boxes.length - 1; i >= 0; i--) {
    const box = segment.boxes[i];
    if (box?.kind !== 'text') break;
    if (box.space) {
      trailing += box.width;
      continue;
    }
    const { text } = box;
    let keep = trailingWhiteSpaceStart(text);
    const space = keep < text.length;
    if (!space && keep > 0 && isHangingPunctuation(text.charCodeAt(keep - 1))) keep--;
    if (keep < text.length) {
      const spacing = box.props.characterSpacing;
      // Nothing to slice or count for the usual spacing of 0 (adding 0 changes no width).
      const keptWidth =
        space && box.keptWidth !== undefined
          ? box.keptWidth
          : box.face.measure(text, keep) * box.size + (spacing === 0 ? 0 : spacing * [...text.slice(0, keep)].length);
      trailing += box.width - keptWidth;
      if (!space) segment.hanging = box.width - keptWidth;
      else if (text.indexOf(' ') === keep) box.headWidth = keptWidth;
    }
    break;
  }
  segment.width = width - trailing;
  segment.trailing = trailing;
}
