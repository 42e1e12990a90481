/**
 * Readers (front door of src/engine/read): DOCX (OOXML), HTML, Markdown, images and metafiles, and the
 * ZIP container, each turning bytes into the model.
 */
export {
  type HtmlReadOptions,
  type ImageLoader,
  type LoadedImage,
  PAPER_SIZES,
  type PaperMargins,
  type PaperSize,
  readHtml,
  UNIT_POINTS,
} from './html';
export {
  decodePngPixels,
  encodePng,
  isSvg,
  PixelBudget,
  type PngInfo,
  pngInflatedSize,
  readPngInfo,
  renderSvg,
  sniffImageFormat,
  svgHasRatioOnly,
  unfilter,
} from './images';
export { renderMarkdown } from './markdown';
export { MARKUP_STYLES_XML, markupStyleCascade } from './markup';
export {
  checkImage,
  checkPngsAhead,
  DEFAULT_XML_LIMITS,
  decodeXmlBytes,
  EIGHTHS_PER_POINT,
  EMU_PER_POINT,
  HALF_POINTS_PER_POINT,
  type OpcPackage,
  openPackage,
  type PackageLimits,
  type ParagraphContext,
  type ParagraphDelta,
  PartError,
  parseXml,
  REVISION_MODES,
  type Relationship,
  type RevisionMode,
  readDocx,
  readPartsAhead,
  relationshipKind,
  relationshipsPartName,
  type StyleCascade,
  TWIPS_PER_POINT,
  type XmlParseOptions,
} from './ooxml';
export {
  DamagedZipError,
  type DeflatedEntry,
  deflateEntry,
  entryData,
  inflateExactly,
  listZipEntryNames,
  readZipDirectory,
  type ZipEntry,
  type ZipOutputEntry,
  zipEntries,
} from './zip';
