/**
 * A vertical-text table cell's items (w:textDirection btLr or tbRl, ECMA-376 §17.4.72, laid out by
 * engine/layout/table/turned-cell.ts): painted in the cell's unturned frame, then mapped onto the
 * cell's box on the page.
 */
import type { FontFace } from '../fonts';
import type { PageItem, PathCommand, TurnedBox } from '../layout';
import { turnClockwise } from './vertical-text';

/**
 * Items painted in the cell's unturned frame (x along the line from 0 to box.height, y across the
 * lines from 0 to box.width), placed in the box.
 */
export function turnCellItems(items: PageItem[], box: TurnedBox, faces: Record<string, FontFace>): PageItem[] {
  if (box.direction === 'tbRl') {
    // Shift the frame down to the box's top, then turn it clockwise against the box's right edge.
    return turnClockwise(
      items.map((item) => shift(item, box.top)),
      box.left + box.width,
      faces,
    );
  }
  return items.map((item) => counterClockwise(item, box));
}

/** Moves an item `dx` along x (the unturned frame's line direction). */
function shift(item: PageItem, dx: number): PageItem {
  switch (item.kind) {
    case 'text':
    case 'rect':
    case 'link':
    case 'image':
      return { ...item, x: item.x + dx };
    case 'line':
      return { ...item, x1: item.x1 + dx, x2: item.x2 + dx };
    case 'path':
      return { ...item, commands: item.commands.map((c) => mapCommand(c, (x, y) => [x + dx, y])) };
    case 'anchor':
      return item;
  }
}

/** btLr: (x, y) → (left + y, top + height − x), text turned a quarter turn counter-clockwise. */
function counterClockwise(item: PageItem, box: TurnedBox): PageItem {
  const map = (x: number, y: number): [number, number] => [box.left + y, box.top + box.height - x];
  switch (item.kind) {
    case 'text': {
      const [x, y] = map(item.x, item.y);
      return { ...item, x, y, angle: (item.angle ?? 0) + 90 };
    }
    case 'line': {
      const [x1, y1] = map(item.x1, item.y1);
      const [x2, y2] = map(item.x2, item.y2);
      return { ...item, x1, y1, x2, y2 };
    }
    case 'rect':
    case 'link':
    case 'image': {
      // The box's corner (x + width, y) lands top-left after the turn.
      const [x, y] = map(item.x + item.width, item.y);
      return { ...item, x, y, width: item.height, height: item.width };
    }
    case 'path':
      return { ...item, commands: item.commands.map((c) => mapCommand(c, map)) };
    case 'anchor':
      return item;
  }
}

function mapCommand(c: PathCommand, map: (x: number, y: number) => [number, number]): PathCommand {
  if (c.op === 'Z') return c;
  if (c.op === 'C') {
    const [x1, y1] = map(c.x1, c.y1);
    const [x2, y2] = map(c.x2, c.y2);
    const [x, y] = map(c.x, c.y);
    return { op: 'C', x1, y1, x2, y2, x, y };
  }
  const [x, y] = map(c.x, c.y);
  return { op: c.op, x, y };
}
