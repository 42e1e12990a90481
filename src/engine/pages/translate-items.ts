/**
 * Items moved on the page: a drawing laid out in its own frame (drawing-layout.ts) or an equation
 * set about its baseline (engine/layout/math-layout.ts), moved to where the line painter puts it.
 */
import type { PageItem, PathCommand } from '../layout';

/** The drawing's items moved by (dx, dy). */
export function translateItems(items: PageItem[], dx: number, dy: number): PageItem[] {
  return items.map((item): PageItem => {
    switch (item.kind) {
      case 'line':
        return { ...item, x1: item.x1 + dx, y1: item.y1 + dy, x2: item.x2 + dx, y2: item.y2 + dy };
      case 'path':
        return { ...item, commands: item.commands.map((c) => moveCommand(c, dx, dy)) };
      case 'anchor':
        return { ...item, y: item.y + dy };
      default:
        return { ...item, x: item.x + dx, y: item.y + dy };
    }
  });
}

function moveCommand(command: PathCommand, dx: number, dy: number): PathCommand {
  switch (command.op) {
    case 'Z':
      return command;
    case 'C':
      return {
        ...command,
        x1: command.x1 + dx,
        y1: command.y1 + dy,
        x2: command.x2 + dx,
        y2: command.y2 + dy,
        x: command.x + dx,
        y: command.y + dy,
      };
    default:
      return { ...command, x: command.x + dx, y: command.y + dy };
  }
}
