/**
 * Cell borders: which border each edge of a cell shows, and which one wins where two cells meet.
 * A cell's own w:tcBorders (with its table style's conditional borders, merged by the reader) come
 * first; else the table's outer border on the table's edge and insideH/insideV within
 * (§17.4.38, §17.4.66). Where two cells share an edge Word draws one border: the heavier, then the
 * one earlier in reading order (§17.4.66's conflict rules: weight, then style, then colour).
 */
import type { Border, CellBorders, TableBorders } from '../../model';
import type { LineItem } from '../page-items';

/** Drawn borders: style 'none' and zero widths are gone. */
export function visible(border: Border | undefined): Border | undefined {
  if (!border || border.style === 'none' || border.style === 'nil' || border.width <= 0) return undefined;
  return border;
}

/** Border weight for conflicts: width times the number of strokes its style draws. */
function weight(border: Border): number {
  const strokes =
    border.style === 'double'
      ? 2
      : border.style.startsWith('thinThick') || border.style.startsWith('thickThin')
        ? 2
        : border.style === 'triple'
          ? 3
          : 1;
  return border.width * strokes;
}

/** The room a border takes in the row's height: its drawn width, 0 when it is not drawn. */
export function borderWidth(border: Border | undefined): number {
  const shown = visible(border);
  return shown ? weight(shown) : 0;
}

/** The border Word shows where two cells' edges meet; `first` is the upper or left one. */
export function stronger(first: Border | undefined, second: Border | undefined): Border | undefined {
  const a = visible(first);
  const b = visible(second);
  if (!a) return b;
  if (!b) return a;
  return weight(b) > weight(a) ? b : a;
}

/** A cell's four edges before meeting its neighbours. */
export function cellEdges(
  own: CellBorders | undefined,
  table: TableBorders,
  position: { firstRow: boolean; lastRow: boolean; firstColumn: boolean; lastColumn: boolean },
): CellBorders {
  return definedEdges(
    own?.top ?? (position.firstRow ? table.top : table.insideH),
    own?.bottom ?? (position.lastRow ? table.bottom : table.insideH),
    own?.left ?? (position.firstColumn ? table.left : table.insideV),
    own?.right ?? (position.lastColumn ? table.right : table.insideV),
  );
}

/**
 * A cell's four edges when the table has cell spacing: its own, else insideH/insideV on every
 * side. The table's outer borders belong to the frame around the cells, not to the cells.
 */
export function separateCellEdges(own: CellBorders | undefined, table: TableBorders): CellBorders {
  return definedEdges(
    own?.top ?? table.insideH,
    own?.bottom ?? table.insideH,
    own?.left ?? table.insideV,
    own?.right ?? table.insideV,
  );
}

function definedEdges(
  top: Border | undefined,
  bottom: Border | undefined,
  left: Border | undefined,
  right: Border | undefined,
): CellBorders {
  const edges: CellBorders = {};
  if (top) edges.top = top;
  if (bottom) edges.bottom = bottom;
  if (left) edges.left = left;
  if (right) edges.right = right;
  return edges;
}

/** A border as a display-list line (dotted and dashed styles dashed; others solid). */
export function borderLine(
  border: Border | undefined,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): LineItem | undefined {
  const shown = visible(border);
  if (!shown) return undefined;
  const dash =
    shown.style === 'dotted' ? [shown.width, shown.width * 2] : shown.style.startsWith('dash') ? [3, 2] : undefined;
  return {
    kind: 'line',
    x1,
    y1,
    x2,
    y2,
    width: weight(shown),
    color: shown.color ?? '000000',
    ...(dash ? { dash } : {}),
  };
}
