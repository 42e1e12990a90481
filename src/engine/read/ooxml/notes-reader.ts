import type { Block } from '../../model';
import { readBlockContent } from './block-reader';
import type { NoteKind } from './note-numbering';
import { type DocumentContext, newStory } from './read-context';
import type { XmlElement } from './xml-tree';

/**
 * The footnotes and endnotes parts (ECMA-376 Part 1, §17.11.15 w:footnotes, §17.11.8 w:endnotes):
 * each w:footnote / w:endnote is block content read like the body (styles cascade, revisions per
 * mode), kept by its w:id. The separator and continuation notes (w:type other than "normal") are
 * Word's own furniture: layout draws its separators itself.
 */
export function readNotes(
  doc: DocumentContext,
  root: XmlElement,
  partName: string,
  kind: NoteKind,
  marks: ReadonlyMap<string, string>,
): Record<string, Block[]> {
  const notes: Record<string, Block[]> = {};
  const label = kind === 'footnote' ? 'footnotes' : 'endnotes';
  if (root.name !== `w:${label}`) {
    doc.warn(`The ${label} part ${partName} is not a list of notes (its root is <${root.name}>); it is ignored.`);
    return notes;
  }
  const relationships = doc.pkg.relationships(partName);
  // Lists run on from note to note, as they do through one header or the body.
  const counters = newStory(doc, partName, relationships).counters;
  for (const note of root.children) {
    if (note.name !== `w:${kind}`) continue;
    const type = note.attributes['w:type'];
    if (type !== undefined && type !== 'normal') continue;
    const id = note.attributes['w:id'];
    // ST_DecimalNumber: anything else could not be referenced (and must not become a key like __proto__).
    if (id === undefined || !/^-?\d+$/.test(id)) continue;
    const story = { ...newStory(doc, partName, relationships), counters, noteMark: marks.get(id) ?? '' };
    notes[id] = readBlockContent(note, story, undefined).blocks;
  }
  return notes;
}
