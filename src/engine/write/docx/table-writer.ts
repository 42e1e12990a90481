/**
 * Tables (w:tbl, ECMA-376 Part 1 §17.4.38): properties in CT_TblPr's order, the grid, rows and
 * cells. The model's borders, margins and shading are already resolved, so they are written
 * whole as direct formatting over the table style (which, for markup models, sets only margins).
 */
import type { Block, CellBorders, CellMargins, Table, TableCell, TablePosition, TableRow } from '../../model';
import { borderXml, shadingXml } from './border-xml';
import { toFiftiethsOfPercent, toTwips } from './measures';
import type { BlocksOptions, PartWriteContext } from './write-context';
import { escapeAttribute } from './xml-escape';

type WriteBlocks = (blocks: readonly Block[], part: PartWriteContext, options: BlocksOptions) => string;

export function tableXml(table: Table, part: PartWriteContext, writeBlocks: WriteBlocks): string {
  const tableStyleId = part.doc.cascade.tableStyleId(table.styleId);
  const grid = table.grid.map((width) => `<w:gridCol w:w="${toTwips(width)}"/>`).join('');
  const rows = table.rows.map((row) => rowXml(row, part, tableStyleId, writeBlocks)).join('');
  return `<w:tbl>${tablePropertiesXml(table)}<w:tblGrid>${grid}</w:tblGrid>${rows}</w:tbl>`;
}

function tablePropertiesXml(table: Table): string {
  let xml = '';
  if (table.styleId !== undefined) xml += `<w:tblStyle w:val="${escapeAttribute(table.styleId)}"/>`;
  if (table.floating) xml += floatingXml(table.floating);
  if (table.width) xml += widthXml('tblW', table.width);
  if (table.align !== 'left') xml += `<w:jc w:val="${table.align}"/>`;
  if (table.cellSpacing !== undefined) xml += `<w:tblCellSpacing w:w="${toTwips(table.cellSpacing)}" w:type="dxa"/>`;
  xml += `<w:tblInd w:w="${toTwips(table.indent)}" w:type="dxa"/>`;
  const b = table.borders;
  const sides: [string, typeof b.top][] = [
    ['top', b.top],
    ['left', b.left],
    ['bottom', b.bottom],
    ['right', b.right],
    ['insideH', b.insideH],
    ['insideV', b.insideV],
  ];
  const borders = sides
    .filter(([, border]) => border !== undefined)
    .map(([side, border]) => borderXml(side, border))
    .join('');
  if (borders !== '') xml += `<w:tblBorders>${borders}</w:tblBorders>`;
  if (table.layout === 'fixed') xml += '<w:tblLayout w:type="fixed"/>';
  xml += `<w:tblCellMar>${marginsXml(table.cellMargins)}</w:tblCellMar>`;
  // First row and first column formatting on, banded rows: what Word gives a new table (§17.4.56).
  xml +=
    '<w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="1" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/>';
  return `<w:tblPr>${xml}</w:tblPr>`;
}

/** CT_TblWidth (§17.4.87): dxa in twips, pct in fiftieths of a percent, auto with w:w 0. */
function widthXml(name: string, width: NonNullable<Table['width']>): string {
  if (width.type === 'dxa') return `<w:${name} w:w="${toTwips(width.value)}" w:type="dxa"/>`;
  if (width.type === 'pct') return `<w:${name} w:w="${toFiftiethsOfPercent(width.value)}" w:type="pct"/>`;
  return `<w:${name} w:w="0" w:type="auto"/>`;
}

/** w:tblCellMar / w:tcMar sides in CT_TblCellMar's order (top, left, bottom, right). */
function marginsXml(margins: Partial<CellMargins>): string {
  let xml = '';
  for (const side of ['top', 'left', 'bottom', 'right'] as const) {
    const value = margins[side];
    if (value !== undefined) xml += `<w:${side} w:w="${toTwips(value)}" w:type="dxa"/>`;
  }
  return xml;
}

/** w:tblpPr (§17.4.58). */
function floatingXml(position: TablePosition): string {
  let attributes = ` w:leftFromText="${toTwips(position.leftFromText)}" w:rightFromText="${toTwips(position.rightFromText)}" w:topFromText="${toTwips(position.topFromText)}" w:bottomFromText="${toTwips(position.bottomFromText)}" w:vertAnchor="${position.verticalAnchor}" w:horzAnchor="${position.horizontalAnchor}"`;
  if (position.xAlign !== undefined) attributes += ` w:tblpXSpec="${position.xAlign}"`;
  else if (position.x !== undefined) attributes += ` w:tblpX="${toTwips(position.x)}"`;
  if (position.y !== undefined) attributes += ` w:tblpY="${toTwips(position.y)}"`;
  return `<w:tblpPr${attributes}/>`;
}

/**
 * A row: placeholder cells at its start and end are w:gridBefore / w:gridAfter (§17.4.15,
 * §17.4.14); any other placeholder becomes an empty spanning cell.
 */
function rowXml(
  row: TableRow,
  part: PartWriteContext,
  tableStyleId: string | undefined,
  writeBlocks: WriteBlocks,
): string {
  const cells = [...row.cells];
  let before = 0;
  let after = 0;
  if (cells[0]?.placeholder) before = (cells.shift() as TableCell).span;
  if (cells.length > 0 && cells[cells.length - 1]?.placeholder) after = (cells.pop() as TableCell).span;
  // CT_TrPrBase is a choice of its children in any order; this is the order Word writes.
  let trPr = '';
  if (before > 0) trPr += `<w:gridBefore w:val="${before}"/>`;
  if (after > 0) trPr += `<w:gridAfter w:val="${after}"/>`;
  if (row.cantSplit) trPr += '<w:cantSplit/>';
  if (row.height) trPr += `<w:trHeight w:val="${toTwips(row.height.value)}" w:hRule="${row.height.rule}"/>`;
  if (row.isHeader) trPr += '<w:tblHeader/>';
  const content = cells.map((cell) => cellXml(cell, part, tableStyleId, writeBlocks)).join('');
  return `<w:tr>${trPr === '' ? '' : `<w:trPr>${trPr}</w:trPr>`}${content}</w:tr>`;
}

/** w:tc: tcPr in CT_TcPr's order, then its blocks, ending with a paragraph (§17.4.66). */
function cellXml(
  cell: TableCell,
  part: PartWriteContext,
  tableStyleId: string | undefined,
  writeBlocks: WriteBlocks,
): string {
  let tcPr = '';
  if (cell.width !== undefined) tcPr += `<w:tcW w:w="${toTwips(cell.width)}" w:type="dxa"/>`;
  if (cell.span > 1) tcPr += `<w:gridSpan w:val="${cell.span}"/>`;
  if (cell.verticalMerge === 'restart') tcPr += '<w:vMerge w:val="restart"/>';
  else if (cell.verticalMerge === 'continue') tcPr += '<w:vMerge/>';
  if (cell.borders) tcPr += cellBordersXml(cell.borders);
  if (cell.shading !== undefined) tcPr += shadingXml(cell.shading);
  if (cell.noWrap) tcPr += '<w:noWrap/>';
  if (cell.margins && Object.keys(cell.margins).length > 0) tcPr += `<w:tcMar>${marginsXml(cell.margins)}</w:tcMar>`;
  if (cell.textDirection !== undefined && cell.textDirection !== 'lrTb') {
    tcPr += `<w:textDirection w:val="${cell.textDirection}"/>`;
  }
  if (cell.verticalAlign !== undefined && cell.verticalAlign !== 'top')
    tcPr += `<w:vAlign w:val="${cell.verticalAlign}"/>`;
  const blocks = cell.placeholder ? [] : cell.blocks;
  const content = writeBlocks(blocks, part, {
    ...(tableStyleId !== undefined ? { tableStyleId } : {}),
    endWithParagraph: true,
  });
  return `<w:tc>${tcPr === '' ? '' : `<w:tcPr>${tcPr}</w:tcPr>`}${content}</w:tc>`;
}

function cellBordersXml(borders: CellBorders): string {
  let xml = '';
  for (const side of ['top', 'left', 'bottom', 'right'] as const) {
    const border = borders[side];
    if (border !== undefined) xml += borderXml(side, border);
  }
  return xml === '' ? '' : `<w:tcBorders>${xml}</w:tcBorders>`;
}
