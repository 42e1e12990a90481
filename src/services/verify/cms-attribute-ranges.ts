/**
 * Where a CMS SignedData's attribute sets lie in its encoding: ContentInfo { contentType,
 * [0] EXPLICIT SignedData } (RFC 5652 §3), SignedData's last element signerInfos SET OF
 * SignerInfo (§5.1), each SignerInfo's [0] signedAttrs and [1] unsignedAttrs (§5.3). Found by
 * walking the TLVs, so the ranges are byte offsets of the input.
 */
import { childrenOf, type Exempt } from './ber-strict';

const CONTEXT = 2;
const UNIVERSAL = 0;
const SET = 17;

export function attributeRanges(contents: Uint8Array): Exempt {
  const [, explicit] = childrenOf(contents, 0);
  if (!explicit || explicit.tagClass !== CONTEXT || explicit.tagNumber !== 0) return [];
  const [signedData] = childrenOf(contents, explicit.start);
  if (!signedData) return [];
  const signerInfos = childrenOf(contents, signedData.start).at(-1);
  if (!signerInfos || signerInfos.tagClass !== UNIVERSAL || signerInfos.tagNumber !== SET) return [];
  return childrenOf(contents, signerInfos.start).flatMap((signerInfo) =>
    childrenOf(contents, signerInfo.start)
      .filter((part) => part.tagClass === CONTEXT && part.constructed && (part.tagNumber === 0 || part.tagNumber === 1))
      .map((part) => ({ start: part.start, end: part.end })),
  );
}
