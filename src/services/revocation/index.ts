/**
 * Revocation (front door of src/services/revocation): reading OCSP responses (RFC 6960) and CRLs
 * (RFC 5280 §5) from where signatures carry them, judging whether a certificate was revoked at a
 * given time, and asking a responder live; and gathering a chain's data for a PAdES B-LT DSS.
 * Verify uses it for the revocation status of each signer (revocation-status.ts) and its online
 * check (revocation-fetch.ts); sign for its DSS (revocation-collect.ts). Both go through the same
 * parts: one OCSP parser and checker (ocsp-response.ts), one CRL parser and checker
 * (certificate-list.ts, der-walk.ts), one reader of where a certificate's status is published
 * (certificate-pointers.ts), one OCSP request (ocsp-request.ts), one way of asking
 * (revocation-fetch.ts) and one set of limits (revocation-constants.ts). Signatures are checked by
 * the caller's SignatureCheck, so the folder imports nothing from verify.
 */

export type { SignatureCheck } from './certificate-links';
export {
  ADBE_REVOCATION_INFO_ARCHIVAL,
  type CmsRevocation,
  cmsRevocationData,
  REVOCATION_VALUES,
} from './cms-revocation';
export { collectRevocationData, type RevocationData, type RevocationFetchOptions } from './revocation-collect';
export {
  MAX_CRL_BYTES,
  MAX_OCSP_BYTES,
  REVOCATION_MAX_BYTES,
  REVOCATION_TIMEOUT_MS,
} from './revocation-constants';
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
