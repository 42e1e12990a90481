/**
 * Whether a CMS SignedData is what a PAdES baseline signature (ETSI EN 319 142-1 §6.3 Table 1,
 * which takes ETSI EN 319 122-1 §6.3's CAdES rules) must be: one SignerInfo; signed attributes
 * with content-type id-data and message-digest; exactly one ESS signing-certificate (RFC 2634
 * §5.4, SHA-1 only) or signing-certificate-v2 (RFC 5035 §3) attribute, whose first certificate
 * hash is the signer certificate's (the guard against certificate substitution, RFC 5035 §3);
 * and no signing-time attribute (PAdES puts the time in the signature dictionary's /M). The
 * signature dictionary's part (SubFilter ETSI.CAdES.detached, /M) is verify-document's. Never throws.
 */
import * as asn1js from 'asn1js';
import type * as pkijs from 'pkijs';
import { bytesEqual, OID } from '../../kit';
import { computeDigest, digestName } from './digest-algorithms';

/** ESS signing-certificate (RFC 2634 §5.4): ESSCertID's certHash is SHA-1. */
const SIGNING_CERTIFICATE_V1 = '1.2.840.113549.1.9.16.2.12';

export interface BaselineCheck {
  /** The first reason the CMS is not a PAdES baseline signature; undefined when it is one. */
  notBaseline: string | undefined;
  /** The signing-certificate attribute names another certificate than the signer's: said in problems. */
  substituted: boolean;
}

export async function checkBaselineAttributes(
  signedData: pkijs.SignedData,
  signerInfo: pkijs.SignerInfo,
  signerDer: Uint8Array,
): Promise<BaselineCheck> {
  const attributes = signerInfo.signedAttrs?.attributes;
  if (!attributes) return { notBaseline: 'it has no signed attributes', substituted: false };
  const of = (type: string) => attributes.filter((attribute) => attribute.type === type);
  const essV2 = of(OID.signingCertificateV2);
  const essV1 = of(SIGNING_CERTIFICATE_V1);
  const ess = [...essV2, ...essV1];
  let substituted = false;
  let essProblem: string | undefined;
  if (ess.length !== 1 || ess[0]?.values.length !== 1) {
    essProblem =
      ess.length === 0
        ? 'it has no signing-certificate-v2 (or signing-certificate) attribute'
        : 'it has more than one signing-certificate attribute';
  } else {
    const named = await namesSigner(ess[0].values[0], essV2.length === 1, signerDer);
    if (named === undefined) essProblem = 'its signing-certificate attribute cannot be read';
    else if (!named) {
      substituted = true;
      essProblem = 'its signing-certificate attribute names another certificate than the signer’s';
    }
  }
  const contentType = of(OID.contentType)[0]?.values[0];
  const notBaseline =
    signedData.signerInfos.length !== 1
      ? 'it has more than one SignerInfo'
      : !(contentType instanceof asn1js.ObjectIdentifier) || contentType.valueBlock.toString() !== OID.data
        ? 'its content-type attribute is not id-data'
        : (essProblem ??
          (of(OID.signingTime).length > 0
            ? 'it has a signing-time attribute, which PAdES replaces with /M'
            : undefined));
  return { notBaseline, substituted };
}

/**
 * SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2, policies OPTIONAL }, ESSCertIDv2 ::=
 * SEQUENCE { hashAlgorithm DEFAULT sha256, certHash OCTET STRING, issuerSerial OPTIONAL } (RFC 5035
 * §3); v1's ESSCertID has no hashAlgorithm and hashes with SHA-1 (RFC 2634 §5.4.1). Whether the first
 * (the signer's, RFC 5035 §3) hash is the signer certificate's; undefined when unreadable.
 */
async function namesSigner(value: unknown, v2: boolean, signerDer: Uint8Array): Promise<boolean | undefined> {
  if (!(value instanceof asn1js.Sequence)) return undefined;
  const certs = value.valueBlock.value[0];
  if (!(certs instanceof asn1js.Sequence)) return undefined;
  const first = certs.valueBlock.value[0];
  if (!(first instanceof asn1js.Sequence)) return undefined;
  const [head, second] = first.valueBlock.value;
  let hashOid = '1.3.14.3.2.26';
  let hash: asn1js.BaseBlock | undefined = head;
  if (v2) {
    hashOid = OID.sha256;
    if (head instanceof asn1js.Sequence) {
      const algorithm = head.valueBlock.value[0];
      if (!(algorithm instanceof asn1js.ObjectIdentifier)) return undefined;
      hashOid = algorithm.valueBlock.toString();
      hash = second;
    }
  }
  if (!(hash instanceof asn1js.OctetString)) return undefined;
  const digest = digestName(hashOid);
  if (!digest) return undefined;
  return bytesEqual(await computeDigest(digest, signerDer), new Uint8Array(hash.valueBlock.valueHexView));
}
