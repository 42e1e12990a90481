import type { Table, TableCell, TableRow } from '../model/document';
import { readBlockContent } from './block-reader';
import { chooseAlternative } from './markup-compatibility';
import type { StoryContext } from './read-context';
import { changeOf, isShown } from './revisions';
import { readShading } from './run-properties';
import { integer, onOff, percent, twips } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * w:tbl (ECMA-376 Part 1, §17.4): the grid, rows and cells, each cell's blocks read recursively
 * with the table's style in the cascade. Table style conditional formatting (first row, banding…)
 * is not applied yet.
 */
export function readTable(tbl: XmlElement, story: StoryContext): Table | undefined {
  const doc = story.doc;
  const tblPr = child(tbl, 'w:tblPr');
  const tableStyleId = doc.cascade.tableStyleId(child(tblPr, 'w:tblStyle')?.attributes['w:val']);
  const grid: number[] = [];
  for (const column of child(tbl, 'w:tblGrid')?.children ?? []) {
    if (column.name === 'w:gridCol') grid.push(Math.max(0, twips(column.attributes['w:w']) ?? 0));
  }
  const indent =
    twips(child(tblPr, 'w:tblInd')?.attributes['w:w']) ?? doc.cascade.style(tableStyleId)?.tableIndent ?? 0;
  const gridWidth = grid.reduce((sum, width) => sum + width, 0);
  const tableWidth = preferredWidth(child(tblPr, 'w:tblW'), gridWidth) ?? gridWidth;

  const rows: TableRow[] = [];
  for (const tr of rowElements(tbl)) {
    const trPr = child(tr, 'w:trPr');
    const change = changeOf(trPr);
    if (change !== undefined && (change.kind === 'insert' || change.kind === 'delete')) {
      if (!isShown(change.kind, doc.revisions)) continue;
    }
    const row: TableRow = {
      cells: [],
      isHeader: flag(trPr, 'w:tblHeader'),
      cantSplit: flag(trPr, 'w:cantSplit'),
    };
    const height = child(trPr, 'w:trHeight');
    const heightValue = twips(height?.attributes['w:val']);
    if (heightValue !== undefined && heightValue > 0) {
      const rule = height?.attributes['w:hRule'];
      // An absent hRule means "at least" in Word (§17.4.81 leaves the default to the application).
      row.height = { value: heightValue, rule: rule === 'exact' ? 'exact' : rule === 'auto' ? 'auto' : 'atLeast' };
    }
    // Cells skipped before the first one (w:gridBefore, §17.4.15) hold the grid position with an empty cell.
    const before = integer(child(trPr, 'w:gridBefore')?.attributes['w:val']) ?? 0;
    if (before > 0) row.cells.push({ blocks: [], span: before });
    for (const tc of cellElements(tr)) {
      const tcPr = child(tc, 'w:tcPr');
      const cell: TableCell = {
        blocks: readBlockContent(tc, story, tableStyleId).blocks,
        span: Math.max(1, integer(child(tcPr, 'w:gridSpan')?.attributes['w:val']) ?? 1),
      };
      const vMerge = child(tcPr, 'w:vMerge');
      if (vMerge !== undefined) cell.verticalMerge = vMerge.attributes['w:val'] === 'restart' ? 'restart' : 'continue';
      const width = preferredWidth(child(tcPr, 'w:tcW'), tableWidth);
      if (width !== undefined && width > 0) cell.width = width;
      const shd = child(tcPr, 'w:shd');
      const shading = shd ? readShading(shd, doc.colors) : undefined;
      if (shading) cell.shading = shading;
      // Legacy horizontal merge (w:hMerge, §17.4.22): a continuing cell widens the one before it.
      const previous = row.cells[row.cells.length - 1];
      if (child(tcPr, 'w:hMerge')?.attributes['w:val'] === 'continue' && previous !== undefined) {
        previous.span += cell.span;
        if (previous.width !== undefined && cell.width !== undefined) previous.width += cell.width;
        continue;
      }
      row.cells.push(cell);
    }
    if (row.cells.length > 0) rows.push(row);
  }
  if (rows.length === 0) return undefined;
  return { kind: 'table', grid, rows, indent };
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
  if (type === 'dxa') return twips(value);
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
