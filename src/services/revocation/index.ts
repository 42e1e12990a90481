/**
 * Revocation data (front door of src/services/revocation): OCSP (RFC 6960) and CRLs (RFC 5280)
 * for certificate chains.
 */

// Fetching and checking revocation data for a chain, for PAdES B-LT signing (sign's DSS).
export {
  collectRevocationData,
  REVOCATION_MAX_BYTES,
  REVOCATION_TIMEOUT_MS,
  type RevocationData,
  type RevocationFetchOptions,
} from './revocation-fetch';
