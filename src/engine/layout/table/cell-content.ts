/**
 * A cell's blocks stacked at the cell's text width, as slices: the pieces between which a row may
 * be split across pages (a paragraph line, or a row of a nested table, which table-pagination.ts
 * splits in turn). Measured once per cell; splitting a row only moves slices and paints nested
 * rows again, it never lays text out again.
 */
import type { FontSet } from '../../fonts';
import type { Block, CellBorders, Paragraph, Table, TableBorders } from '../../model';
import type { MeasuredSegments } from '../measured-segments';
import type { LineItem, RectItem } from '../page-items';
import { type LaidParagraph, spaceBetween } from '../paragraph-layout';
import type { TurnDirection, TurnedBox } from './turned-cell';

/** What table layout needs from its caller: fonts, and paragraph layout (cached by the page flow). */
export interface TableContext {
  fonts: FontSet;
  laid(paragraph: Paragraph, width: number): LaidParagraph;
  /** Segments measured for the grid, kept for the layout that follows (measured-segments.ts). */
  measured?: MeasuredSegments;
}

/** One line of a cell paragraph, relative to the slice's cell content box. */
export interface ContentLine {
  laid: LaidParagraph;
  index: number;
  x: number;
  y: number;
  /** The width the paragraph was laid out at (its indents and borders are measured in it). */
  width: number;
  /**
   * The line belongs to a cell whose text runs vertically: x and y are in the cell's unturned
   * frame, and this box (in the same coordinates as other lines' x and y) is where it lands.
   */
  turn?: TurnedBox;
}

/** An unsplittable piece of cell content; `y` from the top of the content box. */
export interface Slice {
  y: number;
  height: number;
  lines: ContentLine[];
  /** Shading and borders of nested tables, in content-box coordinates. */
  backgrounds: RectItem[];
  rules: LineItem[];
  /** The slice is a row of a nested table, painted from this (and painted again when it is split). */
  row?: NestedRow;
}

/**
 * A row of a table nested in a cell: what it takes to split it between pages like a row of the
 * outer table (§17.4.6: a row may break across pages unless cantSplit), and to draw its pieces.
 */
export interface NestedRow {
  row: LaidRow;
  /** The nested table's left edge in the cell's content box. */
  left: number;
  /** Whether the row's top and bottom edges were drawn as the first and last on a page (paintRow). */
  top: boolean;
  bottom: boolean;
  /** The nested table's leading header rows (§17.4.49), repeated above its rows continued on another page. */
  headers: LaidRow[];
  /** A header row repeated above the rows continued from another page. */
  repeated?: boolean;
}

export interface CellContent {
  slices: Slice[];
  /** Including the last paragraph's space after. */
  height: number;
}

/** Lays out a nested table at a width into slices, one per row (row-layout.ts supplies it). */
/** A laid-out table cell and row (row-layout.ts lays them out; nested rows and slices hold them). */
export interface LaidCell {
  /** Outer box from the table's left edge. */
  x: number;
  width: number;
  /** Text box inside the cell: left offset, width, and top offset from the row's top. */
  contentX: number;
  contentWidth: number;
  contentTop: number;
  bottomMargin: number;
  content: CellContent;
  verticalAlign: 'top' | 'center' | 'bottom';
  shading?: string;
  /** Edges after meeting the neighbours (top with the cell above, left with the cell before). */
  borders: CellBorders;
  /** Part of a vertical merge continuing from the row above / into the row below: no border there. */
  mergedAbove: boolean;
  mergedBelow: boolean;
  /** Stands in for gridBefore/gridAfter: paints nothing. */
  placeholder: boolean;
  /**
   * Vertical text (§17.4.72): the content laid out on lines `length` long, painted turned. The
   * cell's `content` is then one unsplittable slice as tall as the lines are long.
   */
  turn?: { direction: TurnDirection; length: number; content: CellContent };
  /**
   * Separate borders (the table has cell spacing): the cell's box sits this far inside the row's
   * top and bottom, and draws all four of its edges there.
   */
  box?: { top: number; bottom: number };
}

/** The table's own frame in the separate-borders model, drawn around every row it spans. */
export interface RowFrame {
  borders: TableBorders;
  width: number;
  firstRow: boolean;
  lastRow: boolean;
}

export interface LaidRow {
  cells: LaidCell[];
  height: number;
  /** exact: content beyond the height is cut off; the row never grows. */
  exact: boolean;
  cantSplit: boolean;
  /** w:trHeight atLeast: the height the row asks for whatever its content (0 without one). */
  minimum: number;
  isHeader: boolean;
  /** Every paragraph in the row keeps with the next (§17.3.1.15 applied to rows, as Word does). */
  keepNext: boolean;
  frame?: RowFrame;
  /**
   * Content cut off by the row's exact height (as Word does): in the row's own cells, or in a row
   * of a table nested in one. Said in a warning when the row is placed (table-pagination.ts).
   */
  cut?: 'own' | 'nested';
}

export type NestedTableLayout = (table: Table, width: number, context: TableContext) => Slice[];

export const EMPTY_CONTENT: CellContent = { slices: [], height: 0 };

export function layoutCellContent(
  blocks: Block[],
  width: number,
  context: TableContext,
  nested: NestedTableLayout,
): CellContent {
  const slices: Slice[] = [];
  let y = 0;
  let pendingAfter = 0;
  let previous: LaidParagraph | undefined;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    if (!block) continue;
    if (block.kind === 'table') {
      y += pendingAfter;
      pendingAfter = 0;
      previous = undefined;
      for (const slice of nested(block, width, context)) {
        slices.push({ ...slice, y: y + slice.y });
      }
      const last = slices[slices.length - 1];
      if (last) y = Math.max(y, last.y + last.height);
      continue;
    }
    const laid = context.laid(block, width);
    // Contextual spacing between paragraphs of one style (§17.3.1.9); otherwise the larger of
    // space after and space before, as between body paragraphs (page-flow.ts).
    const same = previous !== undefined && previous.paragraph.props.styleId === block.props.styleId;
    // Automatic (HTML) spacing stops at the cell's edges, as a browser's paragraph margins do
    // inside a table cell: Word adds no auto space before a cell's first paragraph, nor after its
    // last (an HTML page pasted into Word has one such paragraph in every cell).
    const autoAtEdge = b === 0 && block.props.spacing.beforeAuto ? block.props.spacing.before : 0;
    const before = same && block.props.contextualSpacing ? 0 : laid.spaceBefore - laid.borderBefore - autoAtEdge;
    y +=
      previous === undefined
        ? before + laid.borderBefore + pendingAfter
        : spaceBetween(previous, pendingAfter, laid, before);
    laid.lines.forEach((line, index) => {
      slices.push({
        y,
        height: line.height,
        lines: [{ laid, index, x: 0, y: 0, width }],
        backgrounds: [],
        rules: [],
      });
      y += line.height;
    });
    const next = blocks[b + 1];
    const nextSame = next?.kind === 'paragraph' && next.props.styleId === block.props.styleId;
    const autoAfterEdge = b === blocks.length - 1 && block.props.spacing.afterAuto ? block.props.spacing.after : 0;
    // The spacing after alone while a paragraph may follow (spaceBetween adds the borders); the
    // bottom border too at the cell's end.
    const spacingAfter =
      nextSame && block.props.contextualSpacing ? 0 : laid.spaceAfter - laid.borderAfter - autoAfterEdge;
    pendingAfter = next?.kind === 'paragraph' ? spacingAfter : spacingAfter + laid.borderAfter;
    previous = laid;
  }
  return { slices, height: y + pendingAfter };
}

/** Content from `from` on, moved up so that it starts at 0. */
export function contentFrom(content: CellContent, from: number): CellContent {
  const first = content.slices[from];
  if (!first) return EMPTY_CONTENT;
  const shift = first.y;
  return {
    slices: content.slices.slice(from).map((slice) => ({ ...slice, y: slice.y - shift })),
    height: Math.max(0, content.height - shift),
  };
}

/** The slices of `content` up to (not including) `end`, with their height. */
export function contentTo(content: CellContent, end: number): CellContent {
  const slices = content.slices.slice(0, end);
  const last = slices[slices.length - 1];
  return { slices, height: last ? last.y + last.height : 0 };
}
