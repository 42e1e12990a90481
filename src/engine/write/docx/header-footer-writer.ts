/**
 * Headers and footers (ECMA-376 Part 1 §17.10): each distinct slot's blocks become one part
 * (word/headerN.xml, word/footerN.xml), referenced from every section that uses them. Sections
 * carry their inherited slots (model.ts), so a slot shared by object is written once.
 */
import type { Block, Section } from '../../model';
import { blocksXml } from './block-writer';
import { PART_NAMESPACES } from './namespaces';
import { addRelationship, RELATIONSHIP_TYPES, type Relationship } from './package-parts';
import type { DocumentWriteContext, PartWriteContext } from './write-context';
import { XML_DECLARATION } from './xml-escape';

export interface StoryPart {
  /** e.g. word/header1.xml */
  name: string;
  kind: 'header' | 'footer';
  xml: string;
  relationships: Relationship[];
}

export interface StoryParts {
  parts: StoryPart[];
  byBlocks: Map<Block[], string>;
}

const SLOTS = ['default', 'first', 'even'] as const;

/** The section's reference elements, writing the parts they need into `stories`. */
export function headerFooterReferencesXml(section: Section, body: PartWriteContext, stories: StoryParts): string {
  let xml = '';
  for (const kind of ['header', 'footer'] as const) {
    const set = kind === 'header' ? section.headers : section.footers;
    for (const slot of SLOTS) {
      const blocks = set[slot];
      if (blocks === undefined) continue;
      const name = storyPartName(kind, blocks, body.doc, stories);
      const rId = addRelationship(body.relationships, RELATIONSHIP_TYPES[kind], name.slice('word/'.length));
      xml += `<w:${kind}Reference w:type="${slot}" r:id="${rId}"/>`;
    }
  }
  return xml;
}

function storyPartName(
  kind: 'header' | 'footer',
  blocks: Block[],
  doc: DocumentWriteContext,
  stories: StoryParts,
): string {
  const known = stories.byBlocks.get(blocks);
  if (known !== undefined) return known;
  const count = stories.parts.filter((part) => part.kind === kind).length;
  const name = `word/${kind}${count + 1}.xml`;
  const relationships: Relationship[] = [];
  const content = blocksXml(blocks, { doc, relationships }, { endWithParagraph: true });
  const root = kind === 'header' ? 'w:hdr' : 'w:ftr';
  stories.parts.push({
    name,
    kind,
    xml: `${XML_DECLARATION}<${root} ${PART_NAMESPACES}>${content}</${root}>`,
    relationships,
  });
  stories.byBlocks.set(blocks, name);
  return name;
}
