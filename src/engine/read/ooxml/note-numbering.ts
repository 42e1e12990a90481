import type { Block, NoteReferenceInline, Section } from '../../model';
import { formatNumber, repeatedSymbol } from '../../text';
import { integer } from './units';
import { child, type XmlElement } from './xml-tree';

/**
 * Footnote and endnote numbers (ECMA-376 Part 1, §17.11): references are numbered in document
 * order in the format, from the start value and with the restart rule of w:footnotePr /
 * w:endnotePr — document-wide in settings.xml (§17.11.12, §17.11.5), overridden per section in
 * its w:sectPr (§17.11.11, §17.11.4). A reference with w:customMarkFollows shows its own mark and
 * takes no number.
 */

export type NoteKind = NoteReferenceInline['note'];

export interface NoteNumbering {
  /** ST_NumberFormat (§17.11.17 numFmt), plus "chicago" (*, †, ‡, §). */
  format: string;
  /** w:numStart (§17.11.20). */
  start: number;
  /** w:numRestart (§17.11.19); eachPage is counted continuously (the reader does not know pages). */
  restart: 'continuous' | 'eachSect' | 'eachPage';
}

export const DEFAULT_FOOTNOTE_NUMBERING: NoteNumbering = { format: 'decimal', start: 1, restart: 'continuous' };
export const DEFAULT_ENDNOTE_NUMBERING: NoteNumbering = { format: 'lowerRoman', start: 1, restart: 'continuous' };

/** What one w:footnotePr / w:endnotePr says; what it leaves out comes from the level above. */
export function readNoteNumbering(properties: XmlElement | undefined): Partial<NoteNumbering> {
  const out: Partial<NoteNumbering> = {};
  const format = child(properties, 'w:numFmt')?.attributes['w:val'];
  if (format) out.format = format;
  const start = integer(child(properties, 'w:numStart')?.attributes['w:val']);
  if (start !== undefined && start >= 0) out.start = start;
  const restart = child(properties, 'w:numRestart')?.attributes['w:val'];
  if (restart === 'continuous' || restart === 'eachSect' || restart === 'eachPage') out.restart = restart;
  return out;
}

/** Per section: its footnotePr and endnotePr over the document's. */
export interface SectionNoteNumbering {
  footnote: Partial<NoteNumbering>;
  endnote: Partial<NoteNumbering>;
}

export interface NumberedNotes {
  /** The mark each note shows (its w:footnoteRef / w:endnoteRef), by kind and note id. */
  marks: Record<NoteKind, Map<string, string>>;
  /** Note ids referenced from the body, in document order. */
  referenced: Record<NoteKind, string[]>;
}

/**
 * Gives every note reference of the body its mark, walking the sections in order (paragraphs,
 * table cells and text boxes flattened into paragraphs are all in the model by then).
 */
export function numberNoteReferences(
  sections: Section[],
  perSection: SectionNoteNumbering[],
  document: Record<NoteKind, NoteNumbering>,
  customMarks: ReadonlySet<NoteReferenceInline>,
  warn: (message: string) => void,
): NumberedNotes {
  const result: NumberedNotes = {
    marks: { footnote: new Map(), endnote: new Map() },
    referenced: { footnote: [], endnote: [] },
  };
  const counters: Record<NoteKind, number> = { footnote: 0, endnote: 0 };
  sections.forEach((section, index) => {
    const numbering: Record<NoteKind, NoteNumbering> = {
      footnote: { ...document.footnote, ...perSection[index]?.footnote },
      endnote: { ...document.endnote, ...perSection[index]?.endnote },
    };
    for (const kind of ['footnote', 'endnote'] as const) {
      if (index === 0 || numbering[kind].restart === 'eachSect') counters[kind] = numbering[kind].start;
    }
    walkReferences(section.blocks, (reference) => {
      const kind = reference.note;
      if (!result.marks[kind].has(reference.id)) result.referenced[kind].push(reference.id);
      if (customMarks.has(reference)) {
        if (!result.marks[kind].has(reference.id)) result.marks[kind].set(reference.id, reference.mark);
        return;
      }
      const settings = numbering[kind];
      if (settings.restart === 'eachPage') {
        warn(`${kind === 'footnote' ? 'Footnotes' : 'Endnotes'} numbered anew on each page are numbered continuously.`);
      }
      reference.mark = formatNoteNumber(counters[kind]++, settings.format);
      if (!result.marks[kind].has(reference.id)) result.marks[kind].set(reference.id, reference.mark);
    });
  });
  return result;
}

/**
 * Indexed loops, not for…of: this visits every inline of the document, and the iterators for…of
 * made here were a large share of what the read stage allocated on a large document.
 */
function walkReferences(blocks: Block[], visit: (reference: NoteReferenceInline) => void): void {
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b] as Block;
    if (block.kind === 'table') {
      const rows = block.rows;
      for (let r = 0; r < rows.length; r++) {
        const cells = (rows[r] as (typeof rows)[number]).cells;
        for (let c = 0; c < cells.length; c++) walkReferences((cells[c] as (typeof cells)[number]).blocks, visit);
      }
      continue;
    }
    const inlines = block.inlines;
    for (let i = 0; i < inlines.length; i++) {
      const inline = inlines[i] as (typeof inlines)[number];
      if (inline.kind === 'noteReference') visit(inline);
    }
  }
}

const CHICAGO = ['*', '\u2020', '\u2021', '\u00a7'];

/** A note number in its format; "chicago" repeats *, †, ‡, § (1–4, then **, ††…). */
export function formatNoteNumber(value: number, format: string): string {
  if (format === 'chicago') return repeatedSymbol(value, CHICAGO);
  return formatNumber(value, format === 'bullet' ? 'decimal' : format);
}
