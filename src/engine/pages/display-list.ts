/**
 * Pages as a display list: the contract between the painters and the PDF writer. A page is its
 * size and its items (engine/layout/page-items.ts), in painting order; coordinates are in points
 * from the page's top-left corner, y growing downwards. The writer decides nothing about position;
 * tests can assert on pages without parsing a PDF.
 */
import type { FontFace } from '../fonts';
import type { PageItem } from '../layout';
import type { CoreProperties, ImageResource } from '../model';

export interface Page {
  width: number;
  height: number;
  items: PageItem[];
}

export interface OutlineEntry {
  title: string;
  /** 0 = top level. */
  level: number;
  page: number;
  y: number;
}

/** A picture drawn into items (a chart, a group of shapes): placed by its caller, with the faces its text uses. */
export interface RenderedDrawing {
  items: PageItem[];
  faces: FontFace[];
}

export interface LaidOutDocument {
  pages: Page[];
  outline: OutlineEntry[];
  metadata: CoreProperties;
  fonts: Record<string, FontFace>;
  images: Record<string, ImageResource>;
}
