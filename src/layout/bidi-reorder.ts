/**
 * Bidirectional text per line (UAX #9): a line is broken in logical order, then its fragments are
 * put in visual order (rule L2) and, in a right-to-left paragraph (w:bidi), mirrored so that the
 * paragraph's start is its right edge. Word reads w:jc left/right and w:ind left/right of a bidi
 * paragraph as start/end (ECMA-376 Part 1 §17.3.1.6, §17.3.1.13), so laying the line out as if
 * it ran left to right and mirroring it gives those semantics. Within a fragment, fontkit shapes
 * right-to-left scripts into visual order itself.
 */
import bidiFactory from 'bidi-js';
import type { Fragment } from './paragraph-layout';

/** Strong right-to-left characters: Hebrew, Arabic, Syriac, Thaana, NKo… and their presentation forms. */
const RTL_CHARS = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]|\uD802[\uDC00-\uDFFF]|\uD803[\uDC00-\uDFFF]/;

/** The UAX #9 implementation; its tables are built once, on first use (immutable afterwards). */
let bidi: ReturnType<typeof bidiFactory> | undefined;

/** Stands for a tab, picture or field in the text given to the algorithm (an ON neutral). */
const OBJECT = '\uFFFC';

/** True when `text` has a strong right-to-left character (RTL_CHARS), all of which are at U+0590 or above. */
export function hasRightToLeft(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x0590) return RTL_CHARS.test(text);
  return false;
}

function fragmentText(fragment: Fragment): string {
  return fragment.box.kind === 'text' && fragment.text !== '' ? fragment.text : OBJECT;
}

/**
 * Puts a line's fragments (logical order, x laid out left to right within `areaWidth`) in
 * visual order. Lines of a left-to-right paragraph without right-to-left text come back as they are.
 */
export function reorderLine(fragments: Fragment[], rtlParagraph: boolean, areaWidth: number): Fragment[] {
  if (fragments.length === 0) return fragments;
  const texts = fragments.map(fragmentText);
  if (!rtlParagraph && !texts.some(hasRightToLeft)) return fragments;
  bidi ??= bidiFactory();
  const line = texts.join('');
  const { levels } = bidi.getEmbeddingLevels(line, rtlParagraph ? 'rtl' : 'ltr');
  const base = rtlParagraph ? 1 : 0;
  // A text fragment whose characters resolve to several levels ("attributes!" at the end of a
  // right-to-left paragraph: the "!" takes the paragraph's direction) is split where the level
  // changes; white space takes the level before it (it hangs with its word).
  const split: Fragment[] = [];
  const fragmentLevels: number[] = [];
  let offset = 0;
  fragments.forEach((fragment, index) => {
    const text = texts[index] as string;
    const start = offset;
    offset += text.length;
    // Nearly every fragment is at one level: one run, nothing to split.
    const first = levels[start] ?? base;
    let oneLevel = true;
    for (let i = 1; i < text.length && oneLevel; i++) oneLevel = (levels[start + i] ?? base) === first;
    if (oneLevel) {
      split.push(fragment);
      fragmentLevels.push(text.length > 0 ? first : base);
      return;
    }
    const runs: { from: number; to: number; level: number }[] = [];
    for (let i = 0; i < text.length; i++) {
      const level = levels[start + i] ?? base;
      const last = runs[runs.length - 1];
      if (last && (last.level === level || /\s/.test(text[i] as string))) last.to = i + 1;
      else runs.push({ from: i, to: i + 1, level });
    }
    if (runs.length <= 1 || fragment.box.kind !== 'text') {
      split.push(fragment);
      fragmentLevels.push(runs[0]?.level ?? base);
      return;
    }
    const { box } = fragment;
    let x = fragment.x;
    for (const run of runs) {
      const part = text.slice(run.from, run.to);
      const width = box.face.measure(part) * box.size + box.props.characterSpacing * [...part].length;
      split.push({ ...fragment, text: part, x, width });
      fragmentLevels.push(run.level);
      x += width;
    }
  });
  fragments = split;

  // Slots as laid out, left to right: mirrored for a right-to-left paragraph.
  const slots = fragments.map((f) => (rtlParagraph ? { x: areaWidth - f.x - f.width, width: f.width } : f));
  const byPosition = slotOrder(slots);

  // L2: from the highest level down to the lowest odd one, reverse every run at or above it.
  // A right-to-left paragraph is laid out mirrored, which already reverses everything once.
  const order = fragments.map((_, i) => i);
  if (rtlParagraph) order.reverse();
  const levelsInOrder = order.map((i) => fragmentLevels[i] ?? base);
  const highest = Math.max(...levelsInOrder);
  const lowestOdd = rtlParagraph ? 2 : 1;
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length; ) {
      // In the mirrored line, a run at level ≥ 2 reads reversed: reverse it back (and so on up).
      const at = (k: number) => levelsInOrder[k] ?? base;
      if (at(i) < level) {
        i++;
        continue;
      }
      let end = i;
      while (end < order.length && at(end) >= level) end++;
      reverseRange(order, i, end);
      reverseRange(levelsInOrder, i, end);
      i = end;
    }
  }

  // Place fragments in visual order, keeping the laid-out gaps (tabs, justification) between slots.
  // A gap is measured from the furthest right edge so far: a zero-width fragment (an empty field
  // result) at the same place as a tab must not count the tab's width again.
  const out: Fragment[] = [];
  const first = slots[byPosition[0] ?? 0];
  let x = first?.x ?? 0;
  let reach = x;
  for (let k = 0; k < order.length; k++) {
    const index = order[k] ?? 0;
    const fragment = fragments[index] as Fragment;
    const moved: Fragment = { ...fragment, x };
    if ((fragmentLevels[index] ?? base) % 2 === 1) moved.rtl = true;
    out.push(moved);
    const slot = slots[byPosition[k] ?? 0];
    const next = slots[byPosition[k + 1] ?? -1];
    if (slot) reach = Math.max(reach, slot.x + slot.width);
    const gap = next ? Math.max(0, next.x - reach) : 0;
    x += fragment.width + gap;
  }
  return out;
}

/**
 * Slot indices by x, ties in index order (a stable sort's): slots are laid out left to right, or
 * mirrored right to left, so mostly already in one order or the other.
 */
function slotOrder(slots: readonly { x: number }[]): number[] {
  const order = slots.map((_, i) => i);
  let ascending = true;
  let descending = true;
  for (let i = 1; i < slots.length; i++) {
    const before = slots[i - 1]?.x ?? 0;
    const after = slots[i]?.x ?? 0;
    if (after < before) ascending = false;
    if (after >= before) descending = false;
  }
  if (ascending) return order;
  // Strictly descending: no ties, so the sort would reverse it.
  if (descending) return order.reverse();
  return order.sort((a, b) => (slots[a]?.x ?? 0) - (slots[b]?.x ?? 0));
}

function reverseRange<T>(values: T[], from: number, to: number): void {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const swap = values[i] as T;
    values[i] = values[j] as T;
    values[j] = swap;
  }
}
