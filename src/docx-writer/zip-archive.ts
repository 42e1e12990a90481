/**
 * The ZIP container (APPNOTE.TXT 6.3: local headers, central directory, end record) around parts
 * that are stored or deflated (deflate.ts). Entries keep the order given; no data descriptors,
 * no extra fields; names are ASCII part names.
 */
import { deflateRaw } from './deflate';

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
  /** Store rather than deflate (media that are compressed already). */
  store?: boolean;
}

/** CRC-32 (the ZIP polynomial 0xEDB88320), one table look-up per byte. */
const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = (CRC_TABLE[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return ~crc >>> 0;
}

/** MS-DOS date and time (local), as fflate wrote them before: the moment the package is made. */
function dosDateTime(date: Date): number {
  return (
    ((date.getFullYear() - 1980) << 25) |
    ((date.getMonth() + 1) << 21) |
    (date.getDate() << 16) |
    (date.getHours() << 11) |
    (date.getMinutes() << 5) |
    (date.getSeconds() >> 1)
  );
}

export function zipArchive(entries: readonly ZipEntry[], now: Date = new Date()): Uint8Array {
  const time = dosDateTime(now);
  const encoder = new TextEncoder();
  const items = entries.map((entry) => {
    const name = encoder.encode(entry.name);
    const data = entry.store ? entry.bytes : deflateRaw(entry.bytes);
    return { name, data, method: entry.store ? 0 : 8, crc: crc32(entry.bytes), size: entry.bytes.length };
  });
  let localSize = 0;
  let centralSize = 0;
  for (const item of items) {
    localSize += 30 + item.name.length + item.data.length;
    centralSize += 46 + item.name.length;
  }
  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  let offset = 0;
  const offsets: number[] = [];
  for (const item of items) {
    offsets.push(offset);
    view.setUint32(offset, 0x04034b50, true);
    view.setUint16(offset + 4, 20, true); // version needed: 2.0 (deflate)
    view.setUint16(offset + 6, 0, true); // flags
    view.setUint16(offset + 8, item.method, true);
    view.setUint32(offset + 10, time, true);
    view.setUint32(offset + 14, item.crc, true);
    view.setUint32(offset + 18, item.data.length, true);
    view.setUint32(offset + 22, item.size, true);
    view.setUint16(offset + 26, item.name.length, true);
    view.setUint16(offset + 28, 0, true); // extra field length
    out.set(item.name, offset + 30);
    out.set(item.data, offset + 30 + item.name.length);
    offset += 30 + item.name.length + item.data.length;
  }
  const centralStart = offset;
  items.forEach((item, index) => {
    view.setUint32(offset, 0x02014b50, true);
    view.setUint16(offset + 4, 20, true); // made by: MS-DOS, 2.0
    view.setUint16(offset + 6, 20, true);
    view.setUint16(offset + 8, 0, true);
    view.setUint16(offset + 10, item.method, true);
    view.setUint32(offset + 12, time, true);
    view.setUint32(offset + 16, item.crc, true);
    view.setUint32(offset + 20, item.data.length, true);
    view.setUint32(offset + 24, item.size, true);
    view.setUint16(offset + 28, item.name.length, true);
    // Extra and comment lengths, disk number, internal and external attributes: all zero.
    view.setUint32(offset + 42, offsets[index] as number, true);
    out.set(item.name, offset + 46);
    offset += 46 + item.name.length;
  });
  view.setUint32(offset, 0x06054b50, true);
  view.setUint16(offset + 8, items.length, true);
  view.setUint16(offset + 10, items.length, true);
  view.setUint32(offset + 12, offset - centralStart, true);
  view.setUint32(offset + 16, centralStart, true);
  return out;
}
