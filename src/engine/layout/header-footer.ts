/**
 * Headers and footers: which slot a page uses, their laid-out height (the body makes room for a
 * tall one) and their lines placed on the page. Laid out once per slot and width, painted per page
 * with that page's field values.
 */
import type { FontSet } from '../fonts';
import type { Block, DocumentModel, HeaderFooterSet, Section } from '../model';
import { columnGeometry, type HeaderFooterMetrics, placedCellLine } from './page-flow';
import type { LineItem, RectItem } from './page-items';
import { type LaidParagraph, layoutParagraph } from './paragraph-layout';
import type { PlacedLine } from './placed-line';
import { layoutTableSlices, offsetLine, type Slice } from './table';

/** A header or footer block laid out: a paragraph, or a table as its rows (src/engine/layout/table). */
type Stacked = { kind: 'paragraph'; laid: LaidParagraph } | { kind: 'table'; slices: Slice[]; height: number };

/** Placed header or footer content: lines, and the shading and borders of its tables. */
interface Arranged {
  lines: PlacedLine[];
  decorations: (RectItem | LineItem)[];
}

export interface PageSlotInfo {
  firstOfSection: boolean;
  number: number;
}

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

export class HeaderFooterLayout implements HeaderFooterMetrics {
  private readonly cache = new Map<Block[], Stacked[]>();
  /** The kinds whose clipping was already reported (one warning each, not one per page). */
  private readonly clippedWarned = new Set<'header' | 'footer'>();
  private readonly model: DocumentModel;
  private readonly fonts: FontSet;

  constructor(model: DocumentModel, fonts: FontSet) {
    this.model = model;
    this.fonts = fonts;
  }

  private laid(blocks: Block[], section: Section): Stacked[] {
    let laid = this.cache.get(blocks);
    if (!laid) {
      const { page } = section;
      const width = page.width - page.margins.left - page.margins.gutter - page.margins.right;
      const defaultTabStop = this.model.settings.defaultTabStop;
      const layout = (p: Parameters<typeof layoutParagraph>[0], areaWidth: number) =>
        layoutParagraph(p, this.fonts, {
          areaWidth,
          defaultTabStop,
          justifyByShrinking: this.model.settings.justifyByShrinking === true,
        });
      laid = blocks.map((block): Stacked => {
        if (block.kind === 'paragraph') return { kind: 'paragraph', laid: layout(block, width) };
        const slices = layoutTableSlices(block, width, { fonts: this.fonts, laid: layout });
        const last = slices[slices.length - 1];
        return { kind: 'table', slices, height: last ? last.y + last.height : 0 };
      });
      this.cache.set(blocks, laid);
    }
    return laid;
  }

  /**
   * The stack's height; `lastAfter`: with the space after its last paragraph. A header's counts
   * (Word makes room below the header for it, as LibreOffice's HEADER_SPACING_BELOW_LAST_PARA
   * does for Word documents: a header whose last paragraph has 24 pt after pushes the body down by
   * as much); a footer's does not, as it is set up from the footer distance.
   */
  private static height(laid: Stacked[], lastAfter = false): number {
    let h = 0;
    laid.forEach((entry, i) => {
      if (entry.kind === 'table') {
        h += entry.height;
        return;
      }
      const p = entry.laid;
      h +=
        (i > 0 ? p.spaceBefore : 0) +
        p.lines.reduce((sum, l) => sum + l.height, 0) +
        (i < laid.length - 1 || lastAfter ? p.spaceAfter : 0);
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

  /** The header's lines from the header distance down, the footer's up to the footer distance. */
  place(kind: 'header' | 'footer', section: Section, page: PageSlotInfo): PlacedLine[] {
    return this.arrange(kind, section, page).lines;
  }

  /** Shading and borders of the tables in the page's header or footer. */
  decorations(kind: 'header' | 'footer', section: Section, page: PageSlotInfo): (RectItem | LineItem)[] {
    return this.arrange(kind, section, page).decorations;
  }

  private arrange(kind: 'header' | 'footer', section: Section, page: PageSlotInfo): Arranged {
    const set = kind === 'header' ? section.headers : section.footers;
    const blocks = slotFor(set, section, page, this.model.settings.evenAndOddHeaders);
    const arranged: Arranged = { lines: [], decorations: [] };
    if (!blocks) return arranged;
    const laid = this.laid(blocks, section);
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
    laid.forEach((entry, i) => {
      if (entry.kind === 'table') {
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
      if (i > 0) y += p.spaceBefore;
      p.lines.forEach((line, index) => {
        const placed = { line, x, top: y, laid: p, index, columnWidth: width };
        if (onPage(placed)) arranged.lines.push(placed);
        y += line.height;
      });
      y += p.spaceAfter;
    });
    if (clipped && !this.clippedWarned.has(kind)) {
      this.clippedWarned.add(kind);
      this.model.warnings.push(
        `A ${kind} is taller than its page; what lies beyond the page's edge is not drawn. Shorten the ${kind} in Word to see all of it.`,
      );
    }
    return arranged;
  }
}
