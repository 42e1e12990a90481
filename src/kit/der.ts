/**
 * Writing a DER element (X.690 §8.1, §10.1): the tag, a definite length in the fewest octets, the
 * contents. One writer for signing (the ECDSA signature's SEQUENCE and INTEGERs) and verifying (a
 * SET OF put back in DER order); reading DER is verify's (ber-strict.ts).
 */
import { concatBytes } from './bytes';

/** The element with this one-octet tag whose contents are `contents`, one after another. */
export function derElement(tag: number, contents: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of contents) length += part.length;
  return concatBytes([Uint8Array.from([tag, ...derLength(length)]), ...contents]);
}

/** X.690 §10.1, §8.1.3: short form below 128, else the fewest octets. */
function derLength(length: number): number[] {
  if (length < 0x80) return [length];
  const octets: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) octets.unshift(rest % 256);
  return [0x80 | octets.length, ...octets];
}
