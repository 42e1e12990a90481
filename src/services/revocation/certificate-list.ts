/**
 * CRLs (RFC 5280 §5), read and checked once for every use: verify's status at a time
 * (revocation-status.ts) and signing's collection for a DSS (revocation-fetch.ts).
 *
 * Who issued one (its issuer name, and a signature that verifies with the key
 * of a certificate of that name allowed to sign CRLs, §6.3.3 (f)–(g), §4.2.1.3 cRLSign), whether
 * its scope covers a certificate (§5.2.5 issuingDistributionPoint, §6.3.3 (b)), whether it is
 * complete (not a delta CRL, §5.2.4, nor limited to some reasons), and whether it lists the
 * certificate's serial (§5.1.2.6, with the entry's reasonCode, §5.3.1). Indirect CRLs (§5.2.5
 * indirectCRL) are not followed. What the times say is the caller's question: whether the CRL
 * is current now (to be stored) or speaks for a signing time (to judge a signature). Nothing
 * here throws: damage is a plain-words reason.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { bytesEqual } from '../../kit';
import {
  extensionValue,
  isCa,
  KEY_USAGE,
  keyUsageAllows,
  type SignatureCheck,
  sameName,
  validAt,
} from './certificate-links';
import { crlDistributionUris, uriNames } from './certificate-pointers';
import { childrenOf, contentOf, type Tlv, timeOf, tlvAt } from './der-walk';
import type { CertStatus } from './ocsp-response';
import { REMOVE_FROM_CRL } from './revocation-constants';

const DELTA_CRL_INDICATOR = '2.5.29.27';
const ISSUING_DISTRIBUTION_POINT = '2.5.29.28';
const EXPIRED_CERTS_ON_CRL = '2.5.29.60';

export interface RevokedEntry {
  time: Date;
  reason: number | undefined;
}

export interface ParsedCrl {
  kind: 'crl';
  issuer: pkijs.RelativeDistinguishedNames;
  tbs: Uint8Array;
  signatureAlgorithm: pkijs.AlgorithmIdentifier;
  signature: Uint8Array;
  thisUpdate: Date;
  nextUpdate: Date | undefined;
  /** The whole CertificateList, and its revokedCertificates SEQUENCE (RFC 5280 §5.1.2.6) in it, walked on lookup. */
  der: Uint8Array;
  entries: Tlv | undefined;
  /**
   * A complete CRL for every reason (RFC 5280 §5.2.4, §5.2.5): not a delta CRL, no onlySomeReasons,
   * not indirect. Only a complete CRL that does not list a certificate says it is not revoked.
   */
  complete: boolean;
  scope: { onlyUser: boolean; onlyCa: boolean; onlyAttribute: boolean; points: string[] | undefined };
  /** expiredCertsOnCRL (X.509 §9.6.2.9, 2.5.29.60): revoked certificates expired since then are still listed. */
  expiredCertsOnCrl: Date | undefined;
}

/** Entries one CRL may list (a national CA's CRL has a few hundred thousand). */
const MAX_ENTRIES = 2_000_000;

/**
 * CertificateList ::= SEQUENCE { tbsCertList, signatureAlgorithm, signatureValue BIT STRING };
 * TBSCertList ::= SEQUENCE { version INTEGER OPTIONAL, signature, issuer Name, thisUpdate Time,
 * nextUpdate Time OPTIONAL, revokedCertificates SEQUENCE OF ... OPTIONAL, crlExtensions [0]
 * EXPLICIT Extensions OPTIONAL } (RFC 5280 §5.1). The small parts go through pkijs; the entries are
 * only checked to be well formed here, and looked up later without objects.
 */
export function parseCrl(der: Uint8Array): ParsedCrl | string {
  try {
    const outer = tlvAt(der, 0);
    const parts = outer?.tag === 0x30 ? childrenOf(der, outer, 3) : undefined;
    const [tbs, algorithm, value] = parts ?? [];
    if (!tbs || !algorithm || value?.tag !== 0x03 || tbs.tag !== 0x30) return 'it is not a CertificateList';
    const fields = childrenOf(der, tbs, 7);
    if (!fields) return 'its TBSCertList is malformed';
    let i = fields[0]?.tag === 0x02 ? 1 : 0;
    const signatureField = fields[i++];
    const issuerField = fields[i++];
    const thisUpdateField = fields[i++];
    const nextUpdateField = fields[i]?.tag === 0x17 || fields[i]?.tag === 0x18 ? fields[i++] : undefined;
    const entries = fields[i]?.tag === 0x30 ? fields[i++] : undefined;
    const extensionsField = fields[i]?.tag === 0xa0 ? fields[i++] : undefined;
    if (!signatureField || issuerField?.tag !== 0x30 || !thisUpdateField || i !== fields.length) {
      return 'its TBSCertList is malformed';
    }
    const thisUpdate = timeOf(der, thisUpdateField);
    const nextUpdate = nextUpdateField ? timeOf(der, nextUpdateField) : undefined;
    if (!thisUpdate || (nextUpdateField && !nextUpdate)) return 'its update times cannot be read';
    if (entries && !entriesWellFormed(der, entries)) return 'its list of revoked certificates is malformed';
    const extensions = extensionsField ? extensionsOf(der, extensionsField) : undefined;
    const idp = issuingDistributionPoint(extensions);
    const delta = extensions?.some((extension) => extension.extnID === DELTA_CRL_INDICATOR) ?? false;
    const expired = extensionValue(extensions, EXPIRED_CERTS_ON_CRL);
    const signatureBits = contentOf(der, value);
    return {
      kind: 'crl',
      issuer: new pkijs.RelativeDistinguishedNames({ schema: schemaOf(der, issuerField) }),
      tbs: der.subarray(tbs.start, tbs.end),
      signatureAlgorithm: new pkijs.AlgorithmIdentifier({ schema: schemaOf(der, algorithm) }),
      signature: signatureBits.subarray(1),
      der,
      thisUpdate,
      nextUpdate,
      entries,
      complete: !delta && !idp.someReasons && !idp.indirect,
      scope: { onlyUser: idp.onlyUser, onlyCa: idp.onlyCa, onlyAttribute: idp.onlyAttribute, points: idp.points },
      expiredCertsOnCrl: expired instanceof asn1js.GeneralizedTime ? expired.toDate() : undefined,
    };
  } catch (error) {
    return `it is not a CRL (${(error as Error).message || 'malformed'})`;
  }
}

function schemaOf(der: Uint8Array, tlv: Tlv): asn1js.AsnType {
  const parsed = asn1js.fromBER(der.subarray(tlv.start, tlv.end));
  if (parsed.offset === -1) throw new Error(parsed.result.error || 'malformed');
  return parsed.result;
}

function extensionsOf(der: Uint8Array, tagged: Tlv): pkijs.Extension[] {
  const inner = tlvAt(der, tagged.contentStart, tagged.end);
  if (!inner) throw new Error('malformed extensions');
  return new pkijs.Extensions({ schema: schemaOf(der, inner) }).extensions;
}

/** Each entry is SEQUENCE { userCertificate INTEGER, revocationDate Time, crlEntryExtensions OPTIONAL }. */
function entriesWellFormed(der: Uint8Array, list: Tlv): boolean {
  let count = 0;
  for (let at = list.contentStart; at < list.end; ) {
    const entry = tlvAt(der, at, list.end);
    if (entry?.tag !== 0x30 || ++count > MAX_ENTRIES) return false;
    const serial = tlvAt(der, entry.contentStart, entry.end);
    const time = serial && tlvAt(der, serial.end, entry.end);
    if (serial?.tag !== 0x02 || (time?.tag !== 0x17 && time?.tag !== 0x18)) return false;
    at = entry.end;
  }
  return true;
}

/** The entry for a certificate serial (its INTEGER contents, RFC 5280 §5.1.2.6), walking the list once. */
function findRevoked(crl: ParsedCrl, serial: Uint8Array): RevokedEntry | undefined {
  const list = crl.entries;
  if (!list) return undefined;
  const bytes = crl.der;
  const want = trimmed(serial);
  for (let at = list.contentStart; at < list.end; ) {
    const entry = tlvAt(bytes, at, list.end);
    if (!entry) return undefined;
    const serialTlv = tlvAt(bytes, entry.contentStart, entry.end);
    if (serialTlv && bytesEqual(trimmed(contentOf(bytes, serialTlv)), want)) {
      const timeTlv = tlvAt(bytes, serialTlv.end, entry.end);
      const time = timeTlv ? timeOf(bytes, timeTlv) : undefined;
      if (!time || !timeTlv) return undefined;
      return { time, reason: reasonOf(bytes, timeTlv.end, entry.end) };
    }
    at = entry.end;
  }
  return undefined;
}

function trimmed(bytes: Uint8Array): Uint8Array {
  let out = bytes;
  while (out.length > 1 && out[0] === 0) out = out.subarray(1);
  return out;
}

/** reasonCode (RFC 5280 §5.3.1) among crlEntryExtensions: id-ce-cRLReasons 55 1D 15, ENUMERATED in an OCTET STRING. */
function reasonOf(bytes: Uint8Array, at: number, end: number): number | undefined {
  const extensions = tlvAt(bytes, at, end);
  if (extensions?.tag !== 0x30) return undefined;
  for (const extension of childrenOf(bytes, extensions, 64) ?? []) {
    const parts = childrenOf(bytes, extension, 3);
    const oid = parts?.[0];
    const value = parts?.at(-1);
    if (oid?.tag !== 0x06 || value?.tag !== 0x04) continue;
    const id = contentOf(bytes, oid);
    if (id.length !== 3 || id[0] !== 0x55 || id[1] !== 0x1d || id[2] !== 0x15) continue;
    const enumerated = tlvAt(bytes, value.contentStart, value.end);
    return enumerated?.tag === 0x0a && enumerated.end - enumerated.contentStart === 1
      ? bytes[enumerated.contentStart]
      : undefined;
  }
  return undefined;
}

/**
 * IssuingDistributionPoint (RFC 5280 §5.2.5): distributionPoint [0], onlyContainsUserCerts [1],
 * onlyContainsCACerts [2], onlySomeReasons [3], indirectCRL [4], onlyContainsAttributeCerts [5].
 * The flags are read as DER writes TRUE (0xFF); the distribution point's names as pkijs decodes
 * them, the same way as a certificate's (certificate-pointers.ts).
 */
function issuingDistributionPoint(extensions: readonly pkijs.Extension[] | undefined) {
  const out = {
    onlyUser: false,
    onlyCa: false,
    someReasons: false,
    indirect: false,
    onlyAttribute: false,
    points: undefined as string[] | undefined,
  };
  const value = extensionValue(extensions, ISSUING_DISTRIBUTION_POINT);
  if (!(value instanceof asn1js.Sequence)) return out;
  for (const item of value.valueBlock.value) {
    if (item.idBlock.tagClass !== 3) continue;
    const flag = () =>
      new Uint8Array((item.valueBlock as { valueHexView?: Uint8Array }).valueHexView ?? [])[0] === 0xff;
    switch (item.idBlock.tagNumber) {
      case 0: {
        const idp = extensions?.find((extension) => extension.extnID === ISSUING_DISTRIBUTION_POINT)?.parsedValue;
        const names = idp instanceof pkijs.IssuingDistributionPoint ? idp.distributionPoint : undefined;
        out.points = Array.isArray(names) ? uriNames(names) : [];
        break;
      }
      case 1:
        out.onlyUser = flag();
        break;
      case 2:
        out.onlyCa = flag();
        break;
      case 3:
        out.someReasons = true;
        break;
      case 4:
        out.indirect = flag();
        break;
      case 5:
        out.onlyAttribute = flag();
        break;
    }
  }
  return out;
}

/**
 * Whether `crl` is one that can speak for `target` (RFC 5280 §6.3.3 (b)): issued under the name
 * that issued it, and a scope that includes it (user or CA certificates, the distribution point
 * the certificate names when the CRL names one).
 */
export function crlCovers(crl: ParsedCrl, target: pkijs.Certificate): boolean {
  if (!sameName(crl.issuer, target.issuer)) return false;
  if (crl.scope.onlyAttribute) return false;
  const ca = isCa(target);
  if ((crl.scope.onlyUser && ca) || (crl.scope.onlyCa && !ca)) return false;
  if (crl.scope.points && crl.scope.points.length > 0) {
    const named = crlDistributionUris(target);
    return named.some((uri) => crl.scope.points?.includes(uri));
  }
  return true;
}

/**
 * The certificate of `issuers` (each already known to have issued the target) whose key signed
 * the CRL and may sign CRLs (RFC 5280 §6.3.3 (f)–(g)); a string says why none.
 */
async function crlSigner(
  crl: ParsedCrl,
  issuers: readonly pkijs.Certificate[],
  verify: SignatureCheck,
): Promise<pkijs.Certificate | string> {
  if (issuers.length === 0) return 'the issuing CA’s certificate, which signed it, is missing';
  let why = 'its signature does not verify with the issuing CA’s key';
  for (const issuer of issuers) {
    if (!keyUsageAllows(issuer, KEY_USAGE.cRLSign)) {
      why = 'the issuing CA’s certificate may not sign CRLs (RFC 5280 §4.2.1.3 cRLSign)';
      continue;
    }
    if (await verify(crl.signatureAlgorithm, issuer, crl.signature, crl.tbs).catch(() => false)) return issuer;
  }
  return why;
}

/**
 * What `crl` says about `target` (RFC 5280 §6.3.3), its issuer among `issuers`: undefined when it
 * is not about it (another issuer, or a scope that leaves it out, (b)); a reason when it is but
 * cannot be relied on (no certificate of the issuer allowed to sign CRLs whose key verifies it,
 * (f)–(g); or, for "not listed", signed while that certificate was not valid). Else revoked when
 * it lists the serial (but for removeFromCRL, §5.3.1), good when a complete CRL does not, and
 * unknown when an incomplete one (a delta CRL, some reasons only: §5.2.4, §5.2.5) does not.
 */
export async function crlAnswer(
  crl: ParsedCrl,
  target: pkijs.Certificate,
  issuers: readonly pkijs.Certificate[],
  verify: SignatureCheck,
): Promise<CertStatus | string | undefined> {
  if (!crlCovers(crl, target)) return undefined;
  const signer = await crlSigner(crl, issuers, verify);
  if (typeof signer === 'string') return signer;
  const entry = findRevoked(crl, new Uint8Array(target.serialNumber.valueBlock.valueHexView));
  if (entry && entry.reason !== REMOVE_FROM_CRL) return { kind: 'revoked', time: entry.time, reason: entry.reason };
  if (!crl.complete) return { kind: 'unknown' };
  if (!validAt(signer, crl.thisUpdate)) return 'it was signed when the issuing CA’s certificate was not valid';
  return { kind: 'good' };
}
