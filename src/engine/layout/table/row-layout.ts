/**
 * A table's rows laid out at their grid: each cell's content measured once at its text width,
 * row heights from content and w:trHeight (§17.4.81: auto, atLeast, exact), vertical alignment,
 * resolved border edges, and vertically merged cells (§17.4.85 vMerge) whose content is shared out
 * over the rows of their region, so that every row can then be placed or split on its own.
 */
import { MAX_TABLE_ROW_LINES, tooComplex } from '../../../limits';
import type { Block, Border, CellMargins, Table, TablePosition } from '../../model';
import { borderLine as borderLineItem, borderWidth, cellEdges, separateCellEdges, stronger } from './borders';
import {
  type CellContent,
  contentFrom,
  contentTo,
  EMPTY_CONTENT,
  type LaidCell,
  type LaidRow,
  layoutCellContent,
  type NestedRow,
  type Slice,
  type TableContext,
} from './cell-content';
import { paragraphMinimum, tableGrid } from './grid';
import { offsetLine, type TurnedBox } from './turned-cell';

export interface LaidTable {
  rows: LaidRow[];
  /** Left edge from the text column's left edge, and total width. */
  left: number;
  width: number;
  /** Leading rows marked w:tblHeader, repeated at the top of each page (§17.4.49). */
  headerRows: number;
  floating?: TablePosition;
  /** The first words of the table's text, naming it in warnings. */
  label: string;
}

const EPSILON = 0.01;

function margins(table: Table, own: Partial<CellMargins> | undefined): CellMargins {
  return { ...table.cellMargins, ...own };
}

/**
 * The row's height from its content and w:trHeight (§17.4.81). `edges`: the widths of the borders
 * the row takes room for (RowLayout). An at-least height is the room between them: Word adds them
 * on top of it, as it does on top of the content. A procurement estimate of 200 landscape pages
 * whose rows are each at least 24.65 pt tall, with 0.75 pt rules between them (poi-bug65649), has
 * Word end every page about a row sooner than a minimum that takes the rule in: 33 of its 85 page
 * starts kept instead of 18 of 92, and no other page start in either corpus moves. Each rule is
 * counted once, as the top edge of the row below it (and the last row's bottom edge): counting
 * every row's bottom edge too, as a second rule, loses 27 of the 30 page starts kept in the
 * auto-height rows of poi-bug59058.
 */
function rowHeight(content: number, rule: Table['rows'][number]['height'], edges: number): number {
  if (!rule || rule.rule === 'auto') return content;
  if (rule.rule === 'exact') return rule.value;
  return Math.max(content, rule.value + edges);
}

function keepsWithNext(row: Table['rows'][number]): boolean {
  let any = false;
  for (const cell of row.cells) {
    for (const block of cell.blocks) {
      if (block.kind !== 'paragraph') continue;
      if (!block.props.keepNext) return false;
      any = true;
    }
  }
  return any;
}

export function layoutTableRows(table: Table, available: number, context: TableContext): LaidTable {
  const { rows, count: _, ...laid } = tableRows(table, available, context);
  const all: LaidRow[] = [];
  for (let next = rows.next(); !next.done; next = rows.next()) all.push(next.value);
  return { ...laid, rows: all };
}

type MergeRegion = { cell: LaidCell; row: number; content: CellContent; last: number };

/** A table's rows laid out one at a time as they are taken (see tableRows). */
export interface LazyTable extends Omit<LaidTable, 'rows'> {
  /** How many rows `rows` yields. */
  count: number;
  rows: Iterator<LaidRow, void, undefined>;
}

/**
 * The table's grid at once, its rows as they are taken: a row is handed out as soon as nothing
 * laid after it can change it (the row below is laid, and every merge region over it has been
 * shared out), and the generator keeps nothing of it. A table hundreds of rows long is then never
 * laid out whole; the rows are the same as laying it out at once. `spill`: see tableGrid.
 */
export function tableRows(table: Table, available: number, context: TableContext, spill = 0): LazyTable {
  const grid = tableGrid(table, available, context, spill);
  const edges = [0];
  for (const width of grid.columns) edges.push((edges[edges.length - 1] ?? 0) + width);
  const columnCount = grid.columns.length;
  let headerRows = 0;
  while (headerRows < table.rows.length && table.rows[headerRows]?.isHeader) headerRows++;
  const lazy: LazyTable = {
    rows: rowsOf(table, columnCount, edges, context),
    count: table.rows.length,
    left: grid.left,
    width: edges[Math.min(columnCount, edges.length - 1)] ?? 0,
    headerRows,
    label: tableLabel(table),
  };
  if (table.floating) lazy.floating = table.floating;
  return lazy;
}

function* rowsOf(
  table: Table,
  columnCount: number,
  edges: number[],
  context: TableContext,
): Generator<LaidRow, void, undefined> {
  const edge = (index: number) => edges[Math.min(index, edges.length - 1)] ?? 0;
  // §17.4.44: with cell spacing each cell's box sits `spacing` inside its grid columns.
  const spacing = table.cellSpacing;
  const inset = spacing ?? 0;

  // Cells by grid column start, of the row above: vMerge continuations find their region's first cell here.
  let startsAbove: Map<number, LaidCell> | undefined;
  /** Rows laid but not handed out yet, by row index (those handed out are let go of). */
  const rows: (LaidRow | undefined)[] = [];
  /** Merge regions not shared out yet, in the order they start: the first cell, its row, its full content, and the rows it covers. */
  const regions: MergeRegion[] = [];
  const regionOf = new Map<LaidCell, MergeRegion>();
  /** The next row to hand out. */
  let out = 0;

  /**
   * Shares out, in the order they started, the regions that no longer grow (not continued in row
   * `laid`), and hands out the rows before `laid` that no region still open covers.
   */
  function* settle(laid: number): Generator<LaidRow, void, undefined> {
    while (regions.length > 0 && (regions[0] as MergeRegion).last < laid) {
      distributeMerged(regions.shift() as MergeRegion, rows, regionOf);
    }
    const ready = Math.min(laid, regions[0]?.row ?? laid);
    for (; out < ready; out++) {
      const row = rows[out];
      rows[out] = undefined;
      if (!row) continue;
      // A single-row "region" (restart with nothing below) is an ordinary cell: its height counts.
      for (const cell of row.cells) {
        const region = regionOf.get(cell);
        if (region && region.last === region.row && !row.exact) {
          row.height = Math.max(row.height, cell.contentTop + cell.content.height + cell.bottomMargin);
        }
      }
      for (const cell of row.cells) regionOf.delete(cell);
      yield row;
    }
  }

  for (let r = 0; r < table.rows.length; r++) {
    const row = table.rows[r] as Table['rows'][number];
    let at = 0;
    const cells: LaidCell[] = [];
    const byStart = new Map<number, LaidCell>();
    let contentHeight = 0;
    let rowLines = 0;
    for (const cell of row.cells) {
      const span = Math.max(1, cell.span);
      const x = edge(at) + inset;
      const width = Math.max(1, edge(at + span) - x - inset);
      const m = margins(table, cell.margins);
      const contentWidth = Math.max(1, width - m.left - m.right);
      const above = startsAbove?.get(at);
      const continues = cell.verticalMerge === 'continue' && above !== undefined;
      const laid: LaidCell = {
        x,
        width,
        contentX: m.left,
        contentWidth,
        contentTop: m.top,
        bottomMargin: m.bottom,
        content:
          continues || cell.placeholder
            ? EMPTY_CONTENT
            : layoutCellContent(cell.blocks, contentWidth, context, layoutTableSlices),
        verticalAlign: cell.verticalAlign ?? 'top',
        borders:
          spacing === undefined
            ? cellEdges(cell.borders, table.borders, {
                firstRow: r === 0,
                lastRow: r === table.rows.length - 1,
                firstColumn: at === 0,
                lastColumn: at + span >= columnCount,
              })
            : separateCellEdges(cell.borders, table.borders),
        mergedAbove: continues,
        mergedBelow: false,
        placeholder: !!cell.placeholder,
      };
      if (cell.shading) laid.shading = cell.shading;
      // Counted cell by cell, so that a row of thousands of squeezed cells stops before it is all laid out.
      for (const slice of laid.content.slices) rowLines += slice.lines.length;
      if (rowLines > MAX_TABLE_ROW_LINES) {
        throw tooComplex(
          `row ${r + 1} of a table lays out to more than ${MAX_TABLE_ROW_LINES.toLocaleString('en-US')} lines (its ${row.cells.length.toLocaleString('en-US')} cells are too narrow for their text, or hold too much of it)`,
          `${MAX_TABLE_ROW_LINES.toLocaleString('en-US')} lines in one table row`,
        );
      }
      if (cell.textDirection && cell.textDirection !== 'lrTb' && !continues && !cell.placeholder) {
        turnCell(laid, cell, row.height, m, context);
      }
      if (continues && above) {
        above.mergedBelow = true;
        const region = regionOf.get(above);
        if (region) {
          region.last = r;
          regionOf.set(laid, region);
        }
        if (above.shading) laid.shading = above.shading;
        else delete laid.shading;
      } else if (cell.verticalMerge === 'restart') {
        const region = { cell: laid, row: r, content: laid.content, last: r };
        regions.push(region);
        regionOf.set(laid, region);
      }
      // The shared edge: stronger of this cell's top and the bottom of the cell above it.
      if (spacing === undefined && above && !continues) {
        const top = stronger(above.borders.bottom, laid.borders.top);
        if (top) laid.borders.top = top;
        else delete laid.borders.top;
      }
      const before = cells[cells.length - 1];
      if (spacing === undefined && before) {
        const left = stronger(before.borders.right, laid.borders.left);
        if (left) laid.borders.left = left;
        else delete laid.borders.left;
      }
      cells.push(laid);
      byStart.set(at, laid);
      at += span;
    }
    startsAbove = byStart;
    const last = r === table.rows.length - 1;
    /** Widths of the collapsed borders the row makes room for (rowHeight). */
    let edges = 0;
    if (spacing !== undefined) {
      // Separate borders: the frame, the spacing and each cell's own top and bottom edges all
      // take room in the row (nothing is shared between neighbours).
      const frameTop = r === 0 ? borderWidth(table.borders.top) : 0;
      const frameBottom = last ? borderWidth(table.borders.bottom) : 0;
      for (const cell of cells) {
        const box = { top: cell.mergedAbove ? 0 : frameTop + spacing, bottom: frameBottom + spacing };
        cell.box = box;
        cell.contentTop += box.top + (cell.mergedAbove ? 0 : borderWidth(cell.borders.top));
        cell.bottomMargin += box.bottom + borderWidth(cell.borders.bottom);
      }
    } else {
      // Word gives borders room: the row's top edge (shared with the row above) and, on the last
      // row, the bottom edge add their width to the row's height, and the text starts below them.
      const topBorder = Math.max(0, ...cells.map((c) => (c.mergedAbove ? 0 : borderWidth(c.borders.top))));
      const bottomBorder = last ? Math.max(0, ...cells.map((c) => borderWidth(c.borders.bottom))) : 0;
      for (const cell of cells) {
        cell.contentTop += topBorder;
        cell.bottomMargin += bottomBorder;
      }
      edges = topBorder + bottomBorder;
    }
    // Single-row cells decide the height now; merged regions are shared out below.
    for (const cell of cells) {
      if (regionOf.has(cell)) continue;
      contentHeight = Math.max(contentHeight, cell.contentTop + cell.content.height + cell.bottomMargin);
    }
    const laidRow: LaidRow = {
      cells,
      height: rowHeight(contentHeight, row.height, edges),
      exact: row.height?.rule === 'exact',
      cantSplit: row.cantSplit,
      minimum: row.height?.rule === 'atLeast' ? row.height.value + edges : 0,
      isHeader: row.isHeader,
      keepNext: keepsWithNext(row),
    };
    if (spacing !== undefined) {
      laidRow.frame = { borders: table.borders, width: edge(columnCount), firstRow: r === 0, lastRow: last };
    }
    const cut = cutBy(laidRow, regionOf);
    if (cut) laidRow.cut = cut;
    rows[r] = laidRow;
    // Laying this row may still change the one above (mergedBelow), not any before it.
    yield* settle(r);
  }
  yield* settle(table.rows.length);
}

/**
 * Whether the row's exact height cuts its content off (§17.4.81 hRule exact: the row never grows):
 * a line or nested row starts below the row's bottom, so paintRow leaves it out (a line that only
 * reaches past the bottom, its descenders, is drawn whole), or a nested table in it has a row cut
 * so. Cells of a merged region are left out: their content is shared over the region's rows.
 */
function cutBy(row: LaidRow, regionOf: Map<LaidCell, unknown>): LaidRow['cut'] {
  let nested = false;
  for (const cell of row.cells) {
    const { slices } = cell.content;
    const last = slices[slices.length - 1];
    if (row.exact && last && !regionOf.has(cell) && cell.contentTop + last.y >= row.height - EPSILON) return 'own';
    if (slices.some((slice) => slice.row?.row.cut)) nested = true;
  }
  return nested ? 'nested' : undefined;
}

/** The first words of a table's first paragraph with text ("Quarterly results by…"), to name it in warnings. */
export function tableLabel(table: Table): string {
  const LENGTH = 32;
  let text = '';
  const walk = (blocks: readonly Block[]): boolean => {
    for (const block of blocks) {
      if (block.kind === 'table') {
        for (const row of block.rows) for (const cell of row.cells) if (walk(cell.blocks)) return true;
        continue;
      }
      for (const inline of block.inlines) if (inline.kind === 'text') text += inline.text;
      text = text.replace(/\s+/g, ' ').trim();
      if (text) return true;
    }
    return false;
  };
  walk([table]);
  return text.length > LENGTH ? `${text.slice(0, LENGTH).trimEnd()}…` : text;
}

/**
 * Lays a vertical-text cell's content out on lines as long as the row lets them be: an exact or
 * atLeast row height (less the cell's top and bottom margins), else the longest paragraph unbroken,
 * which is how Word sizes an auto-height row around turned text.
 */
function turnCell(
  laid: LaidCell,
  cell: Table['rows'][number]['cells'][number],
  height: Table['rows'][number]['height'],
  m: CellMargins,
  context: TableContext,
): void {
  let natural = 0;
  for (const block of cell.blocks) {
    if (block.kind === 'paragraph') natural = Math.max(natural, paragraphMinimum(block, context, true));
  }
  const room = height && height.rule !== 'auto' ? Math.max(1, height.value - m.top - m.bottom) : 0;
  const length = Math.max(1, height?.rule === 'exact' ? room : Math.max(room, Math.ceil(natural + 1)));
  const content = layoutCellContent(cell.blocks, length, context, layoutTableSlices);
  laid.turn = { direction: cell.textDirection === 'btLr' ? 'btLr' : 'tbRl', length, content };
  laid.content = { slices: [{ y: 0, height: length, lines: [], backgrounds: [], rules: [] }], height: length };
}

/**
 * A vertically merged cell's content over the rows of its region: the last row grows when the
 * rows are too short, vertical alignment is applied over the region's height, and each row's
 * cell gets the slices that start within that row.
 */
function distributeMerged(
  region: MergeRegion,
  rows: readonly (LaidRow | undefined)[],
  regionOf: Map<LaidCell, unknown>,
): void {
  if (region.last === region.row) return;
  const { cell, content } = region;
  const needed = cell.contentTop + content.height + cell.bottomMargin;
  let total = 0;
  for (let r = region.row; r <= region.last; r++) total += rows[r]?.height ?? 0;
  const lastRow = rows[region.last];
  if (needed > total && lastRow && !lastRow.exact) {
    lastRow.height += needed - total;
    total = needed;
  }
  const free = Math.max(0, total - needed);
  const offset = cell.verticalAlign === 'center' ? free / 2 : cell.verticalAlign === 'bottom' ? free : 0;
  // The region's cell in each row, by its x.
  let rowTop = 0;
  let next = 0;
  for (let r = region.row; r <= region.last; r++) {
    const row = rows[r];
    if (!row) continue;
    const piece = row.cells.find((c) => c.x === cell.x && (c === cell || regionOf.get(c) === region));
    const start = rowTop;
    const end = r === region.last ? Number.POSITIVE_INFINITY : rowTop + row.height;
    let stop = next;
    while (stop < content.slices.length) {
      const slice = content.slices[stop];
      if (!slice || cell.contentTop + offset + slice.y >= end) break;
      stop++;
    }
    if (piece) {
      // A row's piece is as tall as its own slices; only the last row's runs to the content's end.
      const upTo = r === region.last ? content : contentTo(content, stop);
      const taken = contentFrom(upTo, next);
      const firstY = content.slices[next]?.y ?? 0;
      // Slices keep their place relative to the region: the piece's content starts where its first slice was.
      piece.content = taken;
      piece.verticalAlign = 'top';
      piece.contentTop = Math.max(0, cell.contentTop + offset + firstY - start);
      // A line may straddle two rows of the region (centred text usually does); the rows keep
      // their own heights, as in Word, since the region as a whole already has room (above).
      // Only a region whose slices run past its end (top-aligned, grown above) grows a row.
      const bottom = rowTop + piece.contentTop + taken.height;
      if (taken.slices.length > 0 && !row.exact && bottom > total + EPSILON) {
        row.height = Math.max(row.height, piece.contentTop + taken.height);
      }
      if (r !== region.row) piece.contentX = cell.contentX;
    }
    next = stop;
    rowTop += row.height;
  }
}

/**
 * A table as slices, one per row: nested tables in cells, and tables in headers and footers.
 * Coordinates are relative to the containing text box. A nested table's rows split between pages
 * like the outer table's (table-pagination.ts splitContent), from what each slice keeps of its row.
 */
export function layoutTableSlices(table: Table, width: number, context: TableContext): Slice[] {
  const laid = layoutTableRows(table, width, context);
  const headers = laid.rows.slice(0, laid.headerRows);
  const slices: Slice[] = [];
  let y = 0;
  laid.rows.forEach((row, index) => {
    const nested = { row, left: laid.left, top: index === 0, bottom: index === laid.rows.length - 1, headers };
    slices.push(paintNestedRow(nested, y));
    y += row.height;
  });
  return slices;
}

/** A nested table's row (or the piece of one on a page) painted as a slice at `y` of its cell's content. */
export function paintNestedRow(nested: NestedRow, y: number): Slice {
  const { row } = nested;
  const slice: Slice = { y, height: row.height, lines: [], backgrounds: [], rules: [], row: nested };
  paintRow(slice, row, nested.left, 0, row.height, nested.top, nested.bottom);
  return slice;
}

/** Where painted items go: lines, shading behind them and border rules above them. */
export interface RowPaint {
  lines: Slice['lines'];
  backgrounds: Slice['backgrounds'];
  rules: Slice['rules'];
}

/**
 * Paints one row (or the part of a split row on this page) with its top-left at (x, y):
 * shading, the cells' lines, nested tables' items and the borders. `top`/`bottom` say whether
 * the row's top edge and bottom edge are drawn here (first row on a page, last row on a page).
 */
export function paintRow(
  out: RowPaint,
  row: LaidRow,
  x: number,
  y: number,
  height: number,
  top: boolean,
  bottom: boolean,
): void {
  const lastCell = row.cells.reduce<LaidCell | undefined>((last, c) => (c.placeholder ? last : c), undefined);
  for (const cell of row.cells) {
    if (cell.placeholder) continue;
    const left = x + cell.x;
    if (cell.shading) {
      // With cell spacing the shading fills the cell's own box, not the spacing around it.
      const top = y + (cell.box?.top ?? 0);
      const shaded = height - (cell.box ? cell.box.top + cell.box.bottom : 0);
      out.backgrounds.push({ kind: 'rect', x: left, y: top, width: cell.width, height: shaded, fill: cell.shading });
    }
    const free = Math.max(0, height - cell.contentTop - cell.content.height - cell.bottomMargin);
    const shift = cell.verticalAlign === 'center' ? free / 2 : cell.verticalAlign === 'bottom' ? free : 0;
    const originX = left + cell.contentX;
    const originY = y + cell.contentTop + shift;
    const turn = cell.turn;
    if (turn) {
      const box: TurnedBox = {
        direction: turn.direction,
        left: originX,
        top: originY,
        width: cell.contentWidth,
        // Lines start at the cell's bottom (btLr) or top (tbRl) edge: the box is as tall as the row.
        height: Math.max(turn.length, height - cell.contentTop - cell.bottomMargin),
      };
      for (const slice of turn.content.slices) {
        for (const line of slice.lines) {
          out.lines.push({ ...line, y: slice.y + line.y, turn: box });
        }
      }
    }
    for (const slice of cell.content.slices) {
      // An exact-height row cuts off what does not fit (Word clips it).
      if (row.exact && cell.contentTop + shift + slice.y >= height - 0.01) break;
      for (const line of slice.lines) out.lines.push(offsetLine(line, originX, originY + slice.y));
      for (const rect of slice.backgrounds)
        out.backgrounds.push({ ...rect, x: rect.x + originX, y: rect.y + originY + slice.y });
      for (const rule of slice.rules) {
        out.rules.push({
          ...rule,
          x1: rule.x1 + originX,
          x2: rule.x2 + originX,
          y1: rule.y1 + originY + slice.y,
          y2: rule.y2 + originY + slice.y,
        });
      }
    }
    const right = left + cell.width;
    const edges = cell.borders;
    if (cell.box) {
      // Separate borders: the cell's own box, all four edges (only where a merge does not continue).
      const boxTop = y + cell.box.top;
      const boxBottom = y + height - cell.box.bottom;
      if (top || !cell.mergedAbove) pushRule(out, edges.top, left, boxTop, right, boxTop);
      if (bottom || !cell.mergedBelow) pushRule(out, edges.bottom, left, boxBottom, right, boxBottom);
      pushRule(out, edges.left, left, boxTop, left, boxBottom);
      pushRule(out, edges.right, right, boxTop, right, boxBottom);
      continue;
    }
    if (top || !cell.mergedAbove) pushRule(out, edges.top, left, y, right, y);
    if (bottom) pushRule(out, edges.bottom, left, y + height, right, y + height);
    pushRule(out, edges.left, left, y, left, y + height);
    if (cell === lastCell) pushRule(out, edges.right, right, y, right, y + height);
  }
  const frame = row.frame;
  if (frame) {
    const right = x + frame.width;
    if (top || frame.firstRow) pushRule(out, frame.borders.top, x, y, right, y);
    if (bottom || frame.lastRow) pushRule(out, frame.borders.bottom, x, y + height, right, y + height);
    pushRule(out, frame.borders.left, x, y, x, y + height);
    pushRule(out, frame.borders.right, right, y, right, y + height);
  }
}

function pushRule(out: RowPaint, border: Border | undefined, x1: number, y1: number, x2: number, y2: number): void {
  const rule = borderLineItem(border, x1, y1, x2, y2);
  if (rule) out.rules.push(rule);
}
