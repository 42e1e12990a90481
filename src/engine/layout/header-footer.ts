/**
 * Headers and footers: which slot a page uses, their laid-out height (the body makes room for a
 * tall one) and their lines placed on the page. Laid out once per slot and width, and again per
 * page where they show a page's own field values (PAGE, NUMPAGES…), so that a right-aligned or
 * tabbed "Page 9 of 12" sits where Word puts it, not where the cached "Page 1 of 1" did. Text
 * frames (w:framePr, §17.3.1.11) take no room in the stack and sit at their own place: Word's
 * page-number gallery frames the PAGE field at a margin, beside the header's text.
 */
import type { FontSet } from '../fonts';
import type { Block, DocumentModel, FieldInline, HeaderFooterSet, Paragraph, ParagraphFrame, Section } from '../model';
import { columnGeometry, type HeaderFooterMetrics, placedCellLine } from './page-flow';
import type { LineItem, RectItem } from './page-items';
import { type LaidParagraph, layoutParagraph } from './paragraph-layout';
import type { PlacedLine } from './placed-line';
import { layoutTableSlices, offsetLine, type Slice } from './table';

/**
 * A header or footer block laid out: a paragraph, a table as its rows (src/engine/layout/table),
 * or a text frame: framed paragraphs laid out at the frame's width (or, for a frame as wide as its
 * text, at the column's, `left` and `width` then being where its text starts and how wide it is).
 */
type Stacked =
  | { kind: 'paragraph'; laid: LaidParagraph }
  | { kind: 'table'; slices: Slice[]; height: number }
  | { kind: 'frame'; frame: ParagraphFrame; laid: LaidParagraph[]; left: number; width: number; height: number };

/** Placed header or footer content: lines, and the shading and borders of its tables. */
export interface Arranged {
  lines: PlacedLine[];
  decorations: (RectItem | LineItem)[];
}

export interface PageSlotInfo {
  firstOfSection: boolean;
  number: number;
}

/** A page's value of a field (engine/pages supplies it: the page number, the page count…). */
export type FieldResult = (field: FieldInline) => string;

/** ECMA-376 §17.10.5: first page with titlePg, even pages with evenAndOddHeaders, else default. */
export function slotFor(
  set: HeaderFooterSet,
  section: Section,
  page: PageSlotInfo,
  evenAndOdd: boolean,
): Block[] | undefined {
  if (section.titlePage && page.firstOfSection) return set.first ?? [];
  if (evenAndOdd && page.number % 2 === 0) return set.even ?? [];
  return set.default;
}

const EPSILON = 0.01;

export class HeaderFooterLayout implements HeaderFooterMetrics {
  /** Laid out with Word's cached field results: what the body makes room for. */
  private readonly cache = new Map<Block[], Stacked[]>();
  /** Laid out with one page's field results, the last such per slot (pages come in order). */
  private readonly pageCache = new Map<Block[], { key: string; laid: Stacked[] }>();
  /** The kinds whose clipping was already reported (one warning each, not one per page). */
  private readonly clippedWarned = new Set<'header' | 'footer'>();
  private readonly model: DocumentModel;
  private readonly fonts: FontSet;

  constructor(model: DocumentModel, fonts: FontSet) {
    this.model = model;
    this.fonts = fonts;
  }

  private laid(blocks: Block[], section: Section, results?: FieldResult): Stacked[] {
    if (results !== undefined) {
      const values: string[] = [];
      collectFieldResults(blocks, results, values);
      // Without fields (most headers), a page's layout is the cached one.
      if (values.length > 0) {
        const key = values.join('\u0000');
        const last = this.pageCache.get(blocks);
        if (last?.key === key) return last.laid;
        const laid = this.layOut(withFieldResults(blocks, results), section);
        this.pageCache.set(blocks, { key, laid });
        return laid;
      }
    }
    let laid = this.cache.get(blocks);
    if (!laid) {
      laid = this.layOut(blocks, section);
      this.cache.set(blocks, laid);
    }
    return laid;
  }

  private layOut(blocks: Block[], section: Section): Stacked[] {
    const { page } = section;
    const width = page.width - page.margins.left - page.margins.gutter - page.margins.right;
    const defaultTabStop = this.model.settings.defaultTabStop;
    const layout = (p: Parameters<typeof layoutParagraph>[0], areaWidth: number) =>
      layoutParagraph(p, this.fonts, {
        areaWidth,
        defaultTabStop,
        justifyByShrinking: this.model.settings.justifyByShrinking === true,
      });
    const stacked: Stacked[] = [];
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i] as Block;
      if (block.kind === 'table') {
        const slices = layoutTableSlices(block, width, { fonts: this.fonts, laid: layout });
        const last = slices[slices.length - 1];
        stacked.push({ kind: 'table', slices, height: last ? last.y + last.height : 0 });
        continue;
      }
      const frame = block.props.frame;
      if (!frame) {
        stacked.push({ kind: 'paragraph', laid: layout(block, width) });
        continue;
      }
      // Neighbouring paragraphs with the same frame properties share one frame (§17.3.1.11).
      const members: Paragraph[] = [block];
      const same = JSON.stringify(frame);
      for (let next = blocks[i + 1]; next?.kind === 'paragraph' && next.props.frame; next = blocks[i + 1]) {
        if (JSON.stringify(next.props.frame) !== same) break;
        members.push(next);
        i++;
      }
      stacked.push(layOutFrame(members, frame, frame.width ?? width, layout));
    }
    return stacked;
  }

  /**
   * The stack's height; `lastAfter`: with the space after its last paragraph. A header's counts
   * (Word makes room below the header for it, as LibreOffice's HEADER_SPACING_BELOW_LAST_PARA
   * does for Word documents: a header whose last paragraph has 24 pt after pushes the body down by
   * as much); a footer's does not, as it is set up from the footer distance. Frames take no room.
   */
  private static height(laid: Stacked[], lastAfter = false): number {
    let h = 0;
    let first = true;
    let last = -1;
    laid.forEach((entry, i) => {
      if (entry.kind !== 'frame') last = i;
    });
    laid.forEach((entry, i) => {
      if (entry.kind === 'frame') return;
      if (entry.kind === 'table') {
        h += entry.height;
        first = false;
        return;
      }
      const p = entry.laid;
      h +=
        (first ? 0 : p.spaceBefore) +
        p.lines.reduce((sum, l) => sum + l.height, 0) +
        (i < last || lastAfter ? p.spaceAfter : 0);
      first = false;
    });
    return h;
  }

  headerHeight(section: Section, page: PageSlotInfo): number | undefined {
    const blocks = slotFor(section.headers, section, page, this.model.settings.evenAndOddHeaders);
    return blocks && blocks.length > 0 ? HeaderFooterLayout.height(this.laid(blocks, section), true) : undefined;
  }

  footerHeight(section: Section, page: PageSlotInfo): number | undefined {
    const blocks = slotFor(section.footers, section, page, this.model.settings.evenAndOddHeaders);
    return blocks && blocks.length > 0 ? HeaderFooterLayout.height(this.laid(blocks, section)) : undefined;
  }

  /**
   * The header's lines from the header distance down, the footer's up to the footer distance, and
   * the shading and borders of the tables in it; laid out with `results`, this page's field
   * values, when given.
   */
  arrange(kind: 'header' | 'footer', section: Section, page: PageSlotInfo, results?: FieldResult): Arranged {
    const set = kind === 'header' ? section.headers : section.footers;
    const blocks = slotFor(set, section, page, this.model.settings.evenAndOddHeaders);
    const arranged: Arranged = { lines: [], decorations: [] };
    if (!blocks) return arranged;
    const laid = this.laid(blocks, section, results);
    const [column] = columnGeometry({ ...section, columns: { count: 1, space: 0, separator: false } });
    const x = column?.x ?? section.page.margins.left;
    const width = column?.width ?? 0;
    let y =
      kind === 'header'
        ? section.page.margins.header
        : section.page.height - section.page.margins.footer - HeaderFooterLayout.height(laid);
    // A header or footer is never split across pages: what it holds beyond the page's edge is not
    // drawn (as in Word, where it would be off the sheet), so a page holds at most a page of it,
    // however long it is (100,000 characters of header were 200,000 items on every page).
    const pageHeight = section.page.height;
    let clipped = false;
    const onPage = (placed: PlacedLine): boolean => {
      const visible = placed.turn !== undefined || (placed.top < pageHeight && placed.top + placed.line.height > 0);
      if (!visible) clipped = true;
      return visible;
    };
    /** Frames waiting for the top of the paragraph they are anchored to (vAnchor text). */
    let waiting: Extract<Stacked, { kind: 'frame' }>[] = [];
    const placeFrames = (anchorTop: number) => {
      for (const frame of waiting) {
        for (const placed of framedLines(frame, section, { x, width }, anchorTop)) {
          if (onPage(placed)) arranged.lines.push(placed);
        }
      }
      waiting = [];
    };
    let first = true;
    laid.forEach((entry) => {
      if (entry.kind === 'frame') {
        waiting.push(entry);
        return;
      }
      if (entry.kind === 'table') {
        placeFrames(y);
        first = false;
        for (const slice of entry.slices) {
          const top = y + slice.y;
          if (top >= pageHeight || top + slice.height <= 0) {
            clipped = true;
            continue;
          }
          for (const entry of slice.lines) {
            const placed = placedCellLine(offsetLine(entry, x, top));
            if (placed && onPage(placed)) arranged.lines.push(placed);
          }
          for (const rect of slice.backgrounds) arranged.decorations.push({ ...rect, x: rect.x + x, y: rect.y + top });
          for (const rule of slice.rules) {
            arranged.decorations.push({
              ...rule,
              x1: rule.x1 + x,
              x2: rule.x2 + x,
              y1: rule.y1 + top,
              y2: rule.y2 + top,
            });
          }
        }
        y += entry.height;
        return;
      }
      const p = entry.laid;
      if (!first) y += p.spaceBefore;
      first = false;
      placeFrames(y);
      p.lines.forEach((line, index) => {
        const placed = { line, x, top: y, laid: p, index, columnWidth: width };
        if (onPage(placed)) arranged.lines.push(placed);
        y += line.height;
      });
      y += p.spaceAfter;
    });
    // Frames after the last paragraph have nothing to hang from but where the stack ends.
    placeFrames(y);
    if (clipped && !this.clippedWarned.has(kind)) {
      this.clippedWarned.add(kind);
      this.model.warnings.push(
        `A ${kind} is taller than its page; what lies beyond the page's edge is not drawn. Shorten the ${kind} in Word to see all of it.`,
      );
    }
    return arranged;
  }
}

/**
 * A frame's paragraphs laid out: at its width, or (a frame as wide as its text, w:w unset) at the
 * column's and measured: the frame is then as wide as its widest line's ink, from the leftmost
 * start of a line.
 */
function layOutFrame(
  members: Paragraph[],
  frame: ParagraphFrame,
  areaWidth: number,
  layout: (p: Paragraph, areaWidth: number) => LaidParagraph,
): Extract<Stacked, { kind: 'frame' }> {
  const laid = members.map((p) => layout(p, areaWidth));
  let height = 0;
  laid.forEach((p, i) => {
    height += (i > 0 ? p.spaceBefore : 0) + p.lines.reduce((sum, l) => sum + l.height, 0);
    if (i < laid.length - 1) height += p.spaceAfter;
  });
  if (frame.height !== undefined) {
    if (frame.heightRule === 'exact') height = frame.height;
    else if (frame.heightRule === 'atLeast') height = Math.max(height, frame.height);
  }
  if (frame.width !== undefined) return { kind: 'frame', frame, laid, left: 0, width: frame.width, height };
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (const p of laid) {
    for (const line of p.lines) {
      for (const fragment of line.fragments) {
        if (fragment.box.kind === 'anchor' || (fragment.box.kind === 'text' && fragment.text.trim() === '')) continue;
        left = Math.min(left, fragment.x);
        right = Math.max(right, fragment.x + fragment.width);
      }
    }
  }
  if (left > right) return { kind: 'frame', frame, laid, left: 0, width: 0, height };
  return { kind: 'frame', frame, laid, left, width: right - left, height };
}

/**
 * A frame's lines on the page (§17.3.1.11): across from the page's edge or the margins (hAnchor
 * text is the column: in a header, the margins), aligned (xAlign) or at an offset (x); down from
 * the page's top edge, the top margin or (vAnchor text) the top of the paragraph it is anchored
 * to, the one after it, aligned (yAlign) or at an offset (y).
 */
function framedLines(
  entry: Extract<Stacked, { kind: 'frame' }>,
  section: Section,
  column: { x: number; width: number },
  anchorTop: number,
): PlacedLine[] {
  const { frame, width, height } = entry;
  const { page } = section;
  const across = frame.x.from === 'page' ? { start: 0, size: page.width } : { start: column.x, size: column.width };
  let left = across.start + frame.x.offset;
  switch (frame.x.align) {
    case 'left':
    case 'inside':
      left = across.start;
      break;
    case 'center':
      left = across.start + (across.size - width) / 2;
      break;
    case 'right':
    case 'outside':
      left = across.start + across.size - width;
      break;
  }
  let top = anchorTop + frame.y.offset;
  if (frame.y.from !== 'text') {
    const down =
      frame.y.from === 'page'
        ? { start: 0, size: page.height }
        : { start: page.margins.top, size: page.height - page.margins.top - page.margins.bottom };
    top = down.start + frame.y.offset;
    if (frame.y.align === 'top' || frame.y.align === 'inside') top = down.start;
    else if (frame.y.align === 'center') top = down.start + (down.size - height) / 2;
    else if (frame.y.align === 'bottom' || frame.y.align === 'outside') top = down.start + down.size - height;
  }
  const placed: PlacedLine[] = [];
  // The lines were laid out from the column's left edge: `entry.left` is where the frame's text starts.
  const x = left - entry.left;
  let y = top;
  entry.laid.forEach((p, i) => {
    if (i > 0) y += p.spaceBefore;
    p.lines.forEach((line, index) => {
      if (y + line.height <= top + height + EPSILON || frame.heightRule !== 'exact') {
        placed.push({ line, x, top: y, laid: p, index, columnWidth: width + entry.left });
      }
      y += line.height;
    });
    y += p.spaceAfter;
  });
  return placed;
}

/** Each page-dependent field's result in `blocks` (tables' cells included), in order. */
function collectFieldResults(blocks: readonly Block[], results: FieldResult, out: string[]): void {
  for (const block of blocks) {
    if (block.kind === 'table') {
      for (const row of block.rows) for (const cell of row.cells) collectFieldResults(cell.blocks, results, out);
      continue;
    }
    for (const inline of block.inlines) if (inline.kind === 'field') out.push(results(inline));
  }
}

/**
 * The blocks with each field's cached result replaced by this page's (layout measures a field by
 * its cached result); what holds no field is shared, not copied.
 */
function withFieldResults(blocks: Block[], results: FieldResult): Block[] {
  let changed = false;
  const out = blocks.map((block): Block => {
    if (block.kind === 'table') {
      let rowsChanged = false;
      const rows = block.rows.map((row) => {
        let cellsChanged = false;
        const cells = row.cells.map((cell) => {
          const inner = withFieldResults(cell.blocks, results);
          if (inner === cell.blocks) return cell;
          cellsChanged = true;
          return { ...cell, blocks: inner };
        });
        if (!cellsChanged) return row;
        rowsChanged = true;
        return { ...row, cells };
      });
      if (!rowsChanged) return block;
      changed = true;
      return { ...block, rows };
    }
    if (!block.inlines.some((inline) => inline.kind === 'field')) return block;
    changed = true;
    return {
      ...block,
      inlines: block.inlines.map((inline) =>
        inline.kind === 'field' ? { ...inline, cached: results(inline) } : inline,
      ),
    };
  });
  return changed ? out : blocks;
}
