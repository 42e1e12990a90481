/**
 * Pages as a display list: the contract between layout and the PDF painter. Coordinates are in
 * points from the page's top-left corner, y growing downwards; text `y` is the baseline. The
 * painter decides nothing about position; tests can assert on pages without parsing a PDF.
 */
import type { FontFace } from '../fonts/font-face';
import type { CoreProperties, ImageResource } from '../model/document';

/** 6-digit hex RGB, e.g. "000000". */
export type Color = string;

export interface TextItem {
  kind: 'text';
  x: number;
  y: number;
  /** FontFace.key. */
  font: string;
  size: number;
  color: Color;
  /** The characters, in logical order: the painter encodes them with the face and maps ToUnicode. */
  text: string;
  /**
   * Right-to-left text (an odd bidi level, bidi-reorder.ts): the painter draws its words, and the
   * spaces between them, from the last to the first, each word shaped right to left.
   */
  rtl?: boolean;
  /** Extra space after each character (PDF Tc), points. */
  characterSpacing?: number;
  /** Rotation about (x, y), degrees counter-clockwise (a chart's vertical axis title: 90). */
  angle?: number;
}

export interface LineItem {
  kind: 'line';
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
  color: Color;
  dash?: number[];
}

export interface RectItem {
  kind: 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
  fill?: Color;
  stroke?: Color;
  strokeWidth?: number;
}

/** One step of a path: move, line, cubic Bézier curve (control points then end), close. */
export type PathCommand =
  | { op: 'M' | 'L'; x: number; y: number }
  | { op: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { op: 'Z' };

/** A vector shape: filled (non-zero winding), stroked, or both (chart bars, slices, shapes). */
export interface PathItem {
  kind: 'path';
  commands: PathCommand[];
  fill?: Color;
  stroke?: Color;
  strokeWidth?: number;
  dash?: number[];
  /** Fill by the even-odd rule instead (metafiles' ALTERNATE fill mode). */
  evenOdd?: boolean;
}

export interface ImageItem {
  kind: 'image';
  x: number;
  y: number;
  width: number;
  height: number;
  /** Key into LaidOutDocument.images. */
  image: string;
  /** Mirrored left to right / top to bottom within the box. */
  flipX?: boolean;
  flipY?: boolean;
}

export interface LinkItem {
  kind: 'link';
  x: number;
  y: number;
  width: number;
  height: number;
  target: { url: string } | { anchor: string };
}

/** A named destination (bookmark) that internal links and the outline point at. */
export interface AnchorItem {
  kind: 'anchor';
  name: string;
  y: number;
}

export type PageItem = TextItem | LineItem | RectItem | PathItem | ImageItem | LinkItem | AnchorItem;

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

export interface LaidOutDocument {
  pages: Page[];
  outline: OutlineEntry[];
  metadata: CoreProperties;
  fonts: Record<string, FontFace>;
  images: Record<string, ImageResource>;
}
