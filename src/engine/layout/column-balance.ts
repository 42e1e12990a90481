/**
 * Column balancing: a section with several columns that a continuous section break follows ends
 * with its columns evened out, Word's behaviour (and the reason authors put a continuous break at
 * the end of a newsletter's columns). ECMA-376 Part 4 §9.7.3.27 (noColumnBalance, whose absence
 * is the default) describes it: "balancing is the act of attempting to ensure that the number of
 * lines in each column is equivalent". Word balances the columns on the page where the section
 * ends (§17.6.22, §17.18.77 ST_SectionMark "continuous"), whether the section started on that page
 * or pages earlier: the marks Word leaves (w:lastRenderedPageBreak at each column it starts) show
 * the last page of a two-page, two-column section split in two even halves.
 *
 * The content left to place is simulated column by column, as page flow places it: lines and table
 * rows, the space between paragraphs (dropped at the top of a column that content overflowed
 * into), widow and orphan control, and explicit column breaks. Each column is laid out at its own
 * width (w:cols w:equalWidth="0", §17.6.4): the rest of a paragraph that goes on into a column of
 * another width is broken again at that width. The balanced height is the least column height at
 * which filling the columns in order holds everything.
 */

export interface BalanceLine {
  height: number;
  breakAfter?: 'line' | 'page' | 'column';
}

/** A paragraph to place, from line `from` on (the lines before it were placed on earlier pages). */
export interface BalanceParagraph {
  kind: 'paragraph';
  /**
   * The paragraph's lines when the first `placed.length` lines were placed at the widths `placed`
   * gives and the rest are laid out at `width`.
   */
  lines(width: number, placed: readonly number[]): readonly BalanceLine[];
  from: number;
  /** Widths of the lines placed before `from`. */
  placed: readonly number[];
  /** Space above the paragraph (the larger of its space before and the previous one's space after is used). */
  before: number;
  after: number;
  /** Lines that must start a column together (keepLines, or the two of widow/orphan control). */
  minimumStart: number;
  widowControl: boolean;
}

/** A table's rows: each placed whole, in the width of the first column (tables are rare here). */
export interface BalanceRows {
  kind: 'rows';
  heights: readonly number[];
  before: number;
}

export type BalanceBlock = BalanceParagraph | BalanceRows;

const EPSILON = 1e-6;

/**
 * Whether `blocks` fill at most the columns of `widths`, each column `height` tall, filled in
 * order. `leadingSpace`: the first paragraph's space before counts (a section that starts below
 * another on the page keeps it; content that overflowed onto a new page drops it).
 */
export function fitsColumns(
  blocks: readonly BalanceBlock[],
  widths: readonly number[],
  height: number,
  leadingSpace = false,
): boolean {
  let column = 0;
  let used = 0;
  /** Nothing placed in this column yet, and it was not started by overflow (the top keeps its space). */
  let keepsSpace = leadingSpace;
  let pendingAfter = 0;
  /** A column break was placed: the next line starts the next column. */
  let broken = false;
  const nextColumn = (): boolean => {
    column++;
    used = 0;
    keepsSpace = false;
    return column < widths.length;
  };
  for (const block of blocks) {
    if (block.kind === 'rows') {
      block.heights.forEach((rowHeight, i) => {
        if (column >= widths.length) return;
        if (broken) {
          broken = false;
          if (!nextColumn()) return;
        }
        const gap = i === 0 ? Math.max(block.before, pendingAfter) : 0;
        // A table at the top of a column takes no space above it, as page flow places it.
        const need = used === 0 ? rowHeight : used + gap + rowHeight;
        if (need <= height + EPSILON) {
          used = need;
          keepsSpace = false;
          return;
        }
        if (!nextColumn() || rowHeight > height + EPSILON) column = widths.length;
        else used = rowHeight;
      });
      if (column >= widths.length) return false;
      pendingAfter = 0;
      continue;
    }
    let width = widths[column] ?? 0;
    const placed = [...block.placed];
    let lines = block.lines(width, placed);
    let index = block.from;
    /** Lines of this paragraph in the current column. */
    let here = 0;
    let gap = index === 0 ? Math.max(block.before, pendingAfter) : 0;
    const followColumn = () => {
      here = 0;
      gap = 0;
      const next = widths[column] ?? width;
      if (next !== width) {
        width = next;
        lines = block.lines(width, placed.slice(0, index));
        placed.length = index;
      }
    };
    while (index < lines.length) {
      const line = lines[index];
      if (!line) break;
      if (broken) {
        broken = false;
        if (!nextColumn()) return false;
        followColumn();
      }
      const top = used === 0 && !keepsSpace ? 0 : used + gap;
      // A paragraph starts in this column only with its first lines (widow/orphan control, keepLines).
      let need = line.height;
      if (index === 0 && used > 0) {
        for (let k = 1; k < Math.min(block.minimumStart, lines.length); k++) need += lines[k]?.height ?? 0;
      }
      if (top + need > height + EPSILON) {
        if (used === 0 && line.height > height + EPSILON) return false;
        if (used > 0 || here > 0) {
          // Widow/orphan control as the flow applies it (page-flow.ts widowTakeBack).
          if (block.widowControl && here > 0) {
            const startsHere = index === here;
            const widow = lines.length - index === 1;
            const orphan = startsHere && here === 1;
            if ((widow || orphan) && (startsHere || here >= 2)) {
              const count = here >= 3 || !startsHere ? 1 : here;
              index -= count;
            }
          }
          if (!nextColumn()) return false;
          followColumn();
          continue;
        }
      }
      used = top + line.height;
      keepsSpace = false;
      gap = 0;
      placed[index] = width;
      here++;
      index++;
      if (line.breakAfter === 'page') return false;
      if (line.breakAfter === 'column') broken = true;
    }
    pendingAfter = block.after;
  }
  return true;
}

/**
 * The least column height (to 0.1 pt) at which `blocks` fill the columns of `widths` in order, or
 * undefined when they do not fit in columns `available` tall (the section goes on to a later page,
 * where its end is balanced instead).
 */
export function balancedHeight(
  blocks: readonly BalanceBlock[],
  widths: readonly number[],
  available: number,
  leadingSpace = false,
): number | undefined {
  if (blocks.length === 0 || widths.length < 2 || available <= 0) return undefined;
  if (!fitsColumns(blocks, widths, available, leadingSpace)) return undefined;
  let low = 0;
  let high = available;
  while (high - low > 0.1) {
    const middle = (low + high) / 2;
    if (fitsColumns(blocks, widths, middle, leadingSpace)) high = middle;
    else low = middle;
  }
  return high;
}
