/**
 * A rich model built the way the Markdown/HTML readers build theirs: every property resolved
 * through markupStyleCascade(), then changed where the "source" said so. Used by the writer's
 * tests; the acid test reads the written DOCX back and expects this model again.
 */

import type {
  Block,
  Border,
  DocumentModel,
  Inline,
  Paragraph,
  ParagraphProperties,
  RunProperties,
  Table,
  TableCell,
  TextInline,
} from '../../../../src/engine/model/document';
import { markupStyleCascade } from '../../../../src/engine/read/markup/markup-styles';
import { tinyPng } from '../../../helpers/docx-fixture';
import { section } from '../../../helpers/model-builder';

const cascade = markupStyleCascade();

export function runOf(
  paragraphStyle: string,
  overrides: Partial<RunProperties> = {},
  characterStyle?: string,
  tableStyle?: string,
): RunProperties {
  return { ...cascade.runProperties(tableStyle, paragraphStyle, characterStyle, undefined), ...overrides };
}

export function paragraphPropsOf(styleId: string, overrides: Partial<ParagraphProperties> = {}): ParagraphProperties {
  return {
    ...cascade.paragraphProperties(cascade.paragraphBase({ styleId, tableStyleId: undefined }), undefined),
    ...overrides,
  };
}

export function text(
  value: string,
  style: string,
  overrides: Partial<RunProperties> = {},
  characterStyle?: string,
): TextInline {
  const inline: TextInline = { kind: 'text', text: value, props: runOf(style, overrides, characterStyle) };
  if (characterStyle) inline.styleId = characterStyle;
  return inline;
}

export function para(styleId: string, inlines: Inline[], overrides: Partial<ParagraphProperties> = {}): Paragraph {
  return { kind: 'paragraph', props: paragraphPropsOf(styleId, overrides), markProps: runOf(styleId), inlines };
}

const line = (color = '000000'): Border => ({ style: 'single', width: 0.5, space: 0, color });

function cell(content: string, extra: Partial<TableCell> = {}): TableCell {
  const props = {
    ...cascade.paragraphProperties(cascade.paragraphBase({ styleId: 'TableText', tableStyleId: 'Table' }), undefined),
  };
  const blocks: Block[] = [
    {
      kind: 'paragraph',
      props,
      markProps: runOf('TableText', {}, undefined, 'Table'),
      inlines:
        content === '' ? [] : [{ kind: 'text', text: content, props: runOf('TableText', {}, undefined, 'Table') }],
    },
  ];
  return { blocks, span: 1, width: 100, ...extra };
}

export function sampleTable(): Table {
  const borders = {
    top: line(),
    left: line(),
    bottom: line(),
    right: line(),
    insideH: line('808080'),
    insideV: line('808080'),
  };
  return {
    kind: 'table',
    styleId: 'Table',
    grid: [100, 100, 150],
    indent: 0,
    width: { type: 'pct', value: 1 },
    layout: 'fixed',
    align: 'center',
    cellMargins: { top: 1.45, left: 4.3, bottom: 1.45, right: 4.3 },
    borders,
    rows: [
      {
        isHeader: true,
        cantSplit: true,
        cells: [
          cell('Name', { shading: 'D9D9D9' }),
          cell('Kind', { shading: 'D9D9D9' }),
          cell('Notes', { width: 150, shading: 'D9D9D9' }),
        ],
      },
      {
        isHeader: false,
        cantSplit: false,
        height: { value: 30, rule: 'atLeast' },
        cells: [
          cell('Merged across and down', { span: 2, width: 200, verticalMerge: 'restart' }),
          cell('Right', { width: 150, verticalAlign: 'center' }),
        ],
      },
      {
        isHeader: false,
        cantSplit: false,
        cells: [
          cell('', { span: 2, width: 200, verticalMerge: 'continue' }),
          cell('Bottom', {
            width: 150,
            borders: { bottom: { style: 'double', width: 1.5, space: 0, color: '0000FF' } },
          }),
        ],
      },
    ],
  };
}

/** 2×2 pixels, one half transparent: a decoded image the writer must encode as PNG. */
function pixels() {
  return {
    format: 'pixels' as const,
    pixelWidth: 2,
    pixelHeight: 2,
    rgb: Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]),
    alpha: Uint8Array.from([255, 128, 255, 0]),
  };
}

export function richModel(): DocumentModel {
  const N = 'Normal';
  const item = (value: string, listId: string, level: number, indent: number): Paragraph => ({
    ...para('ListParagraph', [text(value, 'ListParagraph')], { indent: { left: indent, right: 0, firstLine: -18 } }),
    list: { listId, level },
  });
  const heavy = para(N, [text('Heavily formatted paragraph', N)], {
    align: 'center',
    indent: { left: 18, right: 9, firstLine: 9 },
    spacing: { before: 6, after: 3, line: 1.5, lineRule: 'auto' },
    keepNext: true,
    keepLines: true,
    contextualSpacing: true,
    borders: { top: line('FF0000'), bottom: { style: 'double', width: 0.75, space: 1, color: '00FF00' } },
    shading: 'EEEEEE',
    tabs: [{ position: 144, align: 'right', leader: 'dot' }],
    outlineLevel: 2,
    widowControl: false,
  });
  const link = { url: 'https://example.com/?a=1&b=<2>' };
  const body: Block[] = [
    para('Title', [text('Quire & <Writer>', 'Title')]),
    para('Heading1', [
      { kind: 'bookmark', name: 'intro' },
      text('Introduction', 'Heading1'),
      text(' not bold', 'Heading1', { bold: false }),
    ]),
    para(N, [
      text('Plain ', N),
      text('bold ', N, { bold: true }),
      text('styled ', N, { italic: true, underline: 'single', color: 'FF0000', size: 14 }),
      text('code()', N, {}, 'VerbatimChar'),
      text(' ', N),
      { ...text('a link', N, {}, 'Hyperlink'), link },
      { ...text(' in bold', N, { bold: true }, 'Hyperlink'), link },
      { kind: 'tab', props: runOf(N) },
      text('line one\nline two', N, { highlight: 'FFFF00' }),
      text(' struck', N, { strike: true, smallCaps: true }),
      text('sup', N, { verticalAlign: 'superscript', characterSpacing: 1, position: 2 }),
      text(' Ωmega ☃', N, { font: 'Courier New', fontComplex: 'Courier New' }),
    ]),
    heavy,
    para('Quote', [text('A quote without its border', 'Quote')], { borders: {} }),
    item('First', 'ol', 0, 36),
    item('Second', 'ol', 0, 36),
    item('Nested bullet', 'ol', 1, 72),
    item('Bullet item', 'ul', 0, 36),
    para(N, [
      text('Footnoted', N),
      {
        kind: 'noteReference',
        note: 'footnote',
        id: 'n1',
        mark: '1',
        styleId: 'FootnoteReference',
        props: runOf(N, {}, 'FootnoteReference'),
      },
      text(' and ', N),
      { ...text('back to the introduction', N, {}, 'Hyperlink'), link: { anchor: 'intro' } },
    ]),
    para(N, [
      { kind: 'image', imageId: 'png', width: 36, height: 18, description: 'A red "box" & more', props: runOf(N) },
      { kind: 'image', imageId: 'pixels', width: 20, height: 20, props: runOf(N) },
      { kind: 'image', imageId: 'png', width: 18, height: 9, props: runOf(N) },
    ]),
    sampleTable(),
    para(N, [text('Page ', N), { kind: 'field', field: 'PAGE', cached: '1', props: runOf(N) }]),
  ];
  const second = section(
    [para('Heading2', [text('Second section', 'Heading2')]), para(N, [text('In two columns.', N)])],
    {
      start: 'continuous',
      page: {
        width: 792,
        height: 612,
        margins: { top: 54, right: 54, bottom: 54, left: 54, header: 27, footer: 27, gutter: 0 },
      },
      columns: { count: 2, space: 18, separator: true },
      pageNumbering: { format: 'lowerRoman', start: 3 },
    },
  );
  return {
    properties: { title: 'Rich & <sample>', author: 'Ada', created: '2026-01-02T03:04:05Z' },
    settings: { defaultTabStop: 36, evenAndOddHeaders: false },
    sections: [section(body), second],
    images: {
      png: { format: 'png', bytes: tinyPng(4, 2), pixelWidth: 4, pixelHeight: 2 },
      pixels: pixels(),
    },
    embeddedFonts: [],
    notes: {
      footnotes: {
        n1: [
          para('FootnoteText', [
            text('1', 'FootnoteText', {}, 'FootnoteReference'),
            text(' The note text.', 'FootnoteText'),
          ]),
        ],
      },
      endnotes: {},
    },
    warnings: [],
    lists: {
      ol: {
        levels: [
          { format: 'decimal', text: '%1.', start: 1, indent: 36, hanging: 18 },
          { format: 'lowerLetter', text: '%2)', start: 1, indent: 72, hanging: 18 },
        ],
      },
      ul: { levels: [{ format: 'bullet', text: '•', start: 1, indent: 36, hanging: 18, font: 'Arial' }] },
    },
  };
}
