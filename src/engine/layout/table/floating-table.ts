/**
 * Where a floating table (w:tblpPr, ECMA-376 Part 1 §17.4.58) goes: horizontally by w:tblpXSpec
 * or w:tblpX from its anchor (page, margin or column), vertically by w:tblpY from the anchor
 * paragraph (text) or the page or margin top. The table still takes its place in the flow: text
 * goes above and below it, not beside it (wrapping around it is left to the float machinery).
 */
import type { TablePosition } from '../../model';

export interface PageArea {
  pageWidth: number;
  marginLeft: number;
  marginRight: number;
  /** Top of the body area (the margin, or lower under a tall header). */
  bodyTop: number;
  columnX: number;
  columnWidth: number;
}

/**
 * The table's left edge from the column's left edge, and how far below the cursor its top goes
 * (never above the cursor: content already placed stays where it is).
 */
export function floatingPlacement(
  position: TablePosition,
  tableWidth: number,
  area: PageArea,
  cursor: number,
): { left: number; down: number } {
  const [anchorX, anchorWidth] =
    position.horizontalAnchor === 'page'
      ? [0, area.pageWidth]
      : position.horizontalAnchor === 'margin'
        ? [area.marginLeft, area.pageWidth - area.marginLeft - area.marginRight]
        : [area.columnX, area.columnWidth];
  let x = anchorX + (position.x ?? 0);
  const align = position.xAlign;
  if (align === 'center') x = anchorX + (anchorWidth - tableWidth) / 2;
  else if (align === 'right' || align === 'outside') x = anchorX + anchorWidth - tableWidth;
  else if (align === 'left' || align === 'inside') x = anchorX;
  const top =
    position.verticalAnchor === 'text'
      ? cursor + Math.max(0, position.y ?? 0)
      : (position.verticalAnchor === 'page' ? 0 : area.bodyTop) + (position.y ?? 0);
  return { left: x - area.columnX, down: Math.max(0, top - cursor) };
}
