/** Every family and style a document uses, so the font stage can load them before layout. */
import type { FontRequest } from '../fonts/font-face';
import type { Block, DocumentModel, RunProperties } from '../model/document';

export function collectFontRequests(model: DocumentModel): FontRequest[] {
  const seen = new Map<string, FontRequest>();
  const add = (props: RunProperties) => {
    const key = `${props.font}|${props.bold}|${props.italic}`;
    if (!seen.has(key)) seen.set(key, { family: props.font, bold: props.bold, italic: props.italic });
  };
  const walk = (blocks: Block[] | undefined) => {
    for (const block of blocks ?? []) {
      if (block.kind === 'table') {
        for (const row of block.rows) for (const cell of row.cells) walk(cell.blocks);
        continue;
      }
      add(block.markProps);
      if (block.label) add(block.label.props);
      for (const inline of block.inlines) if (inline.kind !== 'bookmark') add(inline.props);
    }
  };
  for (const section of model.sections) {
    walk(section.blocks);
    for (const set of [section.headers, section.footers]) {
      walk(set.default);
      walk(set.first);
      walk(set.even);
    }
  }
  for (const notes of [model.notes.footnotes, model.notes.endnotes]) for (const id in notes) walk(notes[id]);
  return [...seen.values()];
}
