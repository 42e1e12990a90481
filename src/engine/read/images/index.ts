/**
 * Raster and vector pictures (front door of src/engine/read/images): format sniffing, PNG/JPEG/GIF/
 * WebP/BMP/TIFF decoding into embeddable images under a pixel budget, SVG rasterizing.
 */
export { sniffImageFormat, toEmbeddableImage } from './embeddable-image';
export { PixelBudget } from './pixel-budget';
export { decodePngPixels, unfilter } from './png-decoder';
export { encodePng } from './png-encoder';
export { type PngDataCheck, type PngInfo, pngDataInflates, pngInflatedSize, readPngInfo } from './png-info';
export { imageLimits } from './raster';
export { isSvg, renderSvg, svgHasRatioOnly } from './svg-rasterizer';
