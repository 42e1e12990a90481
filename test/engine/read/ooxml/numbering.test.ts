import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../../../src/engine/text/number-format';
import { paragraph } from '../../../helpers/docx-fixture';
import { paragraphs, readParts, textOf } from './model-queries';

function level(ilvl: number, format: string, text: string, extra = ''): string {
  return `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${720 * (ilvl + 1)}" w:hanging="360"/></w:pPr>${extra}</w:lvl>`;
}

function item(text: string, numId: number, ilvl = 0, pPr = ''): string {
  return paragraph(text, { pPr: `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>${pPr}` });
}

function labels(body: string, numbering: string, styles?: string) {
  const model = readParts({ document: `<w:body>${body}</w:body>`, numbering, ...(styles ? { styles } : {}) });
  return paragraphs(model).map((p) => p.label?.text ?? '');
}

describe('numbering', () => {
  it('numbers a decimal list 1, 2, 3 with the level indents and a tab after the label', () => {
    const numbering = `<w:abstractNum w:abstractNumId="0">${level(0, 'decimal', '%1.')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`;
    const model = readParts({ document: `<w:body>${item('a', 1)}${item('b', 1)}${item('c', 1)}</w:body>`, numbering });
    const list = paragraphs(model);
    expect(list.map((p) => p.label?.text)).toEqual(['1.', '2.', '3.']);
    expect(list[0]?.label?.suffix).toBe('tab');
    expect(list[0]?.props.indent).toEqual({ left: 36, right: 0, firstLine: -18 });
  });

  it('numbers nested levels "%1.%2." with each level in its own format, restarting the inner level', () => {
    const numbering = `<w:abstractNum w:abstractNumId="0">${level(0, 'upperRoman', '%1.')}${level(1, 'decimal', '%1.%2.')}${level(2, 'lowerLetter', '%3)')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`;
    expect(
      labels(
        `${item('one', 1)}${item('one.one', 1, 1)}${item('one.two', 1, 1)}${item('deep', 1, 2)}${item('two', 1)}${item('two.one', 1, 1)}${item('deep again', 1, 2)}`,
        numbering,
      ),
    ).toEqual(['I.', 'I.1.', 'I.2.', 'a)', 'II.', 'II.1.', 'a)']);
  });

  it('isLgl shows every referenced level in decimal', () => {
    const numbering = `<w:abstractNum w:abstractNumId="0">${level(0, 'upperRoman', '%1.')}${level(1, 'decimal', '%1.%2', '<w:isLgl/>')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`;
    expect(labels(`${item('a', 1)}${item('b', 1)}${item('c', 1, 1)}`, numbering)).toEqual(['I.', 'II.', '2.1']);
  });

  it('honours lvlRestart="0": the inner level never restarts', () => {
    const numbering = `<w:abstractNum w:abstractNumId="0">${level(0, 'decimal', '%1.')}${level(1, 'decimal', '(%2)', '<w:lvlRestart w:val="0"/>')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`;
    expect(labels(`${item('a', 1)}${item('b', 1, 1)}${item('c', 1)}${item('d', 1, 1)}`, numbering)).toEqual([
      '1.',
      '(1)',
      '2.',
      '(2)',
    ]);
  });

  it('formats lowerRoman, upperLetter, ordinal and decimalZero', () => {
    const formats = ['lowerRoman', 'upperLetter', 'ordinal', 'decimalZero'];
    const numbering = formats
      .map(
        (format, index) =>
          `<w:abstractNum w:abstractNumId="${index}">${level(0, format, '%1')}</w:abstractNum><w:num w:numId="${index + 1}"><w:abstractNumId w:val="${index}"/></w:num>`,
      )
      .join('');
    const body = formats
      .map((_, index) => `${item('x', index + 1)}${item('y', index + 1)}${item('z', index + 1)}`)
      .join('');
    expect(labels(body, numbering)).toEqual(['i', 'ii', 'iii', 'A', 'B', 'C', '1st', '2nd', '3rd', '01', '02', '03']);
    expect([27, 28, 52, 53].map((value) => formatNumber(value, 'upperLetter'))).toEqual(['AA', 'BB', 'ZZ', 'AAA']);
    expect([4, 9, 14, 1994].map((value) => formatNumber(value, 'upperRoman'))).toEqual(['IV', 'IX', 'XIV', 'MCMXCIV']);
    expect([11, 12, 13, 21, 102].map((value) => formatNumber(value, 'ordinal'))).toEqual([
      '11th',
      '12th',
      '13th',
      '21st',
      '102nd',
    ]);
    expect([9, 10, 123].map((value) => formatNumber(value, 'decimalZero'))).toEqual(['09', '10', '123']);
  });

  it('formats the right-to-left number formats: Arabic letters (alphabetical and abjad), Hebrew, Hindi digits', () => {
    const zwnj = '\u200c';
    // Word writes an Arabic letter number after a zero-width non-joiner (its cached PAGE results).
    expect([1, 2, 3, 28].map((value) => formatNumber(value, 'arabicAlpha'))).toEqual(
      ['أ', 'ب', 'ت', 'ي'].map((letter) => zwnj + letter),
    );
    expect([1, 2, 3, 4, 29].map((value) => formatNumber(value, 'arabicAbjad'))).toEqual(
      ['أ', 'ب', 'ج', 'د', 'أأ'].map((letter) => zwnj + letter),
    );
    expect([1, 10, 11, 15, 16, 99, 100, 500].map((value) => formatNumber(value, 'hebrew1'))).toEqual([
      'א',
      'י',
      'יא',
      'טו',
      'טז',
      'צט',
      'ק',
      'תק',
    ]);
    expect([1, 22, 23].map((value) => formatNumber(value, 'hebrew2'))).toEqual(['א', 'ת', 'אא']);
    expect(formatNumber(205, 'hindiNumbers')).toBe('٢٠٥');
  });

  it('maps symbol-font bullets to Unicode and draws them in the paragraph face; Courier New "o" stays', () => {
    const bullet = (ilvl: number, char: string, font: string) =>
      `<w:lvl w:ilvl="${ilvl}"><w:numFmt w:val="bullet"/><w:lvlText w:val="${char}"/><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}" w:hint="default"/></w:rPr></w:lvl>`;
    const numbering = `<w:abstractNum w:abstractNumId="0">${bullet(0, '\uf0b7', 'Symbol')}${bullet(1, 'o', 'Courier New')}${bullet(2, '\uf0a7', 'Wingdings')}${bullet(3, '\uf0d8', 'Wingdings')}${bullet(4, '\uf0fc', 'Wingdings')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`;
    const model = readParts({
      document: `<w:body>${[0, 1, 2, 3, 4].map((ilvl) => item('x', 1, ilvl)).join('')}</w:body>`,
      numbering,
      styles:
        '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/></w:rPr></w:rPrDefault></w:docDefaults>',
    });
    const list = paragraphs(model);
    expect(list.map((p) => p.label?.text)).toEqual(['•', 'o', '▪', '➢', '✓']);
    expect(list[0]?.label?.props.font).toBe('Arial');
    expect(list[1]?.label?.props.font).toBe('Courier New');
    // The symbol font is kept for the line height (Word measures the line with it).
    expect(list.map((p) => p.label?.metricsFont)).toEqual(['Symbol', undefined, 'Wingdings', 'Wingdings', 'Wingdings']);
  });

  it('restarts at a w:num startOverride and otherwise continues across instances of one abstract list', () => {
    const numbering = `<w:abstractNum w:abstractNumId="0">${level(0, 'decimal', '%1.')}</w:abstractNum>
      <w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
      <w:num w:numId="2"><w:abstractNumId w:val="0"/></w:num>
      <w:num w:numId="3"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="10"/></w:lvlOverride></w:num>`;
    expect(
      labels(`${item('a', 1)}${item('b', 1)}${item('c', 2)}${item('d', 3)}${item('e', 3)}${item('f', 1)}`, numbering),
    ).toEqual(['1.', '2.', '3.', '10.', '11.', '12.']);
  });

  it('uses a w:start other than 1, suffixes, none and a paragraph style carrying the numbering', () => {
    const numbering = `<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="5"/><w:numFmt w:val="decimal"/><w:lvlText w:val="Article %1"/><w:suff w:val="space"/><w:pStyle w:val="ListHeading"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="none"/><w:lvlText w:val=""/><w:suff w:val="nothing"/></w:lvl></w:abstractNum><w:num w:numId="7"><w:abstractNumId w:val="0"/></w:num>`;
    const styles = `<w:style w:type="paragraph" w:styleId="ListHeading"><w:pPr><w:numPr><w:numId w:val="7"/></w:numPr><w:ind w:left="0" w:firstLine="0"/></w:pPr></w:style>`;
    const model = readParts({
      document: `<w:body>${paragraph('first', { pPr: '<w:pStyle w:val="ListHeading"/>' })}${paragraph('second', { pPr: '<w:pStyle w:val="ListHeading"/>' })}${item('none', 7, 1)}${paragraph('off', { pPr: '<w:pStyle w:val="ListHeading"/><w:numPr><w:numId w:val="0"/></w:numPr>' })}</w:body>`,
      numbering,
      styles,
    });
    const list = paragraphs(model);
    expect(list.map((p) => p.label?.text)).toEqual(['Article 5', 'Article 6', '', undefined]);
    expect(list[0]?.label?.suffix).toBe('space');
    expect(list[2]?.label?.suffix).toBe('nothing');
    expect(textOf(list[3] as never)).toBe('off');
  });

  it('merges the level run properties into the label and keeps the paragraph text unaffected', () => {
    const numbering = `<w:abstractNum w:abstractNumId="0">${level(0, 'decimal', '%1.', '<w:rPr><w:b/><w:color w:val="C00000"/></w:rPr>')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`;
    const model = readParts({ document: `<w:body>${item('text', 1)}</w:body>`, numbering });
    const [p] = paragraphs(model);
    expect(p?.label?.props).toMatchObject({ bold: true, color: 'C00000' });
    expect(p?.inlines[0]?.kind === 'text' && p.inlines[0].props.bold).toBe(false);
  });
});
