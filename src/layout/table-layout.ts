/**
 * Tables, first cut (part 2 of the engine refines them): the grid from w:tblGrid scaled to fit the
 * column, cells side by side with Word's default 0.08 in left/right margins, each row as tall as
 * its tallest cell (or its w:trHeight), rows kept whole. Nested tables print their cells' text in
 * order inside the cell. Header-row repetition, autofit, borders and row splitting: part 2.
 */
import type { FontSet } from '../fonts/font-face';
import type { Table } from '../model/document';
import { flattenBlocks } from './flatten-blocks';
import { type LaidParagraph, layoutParagraph } from './paragraph-layout';

/** Default left and right cell margins: 108 twips (ECMA-376 §17.4.42 tblCellMar; ENGINE.md). */
export const CELL_MARGIN = 5.4;

export interface LaidCell {
  /** From the table's left edge. */
  x: number;
  width: number;
  paragraphs: LaidParagraph[];
  shading?: string;
}

export interface LaidRow {
  height: number;
  cells: LaidCell[];
}

export interface LaidTable {
  rows: LaidRow[];
  indent: number;
  width: number;
}

function paragraphsHeight(paragraphs: LaidParagraph[]): number {
  let height = 0;
  paragraphs.forEach((p, i) => {
    height +=
      (i > 0 ? Math.max(p.spaceBefore, paragraphs[i - 1]?.spaceAfter ?? 0) : p.spaceBefore) +
      p.lines.reduce((s, l) => s + l.height, 0);
    if (i === paragraphs.length - 1) height += p.spaceAfter;
  });
  return height;
}

export function layoutTable(table: Table, fonts: FontSet, available: number, defaultTabStop: number): LaidTable {
  const columns = table.grid.length > 0 ? table.grid : [available];
  const total = columns.reduce((a, b) => a + b, 0) || available;
  // Wider than the column: scale the grid down, as Word's autofit would squeeze it to fit.
  const scale =
    total + table.indent > available && total > 0 ? Math.max(0.1, (available - Math.max(0, table.indent)) / total) : 1;
  const edges = [0];
  for (const width of columns) edges.push((edges[edges.length - 1] ?? 0) + width * scale);

  const rows: LaidRow[] = table.rows.map((row) => {
    let gridIndex = 0;
    let contentHeight = 0;
    const cells: LaidCell[] = [];
    for (const cell of row.cells) {
      const span = Math.max(1, cell.span);
      const x = edges[Math.min(gridIndex, edges.length - 1)] ?? 0;
      const right = edges[Math.min(gridIndex + span, edges.length - 1)] ?? x;
      gridIndex += span;
      const width = Math.max(1, right - x - 2 * CELL_MARGIN);
      const paragraphs =
        cell.verticalMerge === 'continue'
          ? []
          : flattenBlocks(cell.blocks).map((p) => layoutParagraph(p, fonts, { areaWidth: width, defaultTabStop }));
      contentHeight = Math.max(contentHeight, paragraphsHeight(paragraphs));
      cells.push({ x, width, paragraphs, ...(cell.shading ? { shading: cell.shading } : {}) });
    }
    let height = contentHeight;
    if (row.height?.rule === 'exact') height = row.height.value;
    else if (row.height) height = Math.max(height, row.height.value);
    return { height, cells };
  });
  return { rows, indent: table.indent, width: edges[edges.length - 1] ?? 0 };
}
