/**
 * HTML → model (front door of src/engine/read/html): parse5's tree with the cascade of the markup
 * styles, images through the loader the caller gives.
 */

export { UNIT_POINTS } from './css-values';
export { type HtmlReadOptions, PAPER_SIZES, type PaperMargins, type PaperSize, readHtml } from './html-reader';
export type { ImageLoader, LoadedImage, NaturalSize } from './image-loader-contract';
