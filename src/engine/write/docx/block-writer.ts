/**
 * Block content (paragraphs and tables, ECMA-376 Part 1 §17.2.2 EG_BlockLevelElts) of the body,
 * headers, footers, notes and table cells.
 */
import type { Block } from '../../model/document';
import { paragraphXml } from './paragraph-writer';
import { tableXml } from './table-writer';
import type { PartWriteContext } from './write-context';

export interface BlocksOptions {
  /** The style of the table the blocks are in (cells), for the cascade. */
  tableStyleId?: string;
  /** A note's blocks: its first paragraph carries the note's own mark. */
  noteMark?: 'footnote' | 'endnote';
  /** The w:sectPr that ends these blocks (an earlier section of the body). */
  sectionProperties?: string;
  /**
   * The blocks must end with a paragraph: a table cell (§17.4.66), a note, a header: an empty
   * paragraph follows a trailing table (or stands alone when there are no blocks).
   */
  endWithParagraph?: boolean;
}

export function blocksXml(blocks: readonly Block[], part: PartWriteContext, options: BlocksOptions = {}): string {
  let xml = '';
  const last = blocks[blocks.length - 1];
  const needsParagraph =
    (options.endWithParagraph || options.sectionProperties !== undefined) &&
    (last === undefined || last.kind === 'table');
  blocks.forEach((block, index) => {
    if (block.kind === 'table') {
      xml += tableXml(block, part, blocksXml);
      return;
    }
    const isFirst = index === 0;
    const isLast = index === blocks.length - 1;
    xml += paragraphXml(block, part, options.tableStyleId, {
      ...(isFirst && options.noteMark ? { noteMark: options.noteMark } : {}),
      ...(isLast && options.sectionProperties ? { sectionProperties: options.sectionProperties } : {}),
    });
  });
  if (needsParagraph) {
    const sectPr = options.sectionProperties ? `<w:pPr>${options.sectionProperties}</w:pPr>` : '';
    xml += `<w:p>${sectPr}</w:p>`;
  }
  return xml;
}
