/**
 * The contracts of `POST /v1/sign` (docs/api.md) between the route, the signer (CMS and the
 * incremental update) and the audit-trail certificate. Plain data; src/sign/ knows nothing of HTTP.
 */
import type { CertificateSummary } from '../../kit';

/** The service's signing identity, from SIGNING_KEY (PKCS#8 PEM) and SIGNING_CERT_CHAIN (PEM, leaf first). */
export interface SigningIdentity {
  privateKey: CryptoKey;
  /** RSA (≥ 2048 bits, PKCS#1 v1.5 with SHA-256) or ECDSA P-256 with SHA-256 (DER-encoded signature value). */
  keyType: 'rsa' | 'ec-p256';
  /** DER certificates, leaf first. */
  chain: Uint8Array[];
}

export interface AuditEvent {
  type: 'ready' | 'view' | 'scroll' | 'field_change' | 'submit' | 'sign';
  /** ISO 8601 with a zone, as sent. */
  timestamp: string;
  data: Record<string, unknown>;
}

export interface Signer {
  name: string;
  email: string;
  ip?: string;
  userAgent?: string;
}

/** Everything the audit-trail certificate pages show (docs/api.md "The audit-trail certificate"). */
export interface AuditCertificateInfo {
  /** SHA-256 of the PDF before signing (and before the certificate pages), lower-case hex. */
  documentSha256: string;
  /** Pages of the PDF before the certificate pages. */
  documentPages: number;
  eventId: string;
  signer: Signer;
  /** In the order received; the certificate sorts them by time. */
  events: AuditEvent[];
  metadata?: Record<string, unknown>;
  /** The service clock's time of signing (also the signature's /M). */
  signedAt: Date;
  certificate: CertificateSummary;
}

/** The signature dictionary's human-readable entries (ISO 32000-1 §12.8.1, Table 252). */
export interface SignatureDetails {
  /** /Name: the signer's name. */
  name: string;
  /** /Reason */
  reason: string;
  /** /Location */
  location: string;
  /** /ContactInfo: the signer's email. */
  contactInfo?: string;
  /** /M, and the time the certificate page states. */
  signingTime: Date;
}

/** An RFC 3161 time-stamping authority, for PAdES B-T and above (TSA_URL). */
export interface TimestampAuthority {
  url: string;
  fetch?: typeof fetch;
}

/**
 * The PAdES baseline levels (ETSI EN 319 142-1 §4, §5, §6): B-B, the signature; B-T, with a
 * timestamp over its value; B-LT, with the validation data (certificates, OCSP responses, CRLs)
 * in a /DSS after it; B-LTA, with a document timestamp over all of that.
 */
export const SIGNATURE_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export type SignatureLevel = (typeof SIGNATURE_LEVELS)[number];

/** A signature just written, and what the validation data after it must name. */
export interface SignedPdf {
  pdf: Uint8Array;
  /** The signature dictionary's /Contents value as written: the CMS then its zero padding (ISO 32000-1 §12.8.1). */
  contents: Uint8Array;
  /** The signatureTimeStampToken the CMS carries (B-T and above), as the TSA sent it. */
  timestampToken: Uint8Array | undefined;
}

/**
 * What a Document Security Store holds (ISO 32000-2 §12.8.4.3, ETSI EN 319 142-1 §5.4.2): DER
 * certificates, OCSP responses (RFC 6960 OCSPResponse) and CRLs (RFC 5280 CertificateList).
 */
export interface ValidationData {
  certificates: Uint8Array[];
  ocsps: Uint8Array[];
  crls: Uint8Array[];
}
