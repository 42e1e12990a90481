/**
 * word/footnotes.xml and word/endnotes.xml (ECMA-376 Part 1 §17.11): the separator (id -1) and
 * continuation separator (id 0) notes Word requires and names in settings (§17.11.23), then each
 * note of the model under its renumbered id.
 */
import type { Block } from '../../model';
import { blocksXml } from './block-writer';
import { PART_NAMESPACES } from './namespaces';
import type { PartWriteContext } from './write-context';
import { XML_DECLARATION } from './xml-escape';

export function notesXml(kind: 'footnote' | 'endnote', notes: Record<string, Block[]>, part: PartWriteContext): string {
  const element = `w:${kind}`;
  const root = `w:${kind}s`;
  // w:spacing after 0, single line: the separators as Word writes them.
  const separator = (id: number, type: string, mark: string) =>
    `<${element} w:type="${type}" w:id="${id}"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><${mark}/></w:r></w:p></${element}>`;
  let xml =
    separator(-1, 'separator', 'w:separator') + separator(0, 'continuationSeparator', 'w:continuationSeparator');
  const ids = part.doc.noteIds[kind];
  const ordered = [...ids.entries()].sort((a, b) => a[1] - b[1]);
  for (const [modelId, id] of ordered) {
    const blocks = notes[modelId] ?? [];
    xml += `<${element} w:id="${id}">${blocksXml(blocks, part, { noteMark: kind, endWithParagraph: true })}</${element}>`;
  }
  return `${XML_DECLARATION}<${root} ${PART_NAMESPACES}>${xml}</${root}>`;
}
