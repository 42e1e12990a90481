/**
 * Table cells whose text runs vertically (w:textDirection, ECMA-376 §17.4.72): btLr reads bottom
 * to top with lines following left to right; tbRl reads top to bottom with lines following right
 * to left (East Asian characters upright, as in a vertical section). The cell's content is laid
 * out unturned, on lines as long as the cell is tall (the lines carry the box they go in, `turn`),
 * then its painted items are mapped onto the cell's box on the page (engine/pages/turned-cell.ts).
 */

export type TurnDirection = 'btLr' | 'tbRl';

/** Where a turned cell's content lands: its text box on the page (physical, unturned). */
export interface TurnedBox {
  direction: TurnDirection;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A positioned line moved by (dx, dy): a turned line moves its box, its frame coordinates stay. */
export function offsetLine<T extends { x: number; y: number; turn?: TurnedBox }>(line: T, dx: number, dy: number): T {
  if (line.turn) return { ...line, turn: { ...line.turn, left: line.turn.left + dx, top: line.turn.top + dy } };
  return { ...line, x: line.x + dx, y: line.y + dy };
}
