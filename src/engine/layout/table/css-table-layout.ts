/**
 * CSS table layout for the tables of HTML and Markdown (Table.cssLayout): their grid sized as a
 * browser sizes it, from the cells' content and the widths the source declares. Automatic layout
 * follows CSS 2.1 §17.5.2.2 and, where 2.1 leaves the distribution open, the one browsers share
 * (CSS Tables 3 §3.9.3 "Distributing width to the columns"); fixed layout follows §17.5.2.1.
 *
 * It runs once over the model, with the fonts loaded and before anything reads the grid: the pages
 * stage (layoutPages) and, for DOCX output, the service before the writer, so that the PDF and the
 * DOCX (w:tblGrid, w:tcW) get the same widths. It measures with the functions grid.ts lays out with.
 */
import type { FontSet } from '../../fonts';
import { type Block, type DocumentModel, storyBlocks, type Table, type TableCell } from '../../model';
import { columnCount, type MeasureContext, paragraphMinimum, preferredTableWidth, tableWidths } from './grid';

/** No column is narrower than this, points: a zero-width w:gridCol is not a column to Word. */
const NARROWEST = 1;

/** A column's measures (CSS Tables 3 §3.9.2): content widths with cell padding, and what is declared. */
interface ColumnMeasure {
  /** The widest unbreakable piece of its cells (min-content), points. */
  min: number;
  /** Its cells' content on one line (max-content), points; never below min. */
  max: number;
  /** A declared width in points: the column is "constrained" (its max is that width). */
  fixed?: number;
  /** A declared percentage of the table's width, a fraction. */
  percent?: number;
}

/** Every table in the model that waits for CSS table layout, outermost first (nested ones are sized with them). */
function cssTables(model: DocumentModel): Table[] {
  const found: Table[] = [];
  const walk = (blocks: Block[] | undefined) => {
    for (const block of blocks ?? []) {
      if (block.kind !== 'table') continue;
      if (block.cssLayout) found.push(block);
      // A table the reader left to its writer's rules may still hold CSS tables.
      else for (const row of block.rows) for (const cell of row.cells) walk(cell.blocks);
    }
  };
  for (const blocks of storyBlocks(model)) walk(blocks);
  return found;
}

/** Whether the model has tables to size (the DOCX service loads fonts only then). */
export function hasCssTables(model: DocumentModel): boolean {
  return cssTables(model).length > 0;
}

/**
 * Sizes every CSS table of the model: sets its `grid` and its cells' `width` (the sum of the columns
 * they span) and removes `cssLayout`, so a second call does nothing.
 */
export function sizeCssTables(model: DocumentModel, fonts: FontSet): void {
  const context: MeasureContext = { fonts };
  for (const table of cssTables(model)) sizeTable(table, table.cssLayout?.available ?? 0, context);
}

function sizeTable(table: Table, available: number, context: MeasureContext): void {
  const layout = table.cssLayout;
  if (!layout) return;
  const grid =
    layout.algorithm === 'fixed' ? fixedColumns(table, available) : automaticColumns(table, available, context);
  table.grid = grid.map((w) => Math.max(NARROWEST, w));
  delete table.cssLayout;
  // Cells get the width of their columns (w:tcW), and the tables in them that width to fit in.
  for (const row of table.rows) {
    let at = 0;
    for (const cell of row.cells) {
      const span = Math.max(1, cell.span);
      const width = table.grid.slice(at, at + span).reduce((a, b) => a + b, 0);
      at += span;
      if (cell.placeholder) continue;
      cell.width = width;
      const inside = width - edges(table, cell);
      for (const block of cell.blocks) {
        if (block.kind === 'table') sizeTable(block, Math.max(NARROWEST, inside - Math.max(0, block.indent)), context);
      }
    }
  }
}

/** Cell padding on both sides (and the spacing that sits inside the columns, §17.4.44), points. */
function edges(table: Table, cell: TableCell): number {
  return (
    (cell.margins?.left ?? table.cellMargins.left) +
    (cell.margins?.right ?? table.cellMargins.right) +
    2 * (table.cellSpacing ?? 0)
  );
}

/** A cell's min-content and max-content widths, padding included (CSS Tables 3 §3.9.2). */
function cellMeasure(table: Table, cell: TableCell, context: MeasureContext): { min: number; max: number } {
  let min = 0;
  let max = 0;
  for (const block of cell.blocks) {
    if (block.kind === 'paragraph') {
      // white-space: nowrap / the nowrap attribute: the cell's lines break only at hard breaks.
      min = Math.max(min, paragraphMinimum(block, context, !!cell.noWrap));
      max = Math.max(max, paragraphMinimum(block, context, true));
    } else {
      const nested = tableMeasure(block, context);
      const indent = Math.max(0, block.indent);
      min = Math.max(min, nested.min + indent);
      max = Math.max(max, nested.max + indent);
    }
  }
  const padding = edges(table, cell);
  return { min: min + padding, max: Math.max(min, max) + padding };
}

/**
 * Column measures: from single-column cells and the declared widths, then the cells spanning
 * several columns, narrowest span first, whose excess over the columns they span is shared in
 * proportion to those columns' max-content widths (equally where those are all zero).
 */
function columnMeasures(table: Table, context: MeasureContext): ColumnMeasure[] {
  const count = columnCount(table);
  const declared = table.cssLayout?.columns ?? [];
  const columns: ColumnMeasure[] = Array.from({ length: count }, (_, i) => {
    const d = declared[i];
    const column: ColumnMeasure = { min: 0, max: 0 };
    if (d?.type === 'pct') column.percent = d.value;
    else if (d?.type === 'dxa') column.fixed = d.value;
    return column;
  });
  const spanning: { at: number; span: number; min: number; max: number }[] = [];
  for (const row of table.rows) {
    let at = 0;
    for (const cell of row.cells) {
      const span = Math.max(1, cell.span);
      if (!cell.placeholder && at < count) {
        const measure = cellMeasure(table, cell, context);
        if (span === 1) {
          const column = columns[at] as ColumnMeasure;
          column.min = Math.max(column.min, measure.min);
          column.max = Math.max(column.max, measure.max);
        } else {
          // A declared width on a spanning cell stands for its max-content, as on a column.
          const max = cell.width !== undefined ? Math.max(measure.min, cell.width) : measure.max;
          spanning.push({ at, span: Math.min(span, count - at), min: measure.min, max });
        }
      }
      at += span;
    }
  }
  // A constrained column's max-content is its declared width, or its min-content if wider.
  for (const column of columns) {
    if (column.fixed !== undefined && column.percent === undefined) column.max = Math.max(column.min, column.fixed);
    column.max = Math.max(column.max, column.min);
  }
  spanning.sort((a, b) => a.span - b.span);
  for (const cell of spanning) {
    const covered = columns.slice(cell.at, cell.at + cell.span);
    spread(covered, cell.min, 'min');
    spread(covered, cell.max, 'max');
    for (const column of covered) column.max = Math.max(column.max, column.min);
  }
  return columns;
}

/** Widens `columns`' `key` measure so that they sum to at least `wanted`. */
function spread(columns: ColumnMeasure[], wanted: number, key: 'min' | 'max'): void {
  const have = columns.reduce((a, c) => a + c[key], 0);
  const excess = wanted - have;
  if (excess <= 0 || columns.length === 0) return;
  const weights = columns.reduce((a, c) => a + c.max, 0);
  for (const column of columns) column[key] += weights > 0 ? (excess * column.max) / weights : excess / columns.length;
}

/**
 * The table's own min-content and max-content widths (for a cell holding it): the sums of its
 * columns', a declared width in points standing for both where the content allows.
 */
function tableMeasure(table: Table, context: MeasureContext): { min: number; max: number } {
  if (!table.cssLayout) {
    const { minimum, maximum } = tableWidths(table, context);
    return { min: minimum, max: maximum };
  }
  const columns = columnMeasures(table, context);
  const min = columns.reduce((a, c) => a + c.min, 0);
  if (table.width?.type === 'dxa') {
    const width = Math.max(min, table.width.value);
    return { min: width, max: width };
  }
  return { min, max: Math.max(min, maxContent(columns)) };
}

/**
 * The table's max-content width: its columns' max-content widths, widened so that percentage
 * columns get their share of it (CSS Tables 3 §3.9.3, as browsers compute it).
 */
function maxContent(columns: ColumnMeasure[]): number {
  let width = 0;
  let percentTotal = 0;
  let others = 0;
  for (const column of columns) {
    width += column.max;
    if (column.percent !== undefined && column.percent > 0) {
      percentTotal += column.percent;
      width = Math.max(width, column.max / column.percent);
    } else others += column.max;
  }
  if (percentTotal > 0 && percentTotal < 1) width = Math.max(width, others / (1 - percentTotal));
  return width;
}

/**
 * Automatic table layout (CSS 2.1 §17.5.2.2). The table's width: a declared one (points, or a
 * share of the containing block), never below the columns' minimum; with none, the max-content
 * width where it fits in the containing block, else the containing block's width, else (content
 * that cannot be that narrow) the minimum: layout then takes the table into the margins or, as a
 * last resort, squeezes it (grid.ts), breaking words rather than losing them.
 */
function automaticColumns(table: Table, available: number, context: MeasureContext): number[] {
  const columns = columnMeasures(table, context);
  const min = columns.reduce((a, c) => a + c.min, 0);
  const width = Math.max(min, preferredTableWidth(table, available) ?? Math.min(available, maxContent(columns)));
  return distribute(columns, width);
}

/**
 * The columns' widths for a table `width` wide (CSS Tables 3 §3.9.3): between the successive
 * guesses (every column at min-content; percentage columns at their share; constrained columns at
 * their width; every column at max-content) the widths are interpolated linearly, so in the range
 * between min- and max-content each column gets its min plus a share of the room in proportion to
 * (max − min); past the max-content guess the excess goes to the auto columns in proportion to
 * their max-content widths, else to the constrained ones, else to the percentage ones.
 */
function distribute(columns: ColumnMeasure[], width: number): number[] {
  const share = (c: ColumnMeasure) => (c.percent !== undefined ? Math.max(c.min, c.percent * width) : undefined);
  const guesses = [
    columns.map((c) => c.min),
    columns.map((c) => share(c) ?? c.min),
    columns.map((c) => share(c) ?? (c.fixed !== undefined ? c.max : c.min)),
    columns.map((c) => share(c) ?? c.max),
  ];
  const sums = guesses.map((g) => g.reduce((a, b) => a + b, 0));
  if (width <= (sums[0] as number)) return guesses[0] as number[];
  for (let k = 0; k < 3; k++) {
    const low = sums[k] as number;
    const high = sums[k + 1] as number;
    if (width > high) continue;
    const from = guesses[k] as number[];
    const to = guesses[k + 1] as number[];
    const t = high > low ? (width - low) / (high - low) : 1;
    return from.map((w, i) => w + ((to[i] as number) - w) * t);
  }
  const widths = guesses[3] as number[];
  const excess = width - (sums[3] as number);
  const auto = columns.map((c) => c.percent === undefined && c.fixed === undefined);
  const fixed = columns.map((c) => c.percent === undefined && c.fixed !== undefined);
  const percent = columns.map((c) => c.percent !== undefined);
  const all = columns.map(() => true);
  const one = () => 1;
  const order: [boolean[], (c: ColumnMeasure) => number][] = [
    [auto, (c) => c.max],
    [auto, one],
    [fixed, (c) => c.max],
    [percent, (c) => c.percent ?? 0],
    [all, one],
  ];
  for (const [members, weight] of order) {
    const total = columns.reduce((a, c, i) => a + (members[i] ? weight(c) : 0), 0);
    if (total <= 0) continue;
    for (let i = 0; i < widths.length; i++)
      if (members[i]) widths[i] = (widths[i] as number) + (excess * weight(columns[i] as ColumnMeasure)) / total;
    break;
  }
  return widths;
}

/**
 * Fixed table layout (CSS 2.1 §17.5.2.1): the declared widths of the col elements and the first
 * row's cells (the reader gathered them), the columns left share what remains equally; the table
 * is as wide as it is declared or as its columns if wider, and columns all declared share the
 * room left in proportion to their widths. Content does not count.
 */
function fixedColumns(table: Table, available: number): number[] {
  const count = columnCount(table);
  const declared = table.cssLayout?.columns ?? [];
  const width = preferredTableWidth(table, available) ?? available;
  const widths = Array.from({ length: count }, (_, i) => {
    const d = declared[i];
    return d?.type === 'dxa' ? d.value : d?.type === 'pct' ? d.value * width : undefined;
  });
  const known = widths.reduce<number>((a, w) => a + (w ?? 0), 0);
  const open = widths.filter((w) => w === undefined).length;
  if (open > 0) {
    const each = Math.max(0, (width - known) / open);
    return widths.map((w) => w ?? each);
  }
  const set = widths as number[];
  return known > 0 && known < width ? set.map((w) => (w * width) / known) : set;
}
