import { describe, expect, it } from 'vitest';
import type { Block } from '../../../../src/engine/model/document';
import { paragraph } from '../../../helpers/docx-fixture';
import { collect, readParts, textOf } from './model-queries';

const LETTER =
  '<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>';
const A4_LANDSCAPE =
  '<w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:pgMar w:top="1134" w:right="850" w:bottom="-1134" w:left="850" w:header="567" w:footer="567" w:gutter="283"/>';

function blockText(blocks: Block[] | undefined): string {
  return collect(blocks ?? [])
    .map(textOf)
    .join('|');
}

describe('sections', () => {
  it('splits the body at paragraphs holding a sectPr, the body sectPr describing the last section', () => {
    const model = readParts({
      document: `<w:body>${paragraph('portrait one')}<w:p><w:pPr><w:sectPr>${LETTER}<w:cols w:space="720"/></w:sectPr></w:pPr><w:r><w:t>portrait end</w:t></w:r></w:p>${paragraph('landscape')}<w:sectPr><w:type w:val="continuous"/>${A4_LANDSCAPE}<w:cols w:num="2" w:space="425" w:sep="1"/><w:titlePg/><w:pgNumType w:start="5" w:fmt="lowerRoman"/></w:sectPr></w:body>`,
    });
    expect(model.sections).toHaveLength(2);
    const [first, second] = model.sections;
    expect(blockText(first?.blocks)).toBe('portrait one|portrait end');
    expect(blockText(second?.blocks)).toBe('landscape');
    expect(first?.page).toEqual({
      width: 612,
      height: 792,
      margins: { top: 72, right: 72, bottom: 72, left: 72, header: 36, footer: 36, gutter: 0 },
    });
    expect(first?.start).toBe('nextPage');
    expect(first?.titlePage).toBe(false);
    expect(first?.columns).toEqual({ count: 1, space: 36, separator: false });
    expect(second?.start).toBe('continuous');
    expect(second?.page.width).toBeCloseTo(841.9, 1);
    expect(second?.page.height).toBeCloseTo(595.3, 1);
    // A negative bottom margin is a fixed margin of that size.
    expect(second?.page.margins).toMatchObject({ top: 56.7, bottom: 56.7, gutter: 14.15 });
    expect(second?.columns).toEqual({ count: 2, space: 21.25, separator: true });
    expect(second?.titlePage).toBe(true);
    expect(second?.pageNumbering).toEqual({ start: 5, format: 'lowerRoman' });
  });

  it('swaps the sides of a landscape page written with portrait sizes', () => {
    const model = readParts({
      document: `<w:body>${paragraph('x')}<w:sectPr><w:pgSz w:w="12240" w:h="15840" w:orient="landscape"/></w:sectPr></w:body>`,
    });
    expect(model.sections[0]?.page).toMatchObject({ width: 792, height: 612 });
  });

  it('marks a tbRl section vertical, and only that one', () => {
    const model = readParts({
      document: `<w:body><w:p><w:pPr><w:sectPr>${LETTER}<w:textDirection w:val="tbRl"/></w:sectPr></w:pPr></w:p>${paragraph('x')}<w:sectPr>${LETTER}<w:textDirection w:val="lrTb"/></w:sectPr></w:body>`,
    });
    expect(model.sections.map((s) => s.page.vertical)).toEqual([true, undefined]);
  });

  it('reads the line pitch of a document grid that governs lines, and a paragraph turning it and autospace off', () => {
    const model = readParts({
      document: `<w:body><w:p><w:pPr><w:sectPr>${LETTER}<w:docGrid w:type="lines" w:linePitch="312"/></w:sectPr></w:pPr></w:p><w:p><w:pPr><w:snapToGrid w:val="0"/><w:autoSpaceDE w:val="0"/><w:autoSpaceDN w:val="0"/></w:pPr><w:r><w:t>off</w:t></w:r></w:p><w:sectPr>${LETTER}<w:docGrid w:linePitch="286" w:charSpace="53982"/></w:sectPr></w:body>`,
    });
    // Type default (here: absent) has no grid, whatever linePitch Word wrote (§17.6.5).
    expect(model.sections.map((s) => s.page.lineGrid)).toEqual([15.6, undefined]);
    const [first, second] = model.sections.map((s) => s.blocks[0]);
    expect(first?.kind === 'paragraph' && first.props.snapToGrid).toBeUndefined();
    expect(second?.kind === 'paragraph' && second.props).toMatchObject({
      snapToGrid: false,
      autoSpaceLatin: false,
      autoSpaceDigits: false,
    });
  });

  it('reads unequal columns', () => {
    const model = readParts({
      document: `<w:body>${paragraph('x')}<w:sectPr>${LETTER}<w:cols w:num="2" w:equalWidth="0"><w:col w:w="2880" w:space="720"/><w:col w:w="5760"/></w:cols></w:sectPr></w:body>`,
    });
    expect(model.sections[0]?.columns).toEqual({
      count: 2,
      space: 36,
      separator: false,
      widths: [
        { width: 144, space: 36 },
        { width: 288, space: 0 },
      ],
    });
  });

  it('resolves headers and footers per slot, inheriting undefined slots from the previous section', () => {
    const model = readParts({
      document: `<w:body>${paragraph('one')}<w:p><w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rIdH1"/><w:headerReference w:type="first" r:id="rIdH2"/><w:footerReference w:type="default" r:id="rIdF1"/><w:titlePg/>${LETTER}</w:sectPr></w:pPr></w:p>${paragraph('two')}<w:p><w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rIdH3"/><w:headerReference w:type="even" r:id="rIdH4"/>${LETTER}</w:sectPr></w:pPr></w:p>${paragraph('three')}<w:sectPr>${LETTER}</w:sectPr></w:body>`,
      headers: {
        rIdH1: paragraph('Default header'),
        rIdH2: paragraph('First page header'),
        rIdH3: paragraph('Second default header'),
        rIdH4: paragraph('Even header'),
      },
      footers: { rIdF1: paragraph('Footer') },
      settings: '<w:evenAndOddHeaders/><w:defaultTabStop w:val="709"/>',
    });
    const [one, two, three] = model.sections;
    expect(blockText(one?.headers.default)).toBe('Default header');
    expect(blockText(one?.headers.first)).toBe('First page header');
    expect(one?.headers.even).toBeUndefined();
    expect(one?.titlePage).toBe(true);
    expect(blockText(two?.headers.default)).toBe('Second default header');
    expect(blockText(two?.headers.first)).toBe('First page header');
    expect(blockText(two?.headers.even)).toBe('Even header');
    expect(blockText(two?.footers.default)).toBe('Footer');
    // The third section defines nothing: everything is inherited, the very same blocks.
    expect(three?.headers).toEqual(two?.headers);
    expect(three?.headers.default).toBe(two?.headers.default);
    expect(model.settings).toEqual({ defaultTabStop: 35.45, evenAndOddHeaders: true });
  });

  it.each([
    ['15', true],
    ['16', true],
    ['14', undefined],
    ['12', undefined],
  ])('reads compatibilityMode %s: Word 2013 justification is %s', (mode, shrinking) => {
    const model = readParts({
      document: `<w:body>${paragraph('one')}<w:sectPr>${LETTER}</w:sectPr></w:body>`,
      settings: `<w:compat><w:compatSetting w:name="overrideTableStyleFontSizeAndJustification" w:uri="http://schemas.microsoft.com/office/word" w:val="1"/><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="${mode}"/></w:compat>`,
    });
    expect(model.settings.justifyByShrinking).toBe(shrinking);
  });

  it('lays a document without a compatibility mode out as Word 2007 would: no shrinking', () => {
    const model = readParts({
      document: `<w:body>${paragraph('one')}<w:sectPr>${LETTER}</w:sectPr></w:body>`,
      settings: '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="urn:other" w:val="15"/></w:compat>',
    });
    expect(model.settings.justifyByShrinking).toBeUndefined();
  });

  it('leaves a slot empty, with a warning, when its header part is missing', () => {
    const model = readParts({
      document: `<w:body>${paragraph('x')}<w:sectPr><w:headerReference w:type="default" r:id="rIdNowhere"/><w:footerReference w:type="default" r:id="rIdGone"/>${LETTER}</w:sectPr></w:body>`,
      relationships: [{ id: 'rIdGone', type: 'footer', target: 'footer9.xml' }],
    });
    expect(model.sections[0]?.headers).toEqual({});
    expect(model.sections[0]?.footers).toEqual({});
    expect(model.warnings.join(' ')).toMatch(/rIdNowhere/);
    expect(model.warnings.join(' ')).toMatch(/footer9\.xml is missing/);
  });

  it('uses Letter with 1-inch margins when a document has no sectPr', () => {
    const model = readParts({ document: `<w:body>${paragraph('x')}</w:body>` });
    expect(model.sections).toHaveLength(1);
    expect(model.sections[0]?.page.width).toBe(612);
    expect(model.sections[0]?.page.margins.left).toBe(72);
  });
});
