/**
 * Merging documents (front door of src/services/merge, issue 27's `POST /v1/merge`): the PDF core
 * (pdf-merge.ts) and the DOCX core.
 */
export {
  MAX_MERGE_DOCUMENTS,
  type MergedPdf,
  MIN_MERGE_DOCUMENTS,
  mergePdfs,
  type PdfMergeInput,
  type PdfMergeOptions,
} from './pdf-merge';
