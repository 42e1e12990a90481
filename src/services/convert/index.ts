/**
 * Conversions (front door of src/services/convert): DOCX → PDF and Markdown/HTML → DOCX or PDF over the
 * engine, the engine's per-isolate resources, and file names and media types.
 */
export {
  convertDocxToPdf,
  type EngineResources,
  engineResources,
  type IsolateEngine,
  modelToPdf,
  REVISION_MODES,
} from './docx-to-pdf';
export { attachmentDisposition, baseName, DOCX_MEDIA_TYPE, formatFromFileName, PDF_MEDIA_TYPE } from './file-names';
export { convertMarkup } from './markup-convert';
export {
  marginsFit,
  NAMED_PAPERS,
  type Read,
  readBaseUrl,
  readBoolean,
  readMargins,
  readPageRanges,
  readPageSize,
} from './print-options';
