/** Small byte-matching helpers shared by the sniffer and its descriptions. */

export function startsWith(bytes: Uint8Array, prefix: ArrayLike<number>, at = 0): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/** Index of `needle` in `bytes[from, to)`, or -1. Jumps between candidates with the native indexOf. */
export function indexOfBytes(bytes: Uint8Array, needle: Uint8Array, from = 0, to = bytes.length): number {
  const [first] = needle;
  if (first === undefined) return from;
  const last = Math.min(to, bytes.length) - needle.length;
  for (let i = bytes.indexOf(first, from); i !== -1 && i <= last; i = bytes.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && bytes[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

export function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** How OLE compound files store directory entry names ([MS-CFB] §2.6.1). */
export function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) bytes[i * 2] = text.charCodeAt(i);
  return bytes;
}

/** Bytes as Latin-1 text: a lossless view for matching ASCII markup without decoding. */
export function latin1(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}
