/**
 * Where a drawing goes on the page: the anchor of a floating one (§20.4.2.10–11). Pure geometry,
 * shared by the text wrapping around floats (float-wrap.ts) and the line painter
 * (engine/pages/line-painter.ts), which moves the drawing's items there (pages/translate-items.ts).
 */
import type { DrawingInline, PageGeometry } from '../model';

/**
 * Top-left corner of a floating drawing (wp:positionH/V, ECMA-376 Part 1 §20.4.2.10–11) on the
 * page: offsets from the page edge, the margins, the column, or the anchoring paragraph or line;
 * align left/center/right (top/center/bottom) within that reference.
 */
export function floatingOrigin(
  inline: DrawingInline,
  page: PageGeometry,
  anchor: { columnX: number; columnWidth: number; characterX: number; lineTop: number; paragraphTop: number },
): { x: number; y: number } {
  const placement = inline.floating;
  if (!placement) return { x: anchor.characterX, y: anchor.lineTop };
  const { margins } = page;
  const marginLeft = margins.left + margins.gutter;
  let left = 0;
  let span = page.width;
  switch (placement.x.from) {
    case 'margin':
      left = marginLeft;
      span = page.width - marginLeft - margins.right;
      break;
    case 'column':
      left = anchor.columnX;
      span = anchor.columnWidth;
      break;
    case 'character':
      left = anchor.characterX;
      span = 0;
      break;
  }
  let x = left + placement.x.offset;
  if (placement.x.align === 'center') x = left + (span - inline.width) / 2;
  else if (placement.x.align === 'right') x = left + span - inline.width;
  else if (placement.x.align === 'left') x = left;
  let top = 0;
  let height = page.height;
  switch (placement.y.from) {
    case 'margin':
      top = margins.top;
      height = page.height - margins.top - margins.bottom;
      break;
    case 'paragraph':
      top = anchor.paragraphTop;
      height = 0;
      break;
    case 'line':
      top = anchor.lineTop;
      height = 0;
      break;
  }
  let y = top + placement.y.offset;
  if (placement.y.align === 'center') y = top + (height - inline.height) / 2;
  else if (placement.y.align === 'bottom') y = top + height - inline.height;
  else if (placement.y.align === 'top') y = top;
  return { x, y };
}
