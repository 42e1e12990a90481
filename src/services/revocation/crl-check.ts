/**
 * Checking a CRL before it goes into a document's validation data (RFC 5280 §5, §6.3.3): it
 * parses, its issuer is the certificate's issuer, its signature verifies with that issuer's key,
 * and it is current (thisUpdate not in the future, nextUpdate not past). The answer is whether
 * the certificate's serial number is on it. Indirect CRLs and delta CRLs (§5.2.4, §5.2.5) are
 * not followed: the list must be the issuer's own, complete one.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sameSerial } from './certificate-facts';
import type { CertStatus } from './ocsp-response';
import { CLOCK_SKEW_MS } from './revocation-constants';
import { RevocationDataError } from './revocation-error';

const CRL_REASON_EXTENSION = '2.5.29.21';

export async function checkCrl(
  der: Uint8Array,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  now: Date,
): Promise<CertStatus> {
  let crl: pkijs.CertificateRevocationList;
  try {
    crl = pkijs.CertificateRevocationList.fromBER(der);
  } catch (cause) {
    throw new RevocationDataError('the answer is not a CRL', { cause });
  }
  if (!crl.issuer.isEqual(issuer.subject)) {
    throw new RevocationDataError("the CRL's issuer is not the certificate's issuer");
  }
  const verified = await crl.verify({ issuerCertificate: issuer }).catch(() => false);
  if (!verified) throw new RevocationDataError("the CRL's signature does not verify with the issuer's key");
  if (crl.thisUpdate.value.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw new RevocationDataError(`the CRL's thisUpdate (${crl.thisUpdate.value.toISOString()}) is in the future`);
  }
  if (crl.nextUpdate && crl.nextUpdate.value.getTime() < now.getTime() - CLOCK_SKEW_MS) {
    throw new RevocationDataError(`the CRL is stale (its nextUpdate ${crl.nextUpdate.value.toISOString()} has passed)`);
  }
  const entry = crl.revokedCertificates?.find((revoked) =>
    sameSerial(revoked.userCertificate, certificate.serialNumber),
  );
  if (!entry) return { kind: 'good' };
  return { kind: 'revoked', time: entry.revocationDate.value, reason: reasonOf(entry) };
}

/** The entry's reasonCode extension (§5.3.1), when present. */
function reasonOf(entry: pkijs.RevokedCertificate): number | undefined {
  const extension = entry.crlEntryExtensions?.extensions.find((candidate) => candidate.extnID === CRL_REASON_EXTENSION);
  if (!extension) return undefined;
  const parsed = asn1js.fromBER(extension.extnValue.valueBlock.valueHexView).result;
  return parsed instanceof asn1js.Enumerated ? parsed.valueBlock.valueDec : undefined;
}
