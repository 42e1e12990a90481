import { latin1 } from './byte-patterns';

/**
 * Lists the entry names of a ZIP archive from its central directory, without decompressing
 * anything (PKWARE APPNOTE.TXT 6.3, §4.3). Used to sniff a DOCX from any other ZIP.
 *
 * Why not fflate's `unzipSync` with a filter: it finds the end record, but then reads the central
 * directory without checking signatures or bounds, so a truncated or corrupt directory reads as
 * zeros and comes back as a list of empty names instead of an error. This reader checks every
 * record it walks, which is what telling "damaged" from "not a DOCX" needs. Decompression itself is
 * left to the engine that reads the parts.
 */

export class DamagedZipError extends Error {
  override readonly name = 'DamagedZipError';
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50; // APPNOTE §4.3.16
const ZIP64_END_LOCATOR = 0x07064b50; // §4.3.15
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50; // §4.3.14
const CENTRAL_FILE_HEADER = 0x02014b50; // §4.3.12
const LOCAL_FILE_HEADER = 0x04034b50; // §4.3.7
const END_RECORD_SIZE = 22;
const MAX_COMMENT_SIZE = 0xffff;
/** General purpose bit 11: the name is UTF-8 (APPNOTE §4.4.4, appendix D). */
const UTF8_NAME_FLAG = 0x800;

const utf8 = new TextDecoder('utf-8');

/** Throws DamagedZipError, saying what is broken, when the directory cannot be walked. */
export function listZipEntryNames(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(view);
  let count = view.getUint16(end + 10, true);
  let size: number = view.getUint32(end + 12, true);
  let offset: number = view.getUint32(end + 16, true);
  let directoryLimit = end;

  // A ZIP64 archive marks the classic fields as 0xFFFF / 0xFFFFFFFF and keeps the real values in
  // the ZIP64 end record that the locator just before the end record points to.
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
  const names: string[] = [];
  let position = offset;
  for (let index = 0; index < count; index++) {
    if (position + 46 > directoryLimit || view.getUint32(position, true) !== CENTRAL_FILE_HEADER) {
      throw new DamagedZipError(`central directory entry ${index + 1} of ${count} is missing or corrupt`);
    }
    const flags = view.getUint16(position + 8, true);
    const nameLength = view.getUint16(position + 28, true);
    const extraLength = view.getUint16(position + 30, true);
    const commentLength = view.getUint16(position + 32, true);
    const localHeader = view.getUint32(position + 42, true);
    const next = position + 46 + nameLength + extraLength + commentLength;
    if (next > directoryLimit) throw new DamagedZipError(`central directory entry ${index + 1} runs past its end`);
    // 0xFFFFFFFF means the offset is in a ZIP64 extra field; such entries are only bounds-checked.
    if (
      localHeader !== 0xffffffff &&
      (localHeader + 30 > offset || view.getUint32(localHeader, true) !== LOCAL_FILE_HEADER)
    ) {
      throw new DamagedZipError(`the data of entry ${index + 1} is missing (the file looks truncated or altered)`);
    }
    names.push(decodeName(bytes.subarray(position + 46, position + 46 + nameLength), flags));
    position = next;
  }
  return names;
}

/** The end record is the last thing in the file, followed by a comment of at most 64 KiB (§4.3.16). */
function findEndRecord(view: DataView): number {
  const last = view.byteLength - END_RECORD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT_SIZE);
  for (let position = last; position >= first; position--) {
    if (view.getUint32(position, true) === END_OF_CENTRAL_DIRECTORY) return position;
  }
  throw new DamagedZipError('the end of the archive (its central directory) is missing; the file looks truncated');
}

function readUint64(view: DataView, position: number): number {
  const value = view.getBigUint64(position, true);
  // Anything beyond 2^53 cannot be an offset into a document held in memory.
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new DamagedZipError('a ZIP64 size or offset is out of range');
  return Number(value);
}

/**
 * Names without the UTF-8 flag are CP437 in theory; only ASCII names matter for sniffing, and the
 * two agree on ASCII, so Latin-1 stands in for CP437 here.
 */
function decodeName(raw: Uint8Array, flags: number): string {
  return flags & UTF8_NAME_FLAG ? utf8.decode(raw) : latin1(raw);
}
