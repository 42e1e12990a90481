/**
 * Column balancing: a section with several columns that a continuous section break follows ends
 * with its columns evened out, Word's behaviour (and the reason authors put a continuous break at
 * the end of a newsletter's columns). The section's content is reduced to unsplittable units
 * (paragraph lines, table rows) with the space before each; the balanced height is the least
 * column height at which filling the columns in order fits everything.
 */

export interface BalanceUnit {
  height: number;
  /** Space above the unit, dropped when it starts a column. */
  before: number;
}

/** Whether `units` fill at most `columns` columns of `height`, each column taking what fits. */
function fits(units: BalanceUnit[], columns: number, height: number): boolean {
  let column = 1;
  let used = 0;
  for (const unit of units) {
    const need = used === 0 ? unit.height : used + unit.before + unit.height;
    if (need <= height + 1e-6) {
      used = need;
      continue;
    }
    column++;
    if (column > columns || unit.height > height + 1e-6) return false;
    used = unit.height;
  }
  return true;
}

/** The least column height that holds `units` in `columns` columns (to 0.1 pt). */
export function balancedHeight(units: BalanceUnit[], columns: number): number {
  let total = 0;
  let tallest = 0;
  for (const unit of units) {
    total += unit.before + unit.height;
    tallest = Math.max(tallest, unit.height);
  }
  if (units.length === 0 || columns < 2) return total;
  let low = Math.max(tallest, total / columns);
  let high = total;
  if (fits(units, columns, low)) return low;
  while (high - low > 0.1) {
    const middle = (low + high) / 2;
    if (fits(units, columns, middle)) high = middle;
    else low = middle;
  }
  return high;
}
