/**
 * HTML tables (HTML §4.9, the table model §4.9.12) as the model's tables: a proper grid built
 * with the table processing model's slot assignment (colspan → gridSpan, rowspan → a 'restart'
 * cell and 'continue' cells below it, ECMA-376 §17.4.17 gridSpan, §17.4.85 vMerge), header rows
 * from <thead> (repeated on each page, §17.4.49 tblHeader), borders from the border attribute and
 * CSS, shading from bgcolor and background-color, padding as cell margins.
 */

import type {
  Block,
  Border,
  CellBorders,
  CellMargins,
  PreferredWidth,
  Table,
  TableBorders,
  TableCell,
  TableRow,
} from '../../model';
import { PARAGRAPH_STYLES, TABLE_STYLE } from '../markup';
import type { DeclaredStyle } from './computed-style';
import { parseColor, parseLegacyColor, parseLength } from './css-values';
import type { BlockWalker, WalkContext } from './format-context';
import { attribute, type ChildNode, type Element, isElement, tagName } from './html-tree';

/** Word's limit on grid columns (its tables have at most 63). */
export const MAX_COLUMNS = 63;
/** The table style's cell margins (markup-styles.ts: 29 and 86 twips). */
const STYLE_MARGINS: CellMargins = { top: 1.45, left: 4.3, bottom: 1.45, right: 4.3 };
/**
 * What tables without any border information get when the source is Markdown, so their grid shows
 * (as GitHub's and pandoc's renderings show it). An HTML table without border attribute or CSS has
 * none, as browsers draw it (HTML Living Standard §15.3.8: only table[border] gets borders).
 */
const DEFAULT_BORDER: Border = { style: 'single', width: 0.5, space: 0, color: 'BFBFBF' };
const NO_BORDER: Border = { style: 'none', width: 0, space: 0 };
const SIDES = ['top', 'left', 'bottom', 'right'] as const;

interface SourceRow {
  element: Element;
  header: boolean;
  cells: Element[];
}

interface PlacedCell {
  element?: Element;
  column: number;
  span: number;
  rowSpan: number;
}

export function buildTable(
  table: Element,
  tableStyle: DeclaredStyle,
  context: WalkContext,
  depth: number,
  walker: BlockWalker,
): Block[] {
  const out: Block[] = [];
  const { rows: sourceRows, captions, columns: columnElements } = collectRows(table, walker);
  const fontSize = { fontSize: context.fontSize };
  const available = Math.max(36, context.block.available - context.block.indentLeft);

  // Table width (CSS width over the width attribute): points, or a share of the text width.
  // A width past the text column (a page laid out for a 1,000-pixel screen) is brought into it:
  // Chromium prints such a page shrunk to the paper's width; the table here is narrowed instead,
  // its text kept at its size, rather than cut at the paper's edges.
  const declaredWidth = widthOf(
    tableStyle.get('width') ?? attributeWidth(attribute(table, 'width')),
    fontSize,
    available,
  );
  const tableWidth: Table['width'] =
    declaredWidth?.type === 'dxa' && declaredWidth.value > available
      ? { type: 'dxa', value: available }
      : declaredWidth;

  // Slot assignment (HTML §4.9.12.1): rowspans carry down, colspans widen.
  const carry: { remaining: number; span: number }[] = [];
  const placedRows: PlacedCell[][] = [];
  let columnCount = 0;
  sourceRows.forEach((row, rowIndex) => {
    const placed: PlacedCell[] = [];
    let column = 0;
    const skipCarried = () => {
      for (;;) {
        const c = carry[column];
        if (!c || c.remaining <= 0) return;
        placed.push({ column, span: c.span, rowSpan: 0 });
        c.remaining--;
        column += c.span;
      }
    };
    for (const cell of row.cells) {
      skipCarried();
      if (column >= MAX_COLUMNS) {
        // Overflow cells' content joins the last cell of the row.
        placed.push({ element: cell, column: MAX_COLUMNS, span: 0, rowSpan: 1 });
        continue;
      }
      const colspan = clampInt(attribute(cell, 'colspan'), 1, 1000);
      const span = Math.max(1, Math.min(colspan, MAX_COLUMNS - column));
      const requested = clampInt(attribute(cell, 'rowspan'), 1, 65534, true);
      const remainingRows = sourceRows.length - rowIndex;
      const rowSpan = requested === 0 ? remainingRows : Math.min(requested, remainingRows);
      placed.push({ element: cell, column, span, rowSpan });
      if (rowSpan > 1) carry[column] = { remaining: rowSpan - 1, span };
      column += span;
    }
    // Rowspans from above that continue past this row's last cell.
    for (let c = column; c < carry.length; c++) {
      const k = carry[c];
      if (k && k.remaining > 0) {
        placed.push({ column: c, span: k.span, rowSpan: 0 });
        k.remaining--;
        c += k.span - 1;
      }
    }
    placed.sort((a, b) => a.column - b.column);
    for (const p of placed) if (p.span > 0) columnCount = Math.max(columnCount, p.column + p.span);
    placedRows.push(placed);
  });
  columnCount = Math.max(1, Math.min(MAX_COLUMNS, columnCount));

  // CSS 2.1 §17.5.2.1: fixed layout when asked for on a table of declared width (browsers lay a
  // width:auto table out automatically whatever table-layout says).
  const algorithm =
    tableStyle.get('table-layout')?.trim().toLowerCase() === 'fixed' && tableWidth !== undefined ? 'fixed' : 'auto';
  const declared = declaredColumns(columnElements, placedRows, columnCount, algorithm, walker, fontSize, available);
  const grid = provisionalGrid(declared, tableWidth, available);
  const hasBorderInfo =
    attribute(table, 'border') !== undefined || hasBorderCss(tableStyle) || anyCellBorderCss(sourceRows, walker);
  const borderAttribute = Number.parseInt(attribute(table, 'border') ?? '', 10);
  const borders: TableBorders = {};
  if (!hasBorderInfo) {
    const unstyled = walker.gridsUnstyledTables ? DEFAULT_BORDER : NO_BORDER;
    for (const side of [...SIDES, 'insideH', 'insideV'] as const) borders[side] = unstyled;
  } else if (attribute(table, 'border') !== undefined) {
    const outer =
      Number.isFinite(borderAttribute) && borderAttribute > 0
        ? { style: 'single', width: Math.min(12, borderAttribute * 0.75), space: 0, color: '808080' }
        : attribute(table, 'border') === ''
          ? { style: 'single', width: 0.75, space: 0, color: '808080' }
          : NO_BORDER;
    const inside = outer.style === 'none' ? NO_BORDER : { style: 'single', width: 0.75, space: 0, color: '808080' };
    for (const side of SIDES) borders[side] = outer;
    borders.insideH = inside;
    borders.insideV = inside;
  }
  for (const side of SIDES) {
    const css = cssBorder(tableStyle, side, context.fontSize, context.run.delta.color ?? undefined);
    if (css) borders[side] = css;
  }

  const padding = Number.parseInt(attribute(table, 'cellpadding') ?? '', 10);
  const cellMargins: CellMargins =
    Number.isFinite(padding) && padding >= 0
      ? { top: padding * 0.75, left: padding * 0.75, bottom: padding * 0.75, right: padding * 0.75 }
      : { ...STYLE_MARGINS };
  // Backgrounds print only when asked or print-color-adjust: exact (block-builder.ts printsBackground).
  const tableShading = walker.printsBackground(context)
    ? legacyOrCss(attribute(table, 'bgcolor'), tableStyle.get('background-color'))
    : undefined;

  // Cells: their content walked with TableText paragraphs and the row's and cell's CSS.
  const rows: TableRow[] = [];
  const restarts = new Map<number, TableCell>();
  sourceRows.forEach((source, rowIndex) => {
    const rowStyle = walker.styleOf(source.element);
    const rowContext: WalkContext = { ...context, block: { ...context.block }, run: context.run };
    walker.applyInheritedCss(rowStyle, rowContext);
    const rowShading =
      (walker.printsBackground(rowContext)
        ? legacyOrCss(attribute(source.element, 'bgcolor'), rowStyle.get('background-color'))
        : undefined) ?? tableShading;
    const rowAlign = attribute(source.element, 'align');
    const cells: TableCell[] = [];
    for (const placed of placedRows[rowIndex] ?? []) {
      if (placed.element === undefined) {
        // A continuation of a rowspan: it looks like the cell that started the merge.
        const above = restarts.get(placed.column);
        const cell: TableCell = {
          blocks: [emptyParagraph(walker, context)],
          span: placed.span,
          verticalMerge: 'continue',
        };
        if (above?.shading) cell.shading = above.shading;
        if (above?.borders) cell.borders = above.borders;
        if (above?.width !== undefined) cell.width = above.width;
        cells.push(cell);
        continue;
      }
      const blocks = cellBlocks(placed.element, rowContext, rowAlign, grid, placed, depth, walker);
      if (placed.span === 0) {
        const last = cells[cells.length - 1];
        if (last) last.blocks.push(...blocks.filter((b) => b.kind !== 'paragraph' || b.inlines.length > 0));
        continue;
      }
      const cellStyle = walker.styleOf(placed.element);
      const cell: TableCell = { blocks, span: placed.span };
      if (placed.rowSpan > 1) cell.verticalMerge = 'restart';
      const width = widthOf(
        cellStyle.get('width') ?? attributeWidth(attribute(placed.element, 'width')),
        fontSize,
        available,
      );
      if (width?.type === 'dxa') cell.width = width.value;
      else if (width?.type === 'pct' && tableWidth?.type === 'dxa') cell.width = width.value * tableWidth.value;
      const shading =
        (walker.printsBackground(rowContext, cellStyle)
          ? legacyOrCss(attribute(placed.element, 'bgcolor'), cellStyle.get('background-color'))
          : undefined) ?? rowShading;
      if (shading) cell.shading = shading;
      const cellBorders: CellBorders = {};
      for (const side of SIDES) {
        const css = cssBorder(cellStyle, side, context.fontSize, context.run.delta.color ?? undefined);
        if (css) cellBorders[side] = css;
      }
      if (Object.keys(cellBorders).length > 0) cell.borders = cellBorders;
      const margins: Partial<CellMargins> = {};
      for (const side of SIDES) {
        const v = cellStyle.get(`padding-${side}`);
        const points = v === undefined ? undefined : parseLength(v, fontSize);
        if (points !== undefined && points >= 0) margins[side] = Math.min(points, 144);
      }
      if (Object.keys(margins).length > 0) cell.margins = margins;
      const valign = (
        cellStyle.get('vertical-align') ??
        attribute(placed.element, 'valign') ??
        rowStyle.get('vertical-align') ??
        attribute(source.element, 'valign')
      )?.toLowerCase();
      if (valign === 'middle' || valign === 'center') cell.verticalAlign = 'center';
      else if (valign === 'bottom') cell.verticalAlign = 'bottom';
      else if (valign === 'top') cell.verticalAlign = 'top';
      if (attribute(placed.element, 'nowrap') !== undefined || cellStyle.get('white-space') === 'nowrap')
        cell.noWrap = true;
      if (cell.verticalMerge === 'restart') restarts.set(placed.column, cell);
      cells.push(cell);
    }
    // Short rows are filled up with placeholders so every row covers the grid.
    const covered = cells.reduce((sum, c) => sum + c.span, 0);
    if (covered < columnCount)
      cells.push({ blocks: [emptyParagraph(walker, context)], span: columnCount - covered, placeholder: true });
    // break-inside: avoid (page-break-inside, CSS Fragmentation 3 §3.2) on a row: it moves whole.
    const avoid = rowStyle.get('break-inside')?.trim().toLowerCase();
    rows.push({ cells, isHeader: source.header, cantSplit: avoid === 'avoid' || avoid === 'avoid-page' });
  });

  for (const caption of captions) {
    const captionStyle = walker.styleOf(caption);
    const captionContext = walker.blockContext(caption, 'caption', captionStyle, context);
    out.push(...walker.flowOf(caption, captionContext, depth + 1));
  }
  if (rows.length === 0) return out;
  const alignAttribute = attribute(table, 'align')?.toLowerCase();
  const centred =
    alignAttribute === 'center' ||
    (tableStyle.get('margin-left') === 'auto' && tableStyle.get('margin-right') === 'auto');
  const model: Table = {
    kind: 'table',
    grid,
    rows,
    indent: context.block.indentLeft,
    layout: algorithm === 'fixed' ? 'fixed' : 'autofit',
    align: centred ? 'center' : alignAttribute === 'right' ? 'right' : 'left',
    cellMargins,
    borders,
    styleId: TABLE_STYLE,
  };
  if (tableWidth) model.width = tableWidth;
  // The widths themselves take font metrics: layout's sizeCssTables sets them (css-table-layout.ts).
  model.cssLayout = { algorithm, columns: declared, available };
  model.widensIntoMargins = true;
  out.push(model);
  return out;
}

/** Rows in table order: thead's first, then bodies and bare rows, then tfoot's (HTML §4.9.6–4.9.8). */
function collectRows(
  table: Element,
  walker: BlockWalker,
): { rows: SourceRow[]; captions: Element[]; columns: Element[] } {
  const columns: Element[] = [];
  const head: SourceRow[] = [];
  const body: SourceRow[] = [];
  const foot: SourceRow[] = [];
  const captions: Element[] = [];
  // display: none takes a row or cell out of the table altogether (CSS 2.1 §9.2.4): no grid slot.
  const hidden = (element: Element) =>
    attribute(element, 'hidden') !== undefined ||
    walker.styleOf(element).get('display')?.trim().toLowerCase() === 'none';
  const addRow = (tr: Element, into: SourceRow[], header: boolean) => {
    if (hidden(tr)) return;
    const cells = tr.children.filter(
      (c): c is Element =>
        isElement(c as ChildNode) &&
        (tagName(c as Element) === 'td' || tagName(c as Element) === 'th') &&
        !hidden(c as Element),
    );
    into.push({ element: tr, header, cells });
  };
  for (const child of table.children) {
    if (!isElement(child as ChildNode)) continue;
    const element = child as Element;
    const tag = tagName(element);
    if (tag === 'caption') captions.push(element);
    else if (tag === 'col') columns.push(element);
    else if (tag === 'colgroup') {
      // A colgroup's col children are its columns; without any it stands for `span` columns itself.
      const cols = element.children.filter(
        (c): c is Element => isElement(c as ChildNode) && tagName(c as Element) === 'col',
      );
      columns.push(...(cols.length > 0 ? cols : [element]));
    } else if (tag === 'tr') addRow(element, body, false);
    else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
      const into = tag === 'thead' ? head : tag === 'tfoot' ? foot : body;
      for (const row of element.children) {
        if (isElement(row as ChildNode) && tagName(row as Element) === 'tr')
          addRow(row as Element, into, tag === 'thead');
      }
    }
  }
  return { rows: [...head, ...body, ...foot], captions, columns };
}

function cellBlocks(
  cell: Element,
  rowContext: WalkContext,
  rowAlign: string | undefined,
  grid: number[],
  placed: PlacedCell,
  depth: number,
  walker: BlockWalker,
): Block[] {
  const cellStyle = walker.styleOf(cell);
  const width = grid.slice(placed.column, placed.column + Math.max(1, placed.span)).reduce((a, b) => a + b, 0);
  const context: WalkContext = {
    ...rowContext,
    block: {
      styleId: PARAGRAPH_STYLES.tableText,
      indentLeft: 0,
      quoteDepth: 0,
      listLevel: 0,
      tableDepth: rowContext.block.tableDepth + 1,
      available: Math.max(12, width - 2 * STYLE_MARGINS.left),
    },
    fontSize: walker.styleFontSize(PARAGRAPH_STYLES.tableText),
    whiteSpace: rowContext.whiteSpace,
  };
  if (rowContext.block.justification) context.block.justification = rowContext.block.justification;
  if (rowContext.block.line) context.block.line = rowContext.block.line;
  if (tagName(cell) === 'th') {
    context.run = { ...context.run, delta: { ...context.run.delta, bold: true, boldComplex: true } };
    // A header cell whose row leaves text-align at its initial value is centred (HTML Living
    // Standard §15.3.8); its own align attribute or CSS still wins.
    if (!rowContext.block.justification) context.block.justification = 'center';
  }
  const align = (attribute(cell, 'align') ?? rowAlign)?.toLowerCase();
  if (align === 'center') context.block.justification = 'center';
  else if (align === 'right') context.block.justification = 'right';
  else if (align === 'left') context.block.justification = 'left';
  else if (align === 'justify') context.block.justification = 'both';
  walker.applyInheritedCss(cellStyle, context);
  return walker.flowOf(cell, context, depth + 3, true);
}

function emptyParagraph(walker: BlockWalker, context: WalkContext): Block {
  const blocks = walker.flowOf(
    { children: [] } as unknown as Element,
    {
      ...context,
      block: { ...context.block, styleId: PARAGRAPH_STYLES.tableText, indentLeft: 0, listItem: undefined },
    },
    0,
    true,
  );
  return blocks[0] as Block;
}

/**
 * The width declared for each grid column (Table.cssLayout.columns): col and colgroup elements'
 * (HTML §4.9.3–4.9.4, their `span`), then the cells': for automatic layout every single-column
 * cell's, the widest, a percentage winning over a length as in browsers; for fixed layout (CSS 2.1
 * §17.5.2.1) the first row's only, a spanning cell's width divided among its columns.
 */
function declaredColumns(
  columnElements: Element[],
  rows: PlacedCell[][],
  count: number,
  algorithm: 'auto' | 'fixed',
  walker: BlockWalker,
  fontSize: { fontSize: number },
  available: number,
): (PreferredWidth | undefined)[] {
  const columns: (PreferredWidth | undefined)[] = Array.from({ length: count }, () => undefined);
  const widthOfElement = (element: Element) =>
    widthOf(walker.styleOf(element).get('width') ?? attributeWidth(attribute(element, 'width')), fontSize, available);
  const merge = (at: number, width: PreferredWidth | undefined) => {
    if (width === undefined || width.type === 'auto' || at >= count) return;
    const had = columns[at];
    if (had === undefined || had.type === 'auto') columns[at] = width;
    else if (had.type === width.type) columns[at] = { type: width.type, value: Math.max(had.value, width.value) };
    else if (width.type === 'pct') columns[at] = width;
  };
  let at = 0;
  for (const element of columnElements) {
    const span = clampInt(attribute(element, 'span'), 1, 1000);
    const width = widthOfElement(element);
    for (let i = 0; i < span && at < count; i++, at++) merge(at, width);
  }
  const cellRows = algorithm === 'fixed' ? rows.slice(0, 1) : rows;
  for (const row of cellRows) {
    for (const placed of row) {
      if (placed.element === undefined || placed.span < 1) continue;
      if (algorithm === 'fixed') {
        // Columns a col element sized keep that width.
        const width = widthOfElement(placed.element);
        if (width === undefined || width.type === 'auto') continue;
        const part = { type: width.type, value: width.value / placed.span };
        for (let i = placed.column; i < placed.column + placed.span; i++) if (columns[i] === undefined) merge(i, part);
      } else if (placed.span === 1) merge(placed.column, widthOfElement(placed.element));
    }
  }
  return columns;
}

/**
 * Provisional column widths, points, for what the reader lays out inside the cells (their nested
 * tables' containing width): declared widths, the rest of the table's width shared equally. The
 * real ones come from the content (Table.cssLayout).
 */
function provisionalGrid(
  declared: (PreferredWidth | undefined)[],
  tableWidth: Table['width'],
  available: number,
): number[] {
  const target =
    tableWidth?.type === 'dxa'
      ? tableWidth.value
      : tableWidth?.type === 'pct'
        ? tableWidth.value * available
        : available;
  const columns = declared.map((d) => (d?.type === 'dxa' ? d.value : d?.type === 'pct' ? d.value * target : undefined));
  const known = columns.reduce<number>((sum, w) => sum + (w ?? 0), 0);
  const missing = columns.filter((w) => w === undefined).length;
  const share = missing > 0 ? Math.max(12, (target - known) / missing) : 0;
  const widths = columns.map((w) => w ?? share);
  const total = widths.reduce((a, b) => a + b, 0);
  const scale = tableWidth === undefined || total > target ? target / Math.max(1, total) : 1;
  return widths.map((w) => Math.max(1, w * scale));
}

function widthOf(value: string | undefined, fontSize: { fontSize: number }, available: number): Table['width'] {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v.endsWith('%')) {
    const n = Number.parseFloat(v);
    return Number.isFinite(n) && n > 0 ? { type: 'pct', value: Math.min(n, 100) / 100 } : undefined;
  }
  const points = parseLength(v, fontSize, available);
  return points !== undefined && points > 0 ? { type: 'dxa', value: Math.min(points, 1584) } : undefined;
}

/** HTML width attributes are pixels or percentages (HTML §15.3.1 "maps to the dimension property"). */
function attributeWidth(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?%$/.test(v)) return v;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) && n > 0 ? `${n}px` : undefined;
}

function legacyOrCss(legacy: string | undefined, css: string | undefined): string | undefined {
  if (css !== undefined) return parseColor(css) ?? undefined;
  return legacy === undefined ? undefined : parseLegacyColor(legacy);
}

function hasBorderCss(style: DeclaredStyle): boolean {
  for (const key of style.keys()) if (key.startsWith('border-') && key.endsWith('-style')) return true;
  return false;
}

function anyCellBorderCss(rows: readonly SourceRow[], walker: BlockWalker): boolean {
  let checked = 0;
  for (const row of rows) {
    for (const cell of row.cells) {
      // A bounded sample: a table this large with borders has them on its first cells.
      if (++checked > 2000) return false;
      if (hasBorderCss(walker.styleOf(cell))) return true;
    }
  }
  return false;
}

const BORDER_STYLE: Record<string, string> = {
  solid: 'single',
  double: 'double',
  dotted: 'dotted',
  dashed: 'dashed',
  groove: 'single',
  ridge: 'single',
  inset: 'single',
  outset: 'single',
};

/** A CSS border side (CSS Backgrounds 3 §4) as a model border; undefined when CSS says nothing. */
function cssBorder(
  style: DeclaredStyle,
  side: string,
  fontSize: number,
  currentColor: string | undefined,
): Border | undefined {
  const kind = style.get(`border-${side}-style`)?.toLowerCase();
  if (kind === undefined) return undefined;
  if (kind === 'none' || kind === 'hidden') return NO_BORDER;
  const widthValue = (style.get(`border-${side}-width`) ?? 'medium').toLowerCase();
  const width =
    widthValue === 'thin'
      ? 0.75
      : widthValue === 'medium'
        ? 2.25
        : widthValue === 'thick'
          ? 3.75
          : parseLength(widthValue, { fontSize });
  if (width === undefined || width <= 0) return NO_BORDER;
  const colorValue = style.get(`border-${side}-color`);
  const color =
    colorValue === undefined || colorValue.toLowerCase() === 'currentcolor'
      ? currentColor
      : (parseColor(colorValue) ?? currentColor);
  const border: Border = { style: BORDER_STYLE[kind] ?? 'single', width: Math.min(width, 12), space: 0 };
  if (color) border.color = color;
  return border;
}

function clampInt(value: string | undefined, fallback: number, max: number, allowZero = false): number {
  const n = Number.parseInt(value ?? '', 10);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !allowZero)) return fallback;
  return Math.min(n, max);
}
