import { describe, expect, it } from 'vitest';
import type { Block, NoteReferenceInline, Paragraph } from '../../../../src/engine/model/document';
import { NOTE_STYLES, note, noteReference, noteSeparators, paragraph } from '../../../helpers/docx-fixture';
import { collect, paragraphs, readParts, textOf } from './model-queries';

const r = (text: string, rPr = '') =>
  `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;
const STYLES = `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:sz w:val="24"/></w:rPr></w:style>${NOTE_STYLES}`;

function references(model: ReturnType<typeof readParts>): NoteReferenceInline[] {
  return paragraphs(model).flatMap((p) =>
    p.inlines.filter((i): i is NoteReferenceInline => i.kind === 'noteReference'),
  );
}

function noteText(blocks: Block[] | undefined): string {
  return collect(blocks ?? [])
    .map((p) => textOf(p))
    .join('\n');
}

describe('footnotes and endnotes', () => {
  it('reads the notes parts by id, skipping the separators, with the note styles and their marks', () => {
    const model = readParts({
      styles: STYLES,
      document: `<w:body><w:p>${r('Claim')}${noteReference('footnote', '1')}${r(' and more')}${noteReference('footnote', '2')}${r(' end')}${noteReference('endnote', '1')}</w:p></w:body>`,
      footnotes: `${noteSeparators('footnote')}${note('footnote', '1', 'First note.')}${note('footnote', '2', 'Second note.')}`,
      endnotes: `${noteSeparators('endnote')}${note('endnote', '1', 'The endnote.')}`,
    });
    expect(Object.keys(model.notes.footnotes).sort()).toEqual(['1', '2']);
    expect(Object.keys(model.notes.endnotes)).toEqual(['1']);
    expect(noteText(model.notes.footnotes['1'])).toBe('1 First note.');
    expect(noteText(model.notes.footnotes['2'])).toBe('2 Second note.');
    expect(noteText(model.notes.endnotes['1'])).toBe('i The endnote.');

    const first = model.notes.footnotes['1']?.[0] as Paragraph;
    expect(first.props.styleId).toBe('FootnoteText');
    const [mark, body] = first.inlines;
    expect(mark).toMatchObject({ kind: 'text', text: '1' });
    expect(mark?.kind === 'text' && mark.props.verticalAlign).toBe('superscript');
    expect(body?.kind === 'text' && body.props.size).toBe(10);

    const refs = references(model);
    expect(refs.map((ref) => [ref.note, ref.id, ref.mark])).toEqual([
      ['footnote', '1', '1'],
      ['footnote', '2', '2'],
      ['endnote', '1', 'i'],
    ]);
    expect(refs[0]?.props.verticalAlign).toBe('superscript');
    expect(model.warnings.join(' ')).not.toMatch(/not laid out/);
  });

  it('numbers references in document order whatever their ids, in the formats and from the start of settings.xml', () => {
    const model = readParts({
      styles: STYLES,
      settings:
        '<w:footnotePr><w:numFmt w:val="upperLetter"/><w:numStart w:val="3"/><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr><w:endnotePr><w:numFmt w:val="decimal"/></w:endnotePr>',
      document: `<w:body><w:p>${r('a')}${noteReference('footnote', '7')}${noteReference('endnote', '4')}</w:p><w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p>${r('in a cell')}${noteReference('footnote', '2')}</w:p></w:tc></w:tr></w:tbl><w:p>${noteReference('footnote', '5')}${noteReference('endnote', '3')}</w:p></w:body>`,
      footnotes: `${noteSeparators('footnote')}${note('footnote', '2', 'two')}${note('footnote', '5', 'five')}${note('footnote', '7', 'seven')}`,
      endnotes: `${noteSeparators('endnote')}${note('endnote', '3', 'three')}${note('endnote', '4', 'four')}`,
    });
    expect(references(model).map((ref) => `${ref.id}=${ref.mark}`)).toEqual(['7=C', '4=1', '2=D', '5=E', '3=2']);
    expect(noteText(model.notes.footnotes['7'])).toBe('C seven');
    expect(noteText(model.notes.endnotes['3'])).toBe('2 three');
  });

  it('restarts numbering in each section with numRestart eachSect in the section properties', () => {
    const restart = '<w:footnotePr><w:numRestart w:val="eachSect"/></w:footnotePr>';
    const model = readParts({
      styles: STYLES,
      document: `<w:body><w:p>${noteReference('footnote', '1')}${noteReference('footnote', '2')}<w:pPr><w:sectPr>${restart}</w:sectPr></w:pPr></w:p><w:p>${noteReference('footnote', '3')}</w:p><w:sectPr>${restart}</w:sectPr></w:body>`,
      footnotes: `${note('footnote', '1', 'a')}${note('footnote', '2', 'b')}${note('footnote', '3', 'c')}`,
    });
    expect(model.sections).toHaveLength(2);
    expect(references(model).map((ref) => ref.mark)).toEqual(['1', '2', '1']);
  });

  it('numbers eachPage restarts continuously, with a warning', () => {
    const model = readParts({
      settings: '<w:footnotePr><w:numRestart w:val="eachPage"/></w:footnotePr>',
      document: `<w:body><w:p>${noteReference('footnote', '1')}${noteReference('footnote', '2')}</w:p></w:body>`,
      footnotes: `${note('footnote', '1', 'a')}${note('footnote', '2', 'b')}`,
    });
    expect(references(model).map((ref) => ref.mark)).toEqual(['1', '2']);
    expect(model.warnings.join(' ')).toMatch(/each page are numbered continuously/);
  });

  it('uses the next run as a custom mark (customMarkFollows), printed once and taking no number', () => {
    const model = readParts({
      styles: STYLES,
      document: `<w:body><w:p>${r('Star')}<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:customMarkFollows="1" w:id="1"/></w:r><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:t>*</w:t></w:r>${r(' then')}${noteReference('footnote', '2')}</w:p><w:p>${r('Dagger')}<w:r><w:footnoteReference w:customMarkFollows="1" w:id="3"/></w:r><w:r><w:sym w:font="Symbol" w:char="F0C6"/></w:r></w:p></w:body>`,
      footnotes: `<w:footnote w:id="1"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:t>*</w:t></w:r>${r(' Starred.')}</w:p></w:footnote>${note('footnote', '2', 'Numbered.')}${note('footnote', '3', 'Symbol.')}`,
    });
    const [first, second] = paragraphs(model);
    expect(textOf(first as Paragraph)).toBe('Star* then1');
    expect(references(model).map((ref) => ref.mark)).toEqual(['*', '1', '\u2205']);
    expect(references(model)[0]?.props.verticalAlign).toBe('superscript');
    expect(textOf(second as Paragraph)).toBe('Dagger\u2205');
    expect(noteText(model.notes.footnotes['1'])).toBe('* Starred.');
    expect(noteText(model.notes.footnotes['2'])).toBe('1 Numbered.');
  });

  it('reads tracked changes inside notes per the revisions mode', () => {
    const parts = {
      document: `<w:body><w:p>${r('x')}${noteReference('footnote', '1')}</w:p></w:body>`,
      footnotes: `<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r>${r(' kept')}<w:del w:id="9" w:author="Ada"><w:r><w:delText xml:space="preserve"> removed</w:delText></w:r></w:del><w:ins w:id="10" w:author="Ada"><w:r><w:t xml:space="preserve"> added</w:t></w:r></w:ins></w:p></w:footnote>`,
    };
    expect(noteText(readParts(parts, { revisions: 'final' }).notes.footnotes['1'])).toBe('1 kept added');
    expect(noteText(readParts(parts, { revisions: 'original' }).notes.footnotes['1'])).toBe('1 kept removed');
    const markup = readParts(parts).notes.footnotes['1']?.[0] as Paragraph;
    const removed = markup.inlines.find((i) => i.kind === 'text' && i.text.includes('removed'));
    expect(removed?.kind === 'text' && removed.revision?.kind).toBe('delete');
  });

  it('warns about references whose note is missing, and reads a document without notes parts', () => {
    const model = readParts({
      document: `<w:body><w:p>${r('x')}${noteReference('footnote', '1')}${noteReference('footnote', '8')}</w:p></w:body>`,
      footnotes: note('footnote', '1', 'Here.'),
    });
    expect(Object.keys(model.notes.footnotes)).toEqual(['1']);
    expect(model.warnings.join(' ')).toMatch(/1 footnote reference \(id 8\) has no footnote text/);
    const plain = readParts({ document: `<w:body>${paragraph('No notes.')}</w:body>` });
    expect(plain.notes).toEqual({ footnotes: {}, endnotes: {} });
  });

  it('formats chicago marks as *, †, ‡, § and then doubles them', () => {
    const refs = Array.from({ length: 6 }, (_, i) => noteReference('footnote', String(i + 1))).join('');
    const model = readParts({
      settings: '<w:footnotePr><w:numFmt w:val="chicago"/></w:footnotePr>',
      document: `<w:body><w:p>${refs}</w:p></w:body>`,
    });
    expect(references(model).map((ref) => ref.mark)).toEqual(['*', '\u2020', '\u2021', '\u00a7', '**', '\u2020\u2020']);
  });
});
