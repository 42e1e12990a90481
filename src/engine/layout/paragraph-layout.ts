/**
 * A paragraph laid out at a given width: lines with heights, baselines and positioned fragments,
 * plus the spacing around it. Positions are relative to the text area's left edge and the line's
 * top; page flow decides where lines go. Pure: the same paragraph and width give the same lines.
 */
import type { FontSet } from '../fonts';
import type { Border, Paragraph, RevisionMark } from '../model';
import { hasRightToLeft } from '../text';
import { reorderLine } from './bidi-reorder';
import {
  type Box,
  type Fragment,
  faceFor,
  newBox,
  paragraphSegments,
  type Segment,
  verticalMetrics,
} from './inline-boxes';
import { breakLines, type LineBox, nextTabStop } from './line-breaker';

export interface LaidLine {
  height: number;
  /** Baseline offset from the line's top. */
  baseline: number;
  ascent: number;
  descent: number;
  /**
   * Of `height`, the room "multiple" line spacing adds below the text (0 or absent otherwise): what
   * may fall into an empty bottom margin when the line is the last of its page (page-flow.ts).
   */
  spacingBelow?: number;
  fragments: Fragment[];
  breakAfter?: 'line' | 'page' | 'column';
  /** A tracked change touches this line: markup mode draws a change bar beside it. */
  revision?: RevisionMark;
}

export interface LaidParagraph {
  paragraph: Paragraph;
  lines: LaidLine[];
  /** Space before the first line: the spacing and the top border's extent (borderBefore). */
  spaceBefore: number;
  /** Space after the last line: the spacing and the bottom border's extent (borderAfter). */
  spaceAfter: number;
  /** Of spaceBefore, the top border's distance and width: room outside the text, never collapsed. */
  borderBefore: number;
  /** Of spaceAfter, the bottom border's distance and width. */
  borderAfter: number;
}

export interface ParagraphContext {
  areaWidth: number;
  defaultTabStop: number;
  /** Lines beside floating objects: each line's room (float-wrap.ts). */
  lineBox?: LineBox;
  /** The section's document grid line pitch, points (PageGeometry.lineGrid). */
  lineGrid?: number;
  /** The paragraph's segments when already made (a table cell's, for its grid): they do not depend on the width. */
  segments?: Segment[];
  /** DocumentSettings.justifyByShrinking: justified lines may shrink their spaces (line-breaker.ts shrinkAdmits). */
  justifyByShrinking?: boolean;
}

/**
 * Word's single line height for a CJK font, per em: about 1.3 times its win extent, which is 1 em
 * for SimSun and MS Mincho (measured in Word: SimSun 14 pt takes 18.1 pt). The Noto face that
 * stands in is taller (1.45 em); on a document grid that would make 12 pt text take two pitches
 * of 15.6 pt where Word's takes one.
 */
const WORD_CJK_LINE_HEIGHT = 1.3;

interface LineMetrics {
  ascent: number;
  descent: number;
  /** The tallest font on the line, pictures left out: what "multiple" line spacing multiplies. */
  fontHeight: number;
  /** The height Word compares with the document grid's pitch: CJK text at its own single height. */
  gridHeight: number;
}

/** The metrics of a line of `placed` boxes (its own, and the list label's on a first line). */
function lineMetrics(placed: readonly { box: Box }[], paragraph: Paragraph, fonts: FontSet): LineMetrics {
  let ascent = 0;
  let descent = 0;
  let fontHeight = 0;
  let otherAscent = 0;
  let otherDescent = 0;
  let eastAsianHeight = 0;
  for (const { box } of placed) {
    if (box.kind === 'anchor') continue;
    const up = box.ascent + Math.max(0, box.rise);
    const down = box.descent - Math.min(0, box.rise);
    ascent = Math.max(ascent, up);
    descent = Math.max(descent, down);
    // Pictures and equations do not scale "multiple" spacing: the text's font height does.
    if (box.kind !== 'image' && box.kind !== 'drawing' && box.kind !== 'math')
      fontHeight = Math.max(fontHeight, box.ascent + box.descent);
    if (box.eastAsian) eastAsianHeight = Math.max(eastAsianHeight, WORD_CJK_LINE_HEIGHT * box.size);
    else {
      otherAscent = Math.max(otherAscent, up);
      otherDescent = Math.max(otherDescent, down);
    }
  }
  // An empty line takes its height from the paragraph mark (ECMA-376 §17.3.1.29 rPr of the mark).
  if (ascent === 0 && descent === 0) {
    const mark = markMetrics(paragraph, fonts);
    ascent = mark.ascent * paragraph.markProps.size;
    descent = mark.descent * paragraph.markProps.size;
  }
  if (fontHeight === 0) {
    const mark = markMetrics(paragraph, fonts);
    fontHeight = (mark.ascent + mark.descent) * paragraph.markProps.size;
  }
  const gridHeight = eastAsianHeight === 0 ? ascent + descent : Math.max(eastAsianHeight, otherAscent + otherDescent);
  return { ascent, descent, fontHeight, gridHeight };
}

/** The paragraph mark's vertical metrics per 1 pt. */
function markMetrics(paragraph: Paragraph, fonts: FontSet): { ascent: number; descent: number } {
  const mark = paragraph.markProps;
  return verticalMetrics(faceFor(fonts, mark), mark.font);
}

const TWIPS_PER_POINT = 20;

/**
 * The part of a line's height that "multiple" spacing (w:lineRule="auto" above one line, §17.3.1.33)
 * adds below the text, off a document grid (where whole pitches make the height).
 */
function spacingBelow(
  metrics: LineMetrics,
  paragraph: Paragraph,
  lineGrid: number | undefined,
  height: number,
): number {
  const { line, lineRule } = paragraph.props.spacing;
  if (lineRule !== 'auto' || line <= 1) return 0;
  if (lineGrid !== undefined && paragraph.props.snapToGrid !== false) return 0;
  return Math.max(0, height - (metrics.ascent + metrics.descent));
}

/**
 * Line height per w:spacing/@w:lineRule (ECMA-376 §17.3.1.33). "Multiple" spacing adds its extra
 * in proportion to the font's single height, not the picture's: Word's PDFs show a 77.25 pt
 * inline picture at 1.15 lines taking 79.26 pt (77.25 + 0.15 × 13.43), not 88.8 pt.
 */
function lineHeight(metrics: LineMetrics, paragraph: Paragraph, lineGrid: number | undefined): number {
  const { line, lineRule } = paragraph.props.spacing;
  const natural = metrics.ascent + metrics.descent;
  if (lineRule === 'exact') return line;
  if (lineRule === 'atLeast') return Math.max(natural, line);
  // On a document grid (§17.6.5) a line takes as many whole pitches as its text needs, and
  // "multiple" spacing multiplies those (1.5 lines on a 15.6 pt grid: 23.4 pt). Exact and
  // at-least heights are the document's own and stay off the grid.
  if (lineGrid !== undefined && paragraph.props.snapToGrid !== false) {
    const pitches = Math.max(1, Math.ceil(metrics.gridHeight / lineGrid - 1e-6));
    return Math.round(pitches * lineGrid * line * TWIPS_PER_POINT) / TWIPS_PER_POINT;
  }
  const { fontHeight } = metrics;
  // Word lays lines out in twips: a line is a whole number of them (Times New Roman 12 pt at 1.15
  // lines is 317 twips, 15.85 pt, not 15.87). Over a page of 1.15-spaced lines the fractions add
  // up to most of a line, which decides where pages break.
  return Math.max(0, Math.round((natural + (line - 1) * fontHeight) * TWIPS_PER_POINT) / TWIPS_PER_POINT);
}

/**
 * Justification: the slack goes to the spaces, and in East Asian text to the gaps between
 * characters too (Word spreads a line of ideographs, which has no spaces, to both margins). Text
 * fragments with spaces are split into words so the spaces can widen.
 */
function justify(fragments: Fragment[], extra: number): Fragment[] {
  let spaces = 0;
  for (const f of fragments) if (f.box.kind === 'text') spaces += countSpaces(f.text);
  const gaps = eastAsianGaps(fragments);
  // Negative: a line that fits only with its spaces shrunk (BrokenLine.shrunk).
  if (spaces + gaps.size === 0 || extra === 0) return fragments;
  const perSpace = extra / (spaces + gaps.size);
  const out: Fragment[] = [];
  let shift = 0;
  for (let index = 0; index < fragments.length; index++) {
    const f = fragments[index] as Fragment;
    if (f.box.kind !== 'text' || !f.text.includes(' ')) {
      // The line's own fragments (layoutParagraph made them): moved in place.
      f.x += shift;
      out.push(f);
    } else {
      const { box, text } = f;
      const spacing = box.props.characterSpacing;
      const spaceWidth = box.face.measure(' ') * box.size + (spacing === 0 ? 0 : spacing);
      let x = f.x + shift;
      // Words and the single spaces between them, in turn.
      for (let start = 0; start < text.length; ) {
        if (text.charCodeAt(start) === 0x20) {
          x += spaceWidth + perSpace;
          shift += perSpace;
          start++;
          continue;
        }
        let end = text.indexOf(' ', start);
        if (end < 0) end = text.length;
        const part = text.slice(start, end);
        // The box's word, measured when its segment was made (finishSegment), the same way.
        const width =
          start === 0 && box.headWidth !== undefined && text === box.text
            ? box.headWidth
            : box.face.measure(part) * box.size + (spacing === 0 ? 0 : spacing * [...part].length);
        if (start === 0) {
          // The first word takes over the line's own fragment (a word and its spaces, mostly):
          // one object fewer per word of a justified line.
          f.text = part;
          f.x = x;
          f.width = width;
          out.push(f);
        } else out.push({ box, text: part, x, width });
        x += width;
        start = end;
      }
    }
    if (gaps.has(index)) shift += perSpace;
  }
  return out;
}

/** Indices of text fragments followed by a text fragment with East Asian characters on either side. */
function eastAsianGaps(fragments: Fragment[]): ReadonlySet<number> {
  let gaps: Set<number> | undefined;
  for (let i = 0; i + 1 < fragments.length; i++) {
    const a = fragments[i];
    const b = fragments[i + 1];
    if (a?.box.kind === 'text' && b?.box.kind === 'text' && (a.box.eastAsian || b.box.eastAsian)) {
      gaps ??= new Set();
      gaps.add(i);
    }
  }
  return gaps ?? NO_GAPS;
}

/** Most lines have no East Asian text: one empty set for all of them. */
const NO_GAPS: ReadonlySet<number> = new Set();

function countSpaces(text: string): number {
  let count = 0;
  for (let i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', i + 1)) count++;
  return count;
}

/**
 * Trailing spaces of the line's content do not take part in justification. The fragments are the
 * line's own (layoutParagraph made them), so they are trimmed in place.
 */
function trimTrailingSpaces(fragments: Fragment[]): void {
  for (let i = fragments.length - 1; i >= 0; i--) {
    const f = fragments[i];
    if (f?.box.kind !== 'text') {
      if (f?.box.kind === 'anchor') continue;
      break;
    }
    const trimmed = f.text.replace(/ +$/, '');
    if (trimmed === f.text) break;
    f.text = trimmed;
    if (trimmed !== '') break;
  }
}

function labelFragments(
  paragraph: Paragraph,
  fonts: FontSet,
  context: ParagraphContext,
): { fragments: Fragment[]; width: number } {
  const { label, props } = paragraph;
  if (!label) return { fragments: [], width: 0 };
  const face = faceFor(fonts, label.props);
  // A bullet mapped out of a symbol font is drawn in the paragraph's face but keeps the height of
  // the font it names, as in Word (numbering.ts listLabel).
  const vertical = verticalMetrics(face, label.metricsFont ?? label.props.font);
  const size = label.props.size;
  // A picture bullet is drawn about half an em tall (as Word sizes it to the text), aspect kept.
  const picture = label.image;
  const pictureHeight = picture ? size * 0.55 : 0;
  const pictureWidth = picture && picture.height > 0 ? (pictureHeight * picture.width) / picture.height : 0;
  const textWidth = picture ? pictureWidth : face.measure(label.text) * size;
  const start = props.indent.left + props.indent.firstLine;
  let width = textWidth;
  if (label.suffix === 'space') width += face.measure(' ') * size;
  if (label.suffix === 'tab')
    width = nextTabStop(start + textWidth, paragraph, context.defaultTabStop).position - start;
  // Right- and centre-aligned labels hang to the left of the number position (§17.9.7 lvlJc).
  const offset = label.align === 'right' ? -textWidth : label.align === 'center' ? -textWidth / 2 : 0;
  const box = picture
    ? newBox('image', '', face, size, label.props, pictureWidth, pictureHeight, 0)
    : newBox('text', label.text, face, size, label.props, textWidth, vertical.ascent * size, vertical.descent * size);
  if (picture) box.imageId = picture.imageId;
  return {
    fragments: [{ box, text: label.text, x: start + offset, width: textWidth }],
    width: Math.max(width, textWidth + offset),
  };
}

/**
 * Whether any line of the paragraph can need bidi reordering: reorderLine returns the lines of a
 * left-to-right paragraph without right-to-left text as they are, and asking once per paragraph
 * saves asking for every line.
 */
function needsReordering(paragraph: Paragraph, segments: readonly Segment[], label: readonly Fragment[]): boolean {
  if (paragraph.props.rtl) return true;
  for (const f of label) if (f.box.kind === 'text' && hasRightToLeft(f.text)) return true;
  for (const segment of segments) {
    for (const box of segment.boxes) if (box.kind === 'text' && box.rightToLeft === true) return true;
  }
  return false;
}

/**
 * The alignment of a line that holds display math and nothing else but bookmarks and white
 * space, in logical terms; undefined for any other line.
 */
function displayMathAlign(fragments: readonly Fragment[]): 'left' | 'right' | 'center' | undefined {
  let align: 'left' | 'right' | 'center' | undefined;
  for (const { box, text } of fragments) {
    if (box.kind === 'anchor' || (box.kind === 'text' && text.trim() === '')) continue;
    if (box.kind !== 'math' || !box.displayMath) return undefined;
    align ??= box.displayMath;
  }
  return align;
}

/** The tracked change of the first box on the line that has one. */
function firstRevision(placed: readonly { box: Box }[]): RevisionMark | undefined {
  for (const { box } of placed) if (box.revision) return box.revision;
  return undefined;
}

function mirrored(align: 'left' | 'right'): 'left' | 'right' {
  return align === 'left' ? 'right' : 'left';
}

export function layoutParagraph(paragraph: Paragraph, fonts: FontSet, context: ParagraphContext): LaidParagraph {
  const segments = context.segments ?? paragraphSegments(paragraph, fonts);
  const label = labelFragments(paragraph, fonts, context);
  const broken = breakLines(paragraph, segments, {
    areaWidth: context.areaWidth,
    defaultTabStop: context.defaultTabStop,
    ...(label.width ? { labelWidth: label.width } : {}),
    ...(context.lineBox ? { lineBox: context.lineBox } : {}),
    ...(context.justifyByShrinking && paragraph.props.align === 'both' ? { shrinkSpaces: true } : {}),
  });
  // A list label moves with its first line beside a floating object.
  const labelShift = context.lineBox?.(0).left ?? 0;
  if (labelShift) for (const f of label.fragments) f.x += labelShift;
  // The model's alignment is visual (the reader swaps left/right in a bidi paragraph); lines of a
  // right-to-left paragraph are laid out from their start edge and mirrored (bidi-reorder.ts), so
  // they are aligned in logical terms here.
  const reorder = needsReordering(paragraph, segments, label.fragments);
  const visual = paragraph.props.align;
  const align = paragraph.props.rtl && (visual === 'left' || visual === 'right') ? mirrored(visual) : visual;
  const lines: LaidLine[] = broken.map((line, index) => {
    const metrics = lineMetrics(
      index === 0 && label.fragments.length ? [...line.placed, ...label.fragments] : line.placed,
      paragraph,
      fonts,
    );
    const height = lineHeight(metrics, paragraph, context.lineGrid);
    // breakLines made the placed boxes for this line alone: they become its fragments, moved from
    // the line's start to the text area's left edge, so shifting them below may move them in place.
    let fragments: Fragment[] = line.placed;
    for (const f of fragments) f.x = line.start + f.x;
    const slack = line.available - line.width;
    // A line of display math is aligned as the equation says (m:oMathParaPr/m:jc), not as the paragraph.
    const lineAlign = displayMathAlign(fragments) ?? align;
    // A line that took a word by shrinking its spaces shrinks them, even as a paragraph's last.
    const stretch = lineAlign === 'distribute' || (lineAlign === 'both' && !line.last) || line.shrunk === true;
    if (stretch) {
      trimTrailingSpaces(fragments);
      fragments = justify(fragments, line.shrunk ? slack : Math.max(slack, 0));
    } else if (lineAlign === 'center' || lineAlign === 'right') {
      const shift = lineAlign === 'center' ? slack / 2 : slack;
      for (const f of fragments) f.x += shift;
    }
    if (index === 0 && label.fragments.length > 0) fragments = [...label.fragments, ...fragments];
    if (reorder) fragments = reorderLine(fragments, paragraph.props.rtl, context.areaWidth);
    const revision = firstRevision(line.placed) ?? (line.last ? paragraph.markRevision : undefined);
    // Word sets "multiple" line spacing's extra space below the text (the baseline stays one ascent
    // down); exact and at-least heights keep the descent at the bottom of the line.
    const baseline =
      paragraph.props.spacing.lineRule === 'auto' ? Math.min(metrics.ascent, height) : height - metrics.descent;
    const laid: LaidLine = { height, baseline, ascent: metrics.ascent, descent: metrics.descent, fragments };
    const below = spacingBelow(metrics, paragraph, context.lineGrid, height);
    if (below > 0) laid.spacingBelow = below;
    if (line.breakAfter) laid.breakAfter = line.breakAfter;
    if (revision) laid.revision = revision;
    return laid;
  });
  // A border's distance and width take room outside the text (ECMA-376 §17.3.1.24 w:pBdr).
  const { top, bottom } = paragraph.props.borders;
  const borderBefore = borderExtent(top);
  const borderAfter = borderExtent(bottom);
  return {
    paragraph,
    lines,
    spaceBefore: paragraph.props.spacing.before + borderBefore,
    spaceAfter: paragraph.props.spacing.after + borderAfter,
    borderBefore,
    borderAfter,
  };
}

/** The room a paragraph border takes beside the text: its distance from the text and its width. */
function borderExtent(border: Border | undefined): number {
  return border && border.style !== 'nil' && border.style !== 'none' ? border.space + border.width : 0;
}

function sameBorder(a: Border | undefined, b: Border | undefined): boolean {
  if (!a || !b) return a === b;
  return a.style === b.style && a.width === b.width && a.space === b.space && (a.color ?? '') === (b.color ?? '');
}

/**
 * Whether `next` goes on in the border group of `previous`, the paragraph just before it: both
 * have borders, the same on every side, and the same side indents (ECMA-376 §17.3.1.24: adjacent
 * paragraphs with identical border settings are one group, drawn as one box, with the between
 * border, §17.3.1.5, where one paragraph meets the next). A group's inner edges take no room.
 */
export function sharesBorders(previous: Paragraph, next: Paragraph): boolean {
  const a = previous.props.borders;
  const b = next.props.borders;
  if (!a.top && !a.bottom && !a.left && !a.right && !a.between) return false;
  return (
    sameBorder(a.top, b.top) &&
    sameBorder(a.bottom, b.bottom) &&
    sameBorder(a.left, b.left) &&
    sameBorder(a.right, b.right) &&
    sameBorder(a.between, b.between) &&
    previous.props.indent.left === next.props.indent.left &&
    previous.props.indent.right === next.props.indent.right
  );
}

/**
 * The space between the last line of `previous` and the first of `next`: the larger of the
 * spacing after and before (`after` and `before`: the spacing alone, as contextual and automatic
 * spacing leave it), plus the borders between them, which are not collapsed: the bottom border of
 * one box and the top border of the next, or inside a border group only the between border.
 */
export function spaceBetween(previous: LaidParagraph, after: number, next: LaidParagraph, before: number): number {
  const borders = sharesBorders(previous.paragraph, next.paragraph)
    ? borderExtent(next.paragraph.props.borders.between)
    : previous.borderAfter + next.borderBefore;
  return Math.max(after, before) + borders;
}
