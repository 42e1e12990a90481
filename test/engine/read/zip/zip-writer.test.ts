import { gzipSync, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { splitGzipMember } from '../../../../src/engine/read/zip/gzip-member';
import { entryData, readZipDirectory } from '../../../../src/engine/read/zip/zip-directory';
import { deflateEntry, zipEntries } from '../../../../src/engine/read/zip/zip-writer';

describe('splitGzipMember', () => {
  it('gives the deflate data, CRC-32 and length of a member, past optional header fields', () => {
    const text = strToU8('hello hello hello');
    // fflate writes FNAME when a filename is given (RFC 1952 §2.3.1).
    const member = splitGzipMember(gzipSync(text, { filename: 'a.txt' }) as Uint8Array<ArrayBuffer>);
    expect(member.size).toBe(text.length);
    expect(member.crc32).toBe(0xe5f98880); // zlib.crc32(b'hello hello hello')
    const plain = splitGzipMember(gzipSync(text) as Uint8Array<ArrayBuffer>);
    expect(plain.deflated).toEqual(member.deflated);
    expect(plain.crc32).toBe(member.crc32);
  });

  it('refuses what is not gzip', () => {
    expect(() => splitGzipMember(new Uint8Array(20))).toThrow();
  });
});

describe('zipEntries', () => {
  it('writes deflated and stored entries that fflate reads back byte for byte, in order', async () => {
    const xml = strToU8(
      `<?xml version="1.0"?><w:document>${'<w:p><w:r><w:t>text</w:t></w:r></w:p>'.repeat(5000)}</w:document>`,
    );
    const media = new Uint8Array(70_000).map((_, i) => (i * 2654435761) >>> 24);
    const entries = [
      { name: '[Content_Types].xml', bytes: strToU8('<Types/>') },
      { name: 'word/document.xml', bytes: xml },
      { name: 'word/media/image1.png', bytes: media, store: true },
      { name: 'empty.xml', bytes: new Uint8Array(0) },
    ];
    const ahead = strToU8('<w:styles/>'.repeat(200));
    const zip = await zipEntries([...entries, { name: 'word/styles.xml', deflated: await deflateEntry(ahead) }]);
    const back = unzipSync(zip);
    expect(Object.keys(back)).toEqual([...entries.map((entry) => entry.name), 'word/styles.xml']);
    for (const entry of entries) expect(back[entry.name]).toEqual(entry.bytes);
    expect(back['word/styles.xml']).toEqual(ahead);
    // The XML is deflated (far smaller than its text), the media stored.
    expect(zip.length).toBeLessThan(media.length + xml.length / 10);
  });
});

describe('zipEntries: copied entries', () => {
  it('copies the stored data of another archive byte for byte, deflated or stored', async () => {
    const source = zipSync({
      'a.xml': [strToU8('<a/>'.repeat(500)), { level: 9 }],
      'b.bin': [new Uint8Array([1, 2, 3, 4]), { level: 0 }],
    });
    const entries = readZipDirectory(source);
    const zip = await zipEntries(
      entries.map((entry) => ({
        name: entry.name,
        copied: { method: entry.method, crc32: entry.crc32, size: entry.size, data: entryData(source, entry) },
      })),
    );
    const copies = readZipDirectory(zip);
    for (const [index, entry] of entries.entries()) {
      const copy = copies[index];
      if (!copy) throw new Error('missing entry');
      expect(copy).toMatchObject({ name: entry.name, method: entry.method, crc32: entry.crc32, size: entry.size });
      expect(entryData(zip, copy)).toEqual(entryData(source, entry));
    }
    expect(unzipSync(zip)['a.xml']).toEqual(strToU8('<a/>'.repeat(500)));
  });
});
