import { describe, expect, it } from 'vitest';
import { openPackage, relationshipsPartName, resolveTarget } from '../../src/ooxml/package-reader';
import { zipParts } from './docx-fixture';

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
      1024 * 1024,
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
    const pkg = openPackage(zipParts({ 'word/_rels/document.xml.rels': '<Relationships><oops' }), 1024, (warning) =>
      warnings.push(warning),
    );
    expect(pkg.relationships('word/document.xml')).toEqual([]);
    expect(warnings[0]).toMatch(/document\.xml\.rels is not well-formed XML/);
  });

  it('counts every inflated byte against one budget', () => {
    const pkg = openPackage(zipParts({ 'a.xml': 'x'.repeat(600), 'b.xml': 'y'.repeat(600) }), 1000);
    expect(pkg.readPart('a.xml')?.length).toBe(600);
    expect(() => pkg.readPart('b.xml')).toThrow(/expands to more than 1000 bytes/);
  });
});
