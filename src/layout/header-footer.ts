/**
 * Headers and footers: which slot a page uses, their laid-out height (the body makes room for a
 * tall one) and their lines placed on the page. Laid out once per slot and width, painted per page
 * with that page's field values.
 */
import type { FontSet } from '../fonts/font-face';
import type { Block, DocumentModel, HeaderFooterSet, Section } from '../model/document';
import { flattenBlocks } from './flatten-blocks';
import { columnGeometry, type HeaderFooterMetrics, type PlacedLine } from './page-flow';
import { type LaidParagraph, layoutParagraph } from './paragraph-layout';

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
  private readonly cache = new Map<Block[], LaidParagraph[]>();
  private readonly model: DocumentModel;
  private readonly fonts: FontSet;

  constructor(model: DocumentModel, fonts: FontSet) {
    this.model = model;
    this.fonts = fonts;
  }

  private laid(blocks: Block[], section: Section): LaidParagraph[] {
    let laid = this.cache.get(blocks);
    if (!laid) {
      const { page } = section;
      const width = page.width - page.margins.left - page.margins.gutter - page.margins.right;
      laid = flattenBlocks(blocks).map((p) =>
        layoutParagraph(p, this.fonts, { areaWidth: width, defaultTabStop: this.model.settings.defaultTabStop }),
      );
      this.cache.set(blocks, laid);
    }
    return laid;
  }

  private static height(laid: LaidParagraph[]): number {
    let h = 0;
    laid.forEach((p, i) => {
      h +=
        (i > 0 ? p.spaceBefore : 0) +
        p.lines.reduce((sum, l) => sum + l.height, 0) +
        (i < laid.length - 1 ? p.spaceAfter : 0);
    });
    return h;
  }

  headerHeight(section: Section, page: PageSlotInfo): number {
    const blocks = slotFor(section.headers, section, page, this.model.settings.evenAndOddHeaders);
    return blocks ? HeaderFooterLayout.height(this.laid(blocks, section)) : 0;
  }

  footerHeight(section: Section, page: PageSlotInfo): number {
    const blocks = slotFor(section.footers, section, page, this.model.settings.evenAndOddHeaders);
    return blocks ? HeaderFooterLayout.height(this.laid(blocks, section)) : 0;
  }

  /** The header's lines from the header distance down, the footer's up to the footer distance. */
  place(kind: 'header' | 'footer', section: Section, page: PageSlotInfo): PlacedLine[] {
    const set = kind === 'header' ? section.headers : section.footers;
    const blocks = slotFor(set, section, page, this.model.settings.evenAndOddHeaders);
    if (!blocks) return [];
    const laid = this.laid(blocks, section);
    const [column] = columnGeometry({ ...section, columns: { count: 1, space: 0, separator: false } });
    const x = column?.x ?? section.page.margins.left;
    const width = column?.width ?? 0;
    let y =
      kind === 'header'
        ? section.page.margins.header
        : section.page.height - section.page.margins.footer - HeaderFooterLayout.height(laid);
    const placed: PlacedLine[] = [];
    laid.forEach((p, i) => {
      if (i > 0) y += p.spaceBefore;
      p.lines.forEach((line, index) => {
        placed.push({ line, x, top: y, laid: p, index, columnWidth: width });
        y += line.height;
      });
      y += p.spaceAfter;
    });
    return placed;
  }
}
