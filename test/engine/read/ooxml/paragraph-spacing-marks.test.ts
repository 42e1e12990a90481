import { describe, expect, it } from 'vitest';
import type { Block } from '../../../../src/engine/model/document';
import { paragraphs, readParts, textOf } from './model-queries';

const table = (text: string) =>
  `<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`;

/** An empty paragraph whose mark is hidden (w:vanish in the mark's run properties). */
const HIDDEN_EMPTY = '<w:p><w:pPr><w:rPr><w:vanish/></w:rPr></w:pPr></w:p>';

const kinds = (blocks: Block[]) => blocks.map((block) => block.kind);

describe('paragraphs with a hidden mark (§17.3.2.41 vanish)', () => {
  it('takes an empty one out between two paragraphs, keeping its bookmark for the next', () => {
    const model = readParts({
      document: `<w:body><w:p><w:r><w:t>one</w:t></w:r></w:p>
        <w:p><w:pPr><w:rPr><w:vanish/></w:rPr></w:pPr><w:bookmarkStart w:id="1" w:name="here"/><w:bookmarkEnd w:id="1"/></w:p>
        <w:p><w:r><w:t>two</w:t></w:r></w:p></w:body>`,
    });
    const blocks = model.sections[0]?.blocks ?? [];
    expect(kinds(blocks)).toEqual(['paragraph', 'paragraph']);
    const [, two] = paragraphs(model);
    expect(textOf(two as never)).toBe('two');
    expect(two?.inlines.some((inline) => inline.kind === 'bookmark' && inline.name === 'here')).toBe(true);
  });

  it('takes one out between two tables, which then meet', () => {
    const model = readParts({ document: `<w:body>${table('A')}${HIDDEN_EMPTY}${table('B')}<w:p/></w:body>` });
    expect(kinds(model.sections[0]?.blocks ?? [])).toEqual(['table', 'table', 'paragraph']);
  });

  it('keeps one before a table that a paragraph precedes: there is nothing for it to join', () => {
    const model = readParts({
      document: `<w:body><w:p><w:r><w:t>intro</w:t></w:r></w:p>${HIDDEN_EMPTY}${table('A')}<w:p/></w:body>`,
    });
    expect(kinds(model.sections[0]?.blocks ?? [])).toEqual(['paragraph', 'paragraph', 'table', 'paragraph']);
  });
});
