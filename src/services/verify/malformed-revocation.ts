/**
 * SignedData's crls field (RFC 5652 §5.1, §10.2.1: [1] IMPLICIT RevocationInfoChoices, each a
 * CertificateList or [1] IMPLICIT OtherRevocationInfoFormat) is outside what the signer signs.
 * iText has written an OCSP response there as an untagged SEQUENCE { id-ri-ocsp-response,
 * response }, which BouncyCastle tolerates and pkijs refuses with the whole SignedData. Such
 * entries are dropped so the signature itself can be checked; the caller says so.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const CONTEXT = 2;

/** The SignedData with the crls entries that are no RevocationInfoChoice left out; undefined when none is. */
export function withoutMalformedRevocation(
  signedData: unknown,
): { schema: asn1js.Sequence; dropped: number } | undefined {
  if (!(signedData instanceof asn1js.Sequence)) return undefined;
  let dropped = 0;
  const value = signedData.valueBlock.value.map((part) => {
    if (!(part instanceof asn1js.Constructed) || part.idBlock.tagClass !== CONTEXT + 1 || part.idBlock.tagNumber !== 1)
      return part;
    const kept = part.valueBlock.value.filter((entry) => {
      const ok = isRevocationInfoChoice(entry);
      if (!ok) dropped++;
      return ok;
    });
    return new asn1js.Constructed({ idBlock: { tagClass: CONTEXT + 1, tagNumber: 1 }, value: kept });
  });
  return dropped > 0 ? { schema: new asn1js.Sequence({ value }), dropped } : undefined;
}

function isRevocationInfoChoice(entry: asn1js.BaseBlock): boolean {
  if (entry.idBlock.tagClass === CONTEXT + 1 && entry.idBlock.tagNumber === 1 && entry.idBlock.isConstructed)
    return true;
  try {
    new pkijs.CertificateRevocationList({ schema: entry });
    return true;
  } catch {
    return false;
  }
}
