/**
 * A document timestamp (ISO 32000-2 §12.8.5, /SubFilter /ETSI.RFC3161): /Contents is an RFC 3161
 * TimeStampToken whose TSTInfo messageImprint (RFC 3161 §2.4.2) is the digest of the ByteRange
 * bytes (intact), and whose SignedData signature (RFC 5652 §5.4) verifies with the TSA's
 * certificate (cryptographicallyValid). Never throws.
 */
import * as pkijs from 'pkijs';
import { summarizeCertificate } from '../sign/certificate-summary';
import { type CmsCheck, emptyCmsCheck } from './cms-verify';
import { computeDigest, digestName } from './digest-algorithms';

export async function verifyDocumentTimestamp(contents: Uint8Array, signedBytes: Uint8Array): Promise<CmsCheck> {
  const check = emptyCmsCheck();
  try {
    const info = pkijs.ContentInfo.fromBER(trimmed(contents));
    const signedData = new pkijs.SignedData({ schema: info.content });
    check.certificates = (signedData.certificates ?? [])
      .filter((cert): cert is pkijs.Certificate => cert instanceof pkijs.Certificate)
      .map((cert) => new Uint8Array(cert.toSchema().toBER()));
    const eContent = signedData.encapContentInfo.eContent;
    if (!eContent) {
      check.problems.push('the document timestamp has no TSTInfo');
      return check;
    }
    const tst = pkijs.TSTInfo.fromBER(eContent.getValue());
    const imprintOid = tst.messageImprint.hashAlgorithm.algorithmId;
    const digest = digestName(imprintOid);
    check.digestAlgorithm = digest ?? imprintOid;
    check.signingTime = tst.genTime.toISOString();
    if (!digest) check.problems.push(`the timestamp digest algorithm ${imprintOid} is not supported`);
    else {
      const actual = await computeDigest(digest, signedBytes);
      const imprint = new Uint8Array(tst.messageImprint.hashedMessage.valueBlock.valueHexView);
      check.intact = actual.length === imprint.length && actual.every((byte, i) => byte === imprint[i]);
      if (!check.intact) check.problems.push('the document digest does not match the timestamp');
    }
    const verified = await signedData.verify({
      signer: 0,
      checkChain: false,
      extendedMode: true,
      // For a TSTInfo, pkijs checks the messageImprint against `data`: the time-stamped bytes.
      data: signedBytes.slice().buffer,
    });
    check.cryptographicallyValid = verified.signatureVerified === true;
    if (!check.cryptographicallyValid) check.problems.push('the timestamp authority signature does not verify');
    const signer = verified.signerCertificate;
    if (signer) {
      const der = new Uint8Array(signer.toSchema().toBER());
      const certificate = await summarizeCertificate(der);
      check.signer = { certificate, name: certificate.subject };
    }
    check.signatureAlgorithm = signedData.signerInfos[0]?.signatureAlgorithm.algorithmId ?? 'unknown';
  } catch (error) {
    check.intact = false;
    check.cryptographicallyValid = false;
    const message = error instanceof Error ? error.message : String((error as { message?: string })?.message ?? error);
    check.problems.push(`the document timestamp cannot be read: ${message}`);
  }
  return check;
}

/** /Contents is zero-padded after the DER (ISO 32000-1 §12.8.1): cut at the outer length. */
function trimmed(contents: Uint8Array): Uint8Array {
  if (contents[0] !== 0x30 || contents.length < 2) return contents;
  const first = contents[1] ?? 0;
  if (first < 0x80) return contents.subarray(0, 2 + first);
  const count = first & 0x7f;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + (contents[2 + i] ?? 0);
  return count === 0 ? contents : contents.subarray(0, Math.min(contents.length, 2 + count + length));
}
