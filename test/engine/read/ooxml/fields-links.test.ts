import { describe, expect, it } from 'vitest';
import type { FieldInline } from '../../../../src/engine/model/document';
import { paragraph } from '../../../helpers/docx-fixture';
import { collect, paragraphs, readParts, textInline, textOf } from './model-queries';

const r = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const fld = (type: string) => `<w:r><w:fldChar w:fldCharType="${type}"/></w:r>`;
const instr = (text: string) => `<w:r><w:instrText xml:space="preserve">${text}</w:instrText></w:r>`;
const complexField = (instruction: string, result: string) =>
  `${fld('begin')}${instr(instruction)}${fld('separate')}${r(result)}${fld('end')}`;

describe('fields', () => {
  it('turns PAGE in a footer into a FieldInline with its cached result', () => {
    const model = readParts({
      document: `<w:body>${paragraph('body')}<w:sectPr><w:footerReference w:type="default" r:id="rIdF"/></w:sectPr></w:body>`,
      footers: {
        rIdF: `<w:p>${r('Page ')}${complexField(' PAGE  \\* roman \\* MERGEFORMAT ', 'iv')}${r(' of ')}<w:fldSimple w:instr=" NUMPAGES "><w:r><w:t>9</w:t></w:r></w:fldSimple></w:p>`,
      },
    });
    const footer = collect(model.sections[0]?.footers.default ?? []);
    const fields = footer[0]?.inlines.filter((inline): inline is FieldInline => inline.kind === 'field');
    expect(fields?.map(({ field, cached, format }) => ({ field, cached, format }))).toEqual([
      { field: 'PAGE', cached: 'iv', format: 'roman' },
      { field: 'NUMPAGES', cached: '9', format: undefined },
    ]);
    expect(textOf(footer[0] as never)).toBe('Page iv of 9');
  });

  it('keeps PAGEREF as a field naming its bookmark, and prints a REF field’s cached result as text', () => {
    const model = readParts({
      document: `<w:body><w:p><w:bookmarkStart w:id="0" w:name="Target"/>${r('Target text')}<w:bookmarkEnd w:id="0"/></w:p><w:p>${r('See ')}${complexField(' REF Target \\h ', 'Target text')}${r(' on page ')}${complexField(' PAGEREF Target \\h ', '3')}</w:p></w:body>`,
    });
    const [target, reference] = paragraphs(model);
    expect(target?.inlines[0]).toEqual({ kind: 'bookmark', name: 'Target' });
    expect(textOf(reference as never)).toBe('See Target text on page 3');
    const pageref = reference?.inlines.find((inline) => inline.kind === 'field');
    expect(pageref).toMatchObject({ kind: 'field', field: 'PAGEREF', argument: 'Target', cached: '3' });
  });

  it('handles nested fields: the inner result inside an instruction is part of the instruction', () => {
    const model = readParts({
      document: `<w:body><w:p>${fld('begin')}${instr(' IF ')}${complexField(' PAGE ', '1')}${instr(' = 1 "first" "other" ')}${fld('separate')}${r('first')}${fld('end')}</w:p></w:body>`,
    });
    const [p] = paragraphs(model);
    expect(textOf(p as never)).toBe('first');
    expect(p?.inlines.some((inline) => inline.kind === 'field')).toBe(false);
  });

  it('prints a field spanning paragraphs (a TOC) with its result as ordinary text', () => {
    const model = readParts({
      document: `<w:body><w:p>${fld('begin')}${instr(' TOC \\o "1-3" \\h ')}${fld('separate')}${r('Chapter 1')}<w:r><w:tab/></w:r>${complexField(' PAGEREF _Toc1 \\h ', '2')}</w:p><w:p>${r('Chapter 2')}<w:r><w:tab/></w:r>${complexField(' PAGEREF _Toc2 \\h ', '5')}</w:p><w:p>${fld('end')}</w:p>${paragraph('after')}</w:body>`,
    });
    expect(paragraphs(model).map(textOf)).toEqual(['Chapter 1\t2', 'Chapter 2\t5', '', 'after']);
  });

  it('prints DATE without a cached result from the document’s own date, never the clock', () => {
    const model = readParts({
      document: `<w:body><w:p>${fld('begin')}${instr(' DATE \\@ "d MMMM yyyy" ')}${fld('end')}</w:p><w:p><w:fldSimple w:instr=" CREATEDATE \\@ &quot;yyyy-MM-dd HH:mm&quot; "/></w:p></w:body>`,
      coreProperties: { created: '2021-03-04T05:06:07Z', modified: '2023-12-25T10:00:00Z' },
    });
    expect(paragraphs(model).map(textOf)).toEqual(['25 December 2023', '2021-03-04 05:06']);
    expect(model.properties).toMatchObject({ created: '2021-03-04T05:06:07Z', modified: '2023-12-25T10:00:00Z' });
  });

  it('links the result of a HYPERLINK field', () => {
    const model = readParts({
      document: `<w:body><w:p>${complexField(' HYPERLINK "https://example.com/a" ', 'Example')}${complexField(' HYPERLINK \\l "Section2" ', 'below')}</w:p></w:body>`,
    });
    expect(textInline(model, 'Example').link).toEqual({ url: 'https://example.com/a' });
    expect(textInline(model, 'below').link).toEqual({ anchor: 'Section2' });
  });

  it('hides field codes in hidden runs but still pairs their field characters', () => {
    const model = readParts({
      document: `<w:body><w:p>${r('before ')}<w:r><w:rPr><w:vanish/></w:rPr><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:instrText> XE "index" </w:instrText></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:fldChar w:fldCharType="end"/></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden</w:t></w:r>${r('after')}</w:p></w:body>`,
    });
    expect(paragraphs(model).map(textOf)).toEqual(['before after']);
  });
});

describe('hyperlinks and bookmarks', () => {
  it('resolves external links through relationships and internal ones by anchor', () => {
    const model = readParts({
      document: `<w:body><w:p><w:hyperlink r:id="rIdLink"><w:r><w:t>external</w:t></w:r></w:hyperlink>${r(' and ')}<w:hyperlink w:anchor="Intro"><w:r><w:t>internal</w:t></w:r></w:hyperlink>${r(' and ')}<w:hyperlink r:id="rIdLink" w:anchor="part"><w:r><w:t>both</w:t></w:r></w:hyperlink></w:p></w:body>`,
      relationships: [{ id: 'rIdLink', type: 'hyperlink', target: 'https://example.org/page?q=1&x=2', external: true }],
    });
    expect(textInline(model, 'external').link).toEqual({ url: 'https://example.org/page?q=1&x=2' });
    expect(textInline(model, 'internal').link).toEqual({ anchor: 'Intro' });
    expect(textInline(model, 'both').link).toEqual({ url: 'https://example.org/page?q=1&x=2#part' });
    expect(textInline(model, ' and ').link).toBeUndefined();
  });

  it('puts bookmarks that start between paragraphs at the start of the next paragraph', () => {
    const model = readParts({
      document: `<w:body>${paragraph('one')}<w:bookmarkStart w:id="1" w:name="Between"/>${paragraph('two')}<w:bookmarkEnd w:id="1"/></w:body>`,
    });
    expect(paragraphs(model)[1]?.inlines[0]).toEqual({ kind: 'bookmark', name: 'Between' });
  });
});
