/**
 * A ZIP archive of named entries, deflated by the runtime's native zlib where there is one.
 *
 * In workerd, CompressionStream is native zlib, several times faster than fflate's deflate in
 * JavaScript, and its 'gzip' format carries the CRC-32 a ZIP entry needs (gzip-member.ts), so the
 * bytes are not run through a CRC in JavaScript either. fflate's streaming Zip writes the
 * container: each entry is handed to it already deflated (method 8, APPNOTE.TXT §4.4.5) with its
 * CRC and size, which fflate writes in a data descriptor after the data (§4.3.9). Where
 * CompressionStream is missing (Node without it), fflate's gzipSync at level 1 deflates instead.
 */
import { gzipSync, Zip, type ZipInputFile, ZipPassThrough } from 'fflate';
import { concatBytes } from '../../../kit';
import { type GzipMember, splitGzipMember } from './gzip-member';

/**
 * Entries smaller than this are stored, not deflated: a native stream costs tens of microseconds
 * to set up whatever its input, more than a small part's deflate saves (a few hundred bytes of a
 * package; the parts under this are the package's bookkeeping: properties, settings, package
 * relationships).
 */
const STORE_BELOW = 1024;

export type ZipOutputEntry =
  /** Bytes to deflate, or to store when `store` is set (data already compressed, as media are). */
  | { name: string; bytes: Uint8Array; store?: boolean }
  /** Bytes deflated ahead by `deflateEntry`. */
  | { name: string; deflated: DeflatedEntry }
  /** An entry of another archive, its stored data copied as it is (see CopiedEntry). */
  | { name: string; copied: CopiedEntry };

/**
 * The data of an entry taken from another archive without decompressing it: the compressed bytes
 * exactly as stored, with the method (APPNOTE.TXT §4.4.5), CRC-32 (§4.4.7) and uncompressed size
 * (§4.4.9) from that archive's central directory. The new local header, data descriptor and
 * directory record carry these unchanged, so the entry's data stays byte for byte what it was.
 */
export interface CopiedEntry {
  method: number;
  crc32: number;
  size: number;
  data: Uint8Array;
}

/** An entry's data deflated, with what its ZIP headers need; see deflateEntry. */
export type DeflatedEntry = GzipMember;

/** `bytes` deflated (raw, RFC 1951) with their CRC-32 and length. */
export async function deflateEntry(bytes: Uint8Array): Promise<DeflatedEntry> {
  if (typeof CompressionStream === 'undefined') return splitGzipMember(gzipSync(bytes, { level: 1 }));
  // One chunk to the writable side, as engine/write/pdf/flate-streams.ts does; a failure shows on the readable side.
  const compressor = new CompressionStream('gzip');
  const writer = compressor.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  const member = splitGzipMember(new Uint8Array(await new Response(compressor.readable).arrayBuffer()));
  if (member.size !== bytes.length >>> 0) throw new Error('deflated length differs from the input');
  return member;
}

/** The archive of `entries`, in their order. */
export async function zipEntries(entries: readonly ZipOutputEntry[]): Promise<Uint8Array> {
  const deflated = await Promise.all(
    entries.map((entry) =>
      'copied' in entry
        ? undefined
        : 'deflated' in entry
          ? entry.deflated
          : entry.store || entry.bytes.length < STORE_BELOW
            ? undefined
            : deflateEntry(entry.bytes),
    ),
  );
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else chunks.push(chunk);
  });
  entries.forEach((entry, index) => {
    if ('copied' in entry) {
      const { method, crc32, size, data } = entry.copied;
      const file: ZipInputFile = { filename: entry.name, size, crc: crc32, compression: method };
      zip.add(file);
      // fflate only reads the chunk; its type asks for an ArrayBuffer-backed array.
      file.ondata?.(null, data as Uint8Array<ArrayBuffer>, true);
      return;
    }
    const member = deflated[index];
    if (member === undefined) {
      const stored = new ZipPassThrough(entry.name);
      zip.add(stored);
      stored.push('bytes' in entry ? entry.bytes : new Uint8Array(0), true);
      return;
    }
    const file: ZipInputFile = { filename: entry.name, size: member.size, crc: member.crc32, compression: 8 };
    zip.add(file); // sets file.ondata, through which the entry's data goes in
    file.ondata?.(null, member.deflated, true);
  });
  zip.end();
  if (failure) throw failure;
  return concatBytes(chunks);
}
