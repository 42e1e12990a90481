/**
 * The contracts of `POST /v1/annotate` (docs/api.md): what a caller asks to fill, once validated by
 * the route, and what the template editor needs from the picture loader. Plain data; the core
 * (src/annotate/) knows nothing of HTTP.
 */

/** CSS pixels (96 per inch, docs/api.md), either side optional: with one, the other keeps the aspect. */
export interface PictureDimensions {
  width?: number;
  height?: number;
}

export type FieldTarget = { id: string; group?: undefined } | { group: string; id?: undefined };

export type FieldFill =
  | { type: 'text'; value: string; options: { keepTextNodeStyles: boolean } }
  | { type: 'image'; value: string; options: { dimensions?: PictureDimensions } }
  | { type: 'signature'; value: string; options: { dimensions?: PictureDimensions } }
  | { type: 'table'; value: string[][]; options: { copyRowStyle: boolean } }
  | { type: 'checkbox'; value: boolean };

export type AnnotateField = FieldTarget & FieldFill;

/** How a field is named in errors and warnings: `id "name"` or `group "g"`. */
export function fieldLabel(field: FieldTarget): string {
  return field.id !== undefined ? `id "${field.id}"` : `group "${field.group}"`;
}

/**
 * A picture ready to be placed in a DOCX: bytes Word reads natively (PNG, JPEG, GIF or BMP; WebP
 * converted to PNG), and for SVG the SVG itself beside a PNG rendering of it (Word 2016+ draws the
 * SVG, older readers and Quire's PDF engine the PNG: the asvg:svgBlip extension).
 */
export interface PreparedPicture {
  /** The raster the a:blip points to. */
  media: { bytes: Uint8Array; extension: 'png' | 'jpeg' | 'gif' | 'bmp'; contentType: string };
  /** The SVG original, when the value was SVG. */
  svg?: Uint8Array;
  /** Natural size in CSS pixels (for a raster: its pixels, or its DPI-scaled size). */
  width: number;
  height: number;
}

/**
 * Loads an image value (a data URI or an https URL through the guarded fetcher) for the field
 * named `label`. Rejects with ApiError 422 INVALID_DOCUMENT naming the field when the bytes are no
 * image it can decode, and with the fetcher's own errors for the URL.
 */
export type PictureLoader = (value: string, label: string) => Promise<PreparedPicture>;
