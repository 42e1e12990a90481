/**
 * What the part writers share while one model is written: the cascade the model was resolved
 * with, the media parts, list and note numbering, and the counters of ids that must be unique in
 * the document. Made per call to writeDocx; nothing outlives it.
 */

import type { Block, DocumentModel, Inline, ParagraphProperties, RunProperties } from '../../model';
import { markupStyleCascade, type StyleCascade } from '../../read';
import type { Relationship } from './package-parts';

export interface DocumentWriteContext {
  model: DocumentModel;
  cascade: StyleCascade;
  media: MediaParts;
  /** w:numId by ListDefinition id (numbering-writer.ts). */
  numIds: ReadonlyMap<string, number>;
  /**
   * w:numId of each list's continuation numbering, by ListDefinition id: the same indents, no
   * label, for an item's later paragraphs (ListMembership.continuation).
   */
  continuationNumIds: ReadonlyMap<string, number>;
  /** The written note id by the model's, per kind: 1..n in order of first reference (§17.11). */
  noteIds: { footnote: ReadonlyMap<string, number>; endnote: ReadonlyMap<string, number> };
  /** wp:docPr ids (§20.4.2.5: unique in the document) and bookmark ids (§17.13.6.2). */
  counters: { drawing: number; bookmark: number };
  /**
   * What a paragraph's style, table style and list level alone resolve to, by paragraphBaseKey:
   * resolving them again for every paragraph was most of the writer's time. Bounded by the
   * document's distinct combinations.
   */
  paragraphBases: Map<string, ParagraphBases>;
}

export interface ParagraphBases {
  /** The paragraph's properties before direct formatting. */
  paragraph: ParagraphProperties;
  /** The paragraph mark's run properties before direct formatting. */
  mark: RunProperties;
  /**
   * Written w:pPr (without a section's properties) by the paragraph's properties, then its mark's.
   * The reader interns equal properties, so a document has few of each and these hit.
   */
  pPr: Map<ParagraphProperties, Map<RunProperties, string>>;
  /** Written w:rPr by the run's character style, then its properties. */
  rPr: Map<string | undefined, Map<RunProperties, string>>;
}

/** The media parts a package collects: one per image of the model (image-parts.ts). */
export interface MediaParts {
  /** Part name (word/media/…) by the model's image id. */
  byImageId: Map<string, string>;
  parts: { name: string; bytes: Uint8Array }[];
}

/** How a run of blocks is written (block-writer.ts; table cells call it back through table-writer.ts). */
export interface BlocksOptions {
  /** The style of the table the blocks are in (cells), for the cascade. */
  tableStyleId?: string;
  /** A note's blocks: its first paragraph carries the note's own mark. */
  noteMark?: 'footnote' | 'endnote';
  /** The w:sectPr that ends these blocks (an earlier section of the body). */
  sectionProperties?: string;
  /**
   * The blocks must end with a paragraph: a table cell (§17.4.66), a note, a header: an empty
   * paragraph follows a trailing table (or stands alone when there are no blocks).
   */
  endWithParagraph?: boolean;
}

/** One part being written (the body, a header, the notes): its own relationships. */
export interface PartWriteContext {
  doc: DocumentWriteContext;
  /** The part's folder-relative relationships (word/_rels/<part>.rels). */
  relationships: Relationship[];
  /**
   * Hyperlink relationship ids by URL: addRelationship's scan of the list for a repeat made
   * documents with many links quadratic. Made when the part's first link is written.
   */
  hyperlinkIds?: Map<string, string>;
}

export function newDocumentContext(model: DocumentModel): DocumentWriteContext {
  const numIds = new Map<string, number>();
  const continuationNumIds = new Map<string, number>();
  const listIds = Object.keys(model.lists ?? {});
  for (const id of listIds) numIds.set(id, numIds.size + 1);
  for (const id of listIds) continuationNumIds.set(id, listIds.length + continuationNumIds.size + 1);
  return {
    model,
    cascade: markupStyleCascade(),
    media: { byImageId: new Map(), parts: [] },
    numIds,
    continuationNumIds,
    noteIds: numberNotes(model),
    counters: { drawing: 0, bookmark: 0 },
    paragraphBases: new Map(),
  };
}

/**
 * Note ids 1..n per kind: referenced notes in the order the body (then headers and footers)
 * first refers to them, then the notes nothing refers to. Ids 0 and -1 are the separators'.
 */
function numberNotes(model: DocumentModel): DocumentWriteContext['noteIds'] {
  const footnote = new Map<string, number>();
  const endnote = new Map<string, number>();
  const visitInlines = (inlines: Inline[]) => {
    for (const inline of inlines) {
      if (inline.kind !== 'noteReference') continue;
      const ids = inline.note === 'footnote' ? footnote : endnote;
      const notes = inline.note === 'footnote' ? model.notes.footnotes : model.notes.endnotes;
      if (!ids.has(inline.id) && Object.hasOwn(notes, inline.id)) ids.set(inline.id, ids.size + 1);
    }
  };
  const visit = (blocks: Block[]) => {
    for (const block of blocks) {
      if (block.kind === 'paragraph') visitInlines(block.inlines);
      else for (const row of block.rows) for (const cell of row.cells) visit(cell.blocks);
    }
  };
  for (const section of model.sections) visit(section.blocks);
  for (const section of model.sections) {
    for (const set of [section.headers, section.footers])
      for (const blocks of Object.values(set)) if (blocks) visit(blocks);
  }
  // Notes referred to only from other notes, then unreferenced ones, keep a place too.
  for (const notes of Object.values(model.notes.footnotes)) visit(notes);
  for (const notes of Object.values(model.notes.endnotes)) visit(notes);
  for (const id of Object.keys(model.notes.footnotes)) if (!footnote.has(id)) footnote.set(id, footnote.size + 1);
  for (const id of Object.keys(model.notes.endnotes)) if (!endnote.has(id)) endnote.set(id, endnote.size + 1);
  return { footnote, endnote };
}
