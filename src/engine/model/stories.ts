import type { Block, DocumentModel } from './document';

/**
 * The top-level blocks of every story of a document, in document order: each section's body, its
 * headers and footers (default, first, even), then the footnotes and endnotes. For the passes
 * that must see all of a document's content (font needs, table sizing), so none forgets a story.
 */
export function storyBlocks(model: DocumentModel): Block[][] {
  const stories: Block[][] = [];
  for (const section of model.sections) {
    stories.push(section.blocks);
    for (const set of [section.headers, section.footers]) {
      for (const blocks of [set.default, set.first, set.even]) if (blocks) stories.push(blocks);
    }
  }
  for (const notes of [model.notes.footnotes, model.notes.endnotes]) {
    for (const id in notes) {
      const blocks = notes[id];
      if (blocks) stories.push(blocks);
    }
  }
  return stories;
}
