// Plain DocumentModel values for layout tests: the model is data, so tests build it directly.

import { plainRunProperties } from '../../src/engine/model/defaults';
import type {
  Block,
  DocumentModel,
  Inline,
  Paragraph,
  ParagraphProperties,
  RunProperties,
  Section,
  Table,
  TableCell,
  TableRow,
} from '../../src/engine/model/document';

export const LETTER = { width: 612, height: 792 };

export function runProps(overrides: Partial<RunProperties> = {}): RunProperties {
  return plainRunProperties({ font: 'Calibri', size: 11 }, overrides);
}

export function paragraphProps(overrides: Partial<ParagraphProperties> = {}): ParagraphProperties {
  return {
    align: 'left',
    indent: { left: 0, right: 0, firstLine: 0 },
    spacing: { before: 0, after: 0, line: 1, lineRule: 'auto' },
    tabs: [],
    keepNext: false,
    keepLines: false,
    widowControl: true,
    pageBreakBefore: false,
    contextualSpacing: false,
    borders: {},
    rtl: false,
    ...overrides,
  };
}

export function text(value: string, props: Partial<RunProperties> = {}): Inline {
  return { kind: 'text', text: value, props: runProps(props) };
}

export function paragraph(inlines: Inline[] | string, props: Partial<ParagraphProperties> = {}): Paragraph {
  return {
    kind: 'paragraph',
    props: paragraphProps(props),
    markProps: runProps(),
    inlines: typeof inlines === 'string' ? [text(inlines)] : inlines,
  };
}

export function section(blocks: Block[], overrides: Partial<Section> = {}): Section {
  return {
    start: 'nextPage',
    page: { ...LETTER, margins: { top: 72, right: 72, bottom: 72, left: 72, header: 36, footer: 36, gutter: 0 } },
    columns: { count: 1, space: 36, separator: false },
    titlePage: false,
    pageNumbering: { format: 'decimal' },
    headers: {},
    footers: {},
    blocks,
    ...overrides,
  };
}

export function documentModel(sections: Section[]): DocumentModel {
  return {
    properties: { title: 'Test' },
    settings: { defaultTabStop: 36, evenAndOddHeaders: false },
    sections,
    images: {},
    embeddedFonts: [],
    notes: { footnotes: {}, endnotes: {} },
    warnings: [],
  };
}

/** About `words` words of filler text. */
export function filler(words: number, seed = 'lorem'): string {
  const vocabulary = [
    'alpha',
    'bravo',
    'charlie',
    'delta',
    'echo',
    'foxtrot',
    'golf',
    'hotel',
    'india',
    'juliet',
    seed,
  ];
  return Array.from({ length: words }, (_, i) => vocabulary[(i * 7) % vocabulary.length]).join(' ');
}

export function cell(content: string | Block[], overrides: Partial<TableCell> = {}): TableCell {
  return { blocks: typeof content === 'string' ? [paragraph(content)] : content, span: 1, ...overrides };
}

export function row(cells: TableCell[], overrides: Partial<TableRow> = {}): TableRow {
  return { cells, isHeader: false, cantSplit: false, ...overrides };
}

/** An autofit table without borders, Word's default cell margins. */
export function table(grid: number[], rows: TableRow[], overrides: Partial<Table> = {}): Table {
  return {
    kind: 'table',
    grid,
    rows,
    indent: 0,
    layout: 'autofit',
    align: 'left',
    cellMargins: { top: 0, left: 5.4, bottom: 0, right: 5.4 },
    borders: {},
    ...overrides,
  };
}
