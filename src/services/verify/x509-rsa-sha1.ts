/**
 * The legacy adbe.x509.rsa_sha1 signature (ISO 32000-1 §12.8.3.2): /Contents is a DER OCTET
 * STRING holding a PKCS#1 v1.5 RSA signature (RFC 8017 §8.2, SHA-1 DigestInfo) over the
 * ByteRange bytes, and the signer's certificate is the first of /Cert. No CMS, no signed
 * attributes: the one RSA check decides both intact and cryptographicallyValid.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { verifySignature } from './signature-algorithms';

export interface X509RsaSha1Check {
  valid: boolean;
  signer?: pkijs.Certificate;
  problems: string[];
}

export async function verifyX509RsaSha1(
  contents: Uint8Array,
  signedBytes: Uint8Array,
  certificates: Uint8Array[],
): Promise<X509RsaSha1Check> {
  const problems = ['legacy adbe.x509.rsa_sha1 signature (SHA-1)'];
  const [first] = certificates;
  let signer: pkijs.Certificate | undefined;
  try {
    signer = first ? pkijs.Certificate.fromBER(first) : undefined;
  } catch {
    signer = undefined;
  }
  if (!signer) {
    problems.push('the signer certificate (/Cert) is missing or unreadable');
    return { valid: false, problems };
  }
  // The OCTET STRING; what follows it is the /Contents hole's zero padding.
  const parsed = asn1js.fromBER(contents);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.OctetString) || parsed.result.idBlock.isConstructed) {
    problems.push('the adbe.x509.rsa_sha1 /Contents is not a DER OCTET STRING');
    return { valid: false, signer, problems };
  }
  const signature = new Uint8Array(parsed.result.valueBlock.valueHexView);
  try {
    const valid = await verifySignature({ name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-1' }, signer, signature, signedBytes);
    if (!valid) problems.push('the signature value does not verify with the signer certificate');
    return { valid, signer, problems };
  } catch (error) {
    problems.push(`the signature cannot be checked: ${(error as Error).message}`);
    return { valid: false, signer, problems };
  }
}
