/**
 * What a reader is shown about a certificate (CertificateSummary): on the audit-trail certificate
 * pages, in GET /v1/verify/key and in POST /v1/verify's `signer.certificate` (docs/api.md).
 */
import * as x509 from '@peculiar/x509';
import { toHex } from '../crypto';

/** What a reader of the certificate is shown about it: subject, issuer, validity, fingerprint. */
export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  /** SHA-256 of the DER, lower-case hex. */
  sha256: string;
  /** The certificate as PEM. */
  pem: string;
}

/** The certificates of a PEM bundle, in order (SIGNING_CERT_CHAIN is leaf first). */
export function parseCertificates(pem: string): x509.X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new x509.X509Certificate(block));
}

export async function summarizeCertificate(
  certificate: x509.X509Certificate | Uint8Array,
): Promise<CertificateSummary> {
  const cert = certificate instanceof x509.X509Certificate ? certificate : new x509.X509Certificate(certificate);
  const der = new Uint8Array(cert.rawData);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der));
  return {
    subject: cert.subject,
    issuer: cert.issuer,
    serialNumber: cert.serialNumber.toLowerCase(),
    notBefore: cert.notBefore.toISOString(),
    notAfter: cert.notAfter.toISOString(),
    sha256: toHex(digest),
    pem: cert.toString('pem'),
  };
}

/** A fingerprint as people compare it: upper-case byte pairs in groups, "AB CD EF 01 …" (what Adobe and Firefox show). */
export function groupedFingerprint(sha256Hex: string): string {
  return (sha256Hex.toUpperCase().match(/../g) ?? []).join(' ');
}
