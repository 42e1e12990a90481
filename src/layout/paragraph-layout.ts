/**
 * A paragraph laid out at a given width: lines with heights, baselines and positioned fragments,
 * plus the spacing around it. Positions are relative to the text area's left edge and the line's
 * top; page flow decides where lines go. Pure: the same paragraph and width give the same lines.
 */
import type { FontSet } from '../fonts/font-face';
import type { Paragraph, RevisionMark } from '../model/document';
import { reorderLine } from './bidi-reorder';
import { type Box, faceFor, paragraphSegments, verticalMetrics } from './inline-boxes';
import { type BrokenLine, breakLines, type LineBox, nextTabStop } from './line-breaker';

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

export interface LaidLine {
  height: number;
  /** Baseline offset from the line's top. */
  baseline: number;
  ascent: number;
  descent: number;
  fragments: Fragment[];
  breakAfter?: 'line' | 'page' | 'column';
  /** A tracked change touches this line: markup mode draws a change bar beside it. */
  revision?: RevisionMark;
}

export interface LaidParagraph {
  paragraph: Paragraph;
  lines: LaidLine[];
  spaceBefore: number;
  spaceAfter: number;
}

export interface ParagraphContext {
  areaWidth: number;
  defaultTabStop: number;
  /** Lines beside floating objects: each line's room (float-wrap.ts). */
  lineBox?: LineBox;
}

function lineMetrics(
  line: BrokenLine,
  paragraph: Paragraph,
  fonts: FontSet,
): { ascent: number; descent: number; fontHeight: number } {
  let ascent = 0;
  let descent = 0;
  /** The tallest font on the line, pictures left out: what "multiple" line spacing multiplies. */
  let fontHeight = 0;
  for (const { box } of line.placed) {
    if (box.kind === 'anchor') continue;
    ascent = Math.max(ascent, box.ascent + Math.max(0, box.rise));
    descent = Math.max(descent, box.descent - Math.min(0, box.rise));
    if (box.kind !== 'image' && box.kind !== 'drawing') fontHeight = Math.max(fontHeight, box.ascent + box.descent);
  }
  // An empty line takes its height from the paragraph mark (ECMA-376 §17.3.1.29 rPr of the mark).
  const mark = paragraph.markProps;
  const markMetrics = () => verticalMetrics(faceFor(fonts, mark), mark.font);
  if (ascent === 0 && descent === 0) {
    ascent = markMetrics().ascent * mark.size;
    descent = markMetrics().descent * mark.size;
  }
  if (fontHeight === 0) fontHeight = (markMetrics().ascent + markMetrics().descent) * mark.size;
  return { ascent, descent, fontHeight };
}

const TWIPS_PER_POINT = 20;

/**
 * Line height per w:spacing/@w:lineRule (ECMA-376 §17.3.1.33). "Multiple" spacing adds its extra
 * in proportion to the font's single height, not the picture's: Word's PDFs show a 77.25 pt
 * inline picture at 1.15 lines taking 79.26 pt (77.25 + 0.15 × 13.43), not 88.8 pt.
 */
function lineHeight(natural: number, fontHeight: number, paragraph: Paragraph): number {
  const { line, lineRule } = paragraph.props.spacing;
  if (lineRule === 'exact') return line;
  if (lineRule === 'atLeast') return Math.max(natural, line);
  // Word lays lines out in twips: a line is a whole number of them (Times New Roman 12 pt at 1.15
  // lines is 317 twips, 15.85 pt, not 15.87). Over a page of 1.15-spaced lines the fractions add
  // up to most of a line, which decides where pages break.
  return Math.max(0, Math.round((natural + (line - 1) * fontHeight) * TWIPS_PER_POINT) / TWIPS_PER_POINT);
}

/** Splits text fragments into words so justification can widen the spaces between them. */
function justify(fragments: Fragment[], extra: number): Fragment[] {
  let spaces = 0;
  for (const f of fragments) if (f.box.kind === 'text') spaces += countSpaces(f.text);
  if (spaces === 0 || extra <= 0) return fragments;
  const perSpace = extra / spaces;
  const out: Fragment[] = [];
  let shift = 0;
  for (const f of fragments) {
    if (f.box.kind !== 'text' || !f.text.includes(' ')) {
      // The line's own fragments (layoutParagraph made them): moved in place.
      f.x += shift;
      out.push(f);
      continue;
    }
    const { box } = f;
    let x = f.x + shift;
    for (const part of f.text.split(/( )/)) {
      if (part === '') continue;
      const spacing = box.props.characterSpacing;
      const width = box.face.measure(part) * box.size + (spacing === 0 ? 0 : spacing * [...part].length);
      if (part === ' ') {
        x += width + perSpace;
        shift += perSpace;
        continue;
      }
      out.push({ box, text: part, x, width });
      x += width;
    }
  }
  return out;
}

function countSpaces(text: string): number {
  let count = 0;
  for (let i = text.indexOf(' '); i !== -1; i = text.indexOf(' ', i + 1)) count++;
  return count;
}

/** Trailing spaces of the line's content do not take part in justification. */
function trimTrailingSpaces(fragments: Fragment[]): Fragment[] {
  const out = [...fragments];
  for (let i = out.length - 1; i >= 0; i--) {
    const f = out[i];
    if (f?.box.kind !== 'text') {
      if (f?.box.kind === 'anchor') continue;
      break;
    }
    const trimmed = f.text.replace(/ +$/, '');
    if (trimmed === f.text) break;
    out[i] = { ...f, text: trimmed };
    if (trimmed !== '') break;
  }
  return out;
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
  const box: Box = picture
    ? {
        kind: 'image',
        text: '',
        face,
        size,
        props: label.props,
        width: pictureWidth,
        ascent: pictureHeight,
        descent: 0,
        rise: 0,
        space: false,
        imageId: picture.imageId,
      }
    : {
        kind: 'text',
        text: label.text,
        face,
        size,
        props: label.props,
        width: textWidth,
        ascent: vertical.ascent * size,
        descent: vertical.descent * size,
        rise: 0,
        space: false,
      };
  return {
    fragments: [{ box, text: label.text, x: start + offset, width: textWidth }],
    width: Math.max(width, textWidth + offset),
  };
}

function mirrored(align: 'left' | 'right'): 'left' | 'right' {
  return align === 'left' ? 'right' : 'left';
}

export function layoutParagraph(paragraph: Paragraph, fonts: FontSet, context: ParagraphContext): LaidParagraph {
  const segments = paragraphSegments(paragraph, fonts);
  const label = labelFragments(paragraph, fonts, context);
  const broken = breakLines(paragraph, segments, {
    areaWidth: context.areaWidth,
    defaultTabStop: context.defaultTabStop,
    ...(label.width ? { labelWidth: label.width } : {}),
    ...(context.lineBox ? { lineBox: context.lineBox } : {}),
  });
  // A list label moves with its first line beside a floating object.
  const labelShift = context.lineBox?.(0).left ?? 0;
  if (labelShift) for (const f of label.fragments) f.x += labelShift;
  // The model's alignment is visual (the reader swaps left/right in a bidi paragraph); lines of a
  // right-to-left paragraph are laid out from their start edge and mirrored (bidi-reorder.ts), so
  // they are aligned in logical terms here.
  const visual = paragraph.props.align;
  const align = paragraph.props.rtl && (visual === 'left' || visual === 'right') ? mirrored(visual) : visual;
  const lines: LaidLine[] = broken.map((line, index) => {
    const metrics = lineMetrics(
      index === 0 && label.fragments.length
        ? { ...line, placed: [...line.placed, ...label.fragments.map((f) => ({ box: f.box, x: f.x, width: f.width }))] }
        : line,
      paragraph,
      fonts,
    );
    const natural = metrics.ascent + metrics.descent;
    const height = lineHeight(natural, metrics.fontHeight, paragraph);
    // The fragments are made here, so shifting them below may move them in place.
    let fragments: Fragment[] = line.placed.map((p) => {
      const fragment: Fragment = { box: p.box, text: p.box.text, x: line.start + p.x, width: p.width };
      if (p.leader) fragment.leader = p.leader;
      return fragment;
    });
    const slack = line.available - line.width;
    const stretch = align === 'distribute' || (align === 'both' && !line.last);
    if (stretch) fragments = justify(trimTrailingSpaces(fragments), slack);
    else if (align === 'center' || align === 'right') {
      const shift = align === 'center' ? slack / 2 : slack;
      for (const f of fragments) f.x += shift;
    }
    if (index === 0) fragments = [...label.fragments, ...fragments];
    fragments = reorderLine(fragments, paragraph.props.rtl, context.areaWidth);
    const revision =
      line.placed.find((p) => p.box.revision)?.box.revision ?? (line.last ? paragraph.markRevision : undefined);
    // Word sets "multiple" line spacing's extra space below the text (the baseline stays one ascent
    // down); exact and at-least heights keep the descent at the bottom of the line.
    const baseline =
      paragraph.props.spacing.lineRule === 'auto' ? Math.min(metrics.ascent, height) : height - metrics.descent;
    return {
      height,
      baseline,
      ascent: metrics.ascent,
      descent: metrics.descent,
      fragments,
      ...(line.breakAfter ? { breakAfter: line.breakAfter } : {}),
      ...(revision ? { revision } : {}),
    };
  });
  // A border's distance and width take room outside the text (ECMA-376 §17.3.1.24 w:pBdr).
  const { top, bottom } = paragraph.props.borders;
  const extent = (b: typeof top) => (b && b.style !== 'nil' && b.style !== 'none' ? b.space + b.width : 0);
  return {
    paragraph,
    lines,
    spaceBefore: paragraph.props.spacing.before + extent(top),
    spaceAfter: paragraph.props.spacing.after + extent(bottom),
  };
}
