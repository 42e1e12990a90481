import type { CellBorders, PreferredWidth, Table, TableCell, TablePosition, TableRow } from '../../model';
import { chooseAlternative } from './markup-compatibility';
import type { DocumentContext, StoryContext } from './read-context';
import { changeOf, isShown } from './revisions';
import { readShading } from './run-properties';
import {
  CONDITION_SEPARATOR,
  cellSides,
  readBorderSet,
  readCellMargins,
  type TableCondition,
  verticalAlignment,
} from './table-style';
import { clamp, EXTENT, integer, OFFSET, onOff, percent, twips } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * w:tbl (ECMA-376 Part 1, §17.4): the grid, rows and cells, each cell's blocks read recursively
 * with the table's style in the cascade, and that style's conditional formatting (§17.7.6) as
 * w:tblLook selects it: the cell's paragraphs get the conditions' paragraph and run properties
 * through a conditional style key (style-cascade.ts), its shading and borders are merged here.
 */
export function readTable(tbl: XmlElement, story: StoryContext): Table | undefined {
  const doc = story.doc;
  const tblPr = child(tbl, 'w:tblPr');
  const tableStyleId = doc.cascade.tableStyleId(child(tblPr, 'w:tblStyle')?.attributes['w:val']);
  const style = doc.cascade.tableStyle(tableStyleId);
  const grid: number[] = [];
  for (const column of child(tbl, 'w:tblGrid')?.children ?? []) {
    // Widths, indents, spacing, heights and offsets within Word's 22 in (units.ts EXTENT, OFFSET).
    if (column.name === 'w:gridCol') grid.push(clamp(twips(column.attributes['w:w']), EXTENT) ?? 0);
  }
  const indent =
    clamp(twips(child(tblPr, 'w:tblInd')?.attributes['w:w']), OFFSET) ??
    doc.cascade.style(tableStyleId)?.tableIndent ??
    0;
  const gridWidth = grid.reduce((sum, width) => sum + width, 0);
  const tableWidthElement = child(tblPr, 'w:tblW');
  const tableWidth = preferredWidth(tableWidthElement, gridWidth) ?? gridWidth;
  const look = tableLook(child(tblPr, 'w:tblLook'));
  const spacing = child(tblPr, 'w:tblCellSpacing');
  const table: Table = {
    kind: 'table',
    grid,
    rows: [],
    indent,
    layout: child(tblPr, 'w:tblLayout')?.attributes['w:type'] === 'fixed' ? 'fixed' : 'autofit',
    align: tableAlignment(child(tblPr, 'w:jc')?.attributes['w:val']),
    // Word's defaults: 0.08 in left and right, nothing above and below (docs/engine.md; §17.4.42).
    cellMargins: {
      top: 0,
      left: 5.4,
      bottom: 0,
      right: 5.4,
      ...style?.cellMargins,
      ...readCellMargins(child(tblPr, 'w:tblCellMar')),
    },
    borders: { ...style?.borders, ...readBorderSet(child(tblPr, 'w:tblBorders'), doc.colors) },
  };
  const cellSpacing =
    spacing && spacing.attributes['w:type'] !== 'nil'
      ? (clamp(twips(spacing.attributes['w:w']), EXTENT) ?? 0)
      : style?.cellSpacing;
  if (cellSpacing !== undefined) table.cellSpacing = cellSpacing;
  const width = tableWidthElement ? typedWidth(tableWidthElement) : undefined;
  if (width) table.width = width;
  const floating = tablePosition(child(tblPr, 'w:tblpPr'));
  if (floating) table.floating = floating;

  const rowElementsShown = rowElements(tbl).filter((tr) => {
    const change = changeOf(child(tr, 'w:trPr'));
    return !(
      change !== undefined &&
      (change.kind === 'insert' || change.kind === 'delete') &&
      !isShown(change.kind, doc.revisions)
    );
  });
  const rowBand = style?.rowBandSize ?? 1;
  const colBand = style?.colBandSize ?? 1;
  const columnCount = Math.max(1, grid.length);
  let headerRun = true;
  rowElementsShown.forEach((tr, rowIndex) => {
    const trPr = child(tr, 'w:trPr');
    const row: TableRow = {
      cells: [],
      isHeader: flag(trPr, 'w:tblHeader'),
      cantSplit: flag(trPr, 'w:cantSplit'),
    };
    const height = child(trPr, 'w:trHeight');
    const heightValue = clamp(twips(height?.attributes['w:val']), EXTENT);
    if (heightValue !== undefined && heightValue > 0) {
      const rule = height?.attributes['w:hRule'];
      // An absent hRule means "at least" in Word (§17.4.81 leaves the default to the application).
      row.height = { value: heightValue, rule: rule === 'exact' ? 'exact' : rule === 'auto' ? 'auto' : 'atLeast' };
    }
    // The first row, and the header rows that follow it, take the firstRow format (§17.7.6).
    const firstRow = look.firstRow && (rowIndex === 0 || (headerRun && row.isHeader));
    headerRun = headerRun && row.isHeader;
    const lastRow = look.lastRow && rowIndex === rowElementsShown.length - 1;
    const bandRow = rowIndex - (look.firstRow ? 1 : 0);
    // Cells skipped before the first one (w:gridBefore, §17.4.15) hold the grid position with an empty cell.
    const before = gridCount(child(trPr, 'w:gridBefore'), 0);
    if (before > 0) row.cells.push({ blocks: [], span: before, placeholder: true });
    let column = before;
    for (const tc of cellElements(tr)) {
      const tcPr = child(tc, 'w:tcPr');
      const span = Math.max(1, gridCount(child(tcPr, 'w:gridSpan'), 1));
      const conditions: TableCondition[] = [];
      if (style) {
        const firstCol = look.firstColumn && column === 0;
        const lastCol = look.lastColumn && column + span >= columnCount;
        if (!look.noVBand && !firstCol && !lastCol) {
          const band = Math.floor((column - (look.firstColumn ? 1 : 0)) / colBand) % 2;
          conditions.push(band === 0 ? 'band1Vert' : 'band2Vert');
        }
        if (!look.noHBand && !firstRow && !lastRow && bandRow >= 0) {
          conditions.push(Math.floor(bandRow / rowBand) % 2 === 0 ? 'band1Horz' : 'band2Horz');
        }
        if (firstCol) conditions.push('firstCol');
        if (lastCol) conditions.push('lastCol');
        if (firstRow) conditions.push('firstRow');
        if (lastRow) conditions.push('lastRow');
        if (firstRow && lastCol) conditions.push('neCell');
        if (firstRow && firstCol) conditions.push('nwCell');
        if (lastRow && lastCol) conditions.push('seCell');
        if (lastRow && firstCol) conditions.push('swCell');
      }
      const applied = conditions.filter((type) => style?.conditions[type] !== undefined);
      const cellStyleKey =
        tableStyleId !== undefined && applied.length > 0
          ? `${tableStyleId}${CONDITION_SEPARATOR}${applied.join(' ')}`
          : tableStyleId;
      const cell: TableCell = { blocks: story.doc.readBlocks(tc, story, cellStyleKey).blocks, span };
      column += span;
      const vMerge = child(tcPr, 'w:vMerge');
      if (vMerge !== undefined) cell.verticalMerge = vMerge.attributes['w:val'] === 'restart' ? 'restart' : 'continue';
      const width = preferredWidth(child(tcPr, 'w:tcW'), tableWidth);
      if (width !== undefined && width > 0) cell.width = width;

      // Shading and borders: direct formatting over the conditions (later ones win) over the style's.
      let shading = style?.shading;
      let borders = {};
      let verticalAlign: TableCell['verticalAlign'];
      for (const type of applied) {
        const format = style?.conditions[type];
        if (!format) continue;
        if (format.shading !== undefined) shading = format.shading;
        borders = { ...borders, ...cellSides(format.borders) };
        if (format.verticalAlign) verticalAlign = format.verticalAlign;
      }
      const shd = child(tcPr, 'w:shd');
      if (shd) shading = readShading(shd, doc.colors);
      if (shading) cell.shading = shading;
      borders = { ...borders, ...ownCellBorders(child(tcPr, 'w:tcBorders'), doc) };
      if (Object.keys(borders).length > 0) cell.borders = borders;
      const margins = readCellMargins(child(tcPr, 'w:tcMar'));
      if (Object.keys(margins).length > 0) cell.margins = margins;
      verticalAlign = verticalAlignment(child(tcPr, 'w:vAlign')?.attributes['w:val']) ?? verticalAlign;
      if (verticalAlign && verticalAlign !== 'top') cell.verticalAlign = verticalAlign;
      const direction = child(tcPr, 'w:textDirection')?.attributes['w:val'];
      if (direction === 'btLr' || direction === 'tbRl' || direction === 'tbRlV' || direction === 'tbLrV') {
        cell.textDirection = direction === 'btLr' ? 'btLr' : 'tbRl';
      }
      if (flag(tcPr, 'w:noWrap')) cell.noWrap = true;
      // Legacy horizontal merge (w:hMerge, §17.4.22): a continuing cell widens the one before it.
      const previous = row.cells[row.cells.length - 1];
      if (child(tcPr, 'w:hMerge')?.attributes['w:val'] === 'continue' && previous !== undefined) {
        previous.span += cell.span;
        if (previous.width !== undefined && cell.width !== undefined) previous.width += cell.width;
        continue;
      }
      row.cells.push(cell);
    }
    const after = gridCount(child(trPr, 'w:gridAfter'), 0);
    if (after > 0 && row.cells.length > 0) row.cells.push({ blocks: [], span: after, placeholder: true });
    if (row.cells.some((cell) => !cell.placeholder)) table.rows.push(row);
  });
  if (table.rows.length === 0) return undefined;
  return table;
}

/** Word tables have at most 63 columns; a larger count in a damaged file must not size arrays by it. */
const MAX_GRID_COLUMNS = 64;

function gridCount(element: XmlElement | undefined, fallback: number): number {
  const value = integer(element?.attributes['w:val']) ?? fallback;
  return Math.min(MAX_GRID_COLUMNS, Math.max(0, value));
}

interface TableLook {
  firstRow: boolean;
  lastRow: boolean;
  firstColumn: boolean;
  lastColumn: boolean;
  noHBand: boolean;
  noVBand: boolean;
}

/**
 * w:tblLook (§17.4.56): the attributes of Office 2010+, or the older hexadecimal w:val bit mask
 * (0x0020 first row … 0x0400 no vertical banding). Absent, nothing conditional applies but banding.
 */
function tableLook(element: XmlElement | undefined): TableLook {
  const attributes = element?.attributes ?? {};
  const mask = Number.parseInt(attributes['w:val'] ?? '0', 16) || 0;
  const bit = (name: string, value: number) => {
    const attribute = attributes[name];
    return attribute !== undefined ? onOff(attribute) : (mask & value) !== 0;
  };
  return {
    firstRow: bit('w:firstRow', 0x20),
    lastRow: bit('w:lastRow', 0x40),
    firstColumn: bit('w:firstColumn', 0x80),
    lastColumn: bit('w:lastColumn', 0x100),
    noHBand: bit('w:noHBand', 0x200),
    noVBand: bit('w:noVBand', 0x400),
  };
}

function tableAlignment(value: string | undefined): Table['align'] {
  if (value === 'center') return 'center';
  if (value === 'right' || value === 'end') return 'right';
  return 'left';
}

/** w:tblW as the model's preferred width (§17.4.63): pct as a fraction of the text width. */
function typedWidth(element: XmlElement): PreferredWidth | undefined {
  const type = element.attributes['w:type'] ?? 'dxa';
  const value = element.attributes['w:w'];
  if (type === 'pct') {
    const fraction = percent(value);
    return fraction === undefined || fraction <= 0 ? { type: 'auto' } : { type: 'pct', value: fraction };
  }
  if (type === 'dxa') {
    const points = clamp(twips(value), EXTENT);
    return points === undefined || points <= 0 ? { type: 'auto' } : { type: 'dxa', value: points };
  }
  return { type: 'auto' };
}

/** w:tblpPr (§17.4.58): a floating table's anchors and offsets. */
function tablePosition(element: XmlElement | undefined): TablePosition | undefined {
  if (element === undefined) return undefined;
  const a = element.attributes;
  const anchor = (value: string | undefined, fallback: TablePosition['verticalAnchor']) =>
    value === 'page' || value === 'margin' || value === 'text' ? value : fallback;
  const position: TablePosition = {
    horizontalAnchor: anchor(a['w:horzAnchor'], 'text'),
    verticalAnchor: anchor(a['w:vertAnchor'], 'text'),
    topFromText: clamp(twips(a['w:topFromText']), EXTENT) ?? 0,
    bottomFromText: clamp(twips(a['w:bottomFromText']), EXTENT) ?? 0,
    leftFromText: clamp(twips(a['w:leftFromText']), EXTENT) ?? 0,
    rightFromText: clamp(twips(a['w:rightFromText']), EXTENT) ?? 0,
  };
  const x = clamp(twips(a['w:tblpX']), OFFSET);
  if (x !== undefined) position.x = x;
  const y = clamp(twips(a['w:tblpY']), OFFSET);
  if (y !== undefined) position.y = y;
  const xAlign = a['w:tblpXSpec'];
  if (xAlign === 'left' || xAlign === 'center' || xAlign === 'right' || xAlign === 'inside' || xAlign === 'outside')
    position.xAlign = xAlign;
  return position;
}

/** An on/off property that is off when absent. */
function flag(properties: XmlElement | undefined, name: string): boolean {
  const element = child(properties, name);
  return element !== undefined && onOff(element.attributes['w:val']);
}

/**
 * A preferred width (CT_TblWidth, §17.18.87 ST_TblWidth): dxa in twips, pct of the table (fiftieths
 * of a percent, or "NN%"), auto/nil none.
 */
function preferredWidth(element: XmlElement | undefined, reference: number): number | undefined {
  if (element === undefined) return undefined;
  const type = element.attributes['w:type'] ?? 'dxa';
  const value = element.attributes['w:w'];
  if (type === 'dxa') return clamp(twips(value), EXTENT);
  if (type === 'pct') {
    const fraction = percent(value);
    return fraction === undefined || reference <= 0 ? undefined : fraction * reference;
  }
  return undefined;
}

/** Rows, also inside row-level content controls, custom XML and compatibility alternatives. */
function rowElements(tbl: XmlElement): XmlElement[] {
  return collect(tbl, 'w:tr');
}

function cellElements(tr: XmlElement): XmlElement[] {
  return collect(tr, 'w:tc');
}

function collect(parent: XmlElement, name: string, into: XmlElement[] = []): XmlElement[] {
  for (const item of parent.children) {
    if (item.name === name) into.push(item);
    else if (item.name === 'w:sdt') collect(child(item, 'w:sdtContent') ?? item, name, into);
    else if (item.name === 'w:customXml') collect(item, name, into);
    else if (item.name === 'mc:AlternateContent') {
      const branch = chooseAlternative(item);
      if (branch) collect(branch, name, into);
    }
  }
  return into;
}

/** cellSides of a cell's w:tcBorders, cached by the element (the caller copies the sides out). */
function ownCellBorders(tcBorders: XmlElement | undefined, doc: DocumentContext): CellBorders {
  if (tcBorders === undefined) return NO_CELL_BORDERS;
  let borders = doc.cellBorders.get(tcBorders);
  if (borders === undefined) {
    borders = cellSides(readBorderSet(tcBorders, doc.colors));
    doc.cellBorders.set(tcBorders, borders);
  }
  return borders;
}

const NO_CELL_BORDERS: CellBorders = Object.freeze({});
