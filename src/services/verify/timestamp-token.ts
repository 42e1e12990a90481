/**
 * RFC 3161 TimeStampTokens, as a signature timestamp (the unsigned attribute
 * id-aa-signatureTimeStampToken over the SignerInfo's signature value, RFC 3161 Appendix A) or as a
 * document timestamp (ISO 32000-2 §12.8.5, over the ByteRange bytes). A token is verified when its
 * SignedData holds a TSTInfo (RFC 3161 §2.4.2), its messageDigest is that TSTInfo's digest, the
 * TSA's signature verifies with the TSA certificate it carries, and its messageImprint is the
 * digest of what it claims to stamp. Never throws.
 */
import * as pkijs from 'pkijs';
import { type CmsCheck, verifyEncapsulatedCms } from './cms-verify';
import { computeDigest, digestName } from './digest-algorithms';

/** id-ct-TSTInfo (RFC 3161 §2.4.2). */
const TST_INFO = '1.2.840.113549.1.9.16.1.4';

export interface TimestampCheck {
  /** genTime (RFC 3161 §2.4.2), ISO 8601, when the TSTInfo could be read. */
  time: string | undefined;
  /** The messageImprint is the digest of the stamped bytes. */
  imprintMatches: boolean;
  /** The TSA's own signature over the TSTInfo verifies (RFC 5652 §5.4). */
  tsaSignatureValid: boolean;
  verified: boolean;
  /** The imprint's digest algorithm, as named in the report. */
  imprintAlgorithm: string;
  /** The token's SignedData check: the TSA certificate, the certificates carried. */
  cms: CmsCheck;
  problems: string[];
}

export async function verifyTimestampToken(token: Uint8Array, stamped: Uint8Array): Promise<TimestampCheck> {
  const cms = await verifyEncapsulatedCms(token);
  const result: TimestampCheck = {
    time: undefined,
    imprintMatches: false,
    tsaSignatureValid: cms.intact && cms.cryptographicallyValid,
    verified: false,
    imprintAlgorithm: 'unknown',
    cms,
    problems: [],
  };
  const { problems } = result;
  if (!result.tsaSignatureValid) {
    problems.push(
      `the timestamp authority's signature does not verify${cms.problems[0] ? ` (${cms.problems[0]})` : ''}`,
    );
  }
  if (!cms.encapsulatedContent || cms.contentType !== TST_INFO) {
    problems.push('the timestamp token holds no TSTInfo');
    return result;
  }
  try {
    const tst = pkijs.TSTInfo.fromBER(cms.encapsulatedContent);
    result.time = tst.genTime.toISOString();
    const oid = tst.messageImprint.hashAlgorithm.algorithmId;
    const digest = digestName(oid);
    result.imprintAlgorithm = digest ?? oid;
    if (!digest) problems.push(`the timestamp's digest algorithm ${oid} is not supported`);
    else {
      const actual = await computeDigest(digest, stamped);
      const imprint = new Uint8Array(tst.messageImprint.hashedMessage.valueBlock.valueHexView);
      result.imprintMatches = actual.length === imprint.length && actual.every((byte, i) => byte === imprint[i]);
      if (!result.imprintMatches)
        problems.push('the timestamp does not stamp these bytes (its messageImprint differs)');
    }
  } catch (error) {
    problems.push(`the timestamp's TSTInfo cannot be read: ${(error as Error).message}`);
  }
  result.verified = result.tsaSignatureValid && result.imprintMatches;
  return result;
}
