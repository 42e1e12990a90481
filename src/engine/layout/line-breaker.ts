/**
 * Word's line breaking: greedy first fit (not Knuth–Plass; docs/engine.md "Line breaking"). Segments
 * are added while their width without trailing spaces fits; trailing spaces hang past the edge.
 * Tabs are resolved while filling, because where a tab ends decides what fits after it.
 */
import { MAX_PARAGRAPH_LINES, tooComplex } from '../../limits';
import type { Paragraph, PositionalTab, TabStop } from '../model';
import type { Box, Segment } from './inline-boxes';

/** A box on a line: layoutParagraph takes it as the line's Fragment (paragraph-layout.ts), so it has the box's text. */
export interface PlacedBox {
  box: Box;
  /** The box's text. */
  text: string;
  /** From the line's start edge (after indentation). */
  x: number;
  /** Width as placed (tabs get theirs here). */
  width: number;
  /** Tab leader to draw across this tab's width. */
  leader?: TabStop['leader'];
}

export interface BrokenLine {
  placed: PlacedBox[];
  /** Left edge of the line relative to the text area, points (indent, first-line indent). */
  start: number;
  /** Width available from `start` to the right indent. */
  available: number;
  /** Content width without trailing spaces (with final hanging punctuation when it fits). */
  width: number;
  breakAfter?: 'line' | 'page' | 'column';
  /** The paragraph's last line (not stretched when justified). */
  last: boolean;
  /** Wider than `available`: it fits only with its spaces shrunk (LineContext.shrinkSpaces). */
  shrunk?: true;
}

/**
 * The room of one line (by index) beside floating objects: insets from the text area's left and
 * right edges (engine/layout/float-wrap.ts). Called once per line, in order.
 */
export type LineBox = (index: number) => { left: number; right: number };

export interface LineContext {
  /** Width of the text area (column), points. */
  areaWidth: number;
  defaultTabStop: number;
  /** Width of the list label and its suffix, placed before the first segment. */
  labelWidth?: number;
  lineBox?: LineBox;
  /**
   * A justified paragraph of a Word 2013+ document (compatibilityMode 15 or more): a word that
   * does not fit may still go on the line if shrinking its spaces makes room (shrinkAdmits).
   */
  shrinkSpaces?: boolean;
}

const EPSILON = 0.01;

/**
 * Word 2013's justification (compatibilityMode 15, the mode every document Word 2013 or later
 * saves declares): a justified line may hold one more word by shrinking its spaces, down to 75%
 * of their width, when that looks better than stretching the spaces of the line without it.
 * Word does not document it. LibreOffice matches it for DOCX files of mode 15 or more
 * (DocumentSettingId::JUSTIFY_LINES_WITH_SHRINKING, tdf#119908: "new line shrinking needs less
 * space i.e. it typesets the same text with less lines and pages"); the thresholds here reproduce
 * 535 of the 538 page starts Word recorded inside justified paragraphs of two 600-page documents
 * (w:lastRenderedPageBreak, which Word writes where each of its pages starts), where breaking
 * without shrinking reproduces 403. `spaces`: the natural width of the line's spaces before the
 * word (after the line's last tab, which justification does not reach); `last`: of those, the one
 * just before the word, which would hang past the edge if the word went below instead.
 */
export function shrinkAdmits(overflow: number, spaces: number, last: number, room: number): boolean {
  if (spaces <= 0) return false;
  const shrink = 1 - overflow / spaces;
  if (shrink < MIN_SPACE_SHRINK) return false;
  const before = spaces - last;
  // How far the spaces of the line without the word would stretch (1 = not at all).
  const stretch = before > 0 ? 1 + room / before : Number.POSITIVE_INFINITY;
  return stretch > MAX_PLAIN_STRETCH || 1 + (stretch - 1) / STRETCH_COST >= 1 / shrink;
}

/** Spaces shrink to three quarters of their width at most. */
const MIN_SPACE_SHRINK = 0.75;
/** Past this stretch of the spaces, shrinking is always preferred. */
const MAX_PLAIN_STRETCH = 1.5;
/** Stretching weighs this much less than shrinking by the same factor. */
const STRETCH_COST = 1.7;

/** The tab stop after `position` (measured from the text area's left edge). */
export function nextTabStop(position: number, paragraph: Paragraph, defaultTabStop: number): TabStop {
  const { tabs, indent } = paragraph.props;
  // A hanging indent is an implicit stop (how list labels reach their text), and it counts where
  // it falls among the custom stops: a TOC entry "A.<tab>Title<tab>14" with a right stop at the
  // margin reaches its title at the indent, not at the right stop.
  const hanging = indent.firstLine < 0 && indent.left > position + EPSILON ? indent.left : undefined;
  for (const stop of tabs) {
    if (stop.position <= position + EPSILON || stop.align === 'bar') continue;
    if (hanging !== undefined && hanging < stop.position - EPSILON) break;
    return stop;
  }
  if (hanging !== undefined) return { position: hanging, align: 'left', leader: 'none' };
  const step = defaultTabStop > 0 ? defaultTabStop : 36;
  return { position: (Math.floor(position / step + EPSILON) + 1) * step, align: 'left', leader: 'none' };
}

/**
 * Where an absolute position tab goes (w:ptab, ECMA-376 §17.3.3.23), as a stop from the text
 * area's left edge: the left edge, centre or right edge of the margins (the text area) or of the
 * paragraph's indents, whatever tab stops the paragraph has.
 */
function positionalStop(ptab: PositionalTab, paragraph: Paragraph, areaWidth: number): TabStop {
  const { indent } = paragraph.props;
  const from = ptab.relativeTo === 'indent' ? indent.left : 0;
  const to = ptab.relativeTo === 'indent' ? areaWidth - indent.right : areaWidth;
  const position = ptab.align === 'left' ? from : ptab.align === 'right' ? to : (from + to) / 2;
  return { position, align: ptab.align, leader: ptab.leader };
}

/** Width of what follows a tab, up to the next tab or break: what a right/center tab aligns. */
function followingWidth(segments: readonly Segment[], from: number): { width: number; decimal: number } {
  let width = 0;
  let decimal = -1;
  for (let i = from; i < segments.length; i++) {
    const segment = segments[i];
    if (!segment || segment.boxes[0]?.kind === 'tab') break;
    for (const box of segment.boxes) {
      if (decimal < 0 && box.kind === 'text') {
        const dot = box.text.search(/[.,]/);
        if (dot >= 0) decimal = width + box.face.measure(box.text.slice(0, dot)) * box.size;
      }
      width += box.width;
    }
    if (segment.breakAfter) break;
  }
  return { width: width, decimal: decimal < 0 ? width : decimal };
}

/**
 * Splits a segment too wide for its line at the last character of its first box that fits in
 * `available`: at least one character (`least` 1) on an empty line, where something must go, and
 * possibly none (`least` 0) when the segment continues a word already on the line. Undefined when
 * it cannot be split there (the first box is not text, or all of it fits).
 *
 * Linear in what the line holds, not in the word: code points are walked from the start only as
 * far as the line reaches, and head and tail are slices (V8 slices a long string without copying
 * it), so a million-character word breaks in time proportional to its length, not its square.
 */
function splitOversized(segment: Segment, available: number, least: 0 | 1): [Segment, Segment] | undefined {
  const [box] = segment.boxes;
  if (box?.kind !== 'text') return undefined;
  const { text } = box;
  let used = 0;
  let count = 0;
  let end = 0;
  while (end < text.length) {
    const next = end + ((text.codePointAt(end) as number) > 0xffff ? 2 : 1);
    const w = box.face.measure(text.slice(end, next)) * box.size + box.props.characterSpacing;
    if (used + w > available && count >= least) break;
    used += w;
    count++;
    end = next;
  }
  if (end >= text.length || count === 0) return undefined;
  const head = text.slice(0, end);
  const tail = text.slice(end);
  const headWidth = box.face.measure(head) * box.size + box.props.characterSpacing * count;
  const tailBox = part(box, tail, box.width - headWidth, box.space);
  return [
    { boxes: [part(box, head, headWidth, false)], width: headWidth, trailing: 0 },
    {
      ...segment,
      // The boxes after the first are a few spaces at most (pieces made by wordPieces).
      boxes: segment.boxes.length === 1 ? [tailBox] : [tailBox, ...segment.boxes.slice(1)],
      width: segment.width - headWidth,
    },
  ];
}

/**
 * A word set in several runs (several boxes: bold "foo" and plain "bar", a URL Word split by
 * rsid) that is too wide for an empty line, as segments to place in turn: a box each, and the
 * last box that is not white space together with the spaces after it, which keep the segment's
 * trailing width, hanging punctuation and break. Each piece can be split at a character, as Word
 * breaks such a word where the line ends, whatever run it is in.
 */
function wordPieces(segment: Segment): Segment[] {
  const { boxes } = segment;
  let last = boxes.length - 1;
  while (last > 0 && boxes[last]?.kind === 'text' && boxes[last]?.space) last--;
  const pieces: Segment[] = [];
  for (let i = 0; i < last; i++) {
    const box = boxes[i] as Box;
    pieces.push({ boxes: [box], width: box.width, trailing: 0 });
  }
  let width = 0;
  for (let i = last; i < boxes.length; i++) width += (boxes[i] as Box).width;
  const end: Segment = { ...segment, boxes: boxes.slice(last), width: width - segment.trailing };
  pieces.push(end);
  return pieces;
}

/** A piece of `box`: its head and kept widths (Box.headWidth, keptWidth) were the whole text's, so they are not kept. */
function part(box: Box, text: string, width: number, space: boolean): Box {
  return { ...box, text, width, space, headWidth: undefined, keptWidth: undefined };
}

const SOFT_HYPHEN = '\u00ad';

/** The width of the hyphen a segment ending at a soft hyphen shows when a line breaks after it. */
function softHyphenWidth(segment: Segment): number {
  const last = segment.boxes[segment.boxes.length - 1];
  if (last?.kind !== 'text' || !last.text.endsWith(SOFT_HYPHEN)) return 0;
  return last.face.measure('-') * last.size;
}

/**
 * A line that breaks at a soft hyphen (U+00AD, w:softHyphen, ECMA-376 §17.3.3.29) shows a hyphen
 * there; anywhere else the character draws nothing. The hyphen takes the place of the character
 * in the text, so text taken from the page reads as a word hyphenated at the line end. Returns
 * the width it adds.
 */
function showSoftHyphen(line: BrokenLine): number {
  const last = line.placed[line.placed.length - 1];
  if (last === undefined || last.box.kind !== 'text' || !last.text.endsWith(SOFT_HYPHEN)) return 0;
  const width = last.box.face.measure('-') * last.box.size;
  last.text = `${last.text.slice(0, -1)}-`;
  last.width += width;
  return width;
}

export function breakLines(paragraph: Paragraph, segments: readonly Segment[], context: LineContext): BrokenLine[] {
  const { indent } = paragraph.props;
  const lines: BrokenLine[] = [];
  // The pieces of a split oversized segment still to place, the next one last: they come before
  // segments[index]. Carried here rather than spliced into a copy of the segments, which cost a
  // copy of the rest of the paragraph per split.
  const pending: Segment[] = [];
  /**
   * Pieces of a word broken up by wordPieces (and the pieces split off them) that follow the
   * piece before them on the line with no break opportunity between: one that does not fit is
   * split to fill the line rather than sent whole to the next.
   */
  let continuing: Set<Segment> | undefined;
  let first = true;
  let index = 0;

  while (index < segments.length || pending.length > 0 || first) {
    const box = context.lineBox?.(lines.length);
    const start = (first ? indent.left + indent.firstLine : indent.left) + (box?.left ?? 0);
    const available = Math.max(1, context.areaWidth - indent.right - (box?.right ?? 0) - start);
    const line: BrokenLine = { placed: [], start, available, width: 0, last: false };
    let x = first && context.labelWidth ? context.labelWidth : 0;
    let trailing = 0;
    /** How far text may reach: past the right margin only up to a right/center/decimal tab set beyond it. */
    let reach = available;
    /** The hanging punctuation at the end of the last segment placed (part of `trailing`). */
    let hanging = 0;
    /** Width of the line's spaces since its last tab, but for `trailing` (shrinkAdmits). */
    let spaces = 0;

    while (pending.length > 0 || index < segments.length) {
      const carried = pending.length > 0;
      const segment = carried ? (pending[pending.length - 1] as Segment) : segments[index];
      if (!segment) break;
      const lead = segment.boxes[0];
      if (lead?.kind === 'tab') {
        const stop = lead.ptab
          ? positionalStop(lead.ptab, paragraph, context.areaWidth)
          : nextTabStop(start + x + trailing, paragraph, context.defaultTabStop);
        // A tab is never a split piece, so what follows it starts at segments[index + 1].
        const following = followingWidth(segments, index + 1);
        const origin = start + x + trailing;
        let target = stop.position;
        if (stop.align === 'right') target = stop.position - following.width;
        else if (stop.align === 'center') target = stop.position - following.width / 2;
        else if (stop.align === 'decimal') target = stop.position - following.decimal;
        const tabWidth = Math.max(0, target - origin);
        if (line.placed.length > 0 && stop.position > start + available + EPSILON && stop.align === 'left') break;
        // An absolute position tab whose point the line has passed goes to it on the next line (§17.3.3.23).
        if (lead.ptab && line.placed.length > 0 && stop.position < origin - EPSILON) break;
        // Word lets text aligned at a right, centre or decimal tab set beyond the right margin run
        // into the margin up to that stop (a table of contents whose page-number tab sits past
        // the margin keeps its numbers on the entry's line; LibreOffice's TabOverMargin).
        reach = stop.align === 'left' ? available : Math.max(available, stop.position - start);
        const placed: PlacedBox = { box: lead, text: lead.text, x: x + trailing, width: tabWidth };
        if (stop.leader !== 'none') placed.leader = stop.leader;
        line.placed.push(placed);
        x += trailing + tabWidth;
        trailing = 0;
        hanging = 0;
        spaces = 0;
        if (carried) pending.pop();
        else index++;
        continue;
      }
      // A word ending at a soft hyphen needs room for the hyphen it shows if the line ends there.
      const overflow = x + trailing + segment.width + softHyphenWidth(segment) - reach;
      let fits = overflow <= EPSILON;
      if (
        !fits &&
        context.shrinkSpaces &&
        line.placed.length > 0 &&
        continuing?.has(segment) !== true &&
        shrinkAdmits(overflow, spaces + trailing - hanging, trailing - hanging, available - x)
      ) {
        fits = true;
        line.shrunk = true;
      }
      if (!fits) {
        const empty = line.placed.length === 0;
        const continues = continuing?.has(segment) === true;
        if (!empty && !continues) break;
        if (empty && segment.boxes.length > 1 && !continues) {
          // A word of several runs: its boxes, to be split where the line ends.
          if (carried) pending.pop();
          else index++;
          const pieces = wordPieces(segment);
          continuing ??= new Set();
          // The first piece is marked too: it is at the start of the line anyway, and marked it is
          // split rather than broken up again when it is the whole word (a word and its spaces).
          for (let i = pieces.length - 1; i >= 0; i--) {
            const piece = pieces[i] as Segment;
            pending.push(piece);
            continuing.add(piece);
          }
          continue;
        }
        const split = splitOversized(segment, available - x - trailing, empty ? 1 : 0);
        if (split) {
          if (carried) pending.pop();
          else index++;
          pending.push(split[1], split[0]);
          if (continues) {
            continuing?.add(split[0]);
            continuing?.add(split[1]);
          }
          continue;
        }
        // Nothing of it fits where the line has something already: the word goes on below.
        if (!empty) break;
      }
      let bx = x + trailing;
      for (const box of segment.boxes) {
        line.placed.push({ box, text: box.text, x: bx, width: box.width });
        bx += box.width;
      }
      spaces += trailing - hanging;
      x += trailing + segment.width;
      trailing = segment.trailing;
      hanging = segment.hanging ?? 0;
      if (carried) pending.pop();
      else index++;
      if (segment.breakAfter) {
        line.breakAfter = segment.breakAfter;
        break;
      }
    }
    if (!line.breakAfter && (index < segments.length || pending.length > 0)) x += showSoftHyphen(line);
    // Final hanging punctuation (、。，！…) that fits the measure is part of the line (justified
    // and aligned with it); only one that does not fit hangs past the edge (w:overflowPunct,
    // §17.3.1.21).
    line.width = x + hanging <= available + EPSILON ? x + hanging : x;
    first = false;
    lines.push(line);
    if (lines.length > MAX_PARAGRAPH_LINES) {
      throw tooComplex(
        `a paragraph breaks into more than ${MAX_PARAGRAPH_LINES.toLocaleString('en-US')} lines`,
        `${MAX_PARAGRAPH_LINES.toLocaleString('en-US')} lines per paragraph`,
      );
    }
    if (index >= segments.length && pending.length === 0) break;
  }
  // A line break (w:br, §17.3.3.1) ending the paragraph leaves the paragraph mark on a line of its
  // own: Word shows an empty line there, as tall as the mark.
  const ending = lines[lines.length - 1];
  if (ending?.breakAfter === 'line') {
    const start = indent.left + (context.lineBox?.(lines.length)?.left ?? 0);
    const available = Math.max(1, context.areaWidth - indent.right - start);
    lines.push({ placed: [], start, available, width: 0, last: false });
  }
  const lastLine = lines[lines.length - 1];
  if (lastLine) lastLine.last = true;
  return lines;
}
