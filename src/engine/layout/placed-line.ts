/** A laid-out line placed on a page: what flow hands to the painters (engine/pages/line-painter.ts) and checks. */
import type { LaidLine, LaidParagraph } from './paragraph-layout';
import type { TurnedBox } from './table';

export interface PlacedLine {
  line: LaidLine;
  /** Page coordinates of the line's top-left corner (x = the column's left edge). */
  x: number;
  top: number;
  /** The paragraph's lines on this page, for borders and shading. */
  laid: LaidParagraph;
  index: number;
  columnWidth: number;
  /** A line of a vertical-text table cell: x and top are in the cell's unturned frame (table/turned-cell.ts). */
  turn?: TurnedBox;
}
