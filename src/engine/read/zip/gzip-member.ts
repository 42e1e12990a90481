/**
 * The parts of one gzip member (RFC 1952 §2.3): its raw deflate data (RFC 1951), the CRC-32 of the
 * uncompressed bytes and their length mod 2^32. A ZIP entry stores exactly these three (APPNOTE.TXT
 * §4.3.7, §4.3.9), so deflating with the runtime's native CompressionStream('gzip') gives a ZIP
 * entry's data and checksum without running a CRC in JavaScript.
 */
export interface GzipMember {
  /** The compressed blocks, without the gzip header and trailer. */
  deflated: Uint8Array<ArrayBuffer>;
  crc32: number;
  /** ISIZE: the uncompressed length mod 2^32. */
  size: number;
}

const ID1 = 0x1f;
const ID2 = 0x8b;
const CM_DEFLATE = 8;
const FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;
const HEADER_BYTES = 10;
const TRAILER_BYTES = 8;

/** Splits one gzip member; throws on anything that is not a single deflate member. */
export function splitGzipMember(gzip: Uint8Array<ArrayBuffer>): GzipMember {
  if (gzip.length < HEADER_BYTES + TRAILER_BYTES || gzip[0] !== ID1 || gzip[1] !== ID2 || gzip[2] !== CM_DEFLATE) {
    throw new Error('not a gzip member with deflate data');
  }
  const flags = gzip[3] as number;
  let at = HEADER_BYTES;
  if (flags & FEXTRA) at += 2 + ((gzip[at] as number) | ((gzip[at + 1] as number) << 8));
  // FNAME and FCOMMENT are zero-terminated.
  const afterZero = (from: number) => {
    const zero = gzip.indexOf(0, from);
    if (zero < 0) throw new Error('truncated gzip header');
    return zero + 1;
  };
  if (flags & FNAME) at = afterZero(at);
  if (flags & FCOMMENT) at = afterZero(at);
  if (flags & FHCRC) at += 2;
  const end = gzip.length - TRAILER_BYTES;
  if (at > end) throw new Error('truncated gzip header');
  const view = new DataView(gzip.buffer, gzip.byteOffset + end, TRAILER_BYTES);
  return { deflated: gzip.subarray(at, end), crc32: view.getUint32(0, true), size: view.getUint32(4, true) };
}
