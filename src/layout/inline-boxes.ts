/**
 * A paragraph's inlines as measured boxes grouped into unbreakable segments: the input of the
 * line breaker. Break opportunities follow UAX #14 over the whole paragraph text, so a word split
 * across runs (bold "foo" + plain "bar") stays one segment.
 */
import LineBreaker from 'linebreak';
import { eastAsianVariant, scriptClassOf } from '../fonts/fallback-faces';
import type { FontFace, FontSet } from '../fonts/font-face';
import type { Inline, LinkTarget, Paragraph, RevisionMark, RunProperties } from '../model/document';

export type BoxKind = 'text' | 'tab' | 'image' | 'drawing' | 'field' | 'anchor';

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
  link?: LinkTarget;
  revision?: RevisionMark;
  /** image: the resource id; anchor: the bookmark name; field: the inline it came from. */
  imageId?: string;
  /** The mark of a footnote or endnote reference: page flow puts the note on this line's page. */
  note?: NoteTarget;
  anchor?: string;
  field?: Extract<Inline, { kind: 'field' }>;
  /** A chart, shape or SmartArt drawing, painted by drawing-layout.ts. */
  drawing?: Extract<Inline, { kind: 'drawing' }>;
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
  /** A hard break follows this segment. */
  breakAfter?: 'line' | 'page' | 'column';
}

/** Word scales super- and subscript to about two thirds and shifts them by a third / a sixth. */
const SCRIPT_SCALE = 0.65;
const SMALL_CAPS_SCALE = 0.8;

export function faceFor(fonts: FontSet, props: RunProperties): FontFace {
  return fonts.face({ family: props.font, bold: props.bold, italic: props.italic });
}

function scriptSize(props: RunProperties): number {
  return props.verticalAlign === 'baseline' ? props.size : props.size * SCRIPT_SCALE;
}

function rise(props: RunProperties): number {
  const shift =
    props.verticalAlign === 'superscript' ? props.size / 3 : props.verticalAlign === 'subscript' ? -props.size / 6 : 0;
  return shift + props.position;
}

function textBox(text: string, face: FontFace, size: number, props: RunProperties, source: BoxSource): Box {
  const spacing = props.characterSpacing === 0 ? 0 : props.characterSpacing * [...text].length;
  const box: Box = {
    kind: 'text',
    text,
    face,
    size,
    props,
    width: face.measure(text) * size + spacing,
    ascent: face.ascent * size,
    descent: (face.descent + face.lineGap) * size,
    rise: rise(props),
    space: /^\s+$/.test(text),
  };
  // Assigned rather than spread in: a box is made per word, and spreading makes objects to copy.
  if (source.link) box.link = source.link;
  if (source.revision) box.revision = source.revision;
  if (source.note) box.note = source.note;
  return box;
}

/**
 * Splits `text` into boxes of one face each: characters the run's face lacks go to a fallback
 * face (ENGINE.md "Glyph fallback"), and small caps set lower-case letters smaller.
 */
function measuredBoxes(text: string, props: RunProperties, fonts: FontSet, source: BoxSource): Box[] {
  const primary = faceFor(fonts, props);
  // Most text is one box: no caps, nothing past U+058F, every character in the run's face.
  if (!props.caps && !props.smallCaps && inPrimaryFace(text, primary)) {
    return text === '' ? [] : [textBox(text, primary, scriptSize(props), props, source)];
  }
  const request = { family: props.font, bold: props.bold, italic: props.italic };
  // East Asian and complex-script characters take the run's w:eastAsia and w:cs faces (§17.3.2.26).
  const eastAsiaRequest = props.fontEastAsia ? { ...request, family: props.fontEastAsia } : request;
  const complexRequest = props.fontComplex ? { ...request, family: props.fontComplex } : request;
  const variant = eastAsianVariant(props.fontEastAsia);
  const size = scriptSize(props);
  const boxes: Box[] = [];
  let current = '';
  let currentFace = primary;
  let currentSize = size;
  const flush = () => {
    if (current) boxes.push(textBox(current, currentFace, currentSize, props, source));
    current = '';
  };
  for (const ch of text) {
    let shown = ch;
    let chSize = size;
    if (props.caps || props.smallCaps) {
      const upper = ch.toUpperCase();
      if (props.smallCaps && upper !== ch) chSize = size * SMALL_CAPS_SCALE;
      shown = upper;
    }
    const cp = shown.codePointAt(0) ?? 32;
    let face = primary;
    if (cp >= 0x0590) {
      const scriptClass = scriptClassOf(cp);
      const slot = scriptClass === 'eastAsia' ? eastAsiaRequest : scriptClass === 'complex' ? complexRequest : request;
      const own = slot === request ? primary : fonts.face(slot);
      face = own.hasGlyph(cp) ? own : (fonts.fallback(cp, slot, variant) ?? own);
    } else if (cp >= 32 && !primary.hasGlyph(cp)) face = fonts.fallback(cp, request, variant) ?? primary;
    if (face !== currentFace || chSize !== currentSize) {
      flush();
      currentFace = face;
      currentSize = chSize;
    }
    current += shown;
  }
  flush();
  return boxes;
}

/** True when measuredBoxes would give every character of `text` to `primary` at the run's size. */
function inPrimaryFace(text: string, primary: FontFace): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x0590 || (unit >= 32 && !primary.hasGlyph(unit))) return false;
  }
  return true;
}

const OBJECT = '\uFFFC';

/** One entry per inline, aligned with the paragraph string built for break analysis. */
interface Piece {
  inline: Inline;
  start: number;
  end: number;
}

/** Text a field is measured with before its value is known: Word's cached result, or a digit. */
function fieldPlaceholder(inline: Extract<Inline, { kind: 'field' }>): string {
  return inline.cached.trim() || '0';
}

function pieceText(inline: Inline): string {
  switch (inline.kind) {
    case 'text':
      // NFC first: a base letter and a combining accent must not split across fallback faces.
      return inline.props.hidden ? '' : inline.text.normalize('NFC');
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
      return inline.props.hidden ? '' : inline.mark.normalize('NFC');
  }
}

/** UAX #14 break positions (offsets into `text` after which a line may end) and the required ones. */
function breakPositions(text: string): { positions: Set<number>; required: Set<number> } {
  const positions = new Set<number>();
  const required = new Set<number>();
  const breaker = new LineBreaker(text);
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    positions.add(bk.position);
    if (bk.required) required.add(bk.position);
  }
  return { positions, required };
}

/** Turns a paragraph's inlines into segments of measured boxes. */
export function paragraphSegments(paragraph: Paragraph, fonts: FontSet): Segment[] {
  const pieces: Piece[] = [];
  let text = '';
  for (const inline of paragraph.inlines) {
    const piece = pieceText(inline);
    pieces.push({ inline, start: text.length, end: text.length + piece.length });
    text += piece;
  }
  const { positions } = breakPositions(text);
  // Objects (tabs, images) and explicit breaks always delimit segments.
  for (const piece of pieces) {
    const objectKind = piece.inline.kind;
    if (objectKind === 'tab' || objectKind === 'image' || objectKind === 'drawing' || objectKind === 'break') {
      positions.add(piece.start);
      positions.add(piece.end);
    }
  }
  positions.add(text.length);
  const cuts = [...positions].filter((p) => p > 0).sort((a, b) => a - b);

  const segments: Segment[] = [];
  let segment: Segment = { boxes: [], width: 0, trailing: 0 };
  let cutIndex = 0;
  const closeSegment = () => {
    finishSegment(segment);
    if (segment.boxes.length > 0 || segment.breakAfter) segments.push(segment);
    segment = { boxes: [], width: 0, trailing: 0 };
  };

  for (const piece of pieces) {
    const { inline } = piece;
    if (inline.kind === 'bookmark') {
      segment.boxes.push(anchorBox(inline.name, paragraph, fonts));
      continue;
    }
    if (inline.kind === 'break') {
      segment.breakAfter = inline.type;
      closeSegment();
      while (cutIndex < cuts.length && (cuts[cutIndex] ?? 0) <= piece.end) cutIndex++;
      continue;
    }
    const source: BoxSource = {
      ...(inline.link ? { link: inline.link } : {}),
      ...(inline.revision ? { revision: inline.revision } : {}),
    };
    if (inline.kind === 'tab' || inline.kind === 'image' || inline.kind === 'drawing') {
      // Tabs, pictures and drawings stand alone: each is its own segment, sized by the line
      // breaker (tabs) or by the document (pictures and drawings, which sit on the baseline; a
      // floating drawing takes no room at all).
      const face = faceFor(fonts, inline.props);
      const picture = inline.kind === 'image' || (inline.kind === 'drawing' && !inline.floating);
      segment.boxes.push({
        kind: inline.kind,
        text: '',
        face,
        size: inline.props.size,
        props: inline.props,
        width: picture ? inline.width : 0,
        ascent: picture ? inline.height : inline.kind === 'drawing' ? 0 : face.ascent * inline.props.size,
        descent: picture || inline.kind === 'drawing' ? 0 : (face.descent + face.lineGap) * inline.props.size,
        rise: 0,
        space: false,
        ...(inline.kind === 'image' ? { imageId: inline.imageId } : {}),
        ...(inline.kind === 'drawing' ? { drawing: inline } : {}),
        ...source,
      });
      closeSegment();
      while (cutIndex < cuts.length && (cuts[cutIndex] ?? 0) <= piece.end) cutIndex++;
      continue;
    }
    if (inline.kind === 'field') {
      const [box] = measuredBoxes(fieldPlaceholder(inline), inline.props, fonts, source);
      if (box) segment.boxes.push({ ...box, kind: 'field', field: inline, space: false });
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
        segment.boxes.push(textBox('', faceFor(fonts, inline.props), 0, inline.props, source));
    }
    // Text and note marks: cut at every break position inside.
    let from = piece.start;
    while (from < piece.end) {
      while (cutIndex < cuts.length && (cuts[cutIndex] ?? 0) <= from) cutIndex++;
      const cut = Math.min(cuts[cutIndex] ?? piece.end, piece.end);
      const part = text.slice(from, cut);
      if (part) segment.boxes.push(...measuredBoxes(part, inline.props, fonts, source));
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

function anchorBox(name: string, paragraph: Paragraph, fonts: FontSet): Box {
  const face = faceFor(fonts, paragraph.markProps);
  return {
    kind: 'anchor',
    text: '',
    face,
    size: paragraph.markProps.size,
    props: paragraph.markProps,
    width: 0,
    ascent: 0,
    descent: 0,
    rise: 0,
    space: false,
    anchor: name,
  };
}

/** Splits trailing whitespace off the last box so it can hang at a line end. */
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
    const match = /\s+$/.exec(box.text);
    if (match) {
      const kept = box.text.slice(0, match.index);
      const keptWidth = box.face.measure(kept) * box.size + box.props.characterSpacing * [...kept].length;
      trailing += box.width - keptWidth;
    }
    break;
  }
  segment.width = width - trailing;
  segment.trailing = trailing;
}
