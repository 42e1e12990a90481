/**
 * A laid-out table flowed down the page (ECMA-376 Part 1 §17.4.6 cantSplit, §17.4.49 tblHeader):
 * rows go where they fit; a row that does not fit is split between its cells' slices unless it may
 * not split (a cantSplit row moves to the next page whole, unless it is taller than a page);
 * header rows are repeated at the top of every page the table continues on; a row whose
 * paragraphs all keep with the next stays with the next row. The page flow supplies the target:
 * where the cursor is, how much room is left, and how to move on.
 */
import type { LaidLine } from '../paragraph-layout';
import { type CellContent, contentFrom, contentTo } from './cell-content';
import { floatingPlacement, type PageArea } from './floating-table';
import { type LaidCell, type LaidRow, type LazyTable, paintRow, type RowPaint } from './row-layout';

export type TableVerdict = 'fits' | 'advance' | 'force';

/** The page flow as table pagination sees it (page-flow.ts implements it). */
export interface TableFlowTarget {
  /** Room left below the cursor in the current column. */
  remaining(): number;
  /** The height of the current column's body when empty. */
  fullHeight(): number;
  /** Nothing placed yet in this column. */
  atColumnTop(): boolean;
  /** The left edge of the current column, page coordinates. */
  columnX(): number;
  /** The cursor, page coordinates. */
  cursor(): number;
  /** Whether content this tall, holding these lines (and their footnotes), goes here. */
  verdict(height: number, lines: LaidLine[]): TableVerdict;
  /** Puts painted items (page coordinates) on the page and moves the cursor down by `height`. */
  place(height: number, paint: RowPaint, lines: LaidLine[], force: boolean): void;
  /** Next column or page. */
  advance(): void;
  /** The page around the current column, for floating tables. */
  area(): PageArea;
}

const EPSILON = 0.01;

function rowLines(row: LaidRow): LaidLine[] {
  const out: LaidLine[] = [];
  for (const cell of row.cells) {
    for (const slice of cell.content.slices) {
      for (const line of slice.lines) {
        const laid = line.laid.lines[line.index];
        if (laid) out.push(laid);
      }
    }
  }
  return out;
}

/**
 * Splits a row so that its first part is at most `room` tall: every cell keeps the slices that fit,
 * the rest goes on. Undefined when nothing of the row would fit.
 */
export function splitRow(row: LaidRow, room: number): { first: LaidRow; rest: LaidRow } | undefined {
  const firstCells: LaidCell[] = [];
  const restCells: LaidCell[] = [];
  let firstHeight = 0;
  let restHeight = 0;
  let placedAny = false;
  let leftAny = false;
  for (const cell of row.cells) {
    const limit = room - cell.contentTop - cell.bottomMargin;
    let count = 0;
    while (count < cell.content.slices.length) {
      const slice = cell.content.slices[count];
      if (!slice || slice.y + slice.height > limit + EPSILON) break;
      count++;
    }
    const taken: CellContent = contentTo(cell.content, count);
    const rest: CellContent = contentFrom(cell.content, count);
    if (count > 0) placedAny = true;
    if (rest.slices.length > 0) leftAny = true;
    firstCells.push({ ...cell, content: taken, verticalAlign: 'top' });
    restCells.push({ ...cell, content: rest, verticalAlign: 'top', mergedAbove: false });
    if (!cell.placeholder) {
      firstHeight = Math.max(firstHeight, cell.contentTop + taken.height + cell.bottomMargin);
      restHeight = Math.max(restHeight, cell.contentTop + rest.height + cell.bottomMargin);
    }
  }
  // Nothing would fit, or everything but the row's spacing would: Word moves the row whole then
  // (a row is split only where content goes on to the next page).
  if (!leftAny || !placedAny) return undefined;
  firstHeight = Math.min(room, firstHeight);
  return {
    first: { ...row, cells: firstCells, height: firstHeight },
    rest: { ...row, cells: restCells, height: restHeight },
  };
}

/** Where a floating table ended up, in page coordinates, when it stayed on one page. */
export interface FloatingTableBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * A table's rows by index, laid out as they are first asked for (row-layout.ts tableRows) and let
 * go of once placed, header rows excepted (they repeat on every page): the laid content of a
 * table hundreds of rows long does not outlive the pages it goes on.
 */
export class RowWindow {
  readonly table: Omit<LazyTable, 'rows'>;
  readonly #source: Iterator<LaidRow, void, undefined>;
  readonly #rows: (LaidRow | undefined)[] = [];

  constructor(table: LazyTable) {
    const { rows, ...rest } = table;
    this.table = rest;
    this.#source = rows;
  }

  get count(): number {
    return this.table.count;
  }

  at(index: number): LaidRow | undefined {
    while (this.#rows.length <= index) {
      const next = this.#source.next();
      if (next.done) break;
      this.#rows.push(next.value);
    }
    return this.#rows[index];
  }

  /** The row at `index` is placed: nothing reads it again but the header rows repeating. */
  release(index: number): void {
    if (index >= this.table.headerRows) this.#rows[index] = undefined;
  }
}

/**
 * Places the table's rows, page by page. A floating table that fits on the page it starts on
 * returns its box, so that the page flow can wrap the following text around it.
 */
export function flowTable(rows: RowWindow, target: TableFlowTarget): FloatingTableBox | undefined {
  const { table, count } = rows;
  const headers: LaidRow[] = [];
  for (let i = 0; i < table.headerRows; i++) {
    const row = rows.at(i);
    if (row) headers.push(row);
  }
  let left = table.left;
  if (table.floating) {
    const placement = floatingPlacement(table.floating, table.width, target.area(), target.cursor());
    left = placement.left;
    if (placement.down > EPSILON && placement.down < target.remaining()) {
      target.place(placement.down, { lines: [], backgrounds: [], rules: [] }, [], false);
    }
  }
  const top = target.cursor();
  let turnedPage = false;
  const x = () => target.columnX() + left;
  let rowsOnPage = 0;

  const placeRow = (row: LaidRow, lastOnPage: boolean, force: boolean) => {
    const paint: RowPaint = { lines: [], backgrounds: [], rules: [] };
    paintRow(paint, row, x(), target.cursor(), row.height, rowsOnPage === 0, lastOnPage);
    target.place(row.height, paint, rowLines(row), force);
    rowsOnPage++;
  };

  const nextPage = () => {
    target.advance();
    rowsOnPage = 0;
    turnedPage = true;
  };

  /** Repeats the header rows at the top of a continuation page, when they leave room for more. */
  const repeatHeaders = (index: number) => {
    if (headers.length === 0 || index < headers.length) return;
    const height = headers.reduce((sum, row) => sum + row.height, 0);
    if (height > target.remaining() / 2) return;
    for (const row of headers) placeRow(row, false, false);
  };

  let index = 0;
  let pending: LaidRow | undefined;
  /**
   * Pages moved on to in a row without placing anything. A page that takes nothing twice over
   * would loop for ever: the row is then placed where the flow is. (The count is of pages without
   * progress, not of rows: a one-row table whose cell runs for a thousand pages is progress all
   * the way, and a cap on iterations once dropped the rest of such a table without a word.)
   */
  let idle = 0;
  while (index < count) {
    const whole = rows.at(index);
    const row = pending ?? whole;
    if (!row) break;
    const last = index === count - 1;
    const lines = rowLines(row);
    let verdict = target.verdict(row.height, lines);

    // keepNext across rows: this row and the next one start on the same page.
    const next = rows.at(index + 1);
    if (verdict === 'fits' && !pending && row.keepNext && next && !target.atColumnTop()) {
      const chain = row.height + next.height;
      if (chain > target.remaining() + EPSILON && chain <= target.fullHeight()) verdict = 'advance';
    }
    // A forced row (first in its column) that is taller than the room left is split below instead.
    const overflows = verdict === 'force' && row.height > target.remaining() + EPSILON && !row.exact;
    if (verdict === 'fits' || (verdict === 'force' && !overflows)) {
      placeRow(row, last, verdict === 'force');
      rows.release(index++);
      pending = undefined;
      idle = 0;
      continue;
    }
    const mustSplit = row.height > target.fullHeight() + EPSILON;
    // Word moves a row whose atLeast height does not fit in the room left to the next page
    // rather than split it (its page starts in Word-saved files show it), as for cantSplit.
    const keepWhole = row.cantSplit || (!pending && row.minimum > target.remaining() + EPSILON);
    if ((!keepWhole || mustSplit) && !row.exact) {
      const parts = splitRow(row, target.remaining());
      if (
        parts &&
        parts.first.height > EPSILON &&
        target.verdict(parts.first.height, rowLines(parts.first)) !== 'advance'
      ) {
        placeRow(parts.first, true, false);
        idle = 0;
        if (parts.rest.height <= EPSILON) {
          rows.release(index++);
          pending = undefined;
        } else pending = parts.rest;
        nextPage();
        repeatHeaders(index);
        continue;
      }
    }
    if (target.atColumnTop() || idle >= 2) {
      placeRow(row, last, true);
      rows.release(index++);
      pending = undefined;
      idle = 0;
      continue;
    }
    idle++;
    nextPage();
    repeatHeaders(index);
  }
  if (!table.floating || turnedPage) return undefined;
  return { left: x(), right: x() + table.width, top, bottom: target.cursor() };
}
