/**
 * Merging documents (front door of src/services/merge): several DOCX packages into one, each
 * keeping its look.
 */
export {
  MAX_MERGE_INPUTS,
  type MergeDocxInput,
  type MergeDocxOptions,
  type MergedDocx,
  MIN_MERGE_INPUTS,
  mergeDocx,
} from './docx-merge';
