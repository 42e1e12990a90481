/**
 * Merging documents (front door of src/services/merge, issue 27's `POST /v1/merge`): the PDF core
 * (pdf-merge.ts) and the DOCX core (docx-merge.ts), several documents into one, each keeping its look.
 */
export {
  type MergeDocxInput,
  type MergeDocxOptions,
  type MergedDocx,
  mergeDocx,
} from './docx-merge';
export { MAX_MERGE_DOCUMENTS, MIN_MERGE_DOCUMENTS } from './merge-limits';
export { type MergedPdf, mergePdfs, type PdfMergeInput, type PdfMergeOptions } from './pdf-merge';
