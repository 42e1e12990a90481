import { describe, expect, it } from 'vitest';
import { paragraph } from '../../../helpers/docx-fixture';
import { paragraphs, readParts, textInline } from './model-queries';

const DEFAULTS = `<w:docDefaults>
  <w:rPrDefault><w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi" w:eastAsia="MS Mincho" w:cs="Arial"/><w:sz w:val="22"/></w:rPr></w:rPrDefault>
  <w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="259" w:lineRule="auto"/></w:pPr></w:pPrDefault>
</w:docDefaults>`;

const STYLES = `${DEFAULTS}
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Base"><w:basedOn w:val="Normal"/>
  <w:pPr><w:jc w:val="center"/><w:ind w:left="720" w:hanging="360"/></w:pPr>
  <w:rPr><w:b/><w:color w:val="FF0000"/><w:sz w:val="28"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Derived"><w:basedOn w:val="Base"/>
  <w:pPr><w:spacing w:before="240"/></w:pPr>
  <w:rPr><w:i/><w:color w:val="00FF00"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:basedOn w:val="Normal"/>
  <w:pPr><w:keepNext/><w:outlineLvl w:val="0"/></w:pPr>
  <w:rPr><w:rFonts w:asciiTheme="majorHAnsi" w:hAnsiTheme="majorHAnsi"/><w:b/><w:sz w:val="32"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Strong"><w:rPr><w:b/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Emphasis"><w:rPr><w:i/><w:u w:val="single"/></w:rPr></w:style>
<w:style w:type="character" w:styleId="Big"><w:rPr><w:sz w:val="48"/></w:rPr></w:style>`;

function read(body: string) {
  return readParts({
    document: `<w:body>${body}</w:body>`,
    styles: STYLES,
    theme: { majorFont: 'Cambria', minorFont: 'Calibri' },
  });
}

describe('the style cascade', () => {
  it('starts from docDefaults, with theme fonts resolved', () => {
    const model = read(paragraph('plain'));
    const run = textInline(model, 'plain').props;
    expect(run.font).toBe('Calibri');
    expect(run.fontEastAsia).toBe('MS Mincho');
    expect(run.fontComplex).toBe('Arial');
    expect(run.size).toBe(11);
    expect(run.bold).toBe(false);
    const [first] = paragraphs(model);
    expect(first?.props.styleId).toBe('Normal');
    expect(first?.props.spacing).toEqual({ before: 0, after: 8, line: 259 / 240, lineRule: 'auto' });
  });

  it('resolves major theme fonts and outline levels of headings', () => {
    const model = read(paragraph('Title', { pPr: '<w:pStyle w:val="Heading1"/>' }));
    const run = textInline(model, 'Title').props;
    expect(run.font).toBe('Cambria');
    expect(run.size).toBe(16);
    expect(run.bold).toBe(true);
    const [heading] = paragraphs(model);
    expect(heading?.props.outlineLevel).toBe(0);
    expect(heading?.props.keepNext).toBe(true);
  });

  it('gives built-in heading styles their outline level even without w:outlineLvl', () => {
    const styles = `${STYLES}<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="MyHeading"><w:name w:val="My heading"/><w:basedOn w:val="Heading2"/></w:style>`;
    const model = readParts({
      document: `<w:body>${paragraph('h2', { pPr: '<w:pStyle w:val="Heading2"/>' })}${paragraph('mine', { pPr: '<w:pStyle w:val="MyHeading"/>' })}${paragraph('body')}</w:body>`,
      styles,
    });
    expect(paragraphs(model).map((p) => p.props.outlineLevel)).toEqual([1, 1, undefined]);
  });

  it('follows the basedOn chain, the derived style winning', () => {
    const model = read(paragraph('derived', { pPr: '<w:pStyle w:val="Derived"/>' }));
    const run = textInline(model, 'derived').props;
    expect(run.color).toBe('00FF00');
    expect(run.size).toBe(14);
    expect(run.bold).toBe(true);
    expect(run.italic).toBe(true);
    const [p] = paragraphs(model);
    expect(p?.props.align).toBe('center');
    expect(p?.props.indent).toEqual({ left: 36, right: 0, firstLine: -18 });
    expect(p?.props.spacing.before).toBe(12);
    expect(p?.props.spacing.after).toBe(8);
  });

  it('lets direct formatting override every style', () => {
    const model = read(
      paragraph('direct', {
        pPr: '<w:pStyle w:val="Derived"/><w:jc w:val="right"/><w:ind w:firstLine="144"/>',
        rPr: '<w:color w:val="0000FF"/><w:sz w:val="20"/><w:i w:val="0"/>',
      }),
    );
    const run = textInline(model, 'direct').props;
    expect(run.color).toBe('0000FF');
    expect(run.size).toBe(10);
    expect(run.italic).toBe(false);
    const [p] = paragraphs(model);
    expect(p?.props.align).toBe('right');
    // A first-line indent at a higher level replaces the style's hanging indent.
    expect(p?.props.indent).toEqual({ left: 36, right: 0, firstLine: 7.2 });
  });

  it('applies a character style over the paragraph style', () => {
    const model = read(
      '<w:p><w:pPr><w:pStyle w:val="Derived"/></w:pPr><w:r><w:rPr><w:rStyle w:val="Big"/></w:rPr><w:t>big</w:t></w:r></w:p>',
    );
    const run = textInline(model, 'big').props;
    expect(run.size).toBe(24);
    expect(run.color).toBe('00FF00');
  });

  describe('toggle properties (§17.7.3)', () => {
    it('XOR between style levels: a bold character style in a bold paragraph style is not bold', () => {
      const model = read(
        '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:rPr><w:rStyle w:val="Strong"/></w:rPr><w:t>strong</w:t></w:r></w:p>',
      );
      expect(textInline(model, 'strong').props.bold).toBe(false);
    });

    it('XOR of italic: an italic character style in an italic paragraph style is upright', () => {
      const model = read(
        '<w:p><w:pPr><w:pStyle w:val="Derived"/></w:pPr><w:r><w:rPr><w:rStyle w:val="Emphasis"/></w:rPr><w:t>em</w:t></w:r></w:p>',
      );
      const run = textInline(model, 'em').props;
      expect(run.italic).toBe(false);
      expect(run.underline).toBe('single');
    });

    it('direct formatting is absolute: bold style + direct bold stays bold, direct off turns it off', () => {
      const model = read(
        `${paragraph('on', { pPr: '<w:pStyle w:val="Heading1"/>', rPr: '<w:b/>' })}${paragraph('off', {
          pPr: '<w:pStyle w:val="Heading1"/>',
          rPr: '<w:b w:val="0"/>',
        })}`,
      );
      expect(textInline(model, 'on').props.bold).toBe(true);
      expect(textInline(model, 'off').props.bold).toBe(false);
    });

    it('within one basedOn chain the nearest value wins (no toggling inside a chain)', () => {
      const styles = `${STYLES}<w:style w:type="paragraph" w:styleId="BoldAgain"><w:basedOn w:val="Base"/><w:rPr><w:b/></w:rPr></w:style>`;
      const model = readParts({
        document: `<w:body>${paragraph('again', { pPr: '<w:pStyle w:val="BoldAgain"/>' })}</w:body>`,
        styles,
      });
      expect(textInline(model, 'again').props.bold).toBe(true);
    });
  });

  it('reads run properties: underline styles and colour, strike, caps, highlight, shading, position', () => {
    const model = read(
      paragraph('decorated', {
        rPr: '<w:u w:val="dashLongHeavy" w:color="112233"/><w:dstrike/><w:smallCaps/><w:highlight w:val="yellow"/><w:shd w:val="clear" w:color="auto" w:fill="DDEEFF"/><w:vertAlign w:val="superscript"/><w:spacing w:val="40"/><w:position w:val="-6"/><w:color w:val="auto"/>',
      }),
    );
    const run = textInline(model, 'decorated').props;
    expect(run).toMatchObject({
      underline: 'dash',
      underlineColor: '112233',
      doubleStrike: true,
      smallCaps: true,
      highlight: 'FFFF00',
      shading: 'DDEEFF',
      verticalAlign: 'superscript',
      characterSpacing: 2,
      position: -3,
    });
    expect(run.color).toBeUndefined();
  });

  it('reads paragraph properties: tabs with leaders and clear, borders, shading, keep and widow flags', () => {
    const styles = `${STYLES}<w:style w:type="paragraph" w:styleId="Tabbed"><w:pPr><w:tabs><w:tab w:val="left" w:pos="1440"/><w:tab w:val="center" w:pos="4320"/></w:tabs><w:widowControl w:val="0"/></w:pPr></w:style>`;
    const model = readParts({
      document: `<w:body>${paragraph('tabs', {
        pPr: '<w:pStyle w:val="Tabbed"/><w:tabs><w:tab w:val="clear" w:pos="1440"/><w:tab w:val="right" w:leader="dot" w:pos="9000"/><w:tab w:val="decimal" w:pos="2880"/></w:tabs><w:pBdr><w:top w:val="single" w:sz="8" w:space="4" w:color="FF0000"/><w:bottom w:val="none"/></w:pBdr><w:shd w:val="clear" w:fill="EEEEEE"/><w:keepLines/><w:pageBreakBefore/><w:contextualSpacing/><w:spacing w:before="100" w:beforeAutospacing="1" w:line="360" w:lineRule="exact"/>',
      })}${paragraph('widows')}</w:body>`,
      styles,
    });
    const [tabbed, normal] = paragraphs(model);
    expect(tabbed?.props.tabs).toEqual([
      { position: 144, align: 'decimal', leader: 'none' },
      { position: 216, align: 'center', leader: 'none' },
      { position: 450, align: 'right', leader: 'dot' },
    ]);
    expect(tabbed?.props.borders).toEqual({ top: { style: 'single', width: 1, space: 4, color: 'FF0000' } });
    expect(tabbed?.props.shading).toBe('EEEEEE');
    expect(tabbed?.props).toMatchObject({
      keepLines: true,
      pageBreakBefore: true,
      contextualSpacing: true,
      widowControl: false,
    });
    expect(tabbed?.props.spacing).toEqual({ before: 14, after: 8, line: 18, lineRule: 'exact', beforeAuto: true });
    // Nothing sets widow control: on, as in Word.
    expect(normal?.props.widowControl).toBe(true);
  });

  it('reads a text frame (w:framePr, §17.3.1.11) from the paragraph or its style, in points', () => {
    const styles = `${STYLES}<w:style w:type="paragraph" w:styleId="Framed"><w:basedOn w:val="Normal"/><w:pPr><w:framePr w:w="2880" w:h="720" w:hSpace="180" w:wrap="around" w:vAnchor="page" w:hAnchor="margin" w:x="1440" w:yAlign="bottom"/></w:pPr></w:style>`;
    const model = readParts({
      document: `<w:body>${paragraph('page number', {
        pPr: '<w:framePr w:wrap="around" w:vAnchor="text" w:hAnchor="margin" w:xAlign="right" w:y="1"/>',
      })}${paragraph('styled', { pPr: '<w:pStyle w:val="Framed"/>' })}${paragraph('drop', {
        pPr: '<w:framePr w:dropCap="drop" w:lines="3" w:wrap="around" w:vAnchor="text" w:hAnchor="text"/>',
      })}${paragraph('plain')}</w:body>`,
      styles,
    });
    const [number, styled, drop, plain] = paragraphs(model);
    expect(number?.props.frame).toEqual({
      heightRule: 'auto',
      x: { from: 'margin', offset: 0, align: 'right' },
      y: { from: 'text', offset: 0.05 },
      wrap: 'around',
      distance: { horizontal: 0, vertical: 0 },
    });
    expect(styled?.props.frame).toEqual({
      width: 144,
      height: 36,
      heightRule: 'atLeast',
      x: { from: 'margin', offset: 72 },
      y: { from: 'page', offset: 0, align: 'bottom' },
      wrap: 'around',
      distance: { horizontal: 9, vertical: 0 },
    });
    expect(drop?.props.frame?.dropCap).toEqual({ kind: 'drop', lines: 3 });
    expect(plain?.props.frame).toBeUndefined();
  });

  it('gives an empty paragraph the size of its mark', () => {
    const model = read('<w:p><w:pPr><w:rPr><w:sz w:val="40"/></w:rPr></w:pPr></w:p>');
    const [empty] = paragraphs(model);
    expect(empty?.inlines).toEqual([]);
    expect(empty?.markProps.size).toBe(20);
    expect(empty?.markProps.font).toBe('Calibri');
  });

  it('uses Word’s defaults without a styles part, and says so', () => {
    const model = readParts({ document: `<w:body>${paragraph('bare')}</w:body>` });
    const run = textInline(model, 'bare').props;
    expect(run.font).toBe('Times New Roman');
    expect(run.size).toBe(10);
    expect(model.warnings.join(' ')).toMatch(/no readable styles part/);
  });
});
