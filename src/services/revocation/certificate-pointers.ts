/**
 * Where a certificate says its revocation status is published (RFC 5280): the OCSP responders of
 * its Authority Information Access extension (§4.2.2.1, access method id-ad-ocsp) and the URLs of
 * its CRL distribution points (§4.2.1.13, a distributionPoint's fullName). Only http: and https:
 * URLs are kept: an ldap: or file: pointer is nothing a Worker can fetch.
 */
import * as pkijs from 'pkijs';

const AUTHORITY_INFO_ACCESS = '1.3.6.1.5.5.7.1.1';
const ID_AD_OCSP = '1.3.6.1.5.5.7.48.1';
const CRL_DISTRIBUTION_POINTS = '2.5.29.31';
/** GeneralName uniformResourceIdentifier [6] (RFC 5280 §4.2.1.6). */
const URI_NAME = 6;

/** The http(s) OCSP responder URLs, in the certificate's order. */
export function ocspResponderUrls(certificate: pkijs.Certificate): string[] {
  const access = extensionValue(certificate, AUTHORITY_INFO_ACCESS);
  if (!(access instanceof pkijs.InfoAccess)) return [];
  return webUrls(
    access.accessDescriptions
      .filter((description) => description.accessMethod === ID_AD_OCSP)
      .map((description) => description.accessLocation),
  );
}

/**
 * The http(s) URLs of the CRL distribution points, in order. A point named relative to the CRL
 * issuer (nameRelativeToCRLIssuer) or through cRLIssuer alone has no URL and is skipped.
 */
export function crlDistributionUrls(certificate: pkijs.Certificate): string[] {
  const points = extensionValue(certificate, CRL_DISTRIBUTION_POINTS);
  if (!(points instanceof pkijs.CRLDistributionPoints)) return [];
  return webUrls(
    points.distributionPoints.flatMap((point) =>
      Array.isArray(point.distributionPoint) ? (point.distributionPoint as pkijs.GeneralName[]) : [],
    ),
  );
}

function extensionValue(certificate: pkijs.Certificate, oid: string): unknown {
  return certificate.extensions?.find((extension) => extension.extnID === oid)?.parsedValue;
}

function webUrls(names: pkijs.GeneralName[]): string[] {
  const urls: string[] = [];
  for (const name of names) {
    if (name.type !== URI_NAME || typeof name.value !== 'string') continue;
    const url = name.value.trim();
    if (/^https?:\/\//i.test(url) && URL.canParse(url) && !urls.includes(url)) urls.push(url);
  }
  return urls;
}
