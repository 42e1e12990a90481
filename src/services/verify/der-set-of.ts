/**
 * The DER encoding of a SET OF as received (X.690 §11.6: the elements in ascending order of their
 * encodings, compared as octet strings with the shorter padded at its end with zero octets; §10.1:
 * a definite length in the fewest octets). RFC 5652 §5.4 signs the DER encoding of the signed
 * attributes, so a verifier that re-encodes (BouncyCastle, hence EU DSS) checks the signature over
 * these bytes, not the bytes as sent.
 */
import { derElement } from '../../kit';
import { childrenOf } from './ber-strict';

export interface DerSetOf {
  der: Uint8Array;
  /** Whether the elements as sent are already in DER order. */
  ordered: boolean;
}

/** undefined when `set` is not a readable constructed element. */
export function derSetOf(set: Uint8Array): DerSetOf | undefined {
  const first = set[0];
  if (first === undefined || (first & 0x20) === 0) return undefined;
  const elements = childrenOf(set, 0).map((child) => set.subarray(child.start, child.end));
  const sorted = [...elements].sort(compareEncodings);
  const ordered = sorted.every((element, i) => element === elements[i]);
  return { der: derElement(first, sorted), ordered };
}

function compareEncodings(a: Uint8Array, b: Uint8Array): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
