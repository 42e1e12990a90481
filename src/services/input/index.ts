/**
 * Documents in (front door of src/services/input): base64, URL fetch and upload, size limits, text
 * encodings and format sniffing, shared by every service.
 */
export { decodeBase64Document } from './base64-decoder';
export { dataUri, encodeBase64 } from './base64-encoder';
export { latin1 } from './byte-patterns';
export {
  type DocumentInput,
  DocumentInputSchema,
  type LoadDocumentOptions,
  type LoadedDocument,
  loadDocument,
  loadUpload,
  readUpload,
} from './document-input';
export { type DocumentFormat, expectFormat } from './format-sniffer';
export { documentTooLarge, formatBytes } from './size-limit';
export { decodeText } from './text-encoding';
export { DEFAULT_FETCH_TIMEOUT_MS, fetchDocument } from './url-fetcher';
