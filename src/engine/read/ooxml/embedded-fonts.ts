import type { DeclaredFont, EmbeddedFont } from '../../model';
import type { OpcPackage } from './package-reader';
import { PartError } from './part-error';
import type { XmlElement } from './xml-tree';

/**
 * Fonts embedded in the package (word/fonts/*.odttf), listed by word/fontTable.xml with w:embed*
 * elements that name the font part and its obfuscation key (ECMA-376 Part 1, §17.8.3.3).
 */

const EMBED_KINDS: Record<string, { bold: boolean; italic: boolean }> = {
  'w:embedRegular': { bold: false, italic: false },
  'w:embedBold': { bold: true, italic: false },
  'w:embedItalic': { bold: false, italic: true },
  'w:embedBoldItalic': { bold: true, italic: true },
};

export function readEmbeddedFonts(
  fontTable: XmlElement | undefined,
  fontTablePart: string,
  pkg: OpcPackage,
  warn: (message: string) => void,
): EmbeddedFont[] {
  if (fontTable === undefined) return [];
  const fonts: EmbeddedFont[] = [];
  let relationships: ReturnType<OpcPackage['relationships']> | undefined;
  for (const font of fontTable.children) {
    const family = font.attributes['w:name'];
    if (font.name !== 'w:font' || family === undefined) continue;
    for (const embed of font.children) {
      const style = EMBED_KINDS[embed.name];
      const id = embed.attributes['r:id'];
      if (style === undefined || id === undefined) continue;
      relationships ??= pkg.relationships(fontTablePart);
      const target = relationships.find((relationship) => relationship.id === id);
      if (target === undefined || target.external) {
        warn(`The embedded font ${family} points at a missing part (relationship ${id}); it is ignored.`);
        continue;
      }
      let bytes: Uint8Array | undefined;
      try {
        bytes = pkg.readPart(target.target);
      } catch (error) {
        if (error instanceof PartError && !error.fatal) {
          warn(`${error.message} The embedded font ${family} is ignored.`);
          continue;
        }
        throw error;
      }
      if (bytes === undefined) {
        warn(`The embedded font ${family} is missing from the package (${target.target}); it is ignored.`);
        continue;
      }
      const key = embed.attributes['w:fontKey'];
      let clear: Uint8Array | undefined = bytes;
      if (key !== undefined && key !== '') {
        clear = deobfuscateFont(bytes, key);
        if (clear === undefined) {
          warn(`The embedded font ${family} has an unreadable key (${key}); it is ignored.`);
          continue;
        }
      }
      fonts.push({ family, bold: style.bold, italic: style.italic, bytes: clear });
    }
  }
  return fonts;
}

/**
 * Font obfuscation (§17.8.1): the first 32 bytes of the font are XORed with the 16-byte key made
 * from the GUID in w:fontKey, its hex digits read from the last pair to the first, applied twice.
 * The operation is its own inverse, so this also obfuscates. Returns a copy; undefined for a
 * malformed key or a file too short to be a font.
 */
export function deobfuscateFont(bytes: Uint8Array, fontKey: string): Uint8Array | undefined {
  const hex = fontKey.replace(/[{}-]/g, '');
  if (!/^[0-9A-Fa-f]{32}$/.test(hex) || bytes.length < 32) return undefined;
  const key = new Uint8Array(16);
  for (let i = 0; i < 16; i++) key[i] = Number.parseInt(hex.slice(30 - 2 * i, 32 - 2 * i), 16);
  const out = bytes.slice();
  for (let i = 0; i < 32; i++) out[i] = (out[i] as number) ^ (key[i % 16] as number);
  return out;
}

const FONT_FAMILIES = new Set<DeclaredFont['family']>(['roman', 'swiss', 'modern', 'script', 'decorative']);

/**
 * The font table's hints for substituting fonts that are not installed (§17.8.3.9): each font's
 * w:altName (§17.8.3.1) and w:family (§17.8.3.10), by its name. Fonts with neither are left out.
 */
export function readDeclaredFonts(fontTable: XmlElement | undefined): Record<string, DeclaredFont> {
  const declared: Record<string, DeclaredFont> = {};
  if (fontTable === undefined) return declared;
  for (const font of fontTable.children) {
    const name = font.attributes['w:name'];
    if (font.name !== 'w:font' || name === undefined || name === '') continue;
    const entry: DeclaredFont = {};
    for (const hint of font.children) {
      const value = hint.attributes['w:val'];
      if (value === undefined || value === '') continue;
      if (hint.name === 'w:altName') entry.altName = value;
      else if (hint.name === 'w:family' && FONT_FAMILIES.has(value as DeclaredFont['family'])) {
        entry.family = value as DeclaredFont['family'];
      } else if (hint.name === 'w:pitch' && (value === 'fixed' || value === 'variable')) entry.pitch = value;
    }
    if (entry.altName !== undefined || entry.family !== undefined || entry.pitch !== undefined) declared[name] = entry;
  }
  return declared;
}
