/**
 * Checking an OCSP response before it goes into a document's validation data (RFC 6960 §4.2):
 * status successful, a BasicOCSPResponse (id-pkix-ocsp-basic, §4.2.1), a SingleResponse for our
 * CertID, current (thisUpdate not in the future, nextUpdate not past, §4.2.2.1), and signed by
 * a responder authorised for that CertID (§4.2.2.2): the issuing CA itself, or a delegated
 * responder whose certificate the CA issued with id-kp-OCSPSigning in its extended key usage.
 * A response that fails any of these is useless to a validator, so it is refused here with the
 * reason (RevocationDataError); a good, revoked or unknown status is the answer.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { bytesEqual } from '../../kit';
import { issuedBy, sameSerial } from './certificate-facts';
import type { OcspQuery } from './ocsp-request';
import { CLOCK_SKEW_MS, CRL_REASONS } from './revocation-constants';
import { RevocationDataError } from './revocation-error';

const ID_PKIX_OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
const ID_KP_OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';
const EXTENDED_KEY_USAGE = '2.5.29.37';

/** OCSPResponseStatus (RFC 6960 §4.2.1); 4 is not used. */
const RESPONSE_STATUS: Record<number, string> = {
  1: 'malformedRequest',
  2: 'internalError',
  3: 'tryLater',
  5: 'sigRequired',
  6: 'unauthorized',
};

export type CertificateStatus =
  | { status: 'good' }
  | { status: 'revoked'; revokedAt: Date; reason: string | undefined }
  | { status: 'unknown' };

export async function checkOcspResponse(
  body: Uint8Array,
  query: OcspQuery,
  issuer: pkijs.Certificate,
  now: Date,
): Promise<CertificateStatus> {
  let response: pkijs.OCSPResponse;
  try {
    response = pkijs.OCSPResponse.fromBER(body);
  } catch (cause) {
    throw new RevocationDataError('the answer is not an OCSP response', { cause });
  }
  const status = response.responseStatus.valueBlock.valueDec;
  if (status !== 0) {
    throw new RevocationDataError(`the responder refused (${RESPONSE_STATUS[status] ?? `status ${status}`})`);
  }
  const bytes = response.responseBytes;
  if (!bytes || bytes.responseType !== ID_PKIX_OCSP_BASIC) {
    throw new RevocationDataError('the response is not a BasicOCSPResponse (id-pkix-ocsp-basic)');
  }
  let basic: pkijs.BasicOCSPResponse;
  try {
    basic = pkijs.BasicOCSPResponse.fromBER(bytes.response.valueBlock.valueHexView);
  } catch (cause) {
    throw new RevocationDataError('the BasicOCSPResponse cannot be read', { cause });
  }

  const single = basic.tbsResponseData.responses.find((candidate) => sameCertId(candidate.certID, query.certId));
  if (!single) throw new RevocationDataError('the response does not answer for this certificate (no matching CertID)');

  await checkResponder(basic, issuer, now);

  if (single.thisUpdate.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw new RevocationDataError(`the response's thisUpdate (${single.thisUpdate.toISOString()}) is in the future`);
  }
  if (single.nextUpdate && single.nextUpdate.getTime() < now.getTime() - CLOCK_SKEW_MS) {
    throw new RevocationDataError(
      `the response is stale (its nextUpdate ${single.nextUpdate.toISOString()} has passed)`,
    );
  }
  return certificateStatus(single.certStatus);
}

/** CertID equality on hash algorithm, both hashes and the serial (§4.1.1); the algorithm's NULL parameters may differ. */
function sameCertId(a: pkijs.CertID, b: pkijs.CertID): boolean {
  return (
    a.hashAlgorithm.algorithmId === b.hashAlgorithm.algorithmId &&
    bytesEqual(a.issuerNameHash.valueBlock.valueHexView, b.issuerNameHash.valueBlock.valueHexView) &&
    bytesEqual(a.issuerKeyHash.valueBlock.valueHexView, b.issuerKeyHash.valueBlock.valueHexView) &&
    sameSerial(a.serialNumber, b.serialNumber)
  );
}

/**
 * RFC 6960 §4.2.2.2: the responder is the CA that issued the certificate, or a delegated
 * responder the CA issued a certificate with id-kp-OCSPSigning to (carried in the response's
 * certs); either way the response's signature must verify with that key.
 */
async function checkResponder(basic: pkijs.BasicOCSPResponse, issuer: pkijs.Certificate, now: Date): Promise<void> {
  const engine = pkijs.getCrypto(true);
  const responderId = basic.tbsResponseData.responderID as unknown;
  const verifies = (certificate: pkijs.Certificate) =>
    engine
      .verifyWithPublicKey(
        basic.tbsResponseData.tbsView,
        basic.signature,
        certificate.subjectPublicKeyInfo,
        basic.signatureAlgorithm,
      )
      .catch(() => false);

  if (await identifies(responderId, issuer)) {
    if (await verifies(issuer)) return;
    throw new RevocationDataError("the response's signature does not verify with the issuing CA's key");
  }
  const reasons: string[] = [];
  for (const candidate of basic.certs ?? []) {
    if (!(await identifies(responderId, candidate))) continue;
    if (!issuedBy(candidate, issuer) || !(await candidate.verify(issuer).catch(() => false))) {
      reasons.push('the responder certificate was not issued by the certificate issuer');
    } else if (!hasOcspSigning(candidate)) {
      reasons.push('the responder certificate lacks id-kp-OCSPSigning');
    } else if (candidate.notBefore.value > now || candidate.notAfter.value < now) {
      reasons.push('the responder certificate is not valid now');
    } else if (!(await verifies(candidate))) {
      reasons.push("the response's signature does not verify with the responder certificate");
    } else return;
  }
  throw new RevocationDataError(
    reasons[0] ?? 'the responder is neither the issuing CA nor a delegated responder certificate it carries',
  );
}

/** ResponderID (§4.2.1): byName, the responder's subject; byKey, the SHA-1 of its public key's BIT STRING value. */
async function identifies(responderId: unknown, certificate: pkijs.Certificate): Promise<boolean> {
  if (responderId instanceof pkijs.RelativeDistinguishedNames) return certificate.subject.isEqual(responderId);
  if (responderId instanceof asn1js.OctetString) {
    const key = certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
    const hash = new Uint8Array(await crypto.subtle.digest('SHA-1', key));
    return bytesEqual(hash, responderId.valueBlock.valueHexView);
  }
  return false;
}

function hasOcspSigning(certificate: pkijs.Certificate): boolean {
  const usage = certificate.extensions?.find((extension) => extension.extnID === EXTENDED_KEY_USAGE)?.parsedValue;
  return usage instanceof pkijs.ExtKeyUsage && usage.keyPurposes.includes(ID_KP_OCSP_SIGNING);
}

/** CertStatus ::= CHOICE { good [0] NULL, revoked [1] RevokedInfo, unknown [2] UnknownInfo } (§4.2.1). */
function certificateStatus(value: unknown): CertificateStatus {
  const element = value as asn1js.BaseBlock;
  const tag = element?.idBlock?.tagNumber;
  if (element?.idBlock?.tagClass !== 3) throw new RevocationDataError('the certificate status cannot be read');
  if (tag === 0) return { status: 'good' };
  if (tag === 2) return { status: 'unknown' };
  if (tag !== 1) throw new RevocationDataError('the certificate status cannot be read');
  // RevokedInfo ::= SEQUENCE { revocationTime GeneralizedTime, revocationReason [0] EXPLICIT CRLReason OPTIONAL }
  const parts = (element as asn1js.Constructed).valueBlock.value ?? [];
  const time = parts[0];
  const revokedAt = time instanceof asn1js.GeneralizedTime ? time.toDate() : new Date(Number.NaN);
  const reasonBox = parts[1] as asn1js.Constructed | undefined;
  const reasonValue = reasonBox?.valueBlock?.value?.[0];
  const reason =
    reasonValue instanceof asn1js.Enumerated ? (CRL_REASONS[reasonValue.valueBlock.valueDec] ?? undefined) : undefined;
  return { status: 'revoked', revokedAt, reason };
}
