import { describe, expect, it } from 'vitest';
import type { LineItem, TextItem } from '../../../src/engine/layout/page-items';
import type { DocumentModel, Inline, NoteReferenceInline, Paragraph } from '../../../src/engine/model/document';
import type { LaidOutDocument } from '../../../src/engine/pages/display-list';
import { documentModel, filler, paragraph, runProps, section, text } from '../../helpers/model-builder';
import { bundledLayout } from './fallback-layout';

const layout = bundledLayout();

const NOTE_SIZE = 10;

function reference(id: string, note: 'footnote' | 'endnote' = 'footnote'): NoteReferenceInline {
  return { kind: 'noteReference', note, id, mark: id, props: runProps({ verticalAlign: 'superscript' }) };
}

/** A note as the reader gives it: 10 pt text after its own superscript mark. */
function noteBlocks(mark: string, body: string): Paragraph[] {
  return [
    paragraph([text(mark, { size: NOTE_SIZE, verticalAlign: 'superscript' }), text(` ${body}`, { size: NOTE_SIZE })]),
  ];
}

function texts(doc: LaidOutDocument, page: number): TextItem[] {
  return (doc.pages[page]?.items ?? []).filter((i): i is TextItem => i.kind === 'text');
}

/** Body text: 11 pt, not superscript marks. */
function bodyItems(doc: LaidOutDocument, page: number): TextItem[] {
  return texts(doc, page).filter((t) => t.size === 11);
}

function noteItems(doc: LaidOutDocument, page: number): TextItem[] {
  return texts(doc, page).filter((t) => t.size === NOTE_SIZE);
}

function rules(doc: LaidOutDocument, page: number): LineItem[] {
  return (doc.pages[page]?.items ?? []).filter((i): i is LineItem => i.kind === 'line');
}

function pageText(items: TextItem[]): string {
  return items.map((t) => t.text).join(' ');
}

function modelWith(blocks: Paragraph[], footnotes: Record<string, Paragraph[]>, endnotes = {}): DocumentModel {
  return { ...documentModel([section(blocks)]), notes: { footnotes, endnotes } };
}

describe('footnotes', () => {
  it('prints a footnote at the foot of the page holding its reference, under a separator, below the body', async () => {
    const blocks = [
      paragraph(filler(80)),
      paragraph([text('The claim'), reference('1') as Inline, text(' stands.')]),
      paragraph(filler(40, 'after')),
    ];
    const doc = await layout(modelWith(blocks, { '1': noteBlocks('1', 'Source of the claim.') }));
    expect(doc.pages).toHaveLength(1);
    const notes = noteItems(doc, 0);
    expect(pageText(notes)).toContain('Source of the claim.');
    const bodyBottom = Math.max(...bodyItems(doc, 0).map((t) => t.y));
    const noteTop = Math.min(...notes.map((t) => t.y));
    expect(noteTop).toBeGreaterThan(bodyBottom);
    // At the foot of the page: the note's last baseline within the bottom margin's edge (792 − 72).
    expect(Math.max(...notes.map((t) => t.y))).toBeGreaterThan(700);
    expect(Math.max(...notes.map((t) => t.y))).toBeLessThanOrEqual(720);
    // Word's separator: a short rule at the left margin between the body and the notes.
    const [rule] = rules(doc, 0);
    expect(rule).toMatchObject({ x1: 72, x2: 72 + 144 });
    expect(rule?.y1).toBeGreaterThan(bodyBottom);
    expect(rule?.y1).toBeLessThan(noteTop - 6);
    // The reference mark prints in the body as superscript text.
    expect(texts(doc, 0).some((t) => t.text === '1' && t.size < 11)).toBe(true);
  });

  it('ends the body above the notes, and moves lines whose notes do not fit to the next page', async () => {
    const count = 30;
    const blocks = Array.from({ length: count }, (_, i) =>
      paragraph([text(`Point ${i} `), text(filler(12)), reference(String(i + 1)) as Inline]),
    );
    const footnotes = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [String(i + 1), noteBlocks(String(i + 1), `Note${i + 1} ${filler(30)}`)]),
    );
    const withNotes = await layout(modelWith(blocks, footnotes));
    const withoutNotes = await layout(modelWith(blocks, {}));
    expect(withNotes.pages.length).toBeGreaterThan(withoutNotes.pages.length);

    const seen: number[] = [];
    withNotes.pages.forEach((_, page) => {
      const body = bodyItems(withNotes, page);
      const notes = noteItems(withNotes, page);
      const points = [...pageText(body).matchAll(/Point (\d+)/g)].map((m) => Number(m[1]));
      const noted = [...pageText(notes).matchAll(/Note(\d+)/g)].map((m) => Number(m[1]) - 1);
      // Every note on the page whose reference is on it, and only those.
      expect(noted).toEqual(points);
      seen.push(...points);
      if (notes.length > 0 && body.length > 0) {
        expect(Math.min(...notes.map((t) => t.y))).toBeGreaterThan(Math.max(...body.map((t) => t.y)) + 6);
      }
    });
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => i));
  });

  it('keeps both columns of a two-column page above the notes of a reference in the first', async () => {
    const blocks = Array.from({ length: 120 }, (_, i) =>
      i === 20 ? paragraph([text(`Line ${i}`), reference('1') as Inline]) : paragraph(`Line ${i}`),
    );
    const note = noteBlocks('1', `Column note ${filler(120)}`);
    const model = {
      ...documentModel([section(blocks, { columns: { count: 2, space: 36, separator: false } })]),
      notes: { footnotes: { '1': note }, endnotes: {} },
    };
    const doc = await layout(model);
    const page = doc.pages.findIndex((_, i) => pageText(bodyItems(doc, i)).includes('Line 20 '));
    expect(page).toBe(0);
    const notes = noteItems(doc, page);
    // Both columns are filled down to the notes.
    const columnTwo = bodyItems(doc, page).filter((t) => t.x > 306);
    expect(columnTwo.length).toBeGreaterThan(30);
    expect(pageText(notes)).toContain('Column note');
    // The note runs at the first column's width, below the lowest line of either column.
    expect(Math.min(...notes.map((t) => t.y))).toBeGreaterThan(Math.max(...bodyItems(doc, page).map((t) => t.y)));
    expect(Math.max(...notes.map((t) => t.x))).toBeLessThan(306);
  });

  it('splits a note too long for any page, continuing at the foot of the next under a full-width rule', async () => {
    const long = Array.from({ length: 150 }, (_, i) => `w${i}`).join(' ');
    const noteParagraphs = Array.from({ length: 12 }, (_, i) => paragraph([text(`Part${i} ${long}`, { size: 10 })]));
    const blocks = [
      paragraph([text('Reference here'), reference('1') as Inline]),
      ...Array.from({ length: 60 }, () => paragraph(filler(12))),
    ];
    const doc = await layout(modelWith(blocks, { '1': noteParagraphs }));
    expect(doc.pages.length).toBeGreaterThanOrEqual(2);
    expect(pageText(bodyItems(doc, 0))).toContain('Reference here');
    const first = pageText(noteItems(doc, 0));
    const second = pageText(noteItems(doc, 1));
    expect(first).toContain('Part0');
    expect(first).not.toContain('Part11');
    expect(second).toContain('Part11');
    // The page holding the reference is full of note; the body goes on above the rest of it.
    expect(bodyItems(doc, 1).length).toBeGreaterThan(0);
    expect(Math.min(...noteItems(doc, 1).map((t) => t.y))).toBeGreaterThan(
      Math.max(...bodyItems(doc, 1).map((t) => t.y)),
    );
    const [continuation] = rules(doc, 1);
    expect(continuation).toMatchObject({ x1: 72, x2: 540 });
    // Nothing is lost or printed twice.
    const all = doc.pages.flatMap((_, page) => pageText(noteItems(doc, page)).match(/Part\d+/g) ?? []);
    expect(all).toEqual(Array.from({ length: 12 }, (_, i) => `Part${i}`));
  });
});

describe('endnotes', () => {
  it('prints endnotes after the last section, in reference order, on the same page', async () => {
    const blocks = [
      paragraph([
        text('First'),
        reference('ii', 'endnote') as Inline,
        text(' and second'),
        reference('i', 'endnote') as Inline,
      ]),
      paragraph('The end of the body.'),
    ];
    const endnotes = { i: noteBlocks('ii', 'Second in order.'), ii: noteBlocks('i', 'First in order.') };
    const doc = await layout(modelWith(blocks, {}, endnotes));
    expect(doc.pages).toHaveLength(1);
    const notes = noteItems(doc, 0);
    const printed = pageText(notes);
    expect(printed.indexOf('First in order.')).toBeLessThan(printed.indexOf('Second in order.'));
    const bodyBottom = Math.max(...bodyItems(doc, 0).map((t) => t.y));
    expect(Math.min(...notes.map((t) => t.y))).toBeGreaterThan(bodyBottom);
    // Right after the body, not at the foot of the page.
    expect(Math.max(...notes.map((t) => t.y))).toBeLessThan(200);
    expect(rules(doc, 0)).toHaveLength(1);
  });
});
