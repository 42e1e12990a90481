/**
 * A laid-out table flowed down the page (ECMA-376 Part 1 §17.4.6 cantSplit, §17.4.49 tblHeader):
 * rows go where they fit; a row that does not fit is split between its cells' slices unless it may
 * not split (a cantSplit row moves to the next page whole, unless it is taller than a page);
 * header rows are repeated at the top of every page the table continues on; a row whose
 * paragraphs all keep with the next stays with the next row. The page flow supplies the target:
 * where the cursor is, how much room is left, and how to move on.
 */
import type { LaidLine } from '../paragraph-layout';
import {
  type CellContent,
  EMPTY_CONTENT,
  type LaidCell,
  type LaidRow,
  type NestedRow,
  type Slice,
} from './cell-content';
import { floatingPlacement, type PageArea } from './floating-table';
import { type LazyTable, paintNestedRow, paintRow, type RowPaint } from './row-layout';

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
  /**
   * Says what of the table could not be placed as it asks (content cut or run past the page, a
   * row that may not split split anyway): one message per kind and table, naming its rows.
   */
  warn(message: string): void;
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
 * Splits a row so that its first part is at most `room` tall: every cell keeps the content that
 * fits (splitContent), the rest goes on. Undefined when nothing of the row would fit. `page` is the
 * height of an empty column: what decides whether a nested row that may not split must split anyway.
 */
export function splitRow(
  row: LaidRow,
  room: number,
  page = Number.POSITIVE_INFINITY,
  report?: SplitReport,
): { first: LaidRow; rest: LaidRow } | undefined {
  const firstCells: LaidCell[] = [];
  const restCells: LaidCell[] = [];
  let firstHeight = 0;
  let restHeight = 0;
  let placedAny = false;
  let leftAny = false;
  for (const cell of row.cells) {
    const inset = cell.contentTop + cell.bottomMargin;
    const { taken, rest } = splitContent(cell.content, room - inset, page - inset, report);
    if (taken.slices.length > 0) placedAny = true;
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

/** What splitting a row had to do against the document's wishes: a nested row that may not split was split. */
export interface SplitReport {
  cantSplit: boolean;
}

/** A nested table's row may break across pages unless cantSplit (§17.4.6) or of exact height; one taller than the page must. */
function mayBreak(row: LaidRow, page: number): boolean {
  return !row.exact && (!row.cantSplit || row.height > page + EPSILON);
}

/**
 * Splits a cell's content so that its first part ends at most `limit` down: the slices that fit
 * and, when the first that does not is a row of a nested table that may break, the part of that
 * row that fits (splitRow again, so tables nested at any depth split). The rest starts at 0; when
 * it continues a nested table, that table's header rows are repeated above it (§17.4.49), and the
 * nested table's edges are drawn where it is cut, as the outer table's are.
 */
export function splitContent(
  content: CellContent,
  limit: number,
  page: number,
  report?: SplitReport,
): { taken: CellContent; rest: CellContent } {
  const { slices } = content;
  let count = 0;
  while (count < slices.length) {
    const slice = slices[count] as Slice;
    if (slice.y + slice.height > limit + EPSILON) break;
    count++;
  }
  const cut = slices[count];
  if (!cut) return { taken: content, rest: EMPTY_CONTENT };
  // Only header rows repeated from the page before would fit: they stay with the rest, or a row
  // that fits no page under them would leave a page of headers each time round.
  if (count > 0 && slices.slice(0, count).every((slice) => slice.row?.repeated)) {
    return { taken: EMPTY_CONTENT, rest: content };
  }
  const taken = slices.slice(0, count);
  const rest: Slice[] = [];
  /** Moves the slices after the cut (and after the split row) to their place in the rest. */
  let shift = -cut.y;
  let next = count;
  const nested = cut.row;
  if (nested) {
    const room = limit - cut.y;
    const parts = room > EPSILON && mayBreak(nested.row, page) ? splitRow(nested.row, room, page, report) : undefined;
    if (parts && nested.row.cantSplit && report) report.cantSplit = true;
    let y = 0;
    if (repeatsHeaders(nested, page)) {
      nested.headers.forEach((header, index) => {
        rest.push(paintNestedRow({ ...nested, row: header, top: index === 0, bottom: false, repeated: true }, y));
        y += header.height;
      });
    }
    const continued = parts ? parts.rest : nested.row;
    if (parts) taken.push(paintNestedRow({ ...nested, row: parts.first, bottom: true }, cut.y));
    rest.push(paintNestedRow({ ...nested, row: continued, top: y === 0, repeated: false }, y));
    shift = y + continued.height - (cut.y + cut.height);
    next = count + 1;
  }
  // The nested table's last row on this page draws its bottom edge, as a table's does (flowTable).
  const last = taken[taken.length - 1];
  if (last?.row && !last.row.bottom) taken[taken.length - 1] = paintNestedRow({ ...last.row, bottom: true }, last.y);
  for (let i = next; i < slices.length; i++) {
    const slice = slices[i] as Slice;
    rest.push({ ...slice, y: slice.y + shift });
  }
  const end = taken[taken.length - 1];
  return {
    taken: { slices: taken, height: end ? end.y + end.height : 0 },
    rest: { slices: rest, height: Math.max(0, content.height + shift) },
  };
}

/** A nested table continued on another page repeats its header rows above, when they leave room for more. */
function repeatsHeaders(nested: NestedRow, page: number): boolean {
  if (nested.headers.length === 0 || nested.row.isHeader) return false;
  return nested.headers.reduce((sum, row) => sum + row.height, 0) <= page / 2;
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

  const trouble = new TableTrouble();
  /** Places a row (or the part of one on this page); `at` is its index, undefined for repeated header rows. */
  const placeRow = (row: LaidRow, lastOnPage: boolean, force: boolean, at?: number) => {
    if (at !== undefined) {
      if (force && row.height > target.remaining() + EPSILON) trouble.tall.add(at);
      if (row.cut) trouble.cut.set(at, row.cut);
    }
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
      placeRow(row, last, verdict === 'force', index);
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
      const report: SplitReport = { cantSplit: false };
      const parts = splitRow(row, target.remaining(), target.fullHeight(), report);
      if (
        parts &&
        parts.first.height > EPSILON &&
        target.verdict(parts.first.height, rowLines(parts.first)) !== 'advance'
      ) {
        if (row.cantSplit || report.cantSplit) trouble.cantSplit.add(index);
        placeRow(parts.first, true, false, index);
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
      placeRow(row, last, true, index);
      rows.release(index++);
      pending = undefined;
      idle = 0;
      continue;
    }
    idle++;
    nextPage();
    repeatHeaders(index);
  }
  for (const message of trouble.warnings(table.label)) target.warn(message);
  if (!table.floating || turnedPage) return undefined;
  return { left: x(), right: x() + table.width, top, bottom: target.cursor() };
}

/**
 * What of one table could not be placed as it asks, by kind, with the rows (0-based) it happened
 * in: nothing is cut or broken against the document's wishes without a word ("nothing lost").
 */
class TableTrouble {
  /** Placed where there was not room for it, at the top of a page: it runs past the page's foot. */
  readonly tall = new Set<number>();
  /** A row that may not split (w:cantSplit, §17.4.6), or one in a nested table, split: taller than the page. */
  readonly cantSplit = new Set<number>();
  /** Content cut off by an exact row height, in the row's cells or in a table nested in it. */
  readonly cut = new Map<number, 'own' | 'nested'>();

  warnings(label: string): string[] {
    const table = label ? `The table beginning "${label}"` : 'A table';
    const out: string[] = [];
    if (this.tall.size > 0) {
      out.push(
        `${table}, ${rowList([...this.tall])}: content taller than the page (a line or picture, or a row that may not split) runs past the foot of the page and is cut at its edge.`,
      );
    }
    if (this.cantSplit.size > 0) {
      out.push(
        `${table}, ${rowList([...this.cantSplit])}: a row that may not break across pages (w:cantSplit) is taller than the page, so it was split.`,
      );
    }
    const own = [...this.cut].filter(([, kind]) => kind === 'own').map(([row]) => row);
    const nested = [...this.cut].filter(([, kind]) => kind === 'nested').map(([row]) => row);
    if (own.length > 0) {
      out.push(
        `${table}, ${rowList(own)}: the row's exact height (w:hRule="exact") cuts off part of its content, as in Word.`,
      );
    }
    if (nested.length > 0) {
      out.push(
        `${table}, ${rowList(nested)}: a table nested in the row has a row whose exact height (w:hRule="exact") cuts off part of its content, as in Word.`,
      );
    }
    return out;
  }
}

/** "row 3", "rows 3, 5, 9", "rows 3, 5, 9 and 12 more" (1-based). */
function rowList(rows: number[]): string {
  const numbers = rows.sort((a, b) => a - b).map((row) => row + 1);
  if (numbers.length === 1) return `row ${numbers[0]}`;
  const shown = numbers.slice(0, 10).join(', ');
  return numbers.length > 10 ? `rows ${shown} and ${numbers.length - 10} more` : `rows ${shown}`;
}
