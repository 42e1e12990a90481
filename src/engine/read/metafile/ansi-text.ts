/**
 * 8-bit metafile text (META_TEXTOUT, META_EXTTEXTOUT, EMR_EXTTEXTOUTA) → Unicode, by the selected
 * font's character set ([MS-WMF] §2.1.1.5 CharacterSet). SYMBOL_CHARSET bytes stay as they are:
 * the canvas maps them with the symbol font's table (src/engine/text/symbol-fonts.ts).
 */

const CHARSET_ENCODINGS: Record<number, string> = {
  0: 'windows-1252',
  1: 'windows-1252',
  128: 'shift_jis',
  129: 'euc-kr',
  134: 'gbk',
  136: 'big5',
  161: 'windows-1253',
  162: 'windows-1254',
  163: 'windows-1258',
  177: 'windows-1255',
  178: 'windows-1256',
  186: 'windows-1257',
  204: 'windows-1251',
  222: 'windows-874',
  238: 'windows-1250',
};

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}

export function decodeAnsi(bytes: Uint8Array, charset: number): string {
  const encoding = CHARSET_ENCODINGS[charset];
  if (encoding === undefined) return latin1(bytes);
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    // The runtime lacks this legacy encoding: Latin-1 keeps ASCII right.
    return latin1(bytes);
  }
}
