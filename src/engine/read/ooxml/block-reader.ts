import type { BookmarkInline, Paragraph } from '../../model';
import { chooseAlternative } from './markup-compatibility';
import { readParagraph } from './paragraph-reader';
import type { BlockContent, StoryContext } from './read-context';
import { CHANGE_ELEMENTS, isShown } from './revisions';
import { readTable } from './table-reader';
import { child, type XmlElement } from './xml-tree';

/**
 * Block-level content (ECMA-376 Part 1, §17.2.2 body, §17.4.66 cell, §17.10.4 header, text box
 * content): paragraphs and tables, also inside block-level content controls, custom XML and
 * compatibility alternatives. Paragraphs whose mark is absent in the chosen revision join the next.
 */

export function readBlockContent(
  container: XmlElement,
  story: StoryContext,
  tableStyleId: string | undefined,
): BlockContent {
  const reader = new BlockReader(story, tableStyleId);
  for (const element of container.children) reader.read(element);
  return reader.finish();
}

/**
 * Block content read one child element at a time, for a container whose children arrive as the
 * part is parsed (the main document's body, xml-tree.ts ChildStream): the same result as
 * readBlockContent over all of them.
 */
export class BlockReader {
  private readonly content: BlockContent = { blocks: [], sectionBreaks: [] };
  private readonly state: JoinState = { pending: undefined };
  private readonly story: StoryContext;
  private readonly tableStyleId: string | undefined;

  constructor(story: StoryContext, tableStyleId: string | undefined) {
    this.story = story;
    this.tableStyleId = tableStyleId;
  }

  read(element: XmlElement): void {
    readElement(element, this.story, this.tableStyleId, this.content, this.state);
  }

  finish(): BlockContent {
    flushPending(this.content, this.state);
    return this.content;
  }
}

interface JoinState {
  /** A paragraph waiting to be joined to the next one. */
  pending: Paragraph | undefined;
  /** The pending paragraph is one that shows nothing, its mark hidden (showsNothing). */
  hidden?: boolean;
}

/**
 * A paragraph whose mark is hidden (w:vanish in the mark's run properties, §17.3.2.41) and whose
 * content is hidden too: Word joins a paragraph with a hidden mark to the next one, as it does one
 * whose mark was deleted, so an empty one takes no room. Before a table there is no paragraph to
 * join: it stays (with its mark's height), unless a table is before it too, which it then seems to
 * join (HTML pasted into Word puts one such paragraph between every two tables).
 */
function showsNothing(paragraph: Paragraph): boolean {
  if (!paragraph.markProps.hidden || paragraph.label) return false;
  return paragraph.inlines.every((inline) => inline.kind === 'bookmark' || inline.props.hidden);
}

function bookmarksOf(paragraph: Paragraph | undefined): BookmarkInline[] {
  return (paragraph?.inlines ?? []).filter((inline): inline is BookmarkInline => inline.kind === 'bookmark');
}

function readInto(
  container: XmlElement,
  story: StoryContext,
  tableStyleId: string | undefined,
  content: BlockContent,
  state: JoinState,
): void {
  for (const element of container.children) readElement(element, story, tableStyleId, content, state);
}

function readElement(
  element: XmlElement,
  story: StoryContext,
  tableStyleId: string | undefined,
  content: BlockContent,
  state: JoinState,
): void {
  switch (element.name) {
    case 'w:p': {
      const result = readParagraph(element, story, tableStyleId);
      const paragraph = result.paragraph;
      if (state.pending !== undefined) {
        paragraph.inlines.unshift(...state.pending.inlines);
        state.pending = undefined;
        state.hidden = false;
      }
      if (result.joinsNext) {
        state.pending = paragraph;
        return;
      }
      if (result.sectionProperties === undefined && showsNothing(paragraph)) {
        state.pending = paragraph;
        state.hidden = true;
        return;
      }
      content.blocks.push(paragraph);
      if (result.sectionProperties !== undefined) {
        content.sectionBreaks.push({ blockCount: content.blocks.length, properties: result.sectionProperties });
      }
      return;
    }
    case 'w:tbl': {
      // An empty paragraph with a hidden mark between two tables: nothing shows between them.
      if (state.hidden && content.blocks[content.blocks.length - 1]?.kind === 'table') {
        story.pendingBookmarks.push(...bookmarksOf(state.pending));
        state.pending = undefined;
        state.hidden = false;
      }
      flushPending(content, state);
      const table = readTable(element, story);
      if (table !== undefined) content.blocks.push(table);
      return;
    }
    case 'w:sdt': {
      const inner = child(element, 'w:sdtContent');
      if (inner) readInto(inner, story, tableStyleId, content, state);
      return;
    }
    case 'w:customXml':
      readInto(element, story, tableStyleId, content, state);
      return;
    case 'mc:AlternateContent': {
      const branch = chooseAlternative(element);
      if (branch) readInto(branch, story, tableStyleId, content, state);
      return;
    }
    case 'w:bookmarkStart': {
      const name = element.attributes['w:name'];
      if (name && name !== '_GoBack') story.pendingBookmarks.push({ kind: 'bookmark', name });
      return;
    }
    case 'w:altChunk':
      story.doc.warn('Imported content (w:altChunk: embedded HTML, RTF or another document) is not read yet.');
      return;
  }
  const change = CHANGE_ELEMENTS[element.name];
  if (change !== undefined && isShown(change, story.doc.revisions)) {
    readInto(element, story, tableStyleId, content, state);
  }
}

/** A joining paragraph with nothing after it to join stays a paragraph of its own. */
function flushPending(content: BlockContent, state: JoinState): void {
  state.hidden = false;
  if (state.pending === undefined) return;
  content.blocks.push(state.pending);
  state.pending = undefined;
}
