/**
 * What a page is drawn with: positioned text, lines, rectangles, paths, images, links and
 * destinations (pages/display-list.ts gathers them into pages). Coordinates are in points from the
 * page's top-left corner, y growing downwards; text `y` is the baseline. Declared here, in layout,
 * because layout places some of them itself (table rules and cell shading, the footnote separator,
 * header and footer decorations, the glyphs and rules of an equation), and a stage imports only
 * earlier ones; the painters in engine/pages draw everything else with the same items.
 */

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
  /**
   * The glyphs stretched along the baseline by this factor (WordArt fitted to its box): advances
   * and character spacing widen with them. Unset: 1.
   */
  scaleX?: number;
  /** The glyph outlines stroked over the fill (WordArt's outline), width in points. */
  outline?: { color: Color; width: number };
  /** The glyphs are not filled (WordArt with its fill off): only an outline, if any, shows. */
  unfilled?: boolean;
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
