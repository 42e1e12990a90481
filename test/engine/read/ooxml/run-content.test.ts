// Every run-content element of ECMA-376 Part 1 §17.3.3 either gives its text or is invisible by
// the spec's own account; what cannot be shown is said in a warning, never dropped silently.
import { describe, expect, it } from 'vitest';
import type { Paragraph } from '../../../../src/engine/model/document';
import { noteSeparators } from '../../../helpers/docx-fixture';
import { paragraphs, readParts, textInline, textOf } from './model-queries';

const run = (content: string, rPr = '') => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}${content}</w:r>`;
const t = (text: string) => `<w:t xml:space="preserve">${text}</w:t>`;
const body = (...paragraphs: string[]) => `<w:body>${paragraphs.map((p) => `<w:p>${p}</w:p>`).join('')}</w:body>`;

describe('symbol-font codes (w:sym, §17.3.3.30; private-use text)', () => {
  it('maps codes in a run whose w:hAnsi face is a symbol font, the ASCII text keeping its face', () => {
    // Word sets characters above U+007F in the w:hAnsi face (§17.3.2.26): U+F070 in a run with
    // w:hAnsi="Symbol" is Symbol's π even though w:ascii names a text face.
    const model = readParts({
      document: body(
        run(t('p=\uf070, \uf071'), '<w:rFonts w:ascii="Arial" w:hAnsi="Symbol"/>'),
        run(t('\uf0fc done'), '<w:rStyle w:val="Dingbats"/>'),
      ),
      styles:
        '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="character" w:styleId="Dingbats"><w:name w:val="Dingbats"/><w:rPr><w:rFonts w:hAnsi="Wingdings"/></w:rPr></w:style>',
    });
    const [symbols, dingbats] = paragraphs(model);
    expect(textOf(symbols as Paragraph)).toBe('p=π, θ');
    expect(textInline(model, 'p=π').props.font).toBe('Arial');
    expect(textOf(dingbats as Paragraph)).toBe('✓ done');
  });

  it('maps Symbol codes to the Greek and mathematical characters they show', () => {
    const syms = ['F070', 'F071', 'F072', 'F075', 'F066', 'F0A5', 'F0B9', 'F0E5']
      .map((code) => `<w:sym w:font="Symbol" w:char="${code}"/>`)
      .join('');
    const model = readParts({ document: body(run(syms)) });
    expect(textOf(paragraphs(model)[0] as Paragraph)).toBe('πθρυφ∞≠∑');
  });
});

describe('run content of §17.3.3', () => {
  it('prints date blocks with the document date, each in its own picture', () => {
    const blocks = ['dayShort', 'dayLong', 'monthShort', 'monthLong', 'yearShort', 'yearLong']
      .map((name) => `<w:${name}/>`)
      .join(t(' '));
    const model = readParts({
      document: body(run(t('Saved ') + blocks)),
      coreProperties: { created: '2020-01-01T00:00:00Z', modified: '2024-03-05T10:00:00Z' },
    });
    expect(textOf(paragraphs(model)[0] as Paragraph)).toBe('Saved 05 Tuesday 03 March 24 2024');
  });

  it('says so when a date block has no date to show', () => {
    const model = readParts({ document: body(run(`${t('Today: ')}<w:dayLong/>`)) });
    expect(textOf(paragraphs(model)[0] as Paragraph)).toBe('Today: ');
    expect(model.warnings.join('\n')).toMatch(/date block\) is left empty/);
  });

  it('prints ruby text after its base, in parentheses at the ruby size (w:hps), with a warning', () => {
    const ruby = `<w:ruby><w:rubyPr><w:hps w:val="10"/><w:hpsRaise w:val="18"/><w:hpsBaseText w:val="20"/><w:lid w:val="ja-JP"/></w:rubyPr><w:rt>${run(t('かん'), '<w:sz w:val="24"/>')}</w:rt><w:rubyBase>${run(t('漢'), '<w:sz w:val="20"/>')}</w:rubyBase></w:ruby>`;
    const model = readParts({ document: body(run(t('A ')) + run(ruby) + run(t(' B'))) });
    expect(textOf(paragraphs(model)[0] as Paragraph)).toBe('A 漢(かん) B');
    expect(textInline(model, 'かん').props.size).toBe(5);
    expect(textInline(model, '漢').props.size).toBe(10);
    expect(model.warnings.join('\n')).toMatch(/Ruby .* parentheses/);
  });

  it('prints PAGE for w:pgNum, a tab for w:ptab and a line break for w:cr', () => {
    const model = readParts({
      document: body(
        run(
          `${t('Page ')}<w:pgNum/><w:ptab w:relativeTo="margin" w:alignment="right" w:leader="none"/>${t('x')}<w:cr/>${t('y')}`,
        ),
      ),
    });
    const [p] = paragraphs(model);
    expect(p?.inlines.map((inline) => inline.kind)).toEqual(['text', 'field', 'tab', 'text', 'break', 'text']);
    expect(p?.inlines[1]).toMatchObject({ kind: 'field', field: 'PAGE' });
  });

  it('leaves out, without a warning, what the spec does not show: comment marks, Word’s page-break hints, separators', () => {
    const model = readParts({
      document: body(
        `<w:commentRangeStart w:id="0"/>${run(`${t('a')}<w:lastRenderedPageBreak/>${t('b')}`)}<w:commentRangeEnd w:id="0"/>${run('<w:commentReference w:id="0"/>')}${run('<w:annotationRef/><w:separator/><w:continuationSeparator/>')}${run(t('c'))}`,
      ),
    });
    expect(textOf(paragraphs(model)[0] as Paragraph)).toBe('abc');
    expect(model.warnings).toEqual(['The document has no readable styles part; Word’s default formatting is used.']);
  });

  it('prints the note’s own mark where w:footnoteRef stands in the note', () => {
    const model = readParts({
      document: body(`${run(t('Claim'))}<w:r><w:footnoteReference w:id="1"/></w:r>`),
      footnotes: `${noteSeparators('footnote')}<w:footnote w:id="1"><w:p>${run('<w:footnoteRef/>')}${run(t(' Source.'))}</w:p></w:footnote>`,
    });
    const note = model.notes.footnotes['1'];
    const first = note?.[0];
    expect(first?.kind === 'paragraph' ? textOf(first) : '').toBe('1 Source.');
  });

  it('names a subdocument it cannot include, linked to its file, with a warning', () => {
    const model = readParts({
      document: `<w:body><w:p>${run(t('Chapters:'))}</w:p><w:p><w:subDoc r:id="rIdSub"/></w:p></w:body>`,
      relationships: [
        {
          id: 'rIdSub',
          type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/subDocument',
          target: 'Chapter1.docx',
          external: true,
        },
      ],
    });
    const link = textInline(model, 'Chapter1.docx');
    expect(link.link).toEqual({ url: 'Chapter1.docx' });
    expect(model.warnings.join('\n')).toMatch(/subdocument \(Chapter1\.docx\) is a separate file/);
  });

  it('warns about a content part (ink) that has no picture to fall back on', () => {
    const model = readParts({ document: body(run(`${t('Signed: ')}<w:contentPart r:id="rIdInk"/>`)) });
    expect(textOf(paragraphs(model)[0] as Paragraph)).toBe('Signed: ');
    expect(model.warnings.join('\n')).toMatch(/w:contentPart\) is not drawn/);
  });
});

describe('content controls wherever they nest (§17.5.2)', () => {
  const sdt = (content: string) =>
    `<w:sdt><w:sdtPr><w:tag w:val="t"/></w:sdtPr><w:sdtContent>${content}</w:sdtContent></w:sdt>`;

  it('keeps run-level content inside smart tags, custom XML, simple fields and hyperlinks, and the reverse', () => {
    const model = readParts({
      document: body(
        `<w:smartTag w:uri="urn:x" w:element="place">${sdt(run(t('in smart tag')))}</w:smartTag>`,
        `<w:customXml w:element="name">${sdt(`<w:customXml w:element="inner">${run(t('in custom XML'))}</w:customXml>`)}</w:customXml>`,
        `<w:fldSimple w:instr=" MERGEFIELD Name ">${sdt(run(t('in simple field')))}</w:fldSimple>`,
        `<w:hyperlink w:anchor="top">${sdt(`<w:smartTag w:element="x">${run(t('in hyperlink'))}</w:smartTag>`)}</w:hyperlink>`,
        sdt(`<w:hyperlink w:anchor="top">${run(t('link in control'))}</w:hyperlink>`),
      ),
    });
    expect(paragraphs(model).map(textOf)).toEqual([
      'in smart tag',
      'in custom XML',
      'in simple field',
      'in hyperlink',
      'link in control',
    ]);
    expect(textInline(model, 'in hyperlink').link).toEqual({ anchor: 'top' });
  });

  it('keeps block, row and cell controls, also inside custom XML', () => {
    const cell = (text: string) => `<w:tc><w:p>${run(t(text))}</w:p></w:tc>`;
    const model = readParts({
      document: `<w:body><w:customXml w:element="doc">${sdt(`<w:p>${run(t('block'))}</w:p>`)}</w:customXml><w:tbl><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>${sdt(`<w:tr>${cell('row control')}<w:customXml w:element="c">${cell('cell in custom XML')}</w:customXml></w:tr>`)}<w:tr>${sdt(cell('cell control'))}<w:tc>${sdt(`<w:p>${run(t('block in cell'))}</w:p>`)}</w:tc></w:tr></w:tbl></w:body>`,
    });
    expect(paragraphs(model).map(textOf)).toEqual([
      'block',
      'row control',
      'cell in custom XML',
      'cell control',
      'block in cell',
    ]);
  });
});
