/**
 * Footnotes at the foot of the page (ECMA-376 Part 1, §17.11; docs/engine.md "Notes"): the lines of the
 * notes referred to on a page, stacked up from the bottom of its body area under a separator rule,
 * and the lines of a note too long for its page carried on to the next. Page flow decides where
 * body content goes (page-flow.ts) and asks here how much room the notes take; the notes come out
 * as PlacedLines, so they paint like any body line.
 */
import type { Block, DocumentModel } from '../model';
import type { LineItem } from './page-items';
import type { LaidLine, LaidParagraph } from './paragraph-layout';
import type { PlacedLine } from './placed-line';

const EPSILON = 0.01;

/** One line of a note, waiting for its place. */
export interface NoteLine {
  laid: LaidParagraph;
  index: number;
  /** Paragraph spacing before the first line of a note paragraph and after its last (else 0). */
  before: number;
  after: number;
}

/**
 * Word's default separators (the separator and continuationSeparator notes of the notes parts): a
 * 2 in rule at the left of the column above the first note, in the space of one short line; above
 * the rest of a note continued from the page before, a rule across the whole column.
 */
export const NOTE_SEPARATOR = { height: 12, ruleOffset: 6, width: 144, weight: 0.5 } as const;

/** The lines of one note's paragraphs, in order. */
export function noteLines(paragraphs: LaidParagraph[]): NoteLine[] {
  const out: NoteLine[] = [];
  for (const laid of paragraphs) {
    const last = laid.lines.length - 1;
    laid.lines.forEach((_, index) => {
      out.push({
        laid,
        index,
        before: index === 0 ? laid.spaceBefore : 0,
        after: index === last ? laid.spaceAfter : 0,
      });
    });
  }
  return out;
}

/** The footnotes a line refers to (the ids of its reference marks), in order, each once. */
export function footnoteReferences(lines: Iterable<LaidLine>): string[] {
  const ids: string[] = [];
  for (const line of lines) {
    for (const fragment of line.fragments) {
      const note = fragment.box.note;
      if (note?.note === 'footnote' && !ids.includes(note.id)) ids.push(note.id);
    }
  }
  return ids;
}

/** Endnote ids in the order the body refers to them (Word prints endnotes in that order). */
export function endnoteOrder(model: DocumentModel): string[] {
  const ids: string[] = [];
  const walk = (blocks: Block[]) => {
    for (const block of blocks) {
      if (block.kind === 'table') {
        for (const row of block.rows) for (const cell of row.cells) walk(cell.blocks);
        continue;
      }
      for (const inline of block.inlines) {
        if (inline.kind === 'noteReference' && inline.note === 'endnote' && !ids.includes(inline.id))
          ids.push(inline.id);
      }
    }
  };
  for (const section of model.sections) walk(section.blocks);
  return ids;
}

/** The space a line takes below the one before it: its height and the paragraph spacing between them. */
function advanceOf(line: NoteLine, previous: NoteLine | undefined): number {
  const height = line.laid.lines[line.index]?.height ?? 0;
  return height + (previous ? Math.max(previous.after, line.before) : line.before);
}

/** The footnotes of one page: a stack of lines and its height. */
export class FootnoteArea {
  readonly lines: NoteLine[] = [];
  /** How many of the first lines continue a note split on the page before. */
  continued = 0;
  private stack = 0;

  /** Height taken from the body: the separator and the lines; 0 without notes. */
  get height(): number {
    return this.lines.length === 0 ? 0 : NOTE_SEPARATOR.height + this.stack;
  }

  /** The height with `extra` lines added after the present ones. */
  heightWith(extra: readonly NoteLine[]): number {
    let height = this.height === 0 && extra.length > 0 ? NOTE_SEPARATOR.height : this.height;
    let previous = this.lines[this.lines.length - 1];
    for (const line of extra) {
      height += advanceOf(line, previous);
      previous = line;
    }
    return height;
  }

  push(line: NoteLine): void {
    this.stack += advanceOf(line, this.lines[this.lines.length - 1]);
    this.lines.push(line);
  }

  pop(): NoteLine | undefined {
    const line = this.lines.pop();
    if (line) this.stack -= advanceOf(line, this.lines[this.lines.length - 1]);
    if (this.lines.length === 0) this.stack = 0;
    this.continued = Math.min(this.continued, this.lines.length);
    return line;
  }

  /** The lines placed up from `bottom` in the column at `x`, with the separator rule above them. */
  place(bottom: number, column: { x: number; width: number }): { lines: PlacedLine[]; rules: LineItem[] } {
    if (this.lines.length === 0) return { lines: [], rules: [] };
    const top = bottom - this.height;
    const rule: LineItem = {
      kind: 'line',
      x1: column.x,
      y1: top + NOTE_SEPARATOR.ruleOffset,
      x2: column.x + (this.continued > 0 ? column.width : Math.min(NOTE_SEPARATOR.width, column.width)),
      y2: top + NOTE_SEPARATOR.ruleOffset,
      width: NOTE_SEPARATOR.weight,
      color: '000000',
    };
    const placed: PlacedLine[] = [];
    let y = top + NOTE_SEPARATOR.height;
    let previous: NoteLine | undefined;
    for (const note of this.lines) {
      const line = note.laid.lines[note.index];
      if (!line) continue;
      y += previous ? Math.max(previous.after, note.before) : note.before;
      placed.push({ line, x: column.x, top: y, laid: note.laid, index: note.index, columnWidth: column.width });
      y += line.height;
      previous = note;
    }
    return { lines: placed, rules: [rule] };
  }
}

/** The footnotes some body content refers to that have no place yet, and their lines. */
export interface PendingNotes {
  ids: string[];
  lines: NoteLine[];
}

const NO_NOTES: PendingNotes = { ids: [], lines: [] };

/**
 * Footnotes through the pages: the current page's area, the notes that have a place (a note
 * referred to twice prints once), and the lines of a split note waiting for the next page.
 */
export class FootnoteFlow {
  private area = new FootnoteArea();
  private carry: NoteLine[] = [];
  private readonly placed = new Set<string>();
  /** The notes the last placed body line brought, so widow control can take both back. */
  private last: { line: PlacedLine; ids: string[]; count: number; split: boolean } | undefined;
  private bodyBottom = 0;
  private readonly linesOf: (id: string) => NoteLine[];

  /** `linesOf` lays out a note (by id) at the width of the footnote column. */
  constructor(linesOf: (id: string) => NoteLine[]) {
    this.linesOf = linesOf;
  }

  /** Height the notes take from the current page's body. */
  get height(): number {
    return this.area.height;
  }

  get isEmpty(): boolean {
    return this.area.lines.length === 0;
  }

  /** A new page: its area starts with the rest of notes split on the page before, as much as the body holds. */
  startPage(bodyTop: number, bodyBottom: number): void {
    this.area = new FootnoteArea();
    this.bodyBottom = bodyBottom;
    this.last = undefined;
    while (this.carry.length > 0) {
      const next = this.carry[0] as NoteLine;
      if (this.area.lines.length > 0 && this.area.heightWith([next]) > bodyBottom - bodyTop + EPSILON) break;
      this.carry.shift();
      this.area.push(next);
      this.area.continued++;
    }
  }

  /** The current page's notes, placed at the foot of its body area in the given column. */
  finishPage(column: { x: number; width: number }): { lines: PlacedLine[]; rules: LineItem[] } {
    const placed = this.area.place(this.bodyBottom, column);
    this.area = new FootnoteArea();
    return placed;
  }

  /** Lines of split notes still waiting for a page. */
  get waiting(): boolean {
    return this.carry.length > 0;
  }

  /** The footnotes these body lines refer to that have no place yet. */
  referencedBy(lines: Iterable<LaidLine>): PendingNotes {
    const ids = footnoteReferences(lines).filter((id) => !this.placed.has(id));
    return ids.length === 0 ? NO_NOTES : { ids, lines: ids.flatMap((id) => this.linesOf(id)) };
  }

  /** Whether body content down to `contentBottom` leaves room for these notes whole, on this page. */
  fits(contentBottom: number, notes: PendingNotes): boolean {
    return this.carry.length === 0 && contentBottom <= this.bodyBottom - this.area.heightWith(notes.lines) + EPSILON;
  }

  /** Body content placed on a page anyway: the continued notes there give way to it, to the next page. */
  makeRoom(contentBottom: number): void {
    while (this.area.continued > 0 && contentBottom > this.bodyBottom - this.area.height + EPSILON) {
      const line = this.area.pop();
      if (line) this.carry.unshift(line);
    }
  }

  /**
   * The notes of body content just placed (reaching down to `contentBottom`): whole when they fit,
   * else the lines that fit, the rest carried to the next page.
   */
  add(notes: PendingNotes, contentBottom: number, line: PlacedLine | undefined): void {
    this.last = undefined;
    if (notes.ids.length === 0) return;
    for (const id of notes.ids) this.placed.add(id);
    const before = this.area.lines.length;
    let split = false;
    for (const [i, note] of notes.lines.entries()) {
      if (this.carry.length === 0 && contentBottom <= this.bodyBottom - this.area.heightWith([note]) + EPSILON) {
        this.area.push(note);
        continue;
      }
      this.carry.push(...notes.lines.slice(i));
      split = true;
      break;
    }
    if (line) this.last = { line, ids: notes.ids, count: this.area.lines.length - before, split };
  }

  /** Takes back the notes `line` brought, if it was the last placed; false when they were split and cannot be. */
  takeBack(line: PlacedLine): boolean {
    const last = this.last?.line === line ? this.last : undefined;
    this.last = undefined;
    if (last === undefined) return true;
    if (last.split) return false;
    for (let i = 0; i < last.count; i++) this.area.pop();
    for (const id of last.ids) this.placed.delete(id);
    return true;
  }
}
