import type { Border, CellBorders, CellMargins, TableBorders } from '../../model';
import { type ParagraphDelta, readBorder, readParagraphDelta } from './paragraph-properties';
import { type RunDelta, readRunDelta, readShading } from './run-properties';
import type { ThemeColors } from './theme-colors';
import { clamp, EXTENT, integer, OFFSET, twips } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * Table-level properties shared by table styles and direct formatting: borders (w:tblBorders,
 * w:tcBorders), cell margins (w:tblCellMar, w:tcMar) and a table style's conditional formatting
 * (w:tblStylePr, ECMA-376 Part 1 §17.7.6).
 */

/** Conditional formatting types in the order Word applies them: later ones win (§17.7.6, §17.18.89). */
export const TABLE_CONDITIONS = [
  'wholeTable',
  'band1Vert',
  'band2Vert',
  'band1Horz',
  'band2Horz',
  'firstCol',
  'lastCol',
  'firstRow',
  'lastRow',
  'neCell',
  'nwCell',
  'seCell',
  'swCell',
] as const;
export type TableCondition = (typeof TABLE_CONDITIONS)[number];

export interface ConditionalFormat {
  paragraph: ParagraphDelta;
  run: RunDelta;
  borders: TableBorders;
  /** null: explicitly no shading. */
  shading?: string | null;
  verticalAlign?: 'top' | 'center' | 'bottom';
}

export interface TableStyleProperties {
  indent?: number;
  borders: TableBorders;
  cellMargins: Partial<CellMargins>;
  shading?: string | null;
  cellSpacing?: number;
  rowBandSize?: number;
  colBandSize?: number;
  conditions: Partial<Record<TableCondition, ConditionalFormat>>;
}

/** The separator of a conditional table style key: "<styleId>\u0002firstRow band1Horz". */
export const CONDITION_SEPARATOR = '\u0002';

export function readTableStyleProperties(style: XmlElement, colors: ThemeColors): TableStyleProperties {
  const tblPr = child(style, 'w:tblPr');
  const tcPr = child(style, 'w:tcPr');
  const properties: TableStyleProperties = {
    borders: readBorderSet(child(tblPr, 'w:tblBorders'), colors),
    cellMargins: readCellMargins(child(tblPr, 'w:tblCellMar')),
    conditions: {},
  };
  const indent = clamp(twips(child(tblPr, 'w:tblInd')?.attributes['w:w']), OFFSET);
  if (indent !== undefined) properties.indent = indent;
  const shd = child(tcPr, 'w:shd') ?? child(tblPr, 'w:shd');
  if (shd) properties.shading = readShading(shd, colors);
  const spacing = child(tblPr, 'w:tblCellSpacing');
  if (spacing && spacing.attributes['w:type'] !== 'nil')
    properties.cellSpacing = clamp(twips(spacing.attributes['w:w']), EXTENT) ?? 0;
  const rowBand = integer(child(tblPr, 'w:tblStyleRowBandSize')?.attributes['w:val']);
  if (rowBand !== undefined && rowBand > 0) properties.rowBandSize = rowBand;
  const colBand = integer(child(tblPr, 'w:tblStyleColBandSize')?.attributes['w:val']);
  if (colBand !== undefined && colBand > 0) properties.colBandSize = colBand;
  for (const element of style.children) {
    if (element.name !== 'w:tblStylePr') continue;
    const type = element.attributes['w:type'] as TableCondition | undefined;
    if (type === undefined || !TABLE_CONDITIONS.includes(type)) continue;
    const conditionTcPr = child(element, 'w:tcPr');
    const format: ConditionalFormat = {
      paragraph: readParagraphDelta(child(element, 'w:pPr'), colors),
      run: readRunDelta(child(element, 'w:rPr'), colors),
      borders: {
        ...readBorderSet(child(child(element, 'w:tblPr'), 'w:tblBorders'), colors),
        ...readBorderSet(child(conditionTcPr, 'w:tcBorders'), colors),
      },
    };
    const conditionShd = child(conditionTcPr, 'w:shd');
    if (conditionShd) format.shading = readShading(conditionShd, colors);
    const vAlign = verticalAlignment(child(conditionTcPr, 'w:vAlign')?.attributes['w:val']);
    if (vAlign) format.verticalAlign = vAlign;
    properties.conditions[type] = format;
  }
  return properties;
}

/** Merges a style's table properties over its base's (basedOn chain, base first). */
export function mergeTableStyleProperties(
  base: TableStyleProperties,
  over: TableStyleProperties,
): TableStyleProperties {
  const merged: TableStyleProperties = {
    ...base,
    ...over,
    borders: { ...base.borders, ...over.borders },
    cellMargins: { ...base.cellMargins, ...over.cellMargins },
    conditions: { ...base.conditions },
  };
  for (const [type, format] of Object.entries(over.conditions) as [TableCondition, ConditionalFormat][]) {
    const previous = merged.conditions[type];
    merged.conditions[type] = previous
      ? {
          ...previous,
          ...format,
          paragraph: { ...previous.paragraph, ...format.paragraph },
          run: { ...previous.run, ...format.run },
          borders: { ...previous.borders, ...format.borders },
        }
      : format;
  }
  return merged;
}

/**
 * Border sides of w:tblBorders / w:tcBorders (§17.4.38, §17.4.66): start/end are read as
 * left/right (left-to-right tables); "nil"/"none" become style 'none', which hides a lower level's.
 */
export function readBorderSet(element: XmlElement | undefined, colors: ThemeColors): TableBorders {
  const borders: TableBorders = {};
  for (const side of element?.children ?? []) {
    const name = side.name.slice(2);
    const key =
      name === 'start'
        ? 'left'
        : name === 'end'
          ? 'right'
          : name === 'top' || name === 'bottom' || name === 'left' || name === 'right'
            ? name
            : name === 'insideH' || name === 'insideV'
              ? name
              : undefined;
    if (key === undefined) continue;
    borders[key] = readBorder(side, colors) ?? NO_BORDER;
  }
  return borders;
}

export const NO_BORDER: Border = { style: 'none', width: 0, space: 0 };

/** Only the four sides of a cell (a cell's insideH/insideV apply to merged regions, not drawn here). */
export function cellSides(borders: TableBorders): CellBorders {
  const out: CellBorders = {};
  if (borders.top) out.top = borders.top;
  if (borders.left) out.left = borders.left;
  if (borders.bottom) out.bottom = borders.bottom;
  if (borders.right) out.right = borders.right;
  return out;
}

/** w:tblCellMar / w:tcMar sides in twips (§17.4.42, §17.4.43); start/end as left/right. */
export function readCellMargins(element: XmlElement | undefined): Partial<CellMargins> {
  const margins: Partial<CellMargins> = {};
  for (const side of element?.children ?? []) {
    const name = side.name.slice(2);
    const key =
      name === 'start' ? 'left' : name === 'end' ? 'right' : (name as 'top' | 'left' | 'bottom' | 'right' | string);
    if (key !== 'top' && key !== 'left' && key !== 'bottom' && key !== 'right') continue;
    if (side.attributes['w:type'] === 'pct' || side.attributes['w:type'] === 'auto') continue;
    const value = clamp(twips(side.attributes['w:w']), EXTENT);
    if (value !== undefined) margins[key] = value;
  }
  return margins;
}

export function verticalAlignment(value: string | undefined): 'top' | 'center' | 'bottom' | undefined {
  if (value === 'center' || value === 'bottom' || value === 'top') return value;
  if (value === 'both') return 'center';
  return undefined;
}
