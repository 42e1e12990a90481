import { derElement } from '../../kit';

/**
 * WebCrypto's ECDSA signatures are IEEE P1363 (r || s, fixed width); CMS wants the DER encoding
 * Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } (RFC 5753 §7.2, RFC 3279 §2.2.3).
 */
export function p1363ToDer(signature: Uint8Array): Uint8Array {
  if (signature.length === 0 || signature.length % 2 !== 0) {
    throw new Error(`An IEEE P1363 ECDSA signature has an even, non-zero length; got ${signature.length}`);
  }
  const half = signature.length / 2;
  const r = derInteger(signature.subarray(0, half));
  const s = derInteger(signature.subarray(half));
  return derElement(0x30, [r, s]);
}

/** An unsigned big-endian integer as a DER INTEGER: minimal length, a 0x00 prefix when the top bit is set. */
function derInteger(magnitude: Uint8Array): Uint8Array {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  const needsPad = (trimmed[0] ?? 0) & 0x80;
  const body = new Uint8Array(trimmed.length + (needsPad ? 1 : 0));
  body.set(trimmed, needsPad ? 1 : 0);
  return derElement(0x02, [body]);
}
