import type { Block, Paragraph } from '../model';

/**
 * A block list as paragraphs in reading order, tables' cells included. Used where tables are not
 * laid out as tables yet (headers, footers, notes, nested tables); nothing is lost.
 */
export function flattenBlocks(blocks: Block[]): Paragraph[] {
  const out: Paragraph[] = [];
  for (const block of blocks) {
    if (block.kind === 'paragraph') out.push(block);
    else for (const row of block.rows) for (const cell of row.cells) out.push(...flattenBlocks(cell.blocks));
  }
  return out;
}
