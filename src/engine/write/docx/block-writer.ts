/**
 * Block content (paragraphs and tables, ECMA-376 Part 1 §17.2.2 EG_BlockLevelElts) of the body,
 * headers, footers, notes and table cells.
 */
import type { Block } from '../../model';
import { paragraphXml } from './paragraph-writer';
import { tableXml } from './table-writer';
import type { BlocksOptions, PartWriteContext } from './write-context';

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
