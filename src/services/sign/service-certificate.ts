/**
 * GET /v1/verify/key's body (docs/api.md "The signing identity"): the service certificate, its SHA-256
 * fingerprint, validity and issuer, so that a third party can trust it. The route is in
 * src/routes; this reads SIGNING_CERT_CHAIN and knows nothing of HTTP.
 */
import { parseCertificates, summarizeCertificate } from '../../kit';

export interface ServiceCertificate {
  /** The leaf (signing) certificate, PEM. */
  certificate: string;
  /** SHA-256 of its DER, lower-case hex. */
  sha256: string;
  /** ISO 8601 UTC. */
  notBefore: string;
  notAfter: string;
  /** Distinguished names as RFC 4514 strings, e.g. "CN=Quire Development CA, O=…". */
  issuer: string;
  subject: string;
}

/** Describes the first certificate of a PEM chain (leaf first); throws when there is none. */
export async function describeServiceCertificate(chainPem: string): Promise<ServiceCertificate> {
  const [leaf] = parseCertificates(chainPem);
  if (!leaf) throw new Error('SIGNING_CERT_CHAIN holds no PEM certificate');
  const summary = await summarizeCertificate(leaf);
  return {
    certificate: summary.pem,
    sha256: summary.sha256,
    notBefore: summary.notBefore,
    notAfter: summary.notAfter,
    issuer: summary.issuer,
    subject: summary.subject,
  };
}
