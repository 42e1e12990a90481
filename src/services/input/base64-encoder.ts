/**
 * Base64 (RFC 4648 §4, standard alphabet, padded) of response documents: `Uint8Array#toBase64`
 * (TC39 "Uint8Array to/from base64") where the runtime has it, else `btoa` over binary strings of
 * 32 KiB chunks (a whole-document binary string would be one more copy at twice the size).
 */
type ToBase64 = (this: Uint8Array) => string;
const nativeToBase64: ToBase64 | undefined = (() => {
  const candidate = (Uint8Array.prototype as unknown as { toBase64?: unknown }).toBase64;
  return typeof candidate === 'function' ? (candidate as ToBase64) : undefined;
})();

const CHUNK = 0x6000; // 24 KiB, a multiple of 3: chunks join without padding between them

export function encodeBase64(bytes: Uint8Array): string {
  if (nativeToBase64) return nativeToBase64.call(bytes);
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const chunk = bytes.subarray(start, Math.min(bytes.length, start + CHUNK));
    parts.push(btoa(String.fromCharCode.apply(null, chunk as unknown as number[])));
  }
  return parts.join('');
}

/** A `data:<mediaType>;base64,…` URI (RFC 2397 §3). */
export function dataUri(mediaType: string, bytes: Uint8Array): string {
  return `data:${mediaType};base64,${encodeBase64(bytes)}`;
}
