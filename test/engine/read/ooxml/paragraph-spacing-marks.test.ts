import { describe, expect, it } from 'vitest';
import type { Block } from '../../../../src/engine/model/document';
import { paragraphs, readParts, textOf } from './model-queries';

const WEB_STYLE = `<w:style w:type="paragraph" w:styleId="NormalWeb"><w:name w:val="Normal (Web)"/>
  <w:pPr><w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1"/></w:pPr></w:style>`;

const table = (text: string) =>
  `<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`;

/** An empty paragraph whose mark is hidden (w:vanish in the mark's run properties). */
const HIDDEN_EMPTY = '<w:p><w:pPr><w:rPr><w:vanish/></w:rPr></w:pPr></w:p>';

const kinds = (blocks: Block[]) => blocks.map((block) => block.kind);

describe('automatic spacing (§17.3.1.33 beforeAutospacing, afterAutospacing)', () => {
  it('is turned off by a level that gives the space as a length, as Word reads it', () => {
    const model = readParts({
      styles: WEB_STYLE,
      document: `<w:body>
        <w:p><w:pPr><w:pStyle w:val="NormalWeb"/></w:pPr><w:r><w:t>auto</w:t></w:r></w:p>
        <w:p><w:pPr><w:pStyle w:val="NormalWeb"/><w:spacing w:before="0" w:after="0"/></w:pPr><w:r><w:t>none</w:t></w:r></w:p>
        <w:p><w:pPr><w:pStyle w:val="NormalWeb"/><w:spacing w:before="0"/></w:pPr><w:r><w:t>after only</w:t></w:r></w:p>
        <w:p><w:pPr><w:pStyle w:val="NormalWeb"/><w:spacing w:before="0" w:beforeAutospacing="1"/></w:pPr><w:r><w:t>still auto</w:t></w:r></w:p>
      </w:body>`,
    });
    const [auto, none, afterOnly, stillAuto] = paragraphs(model);
    expect(auto?.props.spacing).toMatchObject({ before: 14, after: 14, beforeAuto: true, afterAuto: true });
    expect(none?.props.spacing.before).toBe(0);
    expect(none?.props.spacing.after).toBe(0);
    expect(none?.props.spacing.beforeAuto).toBeUndefined();
    expect(none?.props.spacing.afterAuto).toBeUndefined();
    expect(afterOnly?.props.spacing).toMatchObject({ before: 0, after: 14, afterAuto: true });
    expect(stillAuto?.props.spacing).toMatchObject({ before: 14, beforeAuto: true });
  });
});

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
