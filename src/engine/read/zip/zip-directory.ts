/**
 * The entries of a ZIP archive with what decompressing them needs: method, sizes, where the data
 * starts (PKWARE APPNOTE.TXT 6.3, §4.3). Used to sniff a DOCX from any other ZIP and by the
 * OOXML package reader. Why not fflate's `unzipSync` with a filter: it reads the central directory
 * without checking signatures or bounds, so a truncated or corrupt directory reads as zeros and
 * comes back as empty names instead of an error; telling "damaged" from "not a DOCX" needs every
 * record walked to be checked. Decompression is left to the reader of the parts.
 */

export class DamagedZipError extends Error {
  override readonly name = 'DamagedZipError';
}

export interface ZipEntry {
  name: string;
  /** 0 = stored, 8 = deflated (§4.4.5); anything else is unsupported. */
  method: number;
  /** General purpose flags; bit 0 = encrypted (§4.4.4). */
  flags: number;
  compressedSize: number;
  /** The uncompressed size the directory declares; checked again while inflating. */
  size: number;
  /**
   * CRC-32 of the uncompressed data, from the central directory (§4.4.7): the local header may
   * hold zero when a data descriptor follows the data (§4.3.9), the directory always has it.
   */
  crc32: number;
  localHeaderOffset: number;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50; // §4.3.16
const ZIP64_END_LOCATOR = 0x07064b50; // §4.3.15
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50; // §4.3.14
const CENTRAL_FILE_HEADER = 0x02014b50; // §4.3.12
const LOCAL_FILE_HEADER = 0x04034b50; // §4.3.7
const ZIP64_EXTRA_FIELD = 0x0001; // §4.5.3
const END_RECORD_SIZE = 22;
const MAX_COMMENT_SIZE = 0xffff;
const UTF8_NAME_FLAG = 0x800;
const utf8 = new TextDecoder('utf-8');

/** The entry names, without decompressing anything; throws DamagedZipError like readZipDirectory. */
export function listZipEntryNames(bytes: Uint8Array): string[] {
  return readZipDirectory(bytes).map((entry) => entry.name);
}

/** Throws DamagedZipError, saying what is broken, when the directory cannot be walked. */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(view);
  let count = view.getUint16(end + 10, true);
  let size = view.getUint32(end + 12, true);
  let offset = view.getUint32(end + 16, true);
  let directoryLimit = end;
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    const locator = end - 20;
    if (locator >= 0 && view.getUint32(locator, true) === ZIP64_END_LOCATOR) {
      const record = readUint64(view, locator + 8);
      if (record + 56 > locator || view.getUint32(record, true) !== ZIP64_END_OF_CENTRAL_DIRECTORY) {
        throw new DamagedZipError('the ZIP64 end record is missing');
      }
      count = readUint64(view, record + 32);
      size = readUint64(view, record + 40);
      offset = readUint64(view, record + 48);
      directoryLimit = record;
    }
  }
  if (offset + size > directoryLimit) throw new DamagedZipError('the central directory lies outside the file');

  const entries: ZipEntry[] = [];
  let position = offset;
  for (let index = 0; index < count; index++) {
    if (position + 46 > directoryLimit || view.getUint32(position, true) !== CENTRAL_FILE_HEADER) {
      throw new DamagedZipError(`central directory entry ${index + 1} of ${count} is missing or corrupt`);
    }
    const flags = view.getUint16(position + 8, true);
    const method = view.getUint16(position + 10, true);
    const crc32 = view.getUint32(position + 16, true);
    let compressedSize = view.getUint32(position + 20, true);
    let uncompressedSize = view.getUint32(position + 24, true);
    const nameLength = view.getUint16(position + 28, true);
    const extraLength = view.getUint16(position + 30, true);
    const commentLength = view.getUint16(position + 32, true);
    let localHeaderOffset = view.getUint32(position + 42, true);
    const nameStart = position + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > directoryLimit) throw new DamagedZipError(`central directory entry ${index + 1} runs past its end`);

    // ZIP64 keeps the real values, in this order, for each field marked 0xFFFFFFFF (§4.5.3).
    if (uncompressedSize === 0xffffffff || compressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      const extra = findExtraField(view, extraStart, extraStart + extraLength, ZIP64_EXTRA_FIELD);
      if (extra === undefined) throw new DamagedZipError(`entry ${index + 1} lacks its ZIP64 sizes`);
      let at = extra.start;
      const take = () => {
        if (at + 8 > extra.end) throw new DamagedZipError(`entry ${index + 1} has a short ZIP64 field`);
        const value = readUint64(view, at);
        at += 8;
        return value;
      };
      if (uncompressedSize === 0xffffffff) uncompressedSize = take();
      if (compressedSize === 0xffffffff) compressedSize = take();
      if (localHeaderOffset === 0xffffffff) localHeaderOffset = take();
    }
    if (localHeaderOffset + 30 > offset || view.getUint32(localHeaderOffset, true) !== LOCAL_FILE_HEADER) {
      throw new DamagedZipError(`the data of entry ${index + 1} is missing (the file looks truncated or altered)`);
    }
    const rawName = bytes.subarray(nameStart, nameStart + nameLength);
    entries.push({
      name: flags & UTF8_NAME_FLAG ? utf8.decode(rawName) : latin1(rawName),
      method,
      flags,
      compressedSize,
      size: uncompressedSize,
      crc32,
      localHeaderOffset,
    });
    position = next;
  }
  return entries;
}

/**
 * The stored (possibly compressed) bytes of an entry: they follow its local header, whose name and
 * extra lengths may differ from the directory's (§4.3.7), so the local header is read again.
 */
export function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_FILE_HEADER) {
    throw new DamagedZipError(`the local header of ${entry.name} is missing`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new DamagedZipError(`the data of ${entry.name} runs past the end of the file`);
  return bytes.subarray(start, end);
}

/** Names without the UTF-8 flag are CP437 (APPNOTE appendix D); the two agree on ASCII, all OOXML uses. */
function latin1(raw: Uint8Array): string {
  let text = '';
  for (const byte of raw) text += String.fromCharCode(byte);
  return text;
}

function findEndRecord(view: DataView): number {
  const last = view.byteLength - END_RECORD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT_SIZE);
  for (let position = last; position >= first; position--) {
    if (view.getUint32(position, true) === END_OF_CENTRAL_DIRECTORY) return position;
  }
  throw new DamagedZipError('the end of the archive (its central directory) is missing; the file looks truncated');
}

function findExtraField(
  view: DataView,
  start: number,
  end: number,
  id: number,
): { start: number; end: number } | undefined {
  let at = start;
  while (at + 4 <= end) {
    const fieldId = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    if (fieldId === id) return { start: at + 4, end: Math.min(end, at + 4 + length) };
    at += 4 + length;
  }
  return undefined;
}

function readUint64(view: DataView, position: number): number {
  const value = view.getBigUint64(position, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new DamagedZipError('a ZIP64 size or offset is out of range');
  return Number(value);
}
