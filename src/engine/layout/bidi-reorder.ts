/**
 * Bidirectional text per line (UAX #9): a line is broken in logical order, then its fragments are
 * put in visual order (rule L2) and, in a right-to-left paragraph (w:bidi), mirrored so that the
 * paragraph's start is its right edge. Word reads w:jc left/right and w:ind left/right of a bidi
 * paragraph as start/end (ECMA-376 Part 1 §17.3.1.6, §17.3.1.13), so laying the line out as if
 * it ran left to right and mirroring it gives those semantics. Within a fragment, fontkit shapes
 * right-to-left scripts into visual order itself.
 */
import bidiFactory from 'bidi-js';
import { hasRightToLeft, trailingWhiteSpaceStart } from '../text';
import type { Fragment } from './inline-boxes';

/** The UAX #9 implementation; its tables are built once, on first use (immutable afterwards). */
let bidi: ReturnType<typeof bidiFactory> | undefined;

/**
 * The character a right-to-left run shows in place of `char` (Bidi_Mirroring_Glyph, UAX #9 L4:
 * "(" as ")", "«" as "»"), or undefined for one that has none.
 */
export function mirroredCharacter(char: string): string | undefined {
  bidi ??= bidiFactory();
  return bidi.getMirroredCharacter(char) ?? undefined;
}

/** Stands for a tab or picture in the text given to the algorithm (an ON neutral). */
const OBJECT = '\uFFFC';

/**
 * Bidi types (UAX #9 Table 4) that, on a line of a right-to-left paragraph holding only them,
 * all resolve to the paragraph's level 1: R and AL are strong right to left; NSM takes the type
 * before it (or the paragraph's); with no EN or AN on the line, W4–W6 turn CS, ES and ET into
 * neutrals, and N1–N2 give neutrals (ON, WS, S) between right-to-left text and the line's edges
 * (whose direction is the paragraph's) the right-to-left direction. Such lines, most of a
 * right-to-left document's, need not run the whole algorithm.
 */
const PARAGRAPH_LEVEL_TYPES = new Set(['R', 'AL', 'NSM', 'ON', 'WS', 'S', 'CS', 'ES', 'ET']);

/**
 * Per UTF-16 unit: 0 not yet asked, 1 a PARAGRAPH_LEVEL_TYPES type, 2 any other (or a surrogate).
 * Filled as units are met; a function of the bidi tables alone, like them kept for the isolate
 * (64 KiB) rather than per conversion.
 */
const unitKinds = new Uint8Array(0x10000);

/** Whether every character of the texts has a type in PARAGRAPH_LEVEL_TYPES. */
export function allAtRightToLeftLevel(texts: readonly string[], algorithm: ReturnType<typeof bidiFactory>): boolean {
  for (const text of texts) if (!textAtRightToLeftLevel(text, algorithm)) return false;
  return true;
}

function textAtRightToLeftLevel(line: string, algorithm: ReturnType<typeof bidiFactory>): boolean {
  for (let i = 0; i < line.length; i++) {
    const unit = line.charCodeAt(i);
    let kind = unitKinds[unit];
    if (kind === 0) {
      const surrogate = unit >= 0xd800 && unit <= 0xdfff;
      kind = !surrogate && PARAGRAPH_LEVEL_TYPES.has(algorithm.getBidiCharTypeName(line[i] as string)) ? 1 : 2;
      unitKinds[unit] = kind;
    }
    if (kind !== 1) return false;
  }
  return true;
}

/**
 * A fragment's text as the algorithm sees it. A field counts as the text it shows: a page number
 * is digits (EN), which keep their left-to-right order in a right-to-left line (a table of
 * contents' "15" read "51" when the field stood for a neutral and took the line's direction).
 */
function fragmentText(fragment: Fragment): string {
  const kind = fragment.box.kind;
  return (kind === 'text' || kind === 'field') && fragment.text !== '' ? fragment.text : OBJECT;
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
  const base = rtlParagraph ? 1 : 0;
  if (rtlParagraph && allAtRightToLeftLevel(texts, bidi)) {
    return placeInOrder(fragments, new Array<number>(fragments.length).fill(base), rtlParagraph, areaWidth);
  }
  const { levels } = bidi.getEmbeddingLevels(texts.join(''), rtlParagraph ? 'rtl' : 'ltr');
  // A text fragment whose characters resolve to several levels ("attributes!" at the end of a
  // right-to-left paragraph: the "!" takes the paragraph's direction) is split where the level
  // changes. White space keeps its own level, but at the end of the line, where it takes the
  // level before it (it hangs with its word): between two words it separates them in visual
  // order too, and between two numbers of a right-to-left run ("6300 4") it resolves to the
  // run's direction (N1: numbers count as R), so that the numbers read right to left.
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
    const trailing = index === fragments.length - 1 ? trailingWhiteSpaceStart(text) : text.length;
    for (let i = 0; i < text.length; i++) {
      const level = levels[start + i] ?? base;
      const last = runs[runs.length - 1];
      if (last && (last.level === level || i >= trailing)) last.to = i + 1;
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
  return placeInOrder(split, fragmentLevels, rtlParagraph, areaWidth);
}

/**
 * Places a line's fragments, each at one bidi level (`fragmentLevels`, by index), in visual order
 * (rule L2), mirrored for a right-to-left paragraph.
 */
function placeInOrder(
  fragments: Fragment[],
  fragmentLevels: readonly number[],
  rtlParagraph: boolean,
  areaWidth: number,
): Fragment[] {
  const base = rtlParagraph ? 1 : 0;
  // Slots as laid out, left to right: mirrored for a right-to-left paragraph. Kept apart from
  // the fragments, whose x is set to their visual place below.
  const count = fragments.length;
  const slotX = new Float64Array(count);
  const slotWidth = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const f = fragments[i] as Fragment;
    slotX[i] = rtlParagraph ? areaWidth - f.x - f.width : f.x;
    slotWidth[i] = f.width;
  }
  const byPosition = slotOrder(slotX);

  // L2: from the highest level down to the lowest odd one, reverse every run at or above it.
  // A right-to-left paragraph is laid out mirrored, which already reverses everything once.
  const order = new Array<number>(count);
  const levelsInOrder = new Array<number>(count);
  let highest = 0;
  for (let k = 0; k < count; k++) {
    const index = rtlParagraph ? count - 1 - k : k;
    const level = fragmentLevels[index] ?? base;
    order[k] = index;
    levelsInOrder[k] = level;
    if (level > highest) highest = level;
  }
  const lowestOdd = rtlParagraph ? 2 : 1;
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < count; ) {
      // In the mirrored line, a run at level ≥ 2 reads reversed: reverse it back (and so on up).
      if ((levelsInOrder[i] as number) < level) {
        i++;
        continue;
      }
      let end = i;
      while (end < count && (levelsInOrder[end] as number) >= level) end++;
      reverseRange(order, i, end);
      reverseRange(levelsInOrder, i, end);
      i = end;
    }
  }

  // Place fragments in visual order, keeping the laid-out gaps (tabs, justification) between slots.
  // A gap is measured from the furthest right edge so far: a zero-width fragment (an empty field
  // result) at the same place as a tab must not count the tab's width again. The fragments are
  // the line's own (layoutParagraph and the split above made them), so they are moved in place.
  const out = new Array<Fragment>(count);
  let x = slotX[byPosition[0] ?? 0] ?? 0;
  let reach = x;
  for (let k = 0; k < count; k++) {
    const index = order[k] ?? 0;
    const fragment = fragments[index] as Fragment;
    fragment.x = x;
    if ((fragmentLevels[index] ?? base) % 2 === 1) fragment.rtl = true;
    out[k] = fragment;
    const slot = byPosition[k] ?? 0;
    reach = Math.max(reach, (slotX[slot] as number) + (slotWidth[slot] as number));
    const gap = k + 1 < count ? Math.max(0, (slotX[byPosition[k + 1] ?? 0] as number) - reach) : 0;
    x += fragment.width + gap;
  }
  return out;
}

/**
 * Slot indices by x, ties in index order (a stable sort's): slots are laid out left to right, or
 * mirrored right to left, so mostly already in one order or the other.
 */
function slotOrder(slotX: Float64Array): number[] {
  const order = new Array<number>(slotX.length);
  for (let i = 0; i < slotX.length; i++) order[i] = i;
  let ascending = true;
  let descending = true;
  for (let i = 1; i < slotX.length; i++) {
    const before = slotX[i - 1] as number;
    const after = slotX[i] as number;
    if (after < before) ascending = false;
    if (after >= before) descending = false;
  }
  if (ascending) return order;
  // Strictly descending: no ties, so the sort would reverse it.
  if (descending) return order.reverse();
  return order.sort((a, b) => (slotX[a] as number) - (slotX[b] as number));
}

function reverseRange<T>(values: T[], from: number, to: number): void {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const swap = values[i] as T;
    values[i] = values[j] as T;
    values[j] = swap;
  }
}
