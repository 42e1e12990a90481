/**
 * The layout stage's entry: a document model and its loaded fonts in, pages as a display list out
 * (ENGINE.md "One pipeline"). Two passes: flow the body (field values are not needed for that:
 * their width is measured from Word's cached result), then paint every page with its final page
 * numbers, NUMPAGES and PAGEREF targets known.
 */
import type { FontFace, FontSet } from '../fonts/font-face';
import type { DocumentModel, PageGeometry, Section } from '../model/document';
import type { LaidOutDocument, OutlineEntry, Page, PageItem } from './display-list';
import { DrawingRenderer } from './drawing-layout';
import { HeaderFooterLayout } from './header-footer';
import { type FieldValues, paintLine, paintParagraphFrames, RevisionPalette } from './line-painter';
import { drawPictures } from './metafile-layout';
import { flowDocument, type PageFrame, type PlacedLine } from './page-flow';
import { turnCellItems } from './table/turned-cell';
import { verticalItems, virtualPage } from './vertical-text';

export interface LayoutOptions {
  /** revisions=markup: insertions/deletions coloured with change bars. */
  markup: boolean;
}

function bookmarkPages(pages: PageFrame[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const page of pages) {
    for (const placed of [...page.lines, ...page.notes]) {
      for (const f of placed.line.fragments)
        if (f.box.anchor && !map.has(f.box.anchor)) map.set(f.box.anchor, page.number);
    }
  }
  return map;
}

function paragraphText(frame: PageFrame['lines'][number]): string {
  return frame.laid.paragraph.inlines
    .map((i) => (i.kind === 'text' ? i.text : i.kind === 'tab' ? ' ' : ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

export function layoutDocument(model: DocumentModel, fonts: FontSet, options: LayoutOptions): LaidOutDocument {
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
  const frames = flowDocument(model, fonts, headerFooter);
  const anchors = bookmarkPages(frames);
  const palette = new RevisionPalette();
  const renderer = new DrawingRenderer(fonts, model.settings.defaultTabStop);
  const sectionPageCounts = new Map<number, number>();
  for (const frame of frames)
    sectionPageCounts.set(
      frame.sectionIndex,
      Math.max(sectionPageCounts.get(frame.sectionIndex) ?? 0, frame.sectionPage),
    );

  const outline: OutlineEntry[] = [];
  const faces: Record<string, FontFace> = {};
  const pictures = model.pictures ?? {};
  // Raster images plus the bitmaps metafile pictures hold (metafile-layout.ts adds those).
  const images = { ...model.images };
  const pages: Page[] = frames.map((frame, pageIndex) => {
    const { section } = frame;
    const values: FieldValues = {
      page: frame.number,
      pageFormat: section.pageNumbering.format,
      numPages: frames.length,
      sectionPages: sectionPageCounts.get(frame.sectionIndex) ?? 1,
      bookmarkPages: anchors,
    };
    // Drawings behind the text (behindDoc) go under everything but the page's backgrounds.
    const under: PageItem[] = [];
    const paint = {
      markup: options.markup,
      palette,
      changeBarX: section.page.margins.left + section.page.margins.gutter,
      faces,
      drawings: { renderer, page: section.page, under, positions: frame.floats },
    };
    // Table cell shading goes under everything else on the page.
    const slot = { firstOfSection: frame.firstOfSection, number: frame.number };
    const items: PageItem[] = [
      ...frame.backgrounds,
      ...headerFooter.decorations('header', section, slot),
      ...headerFooter.decorations('footer', section, slot),
    ];
    const layersStart = items.length;
    for (const lines of [
      headerFooter.place('header', section, slot),
      frame.lines,
      frame.notes,
      headerFooter.place('footer', section, slot),
    ]) {
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
      items.push(...layer);
    }
    items.splice(layersStart, 0, ...under);
    items.push(...frame.rules);
    const physical = physicalPages.get(section);
    const pictured = drawPictures(items, pictures, fonts, faces, images);
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
  });

  return {
    pages,
    outline,
    metadata: { ...model.properties },
    fonts: faces,
    images,
  };
}
