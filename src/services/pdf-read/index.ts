/**
 * Reading PDFs (front door of src/services/pdf-read), shared by sign and verify: objects and
 * cross-reference streams, incremental revisions, strings, the page tree, standard security
 * (ISO 32000-1 §7).
 */
export { canonical, ObjectReader, type ObjectState, sameBytes } from './object-reader';
export { readPageTree } from './page-tree';
export { findRevisions } from './pdf-revisions';
export { stringBytes, textOf } from './pdf-string';
export type { PdfValue } from './pdf-syntax';
export { requireCatalog } from './readable-catalog';
export type { RevisionScan } from './revision-types';
export { withDecryptedStreams } from './standard-security';
export { decodeStreamData } from './xref-stream';
