/**
 * A document timestamp (ISO 32000-2 §12.8.5, /SubFilter /ETSI.RFC3161): /Contents is an RFC 3161
 * TimeStampToken whose messageImprint (RFC 3161 §2.4.2) is the digest of the ByteRange bytes
 * (intact), and whose SignedData signature (RFC 5652 §5.4) verifies with the TSA's certificate
 * (cryptographicallyValid). Never throws.
 */
import type { CmsCheck } from './cms-verify';
import { verifyTimestampToken } from './timestamp-token';

export async function verifyDocumentTimestamp(contents: Uint8Array, signedBytes: Uint8Array): Promise<CmsCheck> {
  const stamp = await verifyTimestampToken(trimmed(contents), signedBytes);
  const { cms } = stamp;
  return {
    ...cms,
    intact: stamp.imprintMatches,
    cryptographicallyValid: stamp.tsaSignatureValid,
    digestAlgorithm: stamp.imprintAlgorithm,
    ...(stamp.time ? { signingTime: stamp.time } : {}),
    problems: [
      ...stamp.problems,
      ...cms.problems.filter((problem) => !stamp.problems.some((p) => p.includes(problem))),
    ],
  };
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
