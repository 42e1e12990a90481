/**
 * A Windows metafile picture (EMF or WMF) as plain drawing commands, read once by
 * src/metafile and placed by src/engine/layout/metafile-layout.ts. Coordinates are picture units from the
 * picture's top-left corner, y growing downwards; the picture spans width × height of them and
 * layout stretches that onto the picture's box. Text stays text (the font stage loads its faces,
 * the PDF carries extractable characters).
 */
import type { ImageResource } from './document';

/** One step of a path: move, line, cubic Bézier curve (control points then end), close. */
export type MetafilePathCommand =
  | { op: 'M' | 'L'; x: number; y: number }
  | { op: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { op: 'Z' };

export interface MetafilePath {
  kind: 'path';
  commands: MetafilePathCommand[];
  /** 6-digit hex RGB. */
  fill?: string;
  stroke?: string;
  /** Picture units. */
  strokeWidth?: number;
  dash?: number[];
  /** GDI's ALTERNATE polygon fill mode (the default): even-odd rather than non-zero winding. */
  evenOdd?: boolean;
}

export interface MetafileFont {
  family: string;
  bold: boolean;
  italic: boolean;
}

export interface MetafileText {
  kind: 'text';
  /** Reference point, picture units; what it marks is said by align and valign. */
  x: number;
  y: number;
  text: string;
  font: MetafileFont;
  /** Em size in picture units, or the cell height (ascent + descent) when `cellHeight`. */
  size: number;
  cellHeight: boolean;
  color: string;
  align: 'left' | 'center' | 'right';
  valign: 'top' | 'baseline' | 'bottom';
  /** Degrees counter-clockwise about the reference point. */
  angle: number;
  /** The advance the metafile gives the whole string (its Dx array), picture units. */
  width?: number;
  underline: boolean;
}

export interface MetafileImage {
  kind: 'image';
  x: number;
  y: number;
  width: number;
  height: number;
  image: ImageResource;
  /** The bitmap is mirrored (drawn through a transform that flips an axis, as GDI does). */
  flipX: boolean;
  flipY: boolean;
}

export type MetafileItem = MetafilePath | MetafileText | MetafileImage;

export interface MetafilePicture {
  format: 'emf' | 'wmf';
  width: number;
  height: number;
  items: MetafileItem[];
}
