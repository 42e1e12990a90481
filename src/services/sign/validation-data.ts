import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { bytesEqual } from '../../kit';
import { collectRevocationData, type RevocationFetchOptions } from '../revocation';
import { checkX509Signature } from '../verify';
import type { ValidationData } from './sign-types';

export interface GatheredValidationData {
  data: ValidationData;
  /** What could not be gathered, and why (or a certificate found revoked); plain sentences. */
  problems: string[];
}

/**
 * The validation data of PAdES B-LT (ETSI EN 319 142-1 §5.4.2): every certificate of the signer's
 * chain and of the TSA's (the timestamp token's certificates, RFC 3161 §2.4.2), and revocation data
 * for each certificate of both chains that has an issuer: OCSP responses or CRLs
 * (src/services/revocation). The two chains are looked up at the same time, so the deadline
 * `revocation.timeoutMs` gives each is one deadline for both; a CA both chains share is asked once.
 */
export async function gatherValidationData(
  signerChain: readonly Uint8Array[],
  timestampToken: Uint8Array | undefined,
  revocation: RevocationFetchOptions,
): Promise<GatheredValidationData> {
  const problems: string[] = [];
  let tsaChain: Uint8Array[] = [];
  let tokenCertificates: Uint8Array[] = [];
  if (timestampToken) {
    try {
      tokenCertificates = certificatesOf(timestampToken);
      tsaChain = tsaChainOf(timestampToken, tokenCertificates, signerChain);
      // certReq asks the TSA for its certificate (RFC 3161 §2.4.1); one that ignores it leaves its chain out.
      if (tsaChain.length === 0) {
        problems.push(
          "the timestamp token does not carry the TSA's certificate, so neither it nor its revocation data is in the DSS",
        );
      }
    } catch (error) {
      problems.push(`the timestamp token's certificates cannot be read: ${(error as Error).message}`);
      tsaChain = [];
    }
  }
  const [signer, tsa] = await Promise.all([
    collectRevocationData(signerChain, checkX509Signature, revocation),
    tsaChain.length > 0
      ? collectRevocationData(tsaChain, checkX509Signature, { ...revocation, skip: signerChain })
      : undefined,
  ]);
  const certificates = unique([...signerChain, ...tsaChain, ...tokenCertificates]);
  return {
    data: {
      certificates,
      ocsps: unique([...signer.ocsps, ...(tsa?.ocsps ?? [])]),
      crls: unique([...signer.crls, ...(tsa?.crls ?? [])]),
    },
    problems: [...problems, ...signer.problems, ...(tsa?.problems ?? [])],
  };
}

/** The DER certificates of a token's SignedData (RFC 5652 §5.1), byte for byte as the TSA sent them. */
function certificatesOf(token: Uint8Array): Uint8Array[] {
  const contentInfo = asn1js.fromBER(token).result as asn1js.Sequence;
  // ContentInfo ::= SEQUENCE { contentType, [0] EXPLICIT SignedData }
  const signedData = (contentInfo.valueBlock.value[1] as asn1js.Constructed | undefined)?.valueBlock.value[0];
  if (!(signedData instanceof asn1js.Sequence)) throw new Error('the token is not a SignedData');
  // certificates [0] IMPLICIT CertificateSet, after version, digestAlgorithms and encapContentInfo.
  const set = signedData.valueBlock.value.find(
    (element, i) => i >= 3 && element.idBlock.tagClass === 3 && element.idBlock.tagNumber === 0,
  ) as asn1js.Constructed | undefined;
  return (set?.valueBlock.value ?? [])
    .filter((element) => element instanceof asn1js.Sequence)
    .map((element) => new Uint8Array(element.valueBeforeDecodeView));
}

/**
 * The TSA's chain, leaf first: the certificate the token's SignerInfo names (by issuer and serial,
 * or by subject key identifier, RFC 5652 §5.3), then each issuer found among the token's
 * certificates and the signer's chain, by name (RFC 5280 §4.1.2.4), until a self-issued one.
 */
function tsaChainOf(
  token: Uint8Array,
  tokenCertificates: readonly Uint8Array[],
  signerChain: readonly Uint8Array[],
): Uint8Array[] {
  const contentInfo = pkijs.ContentInfo.fromBER(token);
  const signerInfo = new pkijs.SignedData({ schema: contentInfo.content }).signerInfos[0];
  if (!signerInfo) return [];
  const pool = unique([...tokenCertificates, ...signerChain]).map((der) => ({
    der,
    certificate: pkijs.Certificate.fromBER(der),
  }));
  const sid = signerInfo.sid as unknown;
  const leaf = pool.find(({ certificate }) =>
    sid instanceof pkijs.IssuerAndSerialNumber
      ? certificate.issuer.isEqual(sid.issuer) &&
        bytesEqual(certificate.serialNumber.valueBlock.valueHexView, sid.serialNumber.valueBlock.valueHexView)
      : sid instanceof asn1js.Primitive && bytesEqual(subjectKeyIdentifier(certificate), sid.valueBlock.valueHexView),
  );
  if (!leaf) return [];
  const chain = [leaf];
  for (let current = leaf; chain.length < 8 && !current.certificate.issuer.isEqual(current.certificate.subject); ) {
    const issuer = pool.find(
      (candidate) => !chain.includes(candidate) && current.certificate.issuer.isEqual(candidate.certificate.subject),
    );
    if (!issuer) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain.map(({ der }) => der);
}

function subjectKeyIdentifier(certificate: pkijs.Certificate): Uint8Array {
  const extension = certificate.extensions?.find((candidate) => candidate.extnID === '2.5.29.14');
  const value = extension?.parsedValue;
  return value instanceof asn1js.OctetString ? value.valueBlock.valueHexView : new Uint8Array(0);
}

function unique(values: readonly Uint8Array[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const value of values) if (!out.some((seen) => bytesEqual(seen, value))) out.push(value);
  return out;
}
