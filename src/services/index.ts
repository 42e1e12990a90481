/**
 * The services (front door of src/services), what the API calls: convert, annotate (fill templates),
 * merge, sign and verify, and the input loader they share. They know nothing of HTTP.
 */
export { AnnotateBodySchema, AnnotateQuerySchema, fillTemplate } from './annotate';
export {
  attachmentDisposition,
  baseName,
  convertDocxToPdf,
  convertMarkup,
  DOCX_MEDIA_TYPE,
  type EngineResources,
  engineResources,
  formatFromFileName,
  type IsolateEngine,
  marginsFit,
  NAMED_PAPERS,
  PDF_MEDIA_TYPE,
  REVISION_MODES,
  type Read,
  readBaseUrl,
  readBoolean,
  readMargins,
  readPageRanges,
  readPageSize,
} from './convert';
export { FontLibraryCache, readRequestFonts, requestFontLimits } from './fonts';
export {
  type DocumentFormat,
  type DocumentInput,
  DocumentInputSchema,
  dataUri,
  documentTooLarge,
  encodeBase64,
  expectFormat,
  type LoadedDocument,
  loadDocument,
  loadUpload,
  readUpload,
} from './input';
export {
  MAX_MERGE_DOCUMENTS,
  type MergedPdf,
  MIN_MERGE_DOCUMENTS,
  mergePdfs,
  type PdfMergeInput,
  type PdfMergeOptions,
} from './merge';
export { describeServiceCertificate, IdentityCache, resolveSignatureLevel, SignBodySchema, signDocument } from './sign';
export { verifyPdf } from './verify';
