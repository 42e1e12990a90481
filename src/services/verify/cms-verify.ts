/**
 * Checks the CMS SignedData of one PDF signature (RFC 5652 §5; ISO 32000-1 §12.8.3.3, PAdES ETSI
 * EN 319 142-1): is the ByteRange digest the one that was signed (intact), and does the signer's
 * signature verify with the embedded signer certificate (cryptographicallyValid). Trust (chains,
 * revocation) is not decided here. Never throws: damage becomes problems.
 */

import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toHex } from '../../crypto';
import { bytesEqual, type CertificateSummary, concatBytes, OID, summarizeCertificate } from '../../kit';
import { cmsRevocationData, type RevocationDatum } from '../revocation';
import { type BaselineCheck, checkBaselineAttributes } from './baseline-attributes';
import { findEncodingFault } from './ber-strict';
import { attributeRanges } from './cms-attribute-ranges';
import { derSetOf } from './der-set-of';
import { computeDigest, DIGEST_LENGTH, type DigestName, digestName } from './digest-algorithms';
import { withoutMalformedRevocation } from './malformed-revocation';
import { eddsaDigestFault, type SignatureScheme, signatureScheme, verifySignature } from './signature-algorithms';
import { verifyX509RsaSha1 } from './x509-rsa-sha1';

export interface CmsCheck {
  intact: boolean;
  cryptographicallyValid: boolean;
  digestAlgorithm: string;
  signatureAlgorithm: string;
  signer?: { certificate: CertificateSummary; name?: string; email?: string };
  certificates: Uint8Array[];
  signingTime?: string;
  timestampToken?: Uint8Array;
  /** The SignerInfo's signature value: what a signature timestamp's messageImprint covers (RFC 3161 Appendix A). */
  signatureValue?: Uint8Array;
  /** The encapsulated content, for a token that carries its own (an RFC 3161 TSTInfo). */
  encapsulatedContent?: Uint8Array;
  /** The encapsulated content's type (RFC 5652 §5.2 eContentType). */
  contentType?: string;
  /** OCSP responses and CRLs the signature carries (src/services/revocation cms-revocation.ts). */
  revocationData: RevocationDatum[];
  /** Whether the CMS is what a PAdES baseline signature must be (baseline-attributes.ts); absent when unread. */
  baseline?: BaselineCheck;
  problems: string[];
}

/** /Contents larger than this is not parsed (real CMS with timestamps and chains are tens of KB). */
export const MAX_CMS_BYTES = 1024 * 1024;

/** A check that has found nothing yet: both verdicts false until proven. */
export function emptyCmsCheck(): CmsCheck {
  return {
    intact: false,
    cryptographicallyValid: false,
    digestAlgorithm: 'unknown',
    signatureAlgorithm: 'unknown',
    certificates: [],
    revocationData: [],
    problems: [],
  };
}

/** `dictionaryCertificates` is the signature dictionary's /Cert, used by adbe.x509.rsa_sha1 only. */
export async function verifyCms(
  contents: Uint8Array,
  signedBytes: Uint8Array,
  subFilter: string,
  dictionaryCertificates: Uint8Array[] = [],
): Promise<CmsCheck> {
  const check = emptyCmsCheck();
  try {
    if (subFilter === 'adbe.x509.rsa_sha1') await runX509RsaSha1(check, contents, signedBytes, dictionaryCertificates);
    else await runChecks(check, contents, signedBytes, subFilter);
  } catch (error) {
    check.intact = false;
    check.cryptographicallyValid = false;
    check.problems.push(`the signature cannot be read: ${(error as Error).message}`);
  }
  return check;
}

/**
 * A SignedData that carries its own content (RFC 5652 §5.2), as an RFC 3161 TimeStampToken
 * carries its TSTInfo (RFC 3161 §2.4.2): intact when messageDigest is the digest of that content.
 */
export async function verifyEncapsulatedCms(contents: Uint8Array): Promise<CmsCheck> {
  const check = emptyCmsCheck();
  try {
    await runChecks(check, contents, undefined, ENCAPSULATED);
  } catch (error) {
    check.intact = false;
    check.cryptographicallyValid = false;
    check.problems.push(`the token cannot be read: ${(error as Error).message}`);
  }
  return check;
}

/** runChecks' mode for a SignedData whose content is encapsulated (not a PDF SubFilter). */
const ENCAPSULATED = 'encapsulated';

async function runChecks(
  check: CmsCheck,
  contents: Uint8Array,
  signedBytes: Uint8Array | undefined,
  subFilter: string,
) {
  const { problems } = check;
  if (subFilter === 'adbe.pkcs7.sha1') problems.push('legacy adbe.pkcs7.sha1 signature (SHA-1)');
  if (contents.length > MAX_CMS_BYTES) {
    problems.push(`the signature is larger than ${MAX_CMS_BYTES} bytes`);
    return;
  }

  // A lenient parse would accept what X.690 forbids even in BER (e.g. a padded certificate serial);
  // OpenSSL and BouncyCastle reject such a CMS, so it is not a valid signature here either. Only
  // when the strict walk finds a fault are the attribute values (undecoded ANY) located and exempted.
  const fault = findEncodingFault(contents) && findEncodingFault(contents, attributeRanges(contents));
  if (fault) {
    problems.push(`the signature's CMS is not validly encoded: ${fault}`);
    return;
  }
  const signedData = parseSignedData(contents, problems);
  if (!signedData) return;
  check.certificates = embeddedCertificates(signedData);

  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) {
    problems.push('the signature has no signer');
    return;
  }
  if (signedData.signerInfos.length > 1) problems.push('the signature has more than one signer; the first is checked');

  const digest = digestName(signerInfo.digestAlgorithm.algorithmId);
  check.digestAlgorithm = digest ?? signerInfo.digestAlgorithm.algorithmId;
  if (!digest) problems.push(`the digest algorithm ${signerInfo.digestAlgorithm.algorithmId} is not supported`);
  else if (digest === 'SHA-1' && subFilter !== 'adbe.pkcs7.sha1') problems.push('the digest algorithm is SHA-1 (weak)');

  let scheme: SignatureScheme | undefined;
  try {
    scheme = signatureScheme(signerInfo.signatureAlgorithm, digest);
    check.signatureAlgorithm = scheme.name;
  } catch (error) {
    check.signatureAlgorithm = signerInfo.signatureAlgorithm.algorithmId;
    problems.push((error as Error).message);
  }

  readUnsignedAttributes(check, signerInfo);
  if (subFilter !== ENCAPSULATED) {
    const revocation = cmsRevocationData(signedData, signerInfo);
    check.revocationData = revocation.data;
    problems.push(...revocation.problems.map((problem) => `revocation: ${problem}`));
  }

  const signer = findSigner(signedData, signerInfo);
  if (!signer) {
    problems.push(`the signer certificate (${describeSid(signerInfo.sid)}) is not in the signature`);
    return;
  }
  check.signer = await describeSigner(signer);
  if (subFilter !== ENCAPSULATED) {
    check.baseline = await checkBaselineAttributes(signedData, signerInfo, new Uint8Array(signer.toSchema().toBER()));
    if (check.baseline.substituted) {
      problems.push(
        'the signing-certificate attribute names another certificate than the signer’s (RFC 5035 §3): the certificate may have been substituted',
      );
    }
  }

  // The content: the ByteRange bytes (detached), or for adbe.pkcs7.sha1 the encapsulated SHA-1
  // digest of them (ISO 32000-1 §12.8.3.3.1).
  const content = await signedContent(signedData, signedBytes, subFilter, problems);
  check.contentType = signedData.encapContentInfo.eContentType;
  if (subFilter === ENCAPSULATED) check.encapsulatedContent = content;
  const signature = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
  check.signatureValue = signature;
  if (!content || !digest || !scheme) return;

  if (!signerInfo.signedAttrs) {
    // Without signed attributes the signature is over the content itself (RFC 5652 §5.4).
    const valid = await verifyOrProblem(scheme, signer, signature, content, problems);
    check.intact = valid;
    check.cryptographicallyValid = valid;
    return;
  }

  const attributes = readSignedAttributes(check, signerInfo, signedData, digest);
  if (!attributes) return;
  const actual = await computeDigest(digest, content);
  check.intact = bytesEqual(actual, attributes.messageDigest);
  if (!check.intact) problems.push('the document digest does not match the signed digest');
  const eddsaFault = eddsaDigestFault(scheme, digest);
  if (eddsaFault) {
    problems.push(eddsaFault);
    return;
  }

  // The signature covers the DER of the signed attributes with the SET OF tag 0x31, not the
  // [0] IMPLICIT tag they are written with (RFC 5652 §5.4). pkijs keeps the original bytes re-tagged.
  const encoded = new Uint8Array(signerInfo.signedAttrs.encodedValue);
  const signedAttributes = encoded.length > 0 ? encoded : new Uint8Array(signerInfo.signedAttrs.toSchema().toBER());
  signedAttributes[0] = 0x31;
  check.cryptographicallyValid = await verifyOverDer(scheme, signer, signature, signedAttributes, problems);
}

/**
 * The signature is over the DER encoding of the signed attributes (RFC 5652 §5.4). When the bytes
 * as sent are not DER (e.g. the SET OF is not in X.690 §11.6 order), the DER re-encoding is tried
 * first; one that verifies only over the bytes as sent is accepted, as Acrobat, OpenSSL, poppler
 * and pyHanko accept it (node-forge, hence node-signpdf, writes such attributes), with a problem
 * saying that a verifier which re-encodes them (BouncyCastle, hence EU DSS) rejects it. The
 * signer's digest and key still bind exactly the bytes it sent, so nothing unsigned is trusted.
 */
async function verifyOverDer(
  scheme: SignatureScheme,
  signer: pkijs.Certificate,
  signature: Uint8Array,
  asSent: Uint8Array,
  problems: string[],
): Promise<boolean> {
  const der = derSetOf(asSent);
  if (!der || bytesEqual(der.der, asSent)) return verifyOrProblem(scheme, signer, signature, asSent, problems);
  const overDer = await verifySignature(scheme, signer, signature, der.der).catch(() => false);
  if (overDer) return true;
  const asSentValid = await verifyOrProblem(scheme, signer, signature, asSent, problems);
  if (asSentValid) {
    problems.push(
      `the signed attributes are not DER-encoded (${der.ordered ? 'their length is not in DER form, X.690 §10.1' : 'their order is not the DER SET OF order, X.690 §11.6'}; RFC 5652 §5.4): the signature verifies over the bytes as sent, which EU DSS does not accept`,
    );
  }
  return asSentValid;
}

/** /Contents is a bare PKCS#1 signature and the certificates are in /Cert (ISO 32000-1 §12.8.3.2). */
async function runX509RsaSha1(
  check: CmsCheck,
  contents: Uint8Array,
  signedBytes: Uint8Array,
  certificates: Uint8Array[],
) {
  check.digestAlgorithm = 'SHA-1';
  check.signatureAlgorithm = 'RSASSA-PKCS1-v1_5';
  check.certificates = certificates;
  const result = await verifyX509RsaSha1(contents, signedBytes, certificates);
  check.problems.push(...result.problems);
  if (result.signer) check.signer = await describeSigner(result.signer);
  check.intact = result.valid;
  check.cryptographicallyValid = result.valid;
}

/**
 * ASN.1 elements asn1js may build for one CMS. Its default (10,000) refuses a signature carrying
 * a CRL of a few thousand entries (EU DSS's adbe_crl_signed.pdf needs 32,402); each element costs
 * about 1 KB of heap, so 50,000 keeps a CMS within some 55 MB of the isolate's 128.
 */
export const MAX_CMS_ELEMENTS = 50_000;

/**
 * ContentInfo { id-signedData, SignedData } (RFC 5652 §3, §5.1); trailing zeros of the /Contents
 * hole allowed. BER (indefinite or long-form lengths) is read as BER: RFC 5652 asks for DER only
 * of the signed attributes (§5.4), which verifyOverDer handles, so the envelope's form is not a fault.
 */
function parseSignedData(contents: Uint8Array, problems: string[]): pkijs.SignedData | undefined {
  const parsed = asn1js.fromBER(contents, { maxNodes: MAX_CMS_ELEMENTS });
  if (parsed.offset === -1 || parsed.result.error) {
    const error = parsed.result.error ?? '';
    problems.push(
      /node count/i.test(error)
        ? `the signature's CMS has more than ${MAX_CMS_ELEMENTS} ASN.1 elements and is not read`
        : `the signature's CMS cannot be read as BER${error ? ` (${error})` : ''}`,
    );
    return undefined;
  }
  if (contents.subarray(parsed.offset).some((byte) => byte !== 0)) {
    problems.push('the signature has data after its end');
  }
  let contentInfo: pkijs.ContentInfo;
  try {
    contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
  } catch {
    problems.push('the signature is not a CMS ContentInfo');
    return undefined;
  }
  if (contentInfo.contentType !== OID.signedData) {
    problems.push('the signature is not a CMS SignedData');
    return undefined;
  }
  try {
    return new pkijs.SignedData({ schema: contentInfo.content });
  } catch {
    // Revocation data in crls is not signed: entries of the wrong form are left out, and said.
    const tolerated = withoutMalformedRevocation(contentInfo.content);
    try {
      if (!tolerated) throw new Error('malformed');
      const signedData = new pkijs.SignedData({ schema: tolerated.schema });
      problems.push(
        `${tolerated.dropped} revocation ${tolerated.dropped === 1 ? 'entry' : 'entries'} of the SignedData's crls ${tolerated.dropped === 1 ? 'is' : 'are'} not a RevocationInfoChoice (RFC 5652 §10.2.1) and ${tolerated.dropped === 1 ? 'is' : 'are'} ignored; the signer does not sign them`,
      );
      return signedData;
    } catch {
      problems.push('the CMS SignedData is malformed');
      return undefined;
    }
  }
}

function embeddedCertificates(signedData: pkijs.SignedData): Uint8Array[] {
  return (signedData.certificates ?? [])
    .filter((entry): entry is pkijs.Certificate => entry instanceof pkijs.Certificate)
    .map((certificate) => new Uint8Array(certificate.toSchema().toBER()));
}

/** SignerIdentifier (RFC 5652 §5.3): issuerAndSerialNumber, or [0] subjectKeyIdentifier. */
function findSigner(signedData: pkijs.SignedData, signerInfo: pkijs.SignerInfo): pkijs.Certificate | undefined {
  const certificates = (signedData.certificates ?? []).filter(
    (entry): entry is pkijs.Certificate => entry instanceof pkijs.Certificate,
  );
  const sid = signerInfo.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certificates.find(
      (certificate) => certificate.issuer.isEqual(sid.issuer) && certificate.serialNumber.isEqual(sid.serialNumber),
    );
  }
  const keyId = subjectKeyIdentifierOf(sid);
  if (!keyId) return undefined;
  return certificates.find((certificate) => {
    const extension = certificate.extensions?.find((entry) => entry.extnID === OID.subjectKeyIdentifier);
    const parsed = extension ? asn1js.fromBER(extension.extnValue.valueBlock.valueHexView) : undefined;
    return parsed?.result instanceof asn1js.OctetString
      ? bytesEqual(new Uint8Array(parsed.result.valueBlock.valueHexView), keyId)
      : false;
  });
}

/** The signer identifier in plain words (RFC 5652 §5.3 SignerIdentifier): issuer and serial, or key id. */
function describeSid(sid: unknown): string {
  try {
    if (sid instanceof pkijs.IssuerAndSerialNumber) {
      const issuer = new x509.Name(sid.issuer.toSchema().toBER()).toString();
      return `issuer ${issuer}, serial ${toHex(new Uint8Array(sid.serialNumber.valueBlock.valueHexView))}`;
    }
    const keyId = subjectKeyIdentifierOf(sid);
    return keyId ? `subject key identifier ${toHex(keyId)}` : 'unidentified';
  } catch {
    return 'unidentified';
  }
}

function subjectKeyIdentifierOf(sid: unknown): Uint8Array | undefined {
  if (!(sid instanceof asn1js.BaseBlock)) return undefined;
  if (sid.idBlock.tagClass !== 3 || sid.idBlock.tagNumber !== 0) return undefined;
  // [0] IMPLICIT OCTET STRING: the primitive's value is the key identifier.
  const view = (sid.valueBlock as { valueHexView?: Uint8Array }).valueHexView;
  if (view && view.length > 0) return new Uint8Array(view);
  const inner = (sid.valueBlock as { value?: asn1js.BaseBlock[] }).value?.[0];
  return inner instanceof asn1js.OctetString ? new Uint8Array(inner.valueBlock.valueHexView) : undefined;
}

/** The name (CN) and email (emailAddress in the subject, else a SAN rfc822Name, RFC 5280 §4.2.1.6). */
async function describeSigner(certificate: pkijs.Certificate): Promise<CmsCheck['signer']> {
  const der = new Uint8Array(certificate.toSchema().toBER());
  const cert = new x509.X509Certificate(der);
  const name = cert.subjectName.getField(OID.commonName)[0];
  let email: string | undefined = cert.subjectName.getField(OID.emailAddress)[0];
  if (!email) {
    const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
    email = san?.names.items.find((item) => item.type === 'email')?.value;
  }
  return {
    certificate: await summarizeCertificate(cert),
    ...(name ? { name } : {}),
    ...(email ? { email } : {}),
  };
}

async function signedContent(
  signedData: pkijs.SignedData,
  signedBytes: Uint8Array | undefined,
  subFilter: string,
  problems: string[],
): Promise<Uint8Array | undefined> {
  const eContent = signedData.encapContentInfo.eContent;
  const encapsulated = eContent ? octets(eContent) : undefined;
  if (subFilter === ENCAPSULATED || !signedBytes) {
    if (!encapsulated) problems.push('the token has no encapsulated content');
    return encapsulated;
  }
  if (subFilter === 'adbe.pkcs7.sha1') {
    if (!encapsulated) {
      problems.push('the adbe.pkcs7.sha1 signature has no encapsulated digest');
      return undefined;
    }
    const sha1 = new Uint8Array(await crypto.subtle.digest('SHA-1', signedBytes));
    if (!bytesEqual(sha1, encapsulated)) {
      problems.push('the document digest does not match the signed digest');
      return undefined;
    }
    return encapsulated;
  }
  if (eContent) {
    // What CMS signs is then the eContent (RFC 5652 §5.4): it is this document's only when it is
    // the ByteRange bytes themselves (EU DSS accepts that; pyHanko refuses any eContent here).
    if (!encapsulated || !bytesEqual(encapsulated, signedBytes)) {
      problems.push(
        `the signature encapsulates ${encapsulated?.length ?? 0} bytes of content that are not the signed byte ranges, so it does not sign this document; a PDF signature is detached (ISO 32000-1 §12.8.3.3.1)`,
      );
      return undefined;
    }
    problems.push(
      'the signature encapsulates the signed byte ranges instead of being detached (ISO 32000-1 §12.8.3.3.1); EU DSS accepts this, pyHanko does not',
    );
  }
  return signedBytes;
}

/** An OCTET STRING's bytes, constructed (BER) or primitive. */
function octets(value: asn1js.OctetString): Uint8Array {
  if (!value.idBlock.isConstructed) return new Uint8Array(value.valueBlock.valueHexView);
  const parts = value.valueBlock.value.filter((part): part is asn1js.OctetString => part instanceof asn1js.OctetString);
  return concatBytes(parts.map(octets));
}

interface SignedAttributeValues {
  messageDigest: Uint8Array;
}

/**
 * contentType and messageDigest are required when signed attributes are present (RFC 5652 §5.3,
 * §11.1, §11.2), each exactly once with one value; contentType equals eContentType. messageDigest's
 * length must be the declared digest's.
 */
function readSignedAttributes(
  check: CmsCheck,
  signerInfo: pkijs.SignerInfo,
  signedData: pkijs.SignedData,
  digest: DigestName,
): SignedAttributeValues | undefined {
  const { problems } = check;
  const attributes = signerInfo.signedAttrs?.attributes ?? [];
  const single = (type: string) => {
    const found = attributes.filter((attribute) => attribute.type === type);
    return found.length === 1 && found[0]?.values.length === 1 ? found[0].values[0] : undefined;
  };
  const contentType = single(OID.contentType);
  const messageDigest = single(OID.messageDigest);
  const signingTime = single(OID.signingTime);
  if (signingTime instanceof asn1js.UTCTime || signingTime instanceof asn1js.GeneralizedTime) {
    check.signingTime = signingTime.toDate().toISOString();
  }
  if (!(contentType instanceof asn1js.ObjectIdentifier)) {
    problems.push('the signed attributes have no content type');
    return undefined;
  }
  if (!(messageDigest instanceof asn1js.OctetString)) {
    problems.push('the signed attributes have no message digest');
    return undefined;
  }
  if (contentType.valueBlock.toString() !== signedData.encapContentInfo.eContentType) {
    problems.push('the signed content type differs from the signed content');
    return undefined;
  }
  const value = octets(messageDigest);
  if (value.length !== DIGEST_LENGTH[digest]) {
    problems.push(`the signed digest is ${value.length} bytes, not a ${digest} digest`);
    return undefined;
  }
  return { messageDigest: value };
}

/** signingTime may also sit unsigned in old signers; the RFC 3161 token is id-aa-signatureTimeStampToken (RFC 3161 Appendix A). */
function readUnsignedAttributes(check: CmsCheck, signerInfo: pkijs.SignerInfo) {
  const token = signerInfo.unsignedAttrs?.attributes.find(
    (attribute) => attribute.type === OID.signatureTimeStampToken,
  );
  const value = token?.values[0] as asn1js.BaseBlock | undefined;
  if (value) check.timestampToken = new Uint8Array(value.valueBeforeDecodeView);
}

async function verifyOrProblem(
  scheme: SignatureScheme,
  certificate: pkijs.Certificate,
  signature: Uint8Array,
  data: Uint8Array,
  problems: string[],
): Promise<boolean> {
  try {
    const valid = await verifySignature(scheme, certificate, signature, data);
    if (!valid) problems.push('the signature value does not verify with the signer certificate');
    return valid;
  } catch (error) {
    problems.push(`the signature cannot be checked: ${(error as Error).message}`);
    return false;
  }
}
