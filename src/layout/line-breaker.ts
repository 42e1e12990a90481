/**
 * Word's line breaking: greedy first fit (not Knuth–Plass; ENGINE.md "Line breaking"). Segments
 * are added while their width without trailing spaces fits; trailing spaces hang past the edge.
 * Tabs are resolved while filling, because where a tab ends decides what fits after it.
 */
import type { Paragraph, TabStop } from '../model/document';
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
}

/**
 * The room of one line (by index) beside floating objects: insets from the text area's left and
 * right edges (layout/float-wrap.ts). Called once per line, in order.
 */
export type LineBox = (index: number) => { left: number; right: number };

export interface LineContext {
  /** Width of the text area (column), points. */
  areaWidth: number;
  defaultTabStop: number;
  /** Width of the list label and its suffix, placed before the first segment. */
  labelWidth?: number;
  lineBox?: LineBox;
}

const EPSILON = 0.01;

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

/** Width of what follows a tab, up to the next tab or break: what a right/center tab aligns. */
function followingWidth(segments: Segment[], from: number): { width: number; decimal: number } {
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

/** Splits a segment too wide for an empty line at the last character that fits. */
function splitOversized(segment: Segment, available: number): [Segment, Segment] | undefined {
  const [box] = segment.boxes;
  if (segment.boxes.length !== 1 || !box || box.kind !== 'text') return undefined;
  const chars = [...box.text];
  let used = 0;
  let count = 0;
  for (const ch of chars) {
    const w = box.face.measure(ch) * box.size + box.props.characterSpacing;
    if (used + w > available && count > 0) break;
    used += w;
    count++;
  }
  if (count >= chars.length) return undefined;
  const head = chars.slice(0, count).join('');
  const tail = chars.slice(count).join('');
  const headWidth = box.face.measure(head) * box.size + box.props.characterSpacing * count;
  return [
    { boxes: [part(box, head, headWidth, false)], width: headWidth, trailing: 0 },
    { ...segment, boxes: [part(box, tail, box.width - headWidth, box.space)], width: segment.width - headWidth },
  ];
}

/** A piece of `box`: its head and kept widths (Box.headWidth, keptWidth) were the whole text's, so they are not kept. */
function part(box: Box, text: string, width: number, space: boolean): Box {
  return { ...box, text, width, space, headWidth: undefined, keptWidth: undefined };
}

export function breakLines(paragraph: Paragraph, segments: Segment[], context: LineContext): BrokenLine[] {
  const { indent } = paragraph.props;
  const lines: BrokenLine[] = [];
  // Copied only if an oversized segment is split into two.
  let queue = segments;
  let first = true;
  let index = 0;

  while (index < queue.length || first) {
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

    while (index < queue.length) {
      const segment = queue[index];
      if (!segment) break;
      const lead = segment.boxes[0];
      if (lead?.kind === 'tab') {
        const stop = nextTabStop(start + x + trailing, paragraph, context.defaultTabStop);
        const following = followingWidth(queue, index + 1);
        const origin = start + x + trailing;
        let target = stop.position;
        if (stop.align === 'right') target = stop.position - following.width;
        else if (stop.align === 'center') target = stop.position - following.width / 2;
        else if (stop.align === 'decimal') target = stop.position - following.decimal;
        const tabWidth = Math.max(0, target - origin);
        if (line.placed.length > 0 && stop.position > start + available + EPSILON && stop.align === 'left') break;
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
        index++;
        continue;
      }
      const fits = x + trailing + segment.width <= reach + EPSILON;
      if (!fits && line.placed.length > 0) break;
      if (!fits) {
        const split = splitOversized(segment, available - x);
        if (split) {
          if (queue === segments) queue = [...segments];
          queue.splice(index, 1, split[0], split[1]);
          continue;
        }
      }
      let bx = x + trailing;
      for (const box of segment.boxes) {
        line.placed.push({ box, text: box.text, x: bx, width: box.width });
        bx += box.width;
      }
      x += trailing + segment.width;
      trailing = segment.trailing;
      hanging = segment.hanging ?? 0;
      index++;
      if (segment.breakAfter) {
        line.breakAfter = segment.breakAfter;
        break;
      }
    }
    // Final hanging punctuation (、。，！…) that fits the measure is part of the line (justified
    // and aligned with it); only one that does not fit hangs past the edge (w:overflowPunct,
    // §17.3.1.21).
    line.width = x + hanging <= available + EPSILON ? x + hanging : x;
    first = false;
    lines.push(line);
    if (index >= queue.length) break;
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
