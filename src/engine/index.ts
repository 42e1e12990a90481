/**
 * The document engine (front door of src/engine), the pipeline of docs/engine.md: readers → model →
 * fonts → layout → pages → writers. What services use of it, and nothing else; the engine knows
 * nothing of services or HTTP.
 */
export {
  callerFamilyKey,
  createFallbackFontCache,
  createFontCache,
  type FontCache,
  type FontLibrary,
  type FontSet,
  type FontStyle,
  type LibraryLookup,
  libraryFaceKey,
  loadFontSet,
  readFontFile,
  requestFaceKey,
  type SuppliedFont,
  styleClaim,
} from './fonts';
export { collectFontNeeds, hasCssTables, sizeCssTables } from './layout';
export {
  type Block,
  type Border,
  type DocumentModel,
  type Inline,
  type Paragraph,
  type ParagraphProperties,
  plainRunProperties,
  type RunProperties,
  type Section,
  type Table,
  type TableCell,
  type TableRow,
} from './model';
export { type LayoutOptions, layoutPages, type PageSink } from './pages';
export {
  checkImage,
  checkPngsAhead,
  DamagedZipError,
  DEFAULT_XML_LIMITS,
  decodeXmlBytes,
  entryData,
  type HtmlReadOptions,
  type ImageLoader,
  isSvg,
  type LoadedImage,
  listZipEntryNames,
  type OpcPackage,
  openPackage,
  PAPER_SIZES,
  type PackageLimits,
  type PaperMargins,
  type PaperSize,
  PartError,
  PixelBudget,
  parseXml,
  REVISION_MODES,
  type Relationship,
  type RevisionMode,
  readDocx,
  readHtml,
  readPartsAhead,
  readZipDirectory,
  relationshipKind,
  relationshipsPartName,
  renderMarkdown,
  renderSvg,
  sniffImageFormat,
  svgHasRatioOnly,
  unfilter,
  type XmlParseOptions,
  type ZipEntry,
  type ZipOutputEntry,
  zipEntries,
} from './read';
export { formatDate } from './text';
export { type DocumentParts, escapeAttribute, escapeText, PdfPainter, writeDocx, xmlChars } from './write';
