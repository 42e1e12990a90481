/**
 * The signature timestamp of a CMS signer (RFC 3161 §2.4.2 TimeStampToken, carried as the
 * unsigned attribute id-aa-signatureTimeStampToken, RFC 3161 Appendix A): only its genTime is
 * read for now; the token's own signature and messageImprint are not verified. Never throws.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

export interface TimestampInfo {
  time: string | undefined;
  verified: false;
  problems: string[];
}

export function readTimestamp(token: Uint8Array): TimestampInfo {
  const problems = ['the timestamp token was not verified'];
  try {
    const info = pkijs.ContentInfo.fromBER(token);
    const signedData = new pkijs.SignedData({ schema: info.content });
    const eContent = signedData.encapContentInfo.eContent;
    if (!eContent) return { time: undefined, verified: false, problems: [...problems, 'the timestamp has no TSTInfo'] };
    const bytes = eContent.idBlock.isConstructed
      ? concat(
          eContent.valueBlock.value
            .filter((part): part is asn1js.OctetString => part instanceof asn1js.OctetString)
            .map((part) => new Uint8Array(part.valueBlock.valueHexView)),
        )
      : new Uint8Array(eContent.valueBlock.valueHexView);
    const tst = pkijs.TSTInfo.fromBER(bytes);
    return { time: tst.genTime.toISOString(), verified: false, problems };
  } catch (error) {
    return {
      time: undefined,
      verified: false,
      problems: [...problems, `the timestamp cannot be read: ${(error as Error).message}`],
    };
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
