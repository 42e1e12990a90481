/**
 * The revocation data a CMS signature carries itself, in the three places writers put it:
 *
 * - the signed attribute adbe-revocationInfoArchival (1.2.840.113583.1.1.8, ISO 32000-1
 *   §12.8.3.3.2 and Adobe's PDF Reference): RevocationInfoArchival ::= SEQUENCE { crl [0]
 *   EXPLICIT SEQUENCE OF CRLs OPTIONAL, ocsp [1] EXPLICIT SEQUENCE OF OCSPResponse OPTIONAL,
 *   otherRevInfo [2] EXPLICIT SEQUENCE OF OtherRevInfo OPTIONAL } — Acrobat's, gathered before
 *   signing;
 * - the unsigned attribute revocation-values (1.2.840.113549.1.9.16.2.24, ETSI EN 319 122-1
 *   §5.3.5.2, RFC 5126 §6.3.4): crlVals [0] SEQUENCE OF CertificateList, ocspVals [1] SEQUENCE
 *   OF BasicOCSPResponse;
 * - SignedData.crls (RFC 5652 §10.2.1 RevocationInfoChoices): CertificateLists, and
 *   OtherRevocationInfoFormat id-ri-ocsp-response (1.3.6.1.5.5.7.16.2, RFC 5940 §4.1) holding an
 *   OCSPResponse.
 *
 * otherRevInfo/otherRevVals of other kinds are skipped. Bounded; never throws.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { RevocationDatum, RevocationKind } from './revocation-status';

export const ADBE_REVOCATION_INFO_ARCHIVAL = '1.2.840.113583.1.1.8';
export const REVOCATION_VALUES = '1.2.840.113549.1.9.16.2.24';
const OCSP_RESPONSE_FORMAT = '1.3.6.1.5.5.7.16.2';
/** Revocation data read from one signature; a real one carries a handful. */
const MAX_CMS_DATA = 64;

export interface CmsRevocation {
  data: RevocationDatum[];
  problems: string[];
}

export function cmsRevocationData(signedData: pkijs.SignedData, signerInfo: pkijs.SignerInfo): CmsRevocation {
  const data: RevocationDatum[] = [];
  const problems: string[] = [];
  const add = (kind: RevocationKind, der: Uint8Array) => {
    if (data.length < MAX_CMS_DATA) data.push({ kind, der, source: 'cms' });
  };
  try {
    for (const attribute of signerInfo.signedAttrs?.attributes ?? []) {
      if (attribute.type !== ADBE_REVOCATION_INFO_ARCHIVAL) continue;
      for (const value of attribute.values) readChoices(value, { 0: 'crl', 1: 'ocsp' }, add, problems);
    }
    for (const attribute of signerInfo.unsignedAttrs?.attributes ?? []) {
      if (attribute.type !== REVOCATION_VALUES) continue;
      for (const value of attribute.values) readChoices(value, { 0: 'crl', 1: 'basic-ocsp' }, add, problems);
    }
    for (const choice of signedData.crls ?? []) {
      if (choice instanceof pkijs.CertificateRevocationList) {
        add('crl', new Uint8Array(choice.toSchema().toBER()));
      } else if (
        choice.otherRevInfoFormat === OCSP_RESPONSE_FORMAT &&
        choice.otherRevInfo instanceof asn1js.BaseBlock
      ) {
        add('ocsp', new Uint8Array(choice.otherRevInfo.valueBeforeDecodeView));
      }
    }
  } catch (error) {
    problems.push(`the revocation data in the signature cannot be read: ${(error as Error).message}`);
  }
  const total = countAll(signedData, signerInfo);
  if (total > MAX_CMS_DATA)
    problems.push(`the signature carries ${total} revocation data; the first ${MAX_CMS_DATA} were read`);
  return { data, problems };
}

/** SEQUENCE { [n] EXPLICIT SEQUENCE OF item ... }: each item's DER, as the kind its tag names. */
function readChoices(
  value: unknown,
  kinds: Record<number, RevocationKind>,
  add: (kind: RevocationKind, der: Uint8Array) => void,
  problems: string[],
) {
  if (!(value instanceof asn1js.Sequence)) {
    problems.push('a revocation attribute of the signature is not a SEQUENCE');
    return;
  }
  for (const tagged of value.valueBlock.value) {
    const kind = tagged.idBlock.tagClass === 3 ? kinds[tagged.idBlock.tagNumber] : undefined;
    if (!kind) continue;
    const inner = (tagged.valueBlock as { value?: asn1js.BaseBlock[] }).value?.[0];
    if (!(inner instanceof asn1js.Sequence)) {
      problems.push(`a revocation attribute of the signature has a malformed [${tagged.idBlock.tagNumber}] list`);
      continue;
    }
    for (const item of inner.valueBlock.value) add(kind, new Uint8Array(item.valueBeforeDecodeView));
  }
}

function countAll(signedData: pkijs.SignedData, signerInfo: pkijs.SignerInfo): number {
  let total = signedData.crls?.length ?? 0;
  const attributes = [...(signerInfo.signedAttrs?.attributes ?? []), ...(signerInfo.unsignedAttrs?.attributes ?? [])];
  for (const attribute of attributes) {
    if (attribute.type !== ADBE_REVOCATION_INFO_ARCHIVAL && attribute.type !== REVOCATION_VALUES) continue;
    for (const value of attribute.values) {
      if (!(value instanceof asn1js.Sequence)) continue;
      for (const tagged of value.valueBlock.value) {
        const inner = (tagged.valueBlock as { value?: asn1js.BaseBlock[] }).value?.[0];
        if (inner instanceof asn1js.Sequence) total += inner.valueBlock.value.length;
      }
    }
  }
  return total;
}
