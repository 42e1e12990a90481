import type { Columns, PageGeometry, PageNumberFormat, SectionStart } from '../../model';
import { readNoteNumbering, type SectionNoteNumbering } from './note-numbering';
import { clamp, EXTENT, integer, onOff, PAGE_SIDE, twips } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * Section properties (w:sectPr, ECMA-376 Part 1, §17.6): page size and margins, columns, first-page
 * and page-numbering settings, and the header/footer references, which the document reader
 * resolves with inheritance from the previous section (§17.10.5).
 */

export interface SectionProperties {
  start: SectionStart;
  page: PageGeometry;
  columns: Columns;
  titlePage: boolean;
  pageNumbering: { start?: number; format: PageNumberFormat };
  /** Relationship ids per slot, as this section defines them. */
  headerReferences: Partial<Record<HeaderFooterSlot, string>>;
  footerReferences: Partial<Record<HeaderFooterSlot, string>>;
  /** This section's w:footnotePr / w:endnotePr (§17.11.11, §17.11.4), over the document's. */
  noteNumbering: SectionNoteNumbering;
}

export type HeaderFooterSlot = 'default' | 'first' | 'even';

const SECTION_STARTS: Record<string, SectionStart> = {
  nextPage: 'nextPage',
  continuous: 'continuous',
  evenPage: 'evenPage',
  oddPage: 'oddPage',
  nextColumn: 'nextColumn',
};

const PAGE_NUMBER_FORMATS = new Set<PageNumberFormat>([
  'decimal',
  'upperRoman',
  'lowerRoman',
  'upperLetter',
  'lowerLetter',
  'ordinal',
  'decimalZero',
  'arabicAlpha',
  'arabicAbjad',
  'hebrew1',
  'hebrew2',
  'hindiNumbers',
  'none',
]);

/** Letter paper with 1 in margins and 0.5 in header/footer distances: Word's defaults (US). */
const DEFAULT_PAGE = { width: 612, height: 792, margin: 72, headerFooter: 36 };
/** The default space between columns (§17.6.4: 720 twips when w:space is absent). */
const DEFAULT_COLUMN_SPACE = 36;

export function readSectionProperties(sectPr: XmlElement | undefined): SectionProperties {
  const pgSz = child(sectPr, 'w:pgSz');
  // Sides and margins within what Word accepts (units.ts PAGE_SIDE, EXTENT: 22 in at most).
  let width = clamp(positive(twips(pgSz?.attributes['w:w'])), PAGE_SIDE) ?? DEFAULT_PAGE.width;
  let height = clamp(positive(twips(pgSz?.attributes['w:h'])), PAGE_SIDE) ?? DEFAULT_PAGE.height;
  // Word writes a landscape page with its sides already swapped; some writers only set orient.
  if (pgSz?.attributes['w:orient'] === 'landscape' && width < height) [width, height] = [height, width];

  const pgMar = child(sectPr, 'w:pgMar')?.attributes;
  // A negative top or bottom margin (§17.6.11) means the body does not move for a tall header or
  // footer; the margin itself is its absolute value.
  const margin = (name: string, fallback: number) => {
    const value = twips(pgMar?.[name]);
    return value === undefined ? fallback : (clamp(Math.abs(value), EXTENT) as number);
  };
  const page: PageGeometry = {
    width,
    height,
    margins: {
      top: margin('w:top', DEFAULT_PAGE.margin),
      right: margin('w:right', DEFAULT_PAGE.margin),
      bottom: margin('w:bottom', DEFAULT_PAGE.margin),
      left: margin('w:left', DEFAULT_PAGE.margin),
      header: margin('w:header', DEFAULT_PAGE.headerFooter),
      footer: margin('w:footer', DEFAULT_PAGE.headerFooter),
      gutter: margin('w:gutter', 0),
    },
  };
  if ((twips(pgMar?.['w:top']) ?? 0) < 0) page.fixedTop = true;
  if ((twips(pgMar?.['w:bottom']) ?? 0) < 0) page.fixedBottom = true;

  // tbRl (tbRlV and tbV in the strict and older spellings): vertical East Asian text.
  const direction = child(sectPr, 'w:textDirection')?.attributes['w:val'];
  if (direction === 'tbRl' || direction === 'tbRlV' || direction === 'tbV') page.vertical = true;
  const lineGrid = readLineGrid(child(sectPr, 'w:docGrid'));
  if (lineGrid !== undefined) page.lineGrid = lineGrid;

  const pgNumType = child(sectPr, 'w:pgNumType')?.attributes;
  const format = pgNumType?.['w:fmt'] as PageNumberFormat | undefined;
  const pageNumbering: SectionProperties['pageNumbering'] = {
    format: format !== undefined && PAGE_NUMBER_FORMATS.has(format) ? format : 'decimal',
  };
  const start = integer(pgNumType?.['w:start']);
  if (start !== undefined) pageNumbering.start = start;

  const titlePg = child(sectPr, 'w:titlePg');
  const properties: SectionProperties = {
    start: SECTION_STARTS[child(sectPr, 'w:type')?.attributes['w:val'] ?? ''] ?? 'nextPage',
    page,
    columns: readColumns(child(sectPr, 'w:cols')),
    titlePage: titlePg !== undefined && onOff(titlePg.attributes['w:val']),
    pageNumbering,
    headerReferences: {},
    footerReferences: {},
    noteNumbering: {
      footnote: readNoteNumbering(child(sectPr, 'w:footnotePr')),
      endnote: readNoteNumbering(child(sectPr, 'w:endnotePr')),
    },
  };
  for (const reference of sectPr?.children ?? []) {
    const isHeader = reference.name === 'w:headerReference';
    if (!isHeader && reference.name !== 'w:footerReference') continue;
    const type = reference.attributes['w:type'] ?? 'default';
    const id = reference.attributes['r:id'];
    if (id === undefined || (type !== 'default' && type !== 'first' && type !== 'even')) continue;
    (isHeader ? properties.headerReferences : properties.footerReferences)[type] = id;
  }
  return properties;
}

/**
 * The line pitch of w:docGrid (§17.6.5), points, when the grid governs lines: types lines,
 * linesAndChars and snapToChars. Type default (also when absent) has no grid, whatever linePitch
 * says: Word writes a pitch into every section.
 */
function readLineGrid(docGrid: XmlElement | undefined): number | undefined {
  const type = docGrid?.attributes['w:type'];
  if (type !== 'lines' && type !== 'linesAndChars' && type !== 'snapToChars') return undefined;
  return clamp(positive(twips(docGrid?.attributes['w:linePitch'])), EXTENT);
}

/** Word sets at most 45 columns (§17.6.4 leaves w:num unbounded). */
const MAX_COLUMNS = 45;

/** w:cols (§17.6.4): count, spacing, separator line, and explicit widths when not equal. */
function readColumns(cols: XmlElement | undefined): Columns {
  const attributes = cols?.attributes;
  const count = Math.max(1, Math.min(MAX_COLUMNS, integer(attributes?.['w:num']) ?? 1));
  const columns: Columns = {
    count,
    space: clamp(twips(attributes?.['w:space']), EXTENT) ?? DEFAULT_COLUMN_SPACE,
    separator: attributes?.['w:sep'] !== undefined && onOff(attributes['w:sep']),
  };
  const equal = attributes?.['w:equalWidth'];
  const explicit = (cols?.children ?? []).filter((column) => column.name === 'w:col').slice(0, MAX_COLUMNS);
  if (explicit.length > 0 && equal !== undefined && !onOff(equal)) {
    columns.widths = explicit.map((column) => ({
      width: clamp(twips(column.attributes['w:w']), EXTENT) ?? 0,
      space: clamp(twips(column.attributes['w:space']), EXTENT) ?? 0,
    }));
    columns.count = columns.widths.length;
  }
  return columns;
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? value : undefined;
}
