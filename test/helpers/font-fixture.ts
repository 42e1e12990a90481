/**
 * Font files made in tests: a bundled TrueType face renamed (its name table rewritten), so that a
 * document can ask for a brand name no bundled face has ("Acme Brand") and a test can tell from
 * the PDF's BaseFont which file drew it; and a face obfuscated as Word embeds it in a DOCX.
 */
import { env } from 'cloudflare:test';

export interface FontNames {
  /** nameID 1, the family (and nameID 16 unless `typographicFamily` says otherwise). */
  family: string;
  /** nameID 2: Regular, Bold, Italic or Bold Italic. */
  subfamily?: string;
  /** nameID 6, which the PDF's BaseFont carries. */
  postscriptName: string;
  /** nameID 16; none when null. */
  typographicFamily?: string | null;
}

/** The bytes of a bundled font file (assets/fonts), as the worker's ASSETS binding serves them. */
export async function bundledFont(fileName: string): Promise<Uint8Array> {
  const res = await env.ASSETS.fetch(`https://assets.local/fonts/${fileName}`);
  if (!res.ok) throw new Error(`${fileName}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** An OpenType name table (format 0) of Windows Unicode English records. */
function nameTable(records: [number, string][]): Uint8Array {
  const sorted = [...records].sort((a, b) => a[0] - b[0]);
  const strings = sorted.map(([, text]) => {
    const bytes = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      bytes[2 * i] = text.charCodeAt(i) >> 8;
      bytes[2 * i + 1] = text.charCodeAt(i) & 0xff;
    }
    return bytes;
  });
  const header = 6 + 12 * sorted.length;
  const total = header + strings.reduce((sum, s) => sum + s.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint16(2, sorted.length);
  view.setUint16(4, header);
  let offset = 0;
  sorted.forEach(([nameId], i) => {
    const at = 6 + 12 * i;
    const length = (strings[i] as Uint8Array).length;
    view.setUint16(at, 3); // Windows
    view.setUint16(at + 2, 1); // Unicode BMP
    view.setUint16(at + 4, 0x409); // English (United States)
    view.setUint16(at + 6, nameId);
    view.setUint16(at + 8, length);
    view.setUint16(at + 10, offset);
    out.set(strings[i] as Uint8Array, header + offset);
    offset += length;
  });
  return out;
}

/**
 * `font` with a new name table, appended at the end of the file (the directory entry pointing at
 * it; the old table's bytes stay behind, unreferenced).
 */
export function renameFont(font: Uint8Array, names: FontNames): Uint8Array {
  const subfamily = names.subfamily ?? 'Regular';
  const records: [number, string][] = [
    [1, names.family],
    [2, subfamily],
    [4, `${names.family} ${subfamily}`],
    [6, names.postscriptName],
  ];
  const typographic = names.typographicFamily === undefined ? names.family : names.typographicFamily;
  if (typographic !== null) records.push([16, typographic], [17, subfamily]);
  const table = nameTable(records);
  const start = Math.ceil(font.length / 4) * 4;
  const out = new Uint8Array(start + Math.ceil(table.length / 4) * 4);
  out.set(font);
  out.set(table, start);
  const view = new DataView(out.buffer);
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + 16 * i;
    if (String.fromCharCode(...out.subarray(at, at + 4)) !== 'name') continue;
    view.setUint32(at + 8, start);
    view.setUint32(at + 12, table.length);
    return out;
  }
  throw new Error('the font has no name table');
}

/** A bundled face renamed: `renameFont(await bundledFont(file), names)`. */
export async function brandFont(fileName: string, names: FontNames): Promise<Uint8Array> {
  return renameFont(await bundledFont(fileName), names);
}

/** Obfuscates a font as Word embeds it (ECMA-376 Part 1 §17.8.1), with the GUID `key`. */
export function obfuscateFont(font: Uint8Array, key: string): Uint8Array {
  const hex = key.replace(/[{}-]/g, '');
  const keyBytes: number[] = [];
  for (let i = hex.length - 2; i >= 0; i -= 2) keyBytes.push(Number.parseInt(hex.slice(i, i + 2), 16));
  const out = font.slice();
  for (let i = 0; i < 32; i++) out[i] = (out[i] as number) ^ (keyBytes[i % 16] as number);
  return out;
}

/** The first bytes of other font formats, padded: enough for sniffing to tell them apart. */
export function fontHeader(tag: 'OTTO' | 'wOFF' | 'wOF2' | 'ttcf', length = 256): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < 4; i++) out[i] = tag.charCodeAt(i);
  return out;
}
