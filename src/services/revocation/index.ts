/**
 * Revocation (front door of src/services/revocation): reading OCSP responses (RFC 6960) and CRLs
 * (RFC 5280 §5) from where signatures carry them, judging whether a certificate was revoked at a
 * given time, and asking a responder live; and gathering a chain's data for a PAdES B-LT DSS.
 * Verify uses it for the revocation status of each signer; signatures themselves are checked by
 * the caller's SignatureCheck.
 */

// Verify's status evaluation (revocation-status.ts and the parsers under it) and its online check.
export type { SignatureCheck } from './certificate-links';
export {
  ADBE_REVOCATION_INFO_ARCHIVAL,
  type CmsRevocation,
  cmsRevocationData,
  REVOCATION_VALUES,
} from './cms-revocation';
// Fetching and checking revocation data for a chain, for PAdES B-LT signing (sign's DSS).
export { collectRevocationData, type RevocationData, type RevocationFetchOptions } from './revocation-collect';
// The size caps and the deadline, one set for both.
export {
  MAX_CRL_BYTES,
  MAX_OCSP_BYTES,
  REVOCATION_MAX_BYTES,
  REVOCATION_TIMEOUT_MS,
} from './revocation-constants';
// Verify's online check, asking as the collection asks.
export { fetchRevocationData, type OnlineBudget, onlineBudget } from './revocation-fetch';
export {
  hasRevocationData,
  type RevocationDatum,
  type RevocationKind,
  type RevocationSource,
  type RevocationStatus,
  revocationStatus,
  type StatusQuery,
  type StatusResult,
} from './revocation-status';
