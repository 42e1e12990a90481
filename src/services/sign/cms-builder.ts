import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from '../../kit';
import { p1363ToDer } from './ecdsa-der';
import type { SigningIdentity } from './sign-types';
import { buildSignedAttributes, signedAttributesForSignature } from './signed-attributes';

/**
 * Obtains an RFC 3161 timestamp token (a ContentInfo) over a signature value, for the unsigned
 * attribute signatureTimeStampToken (PAdES B-T, ETSI EN 319 142-1 §6.3, RFC 3161 Appendix A).
 */
export type TimestampTokenSource = (signatureValue: Uint8Array) => Promise<Uint8Array>;

/**
 * A detached CMS SignedData (RFC 5652 §5) over the bytes whose SHA-256 is contentDigest:
 * eContentType id-data without eContent (the ByteRange bytes are the content, ISO 32000-1
 * §12.8.3.3), the whole chain in certificates, one SignerInfo identified by issuerAndSerialNumber.
 * Returns the DER ContentInfo that goes into /Contents.
 */
export async function buildCms(
  identity: SigningIdentity,
  contentDigest: Uint8Array,
  timestamp?: TimestampTokenSource,
): Promise<Uint8Array> {
  const [leafDer] = identity.chain;
  if (!leafDer) throw new Error('The signing identity has no certificate');
  const certificates = identity.chain.map((der) => pkijs.Certificate.fromBER(der));
  const leaf = certificates[0] as pkijs.Certificate;

  const attributes = await buildSignedAttributes(contentDigest, leafDer);
  const signatureValue = await signWithIdentity(identity, signedAttributesForSignature(attributes));

  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: leaf.issuer, serialNumber: leaf.serialNumber }),
    digestAlgorithm: sha256Algorithm(),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
    signatureAlgorithm: signatureAlgorithm(identity),
    signature: new asn1js.OctetString({ valueHex: signatureValue }),
  });
  if (timestamp) {
    const token = await timestamp(signatureValue);
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      // Parsed with asn1js only (not pkijs, which re-shapes eContent), so it re-encodes to the TSA's exact DER.
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [asn1js.fromBER(token).result] })],
    });
  }

  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [sha256Algorithm()],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates,
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER());
}

/** The signature value as CMS carries it: PKCS#1 v1.5 bytes, or a DER Ecdsa-Sig-Value (RFC 5753 §7.2). */
async function signWithIdentity(identity: SigningIdentity, data: Uint8Array): Promise<Uint8Array> {
  if (identity.keyType === 'rsa') {
    return new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', identity.privateKey, data));
  }
  const p1363 = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, identity.privateKey, data));
  return p1363ToDer(p1363);
}

/** SHA-256 with absent parameters (RFC 5754 §2). */
function sha256Algorithm(): pkijs.AlgorithmIdentifier {
  return new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 });
}

/** sha256WithRSAEncryption with NULL parameters (RFC 4055 §5), or ecdsa-with-SHA256 without (RFC 5758 §3.2). */
function signatureAlgorithm(identity: SigningIdentity): pkijs.AlgorithmIdentifier {
  return identity.keyType === 'rsa'
    ? new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRsa, algorithmParams: new asn1js.Null() })
    : new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 });
}
