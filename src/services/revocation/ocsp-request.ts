/**
 * An OCSP request for one certificate (RFC 6960 §4.1): a CertID of SHA-1 hashes of the issuer's
 * name and key and the certificate's serial number (§4.1.1), no requestor name, no signature, and
 * no nonce: the request goes by HTTP GET (Appendix A.1), which is meant for responses a responder
 * or a cache may pre-produce (RFC 5019 §2.1.1, §5), and a nonce would defeat that. Freshness is
 * checked on the response's thisUpdate and nextUpdate instead (ocsp-response.ts).
 */
import * as pkijs from 'pkijs';

/** SHA-1 is what every responder accepts in a CertID (RFC 5019 §2.1.1 requires it). */
const CERT_ID_HASH = 'SHA-1';

export interface OcspQuery {
  certId: pkijs.CertID;
  /** The DER OCSPRequest. */
  request: Uint8Array;
}

/**
 * issuerNameHash is over the DER of the issuer's subject, issuerKeyHash over the value of its
 * subjectPublicKey BIT STRING without tag, length and unused-bits octet (§4.1.1).
 */
export async function ocspQuery(certificate: pkijs.Certificate, issuer: pkijs.Certificate): Promise<OcspQuery> {
  const certId = new pkijs.CertID();
  await certId.createForCertificate(certificate, { hashAlgorithm: CERT_ID_HASH, issuerCertificate: issuer });
  const request = new pkijs.OCSPRequest({
    tbsRequest: new pkijs.TBSRequest({ requestList: [new pkijs.Request({ reqCert: certId })] }),
  });
  return { certId, request: new Uint8Array(request.toSchema(true).toBER()) };
}

/**
 * The GET form (RFC 6960 Appendix A.1): the responder URL, a "/", then the base64 of the DER
 * request, URL-encoded ('+', '/' and '=' escaped). A responder URL that already ends in "/"
 * gets no second one.
 */
export function ocspGetUrl(responderUrl: string, request: Uint8Array): string {
  let binary = '';
  for (const byte of request) binary += String.fromCharCode(byte);
  const encoded = encodeURIComponent(btoa(binary));
  return `${responderUrl.endsWith('/') ? responderUrl : `${responderUrl}/`}${encoded}`;
}
