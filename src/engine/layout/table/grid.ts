/**
 * Column widths of a table (ECMA-376 Part 1 §17.4.64 tblGrid, §17.4.63 tblW, §17.4.72 tcW,
 * §17.4.53 tblLayout). Word saves the grid it computed last, so the grid is the starting point;
 * a fixed table keeps it. An autofit table is brought to its preferred width, widens columns whose
 * content cannot break narrower (the minimum content width: the longest unbreakable piece) and
 * takes that room from columns with slack, then is squeezed into the text column if it is wider.
 */
import type { Paragraph, Table } from '../../model';
import { paragraphSegments } from '../inline-boxes';
import type { TableContext } from './cell-content';

export interface TableGrid {
  /** Column widths, points. */
  columns: number[];
  /** Left edge of the first column from the text column's left edge. */
  left: number;
}

/** What measuring content widths takes: the fonts, and the segments layout keeps (when laying out). */
export type MeasureContext = Pick<TableContext, 'fonts' | 'measured'>;

const EPSILON = 0.5;

/** Grid columns a table uses: its grid, or as many as its widest row spans. */
export function columnCount(table: Table): number {
  let count = table.grid.length;
  for (const row of table.rows) {
    let span = 0;
    for (const cell of row.cells) span += Math.max(1, cell.span);
    count = Math.max(count, span);
  }
  return Math.max(1, count);
}

/** The width the table wants: tblW in points or as a share of the text column; else undefined. */
export function preferredTableWidth(table: Table, available: number): number | undefined {
  const width = table.width;
  if (width?.type === 'dxa') return width.value;
  if (width?.type === 'pct') return width.value * available;
  return undefined;
}

/** Widths from the grid, or, where it is missing or empty, from the cells' widths, or shared equally. */
function startingColumns(table: Table, count: number, target: number): number[] {
  const columns = Array.from({ length: count }, (_, i) => table.grid[i] ?? 0);
  const missing = columns.filter((w) => w <= 0).length;
  if (missing === 0) return columns;
  // Cell preferred widths of single-column cells fill the holes.
  for (const row of table.rows) {
    let at = 0;
    for (const cell of row.cells) {
      if (cell.span === 1 && cell.width !== undefined && (columns[at] ?? 0) <= 0) columns[at] = cell.width;
      at += Math.max(1, cell.span);
    }
  }
  const known = columns.reduce((sum, w) => sum + Math.max(0, w), 0);
  const stillMissing = columns.filter((w) => w <= 0).length;
  if (stillMissing > 0) {
    const share = Math.max(12, (target - known) / stillMissing);
    for (let i = 0; i < columns.length; i++) if ((columns[i] ?? 0) <= 0) columns[i] = share;
  }
  return columns;
}

/**
 * The narrowest a paragraph can be: its widest unbreakable segment plus its indents; with `noWrap`,
 * its lines as long as their hard breaks leave them.
 */
export function paragraphMinimum(paragraph: Paragraph, context: MeasureContext, noWrap: boolean): number {
  const segments = context.measured?.measure(paragraph) ?? paragraphSegments(paragraph, context.fonts);
  const { left, right, firstLine } = paragraph.props.indent;
  let widest = 0;
  let line = 0;
  for (const segment of segments) {
    if (noWrap) {
      line += segment.width + segment.trailing;
      widest = Math.max(widest, line - segment.trailing);
      if (segment.breakAfter) line = 0;
    } else widest = Math.max(widest, segment.width);
  }
  return widest + left + right + Math.max(0, firstLine);
}

/** A column's content widths: the narrowest it can be, and its width with no line broken but at hard breaks. */
interface ContentWidths {
  minimum: number[];
  maximum: number[];
}

/**
 * Minimum and maximum content widths per grid column, from single-column cells' paragraphs and
 * nested tables (cell margins included).
 */
function contentWidths(table: Table, count: number, context: MeasureContext): ContentWidths {
  const minimum = new Array<number>(count).fill(0);
  const maximum = new Array<number>(count).fill(0);
  for (const row of table.rows) {
    let at = 0;
    for (const cell of row.cells) {
      if (cell.span === 1 && !cell.placeholder && at < count) {
        let narrowest = 0;
        let widest = 0;
        for (const block of cell.blocks) {
          if (block.kind === 'paragraph') {
            narrowest = Math.max(narrowest, paragraphMinimum(block, context, !!cell.noWrap));
            widest = Math.max(widest, paragraphMinimum(block, context, true));
          } else {
            const nested = tableWidths(block, context);
            narrowest = Math.max(narrowest, nested.minimum);
            widest = Math.max(widest, nested.maximum);
          }
        }
        // With cell spacing (§17.4.44) the cell's box sits that far inside its columns on each side.
        const margins =
          (cell.margins?.left ?? table.cellMargins.left) +
          (cell.margins?.right ?? table.cellMargins.right) +
          2 * (table.cellSpacing ?? 0);
        if (narrowest > 0) minimum[at] = Math.max(minimum[at] ?? 0, narrowest + margins);
        if (widest > 0) maximum[at] = Math.max(maximum[at] ?? 0, widest + margins);
      }
      at += Math.max(1, cell.span);
    }
  }
  return { minimum, maximum };
}

/**
 * The narrowest and widest a nested table's content makes it: the sums of its columns' content
 * widths, so that the cell holding it is widened for it as for a long word.
 */
export function tableWidths(table: Table, context: MeasureContext): { minimum: number; maximum: number } {
  const { minimum, maximum } = contentWidths(table, columnCount(table), context);
  const indent = Math.max(0, table.indent);
  const sum = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + indent;
  return { minimum: sum(minimum), maximum: Math.max(sum(minimum), sum(maximum)) };
}

/** Scales `columns` to `total`, never below `minimum` where that can be kept. */
function fitTo(columns: number[], minimum: number[], total: number): number[] {
  const current = columns.reduce((a, b) => a + b, 0);
  if (current <= 0) return columns;
  if (current > total) {
    // Shrink only the slack above each column's minimum, in proportion to it.
    const slack = columns.map((w, i) => Math.max(0, w - (minimum[i] ?? 0)));
    const slackTotal = slack.reduce((a, b) => a + b, 0);
    const excess = current - total;
    if (slackTotal >= excess) return columns.map((w, i) => w - ((slack[i] ?? 0) * excess) / slackTotal);
  }
  return columns.map((w) => (w * total) / current);
}

/**
 * `spill`: how far past each side of the text column a table that widens into the margins
 * (Table.widensIntoMargins) may reach; 0 where it may not (nested tables, newspaper columns).
 */
export function tableGrid(table: Table, available: number, context: TableContext, spill = 0): TableGrid {
  const count = columnCount(table);
  const preferred = preferredTableWidth(table, available);
  let columns = startingColumns(table, count, preferred ?? available);
  const gridTotal = columns.reduce((a, b) => a + b, 0);
  if (table.layout === 'autofit') {
    if (preferred !== undefined && Math.abs(preferred - gridTotal) > EPSILON) {
      columns = fitTo(columns, [], preferred);
    }
    const { minimum } = contentWidths(table, count, context);
    const widened = columns.map((w, i) => Math.max(w, minimum[i] ?? 0));
    const room = available - Math.max(0, table.indent) + table.cellMargins.left;
    // A table that widens into the margins is never squeezed below its content's minimum while
    // the margins have room for it.
    const reach = table.widensIntoMargins && spill > 0 ? Math.min(sum(minimum), available + 2 * spill) : 0;
    // A preferred table width holds: what the widened columns gain, the others give up. It gives
    // way to content that cannot be narrower (Word widens an autofit table past its tblW for a
    // picture or a word: a row of spacer images 11070 twips wide in a table of tblW 11055).
    const limit = Math.max(preferred ?? Number.POSITIVE_INFINITY, reach, sum(minimum));
    const total = sum(widened);
    columns = total > limit + EPSILON ? fitTo(widened, minimum, limit) : widened;
    // Autofit tables stay inside the text column where their content allows (Word's "autofit to
    // window"), unless tblW asks for an absolute width: Word keeps that one even past the margins
    // (tables pasted from the web often stick out of the text column).
    const width = sum(columns);
    if (table.width?.type !== 'dxa' && width > room + EPSILON) columns = fitTo(columns, minimum, Math.max(room, reach));
  }
  const width = sum(columns);
  // Word places a left-aligned table so that the first cell's text starts at tblInd: the cell's
  // left margin hangs outside the text column (§17.4.51).
  let left = table.indent - table.cellMargins.left;
  if (table.align === 'center') left = (available - width) / 2;
  else if (table.align === 'right') left = available - width;
  // Wider than the column it may leave: into both margins alike.
  if (table.widensIntoMargins && spill > 0 && width > available + EPSILON) left = (available - width) / 2;
  return { columns, left };
}

function sum(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0);
}
