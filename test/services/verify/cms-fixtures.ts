/** CMS test helpers: a signed PDF's /Contents and ByteRange bytes, SignedData parsed and re-encoded. */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import { findSignatureFields } from '../../../src/services/verify/signature-fields';

export interface Extracted {
  pdf: Uint8Array;
  contents: Uint8Array;
  signedBytes: Uint8Array;
  subFilter: string;
  /** Offset of the first /Contents hex digit in the file. */
  hexStart: number;
}

export async function extract(pdf: Uint8Array): Promise<Extracted> {
  const { signatures } = await findSignatureFields(pdf, findRevisions(pdf));
  const field = signatures.at(-1);
  if (!field?.byteRange || !field.contents) throw new Error('no signature');
  const [a, b, c, d] = field.byteRange as [number, number, number, number];
  const hex = new TextDecoder('latin1').decode(pdf.subarray(field.contents.start + 1, field.contents.end - 1));
  const contents = new Uint8Array(hex.length / 2);
  for (let i = 0; i < contents.length; i++) contents[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  const signedBytes = new Uint8Array(b + d);
  signedBytes.set(pdf.subarray(a, a + b), 0);
  signedBytes.set(pdf.subarray(c, c + d), b);
  return { pdf, contents, signedBytes, subFilter: field.subFilter ?? '', hexStart: field.contents.start + 1 };
}

export function parse(contents: Uint8Array): pkijs.SignedData {
  const contentInfo = new pkijs.ContentInfo({ schema: asn1js.fromBER(contents).result });
  return new pkijs.SignedData({ schema: contentInfo.content });
}

export function encode(signedData: pkijs.SignedData): Uint8Array {
  const contentInfo = new pkijs.ContentInfo({
    contentType: '1.2.840.113549.1.7.2',
    content: signedData.toSchema(true),
  });
  return new Uint8Array(contentInfo.toSchema().toBER());
}

/** The signer's certificate (the first) of `signedData`, with its key replaced by `spki`; its own signature is left stale. */
export function withPublicKey(signedData: pkijs.SignedData, spki: pkijs.PublicKeyInfo): pkijs.Certificate {
  const original = signedData.certificates?.[0] as pkijs.Certificate;
  const copy = pkijs.Certificate.fromBER(original.toSchema().toBER());
  copy.subjectPublicKeyInfo = spki;
  // Re-encode the TBSCertificate from the fields (toSchema(true)), not the bytes it was read from.
  return pkijs.Certificate.fromBER(copy.toSchema(true).toBER());
}

export function publicKeyInfo(keyOid: string, key: Uint8Array, curveOid?: string): pkijs.PublicKeyInfo {
  return new pkijs.PublicKeyInfo({
    algorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: keyOid,
      ...(curveOid ? { algorithmParams: new asn1js.ObjectIdentifier({ value: curveOid }) } : {}),
    }),
    subjectPublicKey: new asn1js.BitString({ valueHex: key }),
  });
}

/** The attributes as a DER SET OF: elements sorted by their encodings (X.690 §11.6), tag 0x31. */
export function derSetOf(attributes: pkijs.Attribute[]): { sorted: pkijs.Attribute[]; der: Uint8Array } {
  const encoded = attributes.map((attribute) => ({ attribute, der: new Uint8Array(attribute.toSchema().toBER()) }));
  encoded.sort((a, b) => {
    for (let i = 0; i < Math.max(a.der.length, b.der.length); i++) {
      const diff = (a.der[i] ?? 0) - (b.der[i] ?? 0);
      if (diff !== 0) return diff;
    }
    return 0;
  });
  const sorted = encoded.map((entry) => entry.attribute);
  return { sorted, der: new Uint8Array(new asn1js.Set({ value: sorted.map((a) => a.toSchema()) }).toBER()) };
}

export interface Resign {
  certificate: pkijs.Certificate;
  digestOid: string;
  messageDigest: Uint8Array;
  signatureOid: string;
  /** Signs the DER signed attributes (tag 0x31). */
  sign: (signedAttributes: Uint8Array) => Uint8Array | Promise<Uint8Array>;
}

/**
 * Re-signs `contents` (a SignedData with signed attributes) as another signer would: its
 * certificate, digest and signature algorithm, messageDigest, and a signature over the DER
 * signed attributes (RFC 5652 §5.4).
 */
export async function resign(contents: Uint8Array, options: Resign): Promise<Uint8Array> {
  const signedData = parse(contents);
  const signerInfo = signedData.signerInfos[0] as pkijs.SignerInfo;
  signedData.certificates = [options.certificate];
  signedData.digestAlgorithms = [new pkijs.AlgorithmIdentifier({ algorithmId: options.digestOid })];
  signerInfo.digestAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: options.digestOid });
  signerInfo.signatureAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: options.signatureOid });
  // signingCertificateV2 names the new signer (RFC 5035 §3), as that signer's own software would write it.
  const certificateHash = await crypto.subtle.digest('SHA-256', options.certificate.toSchema().toBER());
  const attributes = (signerInfo.signedAttrs as pkijs.SignedAndUnsignedAttributes).attributes.map((attribute) =>
    attribute.type === '1.2.840.113549.1.9.4'
      ? new pkijs.Attribute({
          type: attribute.type,
          values: [new asn1js.OctetString({ valueHex: options.messageDigest })],
        })
      : attribute.type === '1.2.840.113549.1.9.16.2.47'
        ? new pkijs.Attribute({
            type: attribute.type,
            values: [
              new asn1js.Sequence({
                value: [
                  new asn1js.Sequence({
                    value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certificateHash })] })],
                  }),
                ],
              }),
            ],
          })
        : attribute,
  );
  const { sorted, der } = derSetOf(attributes);
  signerInfo.signedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: sorted });
  signerInfo.signature = new asn1js.OctetString({ valueHex: await options.sign(der) });
  return encode(signedData);
}
