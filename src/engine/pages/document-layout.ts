/**
 * The entry of layout and pages: a document model and its loaded fonts in, pages as a display list
 * out (docs/engine.md "One pipeline"). The body is flowed by engine/layout (page-flow.ts; field
 * values are not needed for that: their width is measured from Word's cached result), and each
 * page painted here into a display list as soon as the flow finishes it, unless its fields need
 * the whole document (NUMPAGES, SECTIONPAGES, a PAGEREF forward): then it waits for the end of
 * the flow, and every page after it too.
 */

import type { Budget } from '../../limits';
import type { FontFace, FontSet } from '../fonts';
import {
  type Arranged,
  flowDocument,
  HeaderFooterLayout,
  type PageFrame,
  type PageItem,
  type PlacedLine,
  sizeCssTables,
} from '../layout';
import type { DocumentModel, FieldInline, PageGeometry, Section } from '../model';
import type { LaidOutDocument, OutlineEntry, Page } from './display-list';
import { DrawingRenderer } from './drawing-layout';
import { type FieldValues, fieldResult, paintLine, paintParagraphFrames, RevisionPalette } from './line-painter';
import { drawPictures } from './metafile-layout';
import { OffPageReport } from './off-page';
import { turnCellItems } from './turned-cell';
import { verticalItems, virtualPage } from './vertical-text';

/**
 * How tracked changes show is not an option here: the reader decided it (revisions=markup leaves
 * marks in the model, final and original leave none), and the painter draws the marks it finds.
 */
export interface LayoutOptions {
  /** The request's pages and time (src/limits.ts), counted as each page is finished. */
  budget?: Budget;
}

/** Adds the page's bookmarks to `pages` (bookmark → page number), the first occurrence winning. */
function noteBookmarks(frame: PageFrame, pages: Map<string, number>, formats: Map<string, string>): void {
  const format = frame.section.pageNumbering.format;
  for (const placed of [...frame.lines, ...frame.notes]) {
    for (const f of placed.line.fragments) {
      if (!f.box.anchor || pages.has(f.box.anchor)) continue;
      pages.set(f.box.anchor, frame.number);
      if (format !== 'decimal') formats.set(f.box.anchor, format);
    }
  }
}

/**
 * Whether a field on these lines shows what is known only once the whole document has flowed:
 * NUMPAGES, SECTIONPAGES, or the page of a bookmark not met yet (a PAGEREF forward).
 */
function needsWholeDocument(lines: readonly PlacedLine[], bookmarkPages: ReadonlyMap<string, number>): boolean {
  for (const placed of lines) {
    for (const { box } of placed.line.fragments) {
      const field = box.field;
      if (!field || field.field === 'PAGE') continue;
      if (field.field !== 'PAGEREF' || (field.argument !== undefined && !bookmarkPages.has(field.argument)))
        return true;
    }
  }
  return false;
}

function paragraphText(frame: PageFrame['lines'][number]): string {
  return frame.laid.paragraph.inlines
    .map((i) => (i.kind === 'text' ? i.text : i.kind === 'tab' ? ' ' : ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

export function layoutDocument(model: DocumentModel, fonts: FontSet, options: LayoutOptions = {}): LaidOutDocument {
  const pages: Page[] = [];
  const rest = layoutPages(model, fonts, options, (page) => pages.push(page));
  return { pages, ...rest };
}

/**
 * Receives each page's display list as soon as it is laid out, in order, with the faces its text
 * uses (among others): the painter can write it and let it go (paint-pdf.ts PdfPainter).
 */
export type PageSink = (page: Page, faces: Readonly<Record<string, FontFace>>) => void;

/** layoutDocument, handing the pages to `sink` one by one instead of keeping them. */
export function layoutPages(
  model: DocumentModel,
  fonts: FontSet,
  options: LayoutOptions,
  sink: PageSink,
): Omit<LaidOutDocument, 'pages'> {
  // HTML and Markdown tables get their columns from their content (CSS table layout) before
  // anything reads their grid; a no-op when the service did it already for the DOCX writer.
  sizeCssTables(model, fonts);
  // Vertical sections flow on their page turned a quarter turn and are turned back when painted.
  const physicalPages = new Map<Section, PageGeometry>();
  if (model.sections.some((section) => section.page.vertical)) {
    const sections = model.sections.map((section) => {
      if (!section.page.vertical) return section;
      const turned = { ...section, page: virtualPage(section.page) };
      physicalPages.set(turned, section.page);
      return turned;
    });
    model = { ...model, sections };
  }
  const headerFooter = new HeaderFooterLayout(model, fonts);
  const anchors = new Map<string, number>();
  const anchorFormats = new Map<string, string>();
  const palette = new RevisionPalette();
  const renderer = new DrawingRenderer(fonts, model.settings.defaultTabStop);
  const sectionPageCounts = new Map<number, number>();
  let pageCount = 0;

  const outline: OutlineEntry[] = [];
  const faces: Record<string, FontFace> = {};
  const pictures = model.pictures ?? {};
  // Raster images plus the bitmaps metafile pictures hold (metafile-layout.ts adds those).
  const images = { ...model.images };
  /** Pages handed to the sink so far. */
  let painted = 0;
  const offPage = new OffPageReport();
  const emit = (page: Page, lines: PlacedLine[][]) => {
    offPage.add(page, painted, lines);
    painted++;
    sink(page, faces);
  };
  const paintPage = (frame: PageFrame, values: FieldValues, header: Arranged, footer: Arranged): Page => {
    const { section } = frame;
    const pageIndex = painted;
    // Drawings behind the text (behindDoc) go under everything but the page's backgrounds.
    const under: PageItem[] = [];
    const paint = {
      markChanges: true,
      palette,
      changeBarX: section.page.margins.left + section.page.margins.gutter,
      faces,
      drawings: { renderer, page: section.page, under, positions: frame.floats },
    };
    // The page colour first, then table cell shading, under everything else on the page.
    const items: PageItem[] = [...frame.backgrounds, ...header.decorations, ...footer.decorations];
    if (model.background) {
      const { width, height } = physicalPages.get(section) ?? section.page;
      items.unshift({ kind: 'rect', x: 0, y: 0, width, height, fill: model.background });
    }
    const layersStart = items.length;
    for (const lines of [header.lines, frame.lines, frame.notes, footer.lines]) {
      const layer: PageItem[] = [];
      const upright: PlacedLine[] = [];
      for (const placed of lines) {
        if (!placed.turn) {
          paintLine(layer, placed, values, paint);
          upright.push(placed);
          continue;
        }
        // A vertical-text cell's line: painted in its unturned frame, then turned onto the page.
        const turned: PageItem[] = [];
        paintLine(turned, placed, values, paint);
        layer.push(...turnCellItems(turned, placed.turn, faces));
      }
      paintParagraphFrames(layer, upright);
      // Item by item, not spread as arguments: a header is never split across pages, and one of
      // 100,000 underlined characters paints more items than a call takes (a stack overflow).
      for (const item of layer) items.push(item);
    }
    for (const item of frame.rules) items.push(item);
    const ordered = [...items.slice(0, layersStart), ...under, ...items.slice(layersStart)];
    const physical = physicalPages.get(section);
    const pictured = drawPictures(ordered, pictures, fonts, faces, images);
    const drawn = physical ? verticalItems(pictured, physical, faces) : pictured;
    for (const placed of frame.lines) {
      const level = placed.laid.paragraph.props.outlineLevel;
      if (level !== undefined && level < 9 && placed.index === 0) {
        const title = paragraphText(placed);
        if (title) outline.push({ title, level, page: pageIndex, y: physical ? 0 : placed.top });
      }
    }
    const { width, height } = physical ?? section.page;
    return { width, height, items: drawn };
  };

  // A page is painted as soon as the flow finishes it, and its frame let go of, unless its fields
  // need the whole document; then it and every page after it (pages are painted in order: fonts,
  // authors' colours and the outline are numbered as they are met) wait for the end of the flow.
  /** Pages waiting for the end of the flow, with their header and footer if already placed. */
  const waiting: PageFrame[] = [];
  /**
   * The page's header and footer lines: laid out with the page's field values when they are
   * known (a right-aligned "Page 10 of 12" ends at the margin however wide Word's cached result
   * was), else with Word's cached results (enough to tell whether they need the whole document).
   */
  const placeHeaderFooter = (frame: PageFrame, values?: FieldValues) => {
    const slot = { firstOfSection: frame.firstOfSection, number: frame.number };
    const results = values && ((field: FieldInline) => fieldResult(field, values));
    return {
      header: headerFooter.arrange('header', frame.pageSection, slot, results),
      footer: headerFooter.arrange('footer', frame.pageSection, slot, results),
    };
  };
  const valuesFor = (frame: PageFrame): FieldValues => ({
    page: frame.number,
    pageFormat: frame.section.pageNumbering.format,
    numPages: pageCount,
    sectionPages: sectionPageCounts.get(frame.sectionIndex) ?? 1,
    bookmarkPages: anchors,
    bookmarkFormats: anchorFormats,
  });
  flowDocument(model, fonts, headerFooter, (frame) => {
    // Page boundaries are where a runaway document is stopped: past the page cap or the deadline.
    options.budget?.page();
    pageCount++;
    noteBookmarks(frame, anchors, anchorFormats);
    sectionPageCounts.set(
      frame.sectionIndex,
      Math.max(sectionPageCounts.get(frame.sectionIndex) ?? 0, frame.sectionPage),
    );
    if (waiting.length > 0) {
      waiting.push(frame);
      return;
    }
    const cached = placeHeaderFooter(frame);
    const early = [cached.header.lines, frame.lines, frame.notes, cached.footer.lines].every(
      (lines) => !needsWholeDocument(lines, anchors),
    );
    if (!early) {
      waiting.push(frame);
      return;
    }
    const values = valuesFor(frame);
    const { header, footer } = placeHeaderFooter(frame, values);
    emit(paintPage(frame, values, header, footer), [header.lines, frame.lines, frame.notes, footer.lines]);
  });
  for (const frame of waiting.splice(0)) {
    const values = valuesFor(frame);
    const { header, footer } = placeHeaderFooter(frame, values);
    emit(paintPage(frame, values, header, footer), [header.lines, frame.lines, frame.notes, footer.lines]);
  }

  model.warnings.push(...offPage.warnings());

  return {
    outline,
    metadata: { ...model.properties },
    fonts: faces,
    images,
  };
}
