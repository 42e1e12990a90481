/**
 * Where a certificate says its revocation status is published (RFC 5280): the OCSP responders of
 * its Authority Information Access extension (§4.2.2.1, access method id-ad-ocsp) and the names
 * of its CRL distribution points (§4.2.1.13, a distributionPoint's fullName). What can be
 * fetched is only the http: and https: URLs: an ldap: or file: pointer is nothing a Worker can
 * ask. pkijs decodes both extensions when the certificate is read; one it cannot decode reads as
 * empty, so nothing here throws.
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
    uriNames(
      access.accessDescriptions
        .filter((description) => description.accessMethod === ID_AD_OCSP)
        .map((description) => description.accessLocation),
    ),
  );
}

/**
 * The URIs of the CRL distribution points, in order and of any scheme: what a CRL's
 * issuingDistributionPoint is matched against (§6.3.3 (b)(2)(i)). A point named relative to the
 * CRL issuer (nameRelativeToCRLIssuer) or through cRLIssuer alone has no URI and is skipped.
 */
export function crlDistributionUris(certificate: pkijs.Certificate): string[] {
  const points = extensionValue(certificate, CRL_DISTRIBUTION_POINTS);
  if (!(points instanceof pkijs.CRLDistributionPoints)) return [];
  return uriNames(
    points.distributionPoints.flatMap((point) =>
      Array.isArray(point.distributionPoint) ? (point.distributionPoint as pkijs.GeneralName[]) : [],
    ),
  );
}

/** The http(s) URLs of the CRL distribution points: where a CRL can be fetched from. */
export function crlDistributionUrls(certificate: pkijs.Certificate): string[] {
  return webUrls(crlDistributionUris(certificate));
}

/** The uniformResourceIdentifier names among GeneralNames (a DistributionPointName's fullName, an accessLocation). */
export function uriNames(names: readonly pkijs.GeneralName[]): string[] {
  const uris: string[] = [];
  for (const name of names) {
    if (name.type !== URI_NAME || typeof name.value !== 'string') continue;
    const uri = name.value.trim();
    if (uri && !uris.includes(uri)) uris.push(uri);
  }
  return uris;
}

function extensionValue(certificate: pkijs.Certificate, oid: string): unknown {
  return certificate.extensions?.find((extension) => extension.extnID === oid)?.parsedValue;
}

function webUrls(uris: readonly string[]): string[] {
  return uris.filter((uri) => /^https?:\/\//i.test(uri) && URL.canParse(uri));
}
