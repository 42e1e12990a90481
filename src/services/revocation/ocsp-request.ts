/**
 * An OCSP request for one certificate (RFC 6960 §4.1): a CertID of SHA-1 hashes of the issuer's
 * name and key and the certificate's serial number (§4.1.1), no requestor name, no signature, and
 * no nonce: the request goes by HTTP GET (Appendix A.1), which is meant for responses a responder
 * or a cache may pre-produce (RFC 5019 §2.1.1, §5), and a nonce would defeat that. Freshness is
 * judged on the response's thisUpdate and nextUpdate instead.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { nameDer } from './certificate-links';

/** SHA-1 is what every responder accepts in a CertID (RFC 5019 §2.1.1 requires it). */
const SHA1 = '1.3.14.3.2.26';

/**
 * issuerNameHash is over the DER of the issuer's name as the certificate being checked writes it,
 * issuerKeyHash over the value of the issuer's subjectPublicKey BIT STRING without tag, length and
 * unused-bits octet (§4.1.1). The DER OCSPRequest.
 */
export async function ocspRequest(certificate: pkijs.Certificate, issuer: pkijs.Certificate): Promise<Uint8Array> {
  const sha1 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-1', data));
  const certId = new pkijs.CertID({
    hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA1, algorithmParams: new asn1js.Null() }),
    issuerNameHash: new asn1js.OctetString({ valueHex: await sha1(nameDer(certificate.issuer)) }),
    issuerKeyHash: new asn1js.OctetString({
      valueHex: await sha1(new Uint8Array(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView)),
    }),
    serialNumber: certificate.serialNumber,
  });
  const request = new pkijs.OCSPRequest({
    tbsRequest: new pkijs.TBSRequest({ requestList: [new pkijs.Request({ reqCert: certId })] }),
  });
  return new Uint8Array(request.toSchema(true).toBER());
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
