/**
 * Text flowing around floating objects (ECMA-376 Part 1 §20.4.2.3 wp:anchor, §20.4.2.16–20 wrap
 * types). The contract between page flow and line layout is an exclusion list per page: page flow
 * places each paragraph's wrapped floats when it reaches the paragraph (registering their boxes,
 * grown by their distances from text), then asks for the paragraph laid out line by line with the
 * horizontal span left free at each line's height. A line beside a square-wrapped object is
 * shortened on the side away from it; a line that meets a top-and-bottom object, or would be too
 * narrow to hold text, moves below the object. Tight and through wrapping use the bounding box.
 */
import type { DrawingInline, PageGeometry, Paragraph } from '../model';
import { floatingOrigin } from './drawing-placement';
import type { LineBox } from './line-breaker';
import type { LaidParagraph } from './paragraph-layout';

interface Exclusion {
  top: number;
  bottom: number;
  left: number;
  right: number;
  wrap: 'square' | 'topAndBottom';
  side: 'both' | 'left' | 'right' | 'largest';
  /** wrapTight/wrapThrough: the outline in page coordinates, and the distances kept from it. */
  polygon?: { points: { x: number; y: number }[]; left: number; right: number };
}

export interface Column {
  x: number;
  width: number;
}

/** Narrower than this, a line beside an object holds no text (Word's minimum is about an inch at most). */
const MIN_LINE_WIDTH = 18;
const EPSILON = 0.01;

export class FloatWrap {
  private exclusions: Exclusion[] = [];

  /** A new page: nothing floats on it yet. */
  startPage(): void {
    this.exclusions = [];
  }

  /**
   * Places the floats `paragraph` anchors, its top at `top` in `column`; records where each goes
   * (for the painter) and the room wrapped ones take.
   */
  anchor(
    paragraph: Paragraph,
    top: number,
    column: Column,
    page: PageGeometry,
    positions: Map<DrawingInline, { x: number; y: number }>,
  ): void {
    for (const inline of paragraph.inlines) {
      if (inline.kind !== 'drawing' || !inline.floating) continue;
      const origin = floatingOrigin(inline, page, {
        columnX: column.x,
        columnWidth: column.width,
        characterX: column.x,
        lineTop: top,
        paragraphTop: top,
      });
      positions.set(inline, origin);
      const { wrap, distance, side } = inline.floating;
      if (wrap === 'none' || inline.width <= 0 || inline.height <= 0) continue;
      const exclusion: Exclusion = {
        top: origin.y - distance.top,
        bottom: origin.y + inline.height + distance.bottom,
        left: origin.x - distance.left,
        right: origin.x + inline.width + distance.right,
        wrap,
        side,
      };
      const polygon = inline.floating.polygon;
      if (polygon) {
        exclusion.polygon = {
          points: polygon.map((p) => ({ x: origin.x + p.x * inline.width, y: origin.y + p.y * inline.height })),
          left: distance.left,
          right: distance.right,
        };
      }
      this.exclusions.push(exclusion);
    }
  }

  /**
   * A floating table's box (w:tblpPr, §17.4.58) grown by its distances from text: text beside it
   * wraps on either side, as around a square-wrapped object.
   */
  exclude(box: { left: number; right: number; top: number; bottom: number }): void {
    this.exclusions.push({ ...box, wrap: 'square', side: 'both' });
  }

  /**
   * The paragraph laid out around the page's floats when any of them reaches the lines it would
   * take from `top`; otherwise `laid` itself. `relayout` lays the paragraph out with a per-line box.
   */
  wrap(laid: LaidParagraph, top: number, column: Column, relayout: (lineBox: LineBox) => LaidParagraph): LaidParagraph {
    if (this.exclusions.length === 0) return laid;
    let height = 0;
    for (const line of laid.lines) height += line.height;
    const reach = top + height + 1;
    if (!this.exclusions.some((e) => e.bottom > top + EPSILON && e.top < reach && this.crosses(e, column))) return laid;
    const heights = laid.lines.map((line) => line.height);
    const boxes: { left: number; right: number }[] = [];
    const skips: number[] = [];
    let cursor = top;
    const lineBox: LineBox = (index) => {
      const known = boxes[index];
      if (known) return known;
      const lineHeight = heights[index] ?? heights[heights.length - 1] ?? 12;
      let y = cursor;
      let box = { left: 0, right: 0 };
      for (let guard = 0; guard < 32; guard++) {
        const free = this.freeSpan(y, y + lineHeight, column);
        if ('until' in free) {
          y = free.until;
          continue;
        }
        box = free;
        break;
      }
      skips[index] = y - cursor;
      cursor = y + lineHeight;
      boxes[index] = box;
      return box;
    };
    const wrapped = relayout(lineBox);
    return {
      ...wrapped,
      lines: wrapped.lines.map((line, i) => {
        const skip = skips[i] ?? 0;
        // Moved below an object: the line starts lower, as if it were taller above its text.
        return skip > EPSILON ? { ...line, height: line.height + skip, baseline: line.baseline + skip } : line;
      }),
    };
  }

  private crosses(e: Exclusion, column: Column): boolean {
    return e.right > column.x + EPSILON && e.left < column.x + column.width - EPSILON;
  }

  /** Insets from the column's edges free for a line between `y1` and `y2`, or the y to move down to. */
  private freeSpan(y1: number, y2: number, column: Column): { left: number; right: number } | { until: number } {
    let left = 0;
    let right = 0;
    const columnRight = column.x + column.width;
    for (const whole of this.exclusions) {
      if (whole.bottom <= y1 + EPSILON || whole.top >= y2 - EPSILON || !this.crosses(whole, column)) continue;
      const e = whole.polygon ? band(whole, y1, y2) : whole;
      if (e === undefined) continue;
      if (e.wrap === 'topAndBottom') return { until: e.bottom };
      const leftRoom = e.left - column.x - left;
      const rightRoom = columnRight - e.right - right;
      let useLeft: boolean;
      if (e.side === 'left') useLeft = true;
      else if (e.side === 'right') useLeft = false;
      else useLeft = leftRoom >= rightRoom;
      const room = useLeft ? leftRoom : rightRoom;
      if (room < MIN_LINE_WIDTH) {
        const other = useLeft ? rightRoom : leftRoom;
        // No room beside this object: the line moves down to where the first of the objects
        // beside it ends (there the room changes), not past this one, which another object
        // beside it may have squeezed.
        if (e.side !== 'both' && e.side !== 'largest') return { until: this.firstBottom(y1, y2, column) };
        if (other < MIN_LINE_WIDTH) return { until: this.firstBottom(y1, y2, column) };
        useLeft = !useLeft;
      }
      // Text on the left of the object: the line ends where the object starts, and vice versa.
      if (useLeft) right = Math.max(right, columnRight - e.left);
      else left = Math.max(left, e.right - column.x);
    }
    if (column.width - left - right < MIN_LINE_WIDTH) return { until: this.firstBottom(y1, y2, column) };
    return { left, right };
  }

  /** The highest bottom of the objects beside a line between `y1` and `y2`. */
  private firstBottom(y1: number, y2: number, column: Column): number {
    const blocking = this.exclusions
      .filter((e) => e.bottom > y1 + EPSILON && e.top < y2 - EPSILON && this.crosses(e, column))
      .map((e) => e.bottom);
    return Math.min(...blocking);
  }
}

/**
 * A tight or through exclusion narrowed to the outline's horizontal extent between y1 and y2
 * (edges clipped to the band), or undefined when the outline does not reach the band.
 */
function band(e: Exclusion, y1: number, y2: number): Exclusion | undefined {
  const polygon = e.polygon;
  if (!polygon) return e;
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  const { points } = polygon;
  for (let i = 0; i < points.length; i++) {
    const p = points[i] as { x: number; y: number };
    const q = points[(i + 1) % points.length] as { x: number; y: number };
    const low = Math.max(y1, Math.min(p.y, q.y));
    const high = Math.min(y2, Math.max(p.y, q.y));
    if (low > high) continue;
    for (const y of [low, high]) {
      const x = q.y === p.y ? p.x : p.x + ((q.x - p.x) * (y - p.y)) / (q.y - p.y);
      left = Math.min(left, x, q.y === p.y ? q.x : x);
      right = Math.max(right, x, q.y === p.y ? q.x : x);
    }
  }
  if (!Number.isFinite(left)) return undefined;
  return { ...e, left: left - polygon.left, right: right + polygon.right };
}
