import { describe, expect, it } from 'vitest';
import {
  openPackage,
  readPartsAhead,
  relationshipsPartName,
  resolveTarget,
} from '../../../../src/engine/read/ooxml/package-reader';
import { declareZipSize, zipParts } from '../../../helpers/docx-fixture';

/** A package budget of `count` bytes, for all parts and for the XML among them. */
const bytes = (count: number) => ({ inflatedBytes: count, inflatedXmlBytes: count });

describe('the package reader', () => {
  it('resolves relationship targets against the source part (OPC Part 2 §9.3)', () => {
    expect(resolveTarget('word/document.xml', 'media/image1.png')).toBe('word/media/image1.png');
    expect(resolveTarget('word/document.xml', '../customXml/item1.xml')).toBe('customXml/item1.xml');
    expect(resolveTarget('word/document.xml', '/word/styles.xml')).toBe('word/styles.xml');
    expect(resolveTarget('', 'word/document.xml')).toBe('word/document.xml');
    expect(relationshipsPartName('word/document.xml')).toBe('word/_rels/document.xml.rels');
    expect(relationshipsPartName('')).toBe('_rels/.rels');
  });

  it('finds parts case-insensitively and by percent-encoded name, and reads content types', () => {
    const pkg = openPackage(
      zipParts({
        '[Content_Types].xml':
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="PNG" ContentType="image/png"/><Override PartName="/Word/Document.xml" ContentType="main"/></Types>',
        'Word/Document.xml': '<w:document/>',
        'word/media/my image.png': 'png',
      }),
      bytes(1024 * 1024),
    );
    expect(pkg.hasPart('word/document.xml')).toBe(true);
    expect(pkg.hasPart('/WORD/DOCUMENT.XML')).toBe(true);
    expect(pkg.readPart('word/media/my%20image.png')).toEqual(new TextEncoder().encode('png'));
    expect(pkg.contentType('word/document.xml')).toBe('main');
    expect(pkg.contentType('word/media/my image.png')).toBe('image/png');
    expect(pkg.readPart('word/missing.xml')).toBeUndefined();
  });

  it('reads a broken relationships part as none, with a warning', () => {
    const warnings: string[] = [];
    const pkg = openPackage(
      zipParts({ 'word/_rels/document.xml.rels': '<Relationships><oops' }),
      bytes(1024),
      (warning) => warnings.push(warning),
    );
    expect(pkg.relationships('word/document.xml')).toEqual([]);
    expect(warnings[0]).toMatch(/document\.xml\.rels is not well-formed XML/);
  });

  it('takes no declared size on trust: parts declared at 480 MB each are read at their real size', () => {
    const zip = declareZipSize(
      zipParts({ 'word/document.xml': '<w:document/>', 'word/media/a.png': 'png bytes' }),
      undefined,
      480_000_000,
    );
    const pkg = openPackage(zip, bytes(1024));
    expect(new TextDecoder().decode(pkg.readPart('word/document.xml'))).toBe('<w:document/>');
    expect(new TextDecoder().decode(pkg.readPart('word/media/a.png'))).toBe('png bytes');
  });

  it('counts XML parts against the XML budget as well as the whole one', () => {
    const pkg = openPackage(
      zipParts({ 'a.xml': 'x'.repeat(600), 'media/b.bin': 'y'.repeat(600), 'c.rels': 'z'.repeat(600) }),
      { inflatedBytes: 2000, inflatedXmlBytes: 1000 },
    );
    expect(pkg.readPart('a.xml')?.length).toBe(600);
    expect(pkg.readPart('media/b.bin')?.length).toBe(600);
    expect(() => pkg.readPart('c.rels')).toThrow(/XML parts expand to more than 1000 bytes/);
  });

  it('counts every inflated byte against one budget', () => {
    const pkg = openPackage(zipParts({ 'a.xml': 'x'.repeat(600), 'b.xml': 'y'.repeat(600) }), bytes(1000));
    expect(pkg.readPart('a.xml')?.length).toBe(600);
    expect(() => pkg.readPart('b.xml')).toThrow(/expand to more than 1000 bytes/);
  });

  it('refuses a part whose deflate data is damaged as corrupt, whether it is inflated at once or counted', () => {
    const zip = zipParts({ 'word/document.xml': 'x'.repeat(600) });
    // The first local header (APPNOTE §4.3.7): its data follows the 30 fixed bytes, the name and the extra field.
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    zip[30 + view.getUint16(26, true) + view.getUint16(28, true)] = 0xff; // a reserved block type (RFC 1951 §3.2.3)
    for (const budget of [bytes(1 << 24), bytes(1000)]) {
      expect(() => openPackage(zip, budget).readPart('word/document.xml')).toThrow(
        /The part word\/document.xml is corrupt: its compressed data cannot be decompressed/,
      );
    }
  });

  describe('inflating large parts ahead, natively', () => {
    /** XML that deflate cannot shrink much: 64 KiB of it compresses to well over the 8 KiB threshold. */
    function noisyXml(length: number): string {
      let state = 1;
      let text = '<root>';
      while (text.length < length) {
        state = (state * 1103515245 + 12345) >>> 0;
        text += String.fromCharCode(97 + ((state >>> 16) % 26));
      }
      return `${text}</root>`;
    }

    it('gives the reader the same bytes it would have inflated, and only parts it reads', async () => {
      const big = noisyXml(64 * 1024);
      const zip = zipParts({ 'word/document.xml': big, 'word/small.xml': '<a/>', 'word/embeddings/x.xml': big });
      const ahead = await readPartsAhead(zip, bytes(1 << 24));
      expect(ahead.size).toBe(1);
      const pkg = openPackage(zip, bytes(1 << 24), () => {}, ahead);
      expect(new TextDecoder().decode(pkg.readPart('word/document.xml'))).toBe(big);
      expect(ahead.size).toBe(0);
      expect(new TextDecoder().decode(openPackage(zip, bytes(1 << 24)).readPart('word/embeddings/x.xml'))).toBe(big);
    });

    it('leaves a part whose declared size is wrong to the reader, which refuses it as before', async () => {
      const big = noisyXml(64 * 1024);
      const zip = declareZipSize(zipParts({ 'word/document.xml': big }), 'word/document.xml', 1000);
      const ahead = await readPartsAhead(zip, bytes(1 << 24));
      expect(ahead.size).toBe(0);
      expect(() => openPackage(zip, bytes(1 << 24), () => {}, ahead).readPart('word/document.xml')).toThrow(
        /decompresses to more bytes than the ZIP directory declares/,
      );
    });

    it('inflates nothing ahead past the budget', async () => {
      const zip = zipParts({ 'word/document.xml': noisyXml(64 * 1024) });
      expect((await readPartsAhead(zip, bytes(1000))).size).toBe(0);
    });
  });
});
