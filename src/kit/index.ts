/**
 * Small pieces every layer uses, one of each (front door of src/kit): byte joins and comparison, a
 * cache bounded in bytes, inflate with a ceiling, DER encoding, the OID table and certificate summaries.
 */
export { BoundedCache } from './bounded-cache';
export { boundedInflate, type InflateOutcome, inflateWithin } from './bounded-inflate';
export { bytesEqual, concatBytes } from './bytes';
export {
  type CertificateSummary,
  groupedFingerprint,
  parseCertificates,
  summarizeCertificate,
} from './certificate-summary';
export { derElement } from './der';
export { OID } from './oids';
export {
  inPageRanges,
  MAX_PAGE_RANGES_LENGTH,
  type PageRange,
  type ParsedPageRanges,
  parsePageRanges,
  rangesBeyond,
} from './page-ranges';
