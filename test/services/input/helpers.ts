import { strToU8, zipSync } from 'fflate';
import { ApiError } from '../../../src/errors';

/** The ApiError that `run` throws; fails the test when it throws nothing or something else. */
export function apiErrorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError, but nothing was thrown');
}

/** The ApiError that `promise` rejects with. */
export async function apiRejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError, but the promise resolved');
}

export function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Small documents built in memory: just enough structure for the sniffer, nothing copied from a corpus. */
export const fixtures = {
  pdf(): Uint8Array {
    return bytesOf(
      '%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
    );
  },

  docx(extra: Record<string, Uint8Array> = {}): Uint8Array {
    return zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      ),
      '_rels/.rels': strToU8('<?xml version="1.0"?><Relationships/>'),
      'word/document.xml': strToU8('<?xml version="1.0"?><w:document><w:body><w:p/></w:body></w:document>'),
      ...extra,
    });
  },

  zip(entries: Record<string, string> = { 'readme.txt': 'hello', 'data/table.csv': 'a,b\n1,2\n' }): Uint8Array {
    return zipSync(Object.fromEntries(Object.entries(entries).map(([name, text]) => [name, strToU8(text)])));
  },

  /** An OLE compound file: the signature, a header, and directory entry names in UTF-16LE. */
  ole(...streams: string[]): Uint8Array {
    const bytes = new Uint8Array(2048);
    bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    let at = 1024;
    for (const name of ['Root Entry', ...streams]) {
      for (let i = 0; i < name.length; i++) bytes[at + i * 2] = name.charCodeAt(i);
      at += 128; // directory entries are 128 bytes ([MS-CFB] §2.6)
    }
    return bytes;
  },
};
