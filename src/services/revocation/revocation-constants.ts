/**
 * The numbers and names revocation work shares, in one place: what is read, fetched and kept,
 * how long a live request may take, how far clocks may disagree, and the CRLReason names
 * messages use (RFC 5280 §5.3.1, also OCSP's revocationReason, RFC 6960 §4.2.1).
 */

/** Largest OCSP response read or fetched: one is a few KB, even with its responder's certificates. */
export const MAX_OCSP_BYTES = 512 * 1024;
/** Largest CRL read or fetched: a national CA's CRL (hundreds of thousands of entries) can be several MB. */
export const MAX_CRL_BYTES = 8 * 1024 * 1024;
/**
 * Largest OCSP response or CRL signing stores in a document's DSS (within the two above): a CRL
 * over 1 MiB is not worth carrying in every document signed with the chain.
 */
export const REVOCATION_MAX_BYTES = 1024 * 1024;

/** One deadline for the live requests of one API request (signing's collection, verify's online check). */
export const REVOCATION_TIMEOUT_MS = 10_000;
/** Live requests verify's online check may make for one API request, over all its signatures. */
export const ONLINE_MAX_FETCHES = 6;
/** Responder URLs asked per certificate, of each kind (OCSP, CRL): the first, and one to fall back on. */
export const MAX_URLS_PER_KIND = 2;

/** Clocks disagree: data made a little "in the future", or just past its nextUpdate, is still taken. */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** CRLReason (RFC 5280 §5.3.1); 7 is not used. */
export const CRL_REASONS: Record<number, string> = {
  0: 'unspecified',
  1: 'keyCompromise',
  2: 'cACompromise',
  3: 'affiliationChanged',
  4: 'superseded',
  5: 'cessationOfOperation',
  6: 'certificateHold',
  8: 'removeFromCRL',
  9: 'privilegeWithdrawn',
  10: 'aACompromise',
};
/** CRLReason removeFromCRL (RFC 5280 §5.3.1): in a delta CRL, the entry is no longer revoked. */
export const REMOVE_FROM_CRL = 8;
