/**
 * A table's cell paragraphs are segmented twice: once when the grid finds each column's narrowest
 * width (paragraphMinimum), once when the cell is laid out. Segments do not depend on the width, so
 * the first segmentation is kept for the layout that follows, which takes it (and lets it go).
 * Owned by one conversion's page flow; bounded, because an autofit table's grid measures every
 * cell before the first row is laid out, and a long table must not hold all its boxes at once.
 */
import type { FontSet } from '../fonts';
import type { Paragraph } from '../model';
import { paragraphSegments, type Segment } from './inline-boxes';

/** About a few hundred rows of a table: what is measured beyond it is segmented again when laid. */
const CAPACITY = 4096;

export class MeasuredSegments {
  readonly #byParagraph = new Map<Paragraph, Segment[]>();
  readonly #fonts: FontSet;

  constructor(fonts: FontSet) {
    this.#fonts = fonts;
  }

  /** The paragraph's segments, kept for take() while there is room. */
  measure(paragraph: Paragraph): Segment[] {
    let segments = this.#byParagraph.get(paragraph);
    if (!segments) {
      segments = paragraphSegments(paragraph, this.#fonts);
      if (this.#byParagraph.size < CAPACITY) this.#byParagraph.set(paragraph, segments);
    }
    return segments;
  }

  /** The segments measure() kept for the paragraph, forgotten here: its layout is their last use. */
  take(paragraph: Paragraph): Segment[] | undefined {
    const segments = this.#byParagraph.get(paragraph);
    if (segments) this.#byParagraph.delete(paragraph);
    return segments;
  }
}
