import { env } from 'cloudflare:test';

/** The bytes of a bundled font file (assets/fonts), e.g. to rename into a caller's brand font. */
export async function bundledFont(fileName: string): Promise<Uint8Array> {
  const res = await env.ASSETS.fetch(`https://assets.local/fonts/${fileName}`);
  if (!res.ok) throw new Error(`${fileName}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * A copy of a TrueType font whose name table says it is `family` / `subfamily`, PostScript name
 * `postscript` (OpenType "name" table, format 0, Windows Unicode records): a brand font no bundled
 * face has. The new table goes at the end; the directory entry points at it (checksums are not
 * recomputed: neither fontkit nor PDF readers check them).
 */
export function renamedFont(font: Uint8Array, family: string, subfamily: string, postscript: string): Uint8Array {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = view.getUint16(4);
  let entry = -1;
  for (let i = 0; i < tables; i++) {
    const at = 12 + i * 16;
    if (String.fromCharCode(font[at] ?? 0, font[at + 1] ?? 0, font[at + 2] ?? 0, font[at + 3] ?? 0) === 'name')
      entry = at;
  }
  if (entry < 0) throw new Error('no name table');
  const records: [number, string][] = [
    [1, family],
    [2, subfamily],
    [4, `${family} ${subfamily}`],
    [6, postscript],
  ];
  const strings = records.map(([, text]) => {
    const bytes = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      bytes[i * 2] = text.charCodeAt(i) >> 8;
      bytes[i * 2 + 1] = text.charCodeAt(i) & 0xff;
    }
    return bytes;
  });
  const headerLength = 6 + records.length * 12;
  const table = new Uint8Array(headerLength + strings.reduce((sum, s) => sum + s.length, 0));
  const out = new DataView(table.buffer);
  out.setUint16(0, 0);
  out.setUint16(2, records.length);
  out.setUint16(4, headerLength);
  let offset = 0;
  records.forEach(([id], i) => {
    const at = 6 + i * 12;
    out.setUint16(at, 3); // Windows
    out.setUint16(at + 2, 1); // Unicode BMP
    out.setUint16(at + 4, 0x409); // en-US
    out.setUint16(at + 6, id);
    out.setUint16(at + 8, (strings[i] as Uint8Array).length);
    out.setUint16(at + 10, offset);
    table.set(strings[i] as Uint8Array, headerLength + offset);
    offset += (strings[i] as Uint8Array).length;
  });
  const start = Math.ceil(font.length / 4) * 4;
  const result = new Uint8Array(start + table.length);
  result.set(font);
  result.set(table, start);
  const directory = new DataView(result.buffer);
  directory.setUint32(entry + 8, start);
  directory.setUint32(entry + 12, table.length);
  return result;
}
