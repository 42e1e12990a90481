import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from '../../kit';

/**
 * The CMS signed attributes of a PAdES baseline B-B signature (ETSI EN 319 142-1 §6.3, which
 * points at ETSI EN 319 122-1 §5.1/§5.2.2): exactly contentType, messageDigest and
 * signingCertificateV2. signingTime is forbidden in PAdES (the time is the dictionary's /M).
 *
 * Returned in DER order: a SET OF is DER only when its elements are sorted by their encodings
 * (X.690 §11.6), and the signature covers that DER encoding (RFC 5652 §5.4).
 */
export async function buildSignedAttributes(
  messageDigest: Uint8Array,
  leafCertificateDer: Uint8Array,
): Promise<pkijs.Attribute[]> {
  const leafHash = new Uint8Array(await crypto.subtle.digest('SHA-256', leafCertificateDer));
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: messageDigest })] }),
    new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2(leafHash)] }),
  ];
  return sortByEncoding(attributes);
}

/**
 * SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } (RFC 5035 §3), with one
 * ESSCertIDv2 { hashAlgorithm DEFAULT sha256 (so omitted, DER), certHash }. issuerSerial is left
 * out as ETSI EN 319 122-1 §5.2.2.3 recommends: the certificate hash already binds the certificate.
 */
function signingCertificateV2(leafSha256: Uint8Array): asn1js.Sequence {
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: leafSha256 })] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

/** The bytes the signature value is computed over: the attributes as a DER SET OF, tag 0x31 (RFC 5652 §5.4). */
export function signedAttributesForSignature(attributes: pkijs.Attribute[]): Uint8Array {
  return new Uint8Array(new asn1js.Set({ value: attributes.map((attribute) => attribute.toSchema()) }).toBER());
}

function sortByEncoding(attributes: pkijs.Attribute[]): pkijs.Attribute[] {
  const encoded = attributes.map((attribute) => ({ attribute, der: new Uint8Array(attribute.toSchema().toBER()) }));
  encoded.sort((a, b) => compareBytes(a.der, b.der));
  return encoded.map((entry) => entry.attribute);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}
