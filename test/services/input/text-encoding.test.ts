import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sniffFormat } from '../../../src/services/input/format-sniffer';
import { decodeText, prescanEncoding, sniffTextEncoding } from '../../../src/services/input/text-encoding';
import { mintKey, withKey } from '../../helpers/accounts';
import { call } from '../../helpers/api';
import { pdfText } from '../../helpers/pdf-text';
import { bytesOf } from './helpers';

/** Latin-1 (ISO 8859-1) bytes of `text`: one byte per character, U+00FF at most. */
function latin1Bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function utf16(text: string, order: 'le' | 'be', bom: boolean): Uint8Array {
  const units = `${bom ? '\ufeff' : ''}${text}`;
  const bytes = new Uint8Array(units.length * 2);
  for (let i = 0; i < units.length; i++) {
    const unit = units.charCodeAt(i);
    bytes[i * 2 + (order === 'le' ? 0 : 1)] = unit & 0xff;
    bytes[i * 2 + (order === 'le' ? 1 : 0)] = unit >> 8;
  }
  return bytes;
}

const MARKDOWN = '# Café crème\n\nÀ bientôt, Zoë — “déjà vu”.\n';

describe("workerd's TextDecoder", () => {
  it('knows the encodings text-encoding.ts uses, and the legacy ones a <meta charset> may name', () => {
    const names: Record<string, string> = {
      'utf-8': 'utf-8',
      'utf-16le': 'utf-16le',
      'utf-16be': 'utf-16be',
      'utf-16': 'utf-16le',
      'windows-1252': 'windows-1252',
      latin1: 'windows-1252',
      'iso-8859-1': 'windows-1252',
      ascii: 'windows-1252',
      ' ISO-8859-2 ': 'iso-8859-2',
      'windows-1251': 'windows-1251',
      'koi8-r': 'koi8-r',
      shift_jis: 'shift_jis',
      'euc-jp': 'euc-jp',
      gbk: 'gbk',
      gb18030: 'gb18030',
      big5: 'big5',
      'euc-kr': 'euc-kr',
      'x-user-defined': 'x-user-defined',
    };
    for (const [label, name] of Object.entries(names)) expect(new TextDecoder(label).encoding, label).toBe(name);
    expect(new TextDecoder('utf-16be').decode(new Uint8Array([0x00, 0xe9]))).toBe('é');
    expect(new TextDecoder('windows-1252').decode(new Uint8Array([0xe9, 0x80]))).toBe('é€');
    // "replacement" (iso-2022-kr and kin) and unknown labels are refused (WHATWG Encoding §7.1).
    for (const label of ['iso-2022-kr', 'replacement', 'utf-7', 'bogus'])
      expect(() => new TextDecoder(label)).toThrow();
  });
});

describe('sniffTextEncoding', () => {
  it('a byte order mark wins: UTF-8, UTF-16LE, UTF-16BE', () => {
    expect(sniffTextEncoding(bytesOf('\ufeffé'), false)).toEqual({ encoding: 'utf-8', bom: 3, by: 'bom' });
    expect(sniffTextEncoding(utf16('é', 'le', true), false)).toEqual({ encoding: 'utf-16le', bom: 2, by: 'bom' });
    expect(sniffTextEncoding(utf16('é', 'be', true), false)).toEqual({ encoding: 'utf-16be', bom: 2, by: 'bom' });
  });

  it('UTF-16 without a BOM by where its NULs are; binary with NULs is not text', () => {
    expect(sniffTextEncoding(utf16(MARKDOWN, 'le', false), false)?.encoding).toBe('utf-16le');
    expect(sniffTextEncoding(utf16(MARKDOWN, 'be', false), false)?.encoding).toBe('utf-16be');
    expect(
      sniffTextEncoding(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), false),
    ).toBe(undefined);
    expect(sniffTextEncoding(new Uint8Array([0x61, 0x00, 0x01, 0x00]), false)).toBe(undefined);
  });

  it('valid UTF-8 is UTF-8; anything else is windows-1252, unless it holds controls no text has', () => {
    expect(sniffTextEncoding(bytesOf(MARKDOWN), false)?.encoding).toBe('utf-8');
    expect(sniffTextEncoding(latin1Bytes(MARKDOWN.replace(/[—“”]/g, '"')), false)).toEqual({
      encoding: 'windows-1252',
      bom: 0,
      by: 'fallback',
    });
    expect(sniffTextEncoding(new Uint8Array([0x61, 0xe9, 0x1b, 0x62]), false)).toBe(undefined);
    // Tab, LF, FF and CR are text.
    expect(sniffTextEncoding(new Uint8Array([0x61, 0xe9, 0x09, 0x0a, 0x0c, 0x0d]), false)?.encoding).toBe(
      'windows-1252',
    );
  });

  it('HTML: a <meta> charset in the first 1024 bytes is taken before UTF-8 and the fallback', () => {
    const page = (head: string) => latin1Bytes(`<!doctype html><html><head>${head}</head><body>é</body></html>`);
    expect(sniffTextEncoding(page('<meta charset="iso-8859-2">'), true)?.encoding).toBe('iso-8859-2');
    // Markdown has no <meta>: the same bytes are windows-1252 there.
    expect(sniffTextEncoding(page('<meta charset="iso-8859-2">'), false)?.encoding).toBe('windows-1252');
    // Valid UTF-8 declared as windows-1251 is windows-1251, as in a browser.
    expect(sniffTextEncoding(bytesOf('<meta charset=windows-1251><p>ok</p>'), true)?.encoding).toBe('windows-1251');
  });
});

describe('prescanEncoding (HTML §13.2.3.2)', () => {
  const prescan = (html: string) => prescanEncoding(latin1Bytes(html));

  it('reads <meta charset> and the Content-Type pragma, in any case and quoting', () => {
    expect(prescan('<META CHARSET=KOI8-R>')).toBe('koi8-r');
    expect(prescan("<meta charset=' shift_jis '>")).toBe('shift_jis');
    expect(prescan('<meta/charset="latin1"/>')).toBe('windows-1252');
    expect(prescan('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">')).toBe('windows-1251');
    expect(prescan('<meta content="text/html;charset = \'gbk\'" http-equiv=content-type>')).toBe('gbk');
  });

  it('follows the rules: a content charset needs the pragma, the first of an attribute counts', () => {
    expect(prescan('<meta content="text/html; charset=koi8-r">')).toBe(undefined);
    expect(prescan('<meta charset="koi8-r" charset="big5">')).toBe('koi8-r');
    expect(prescan('<meta http-equiv="content-type" content="charset=big5" charset="koi8-r">')).toBe('koi8-r');
    // An unknown label is failure: the scan goes on to the next <meta>.
    expect(prescan('<meta charset="bogus"><meta charset="euc-kr">')).toBe('euc-kr');
    // UTF-16 cannot be declared in ASCII bytes: it means UTF-8; x-user-defined means windows-1252.
    expect(prescan('<meta charset="utf-16">')).toBe('utf-8');
    expect(prescan('<meta charset="x-user-defined">')).toBe('windows-1252');
  });

  it('skips comments, other tags with their attribute values, <!…>, </…> and <?…>', () => {
    expect(prescan('<!-- <meta charset="koi8-r"> --><meta charset="big5">')).toBe('big5');
    expect(prescan('<!--><meta charset="big5">')).toBe('big5');
    expect(prescan('<a title=\'<meta charset="koi8-r">\'><meta charset="big5">')).toBe('big5');
    expect(prescan('<?xml version="1.0"?><!DOCTYPE html></p><meta charset="big5">')).toBe('big5');
    expect(prescan('<metal charset="koi8-r">')).toBe(undefined);
    expect(prescan('<!-- <meta charset="koi8-r">')).toBe(undefined);
  });

  it('takes `<?x` in UTF-16 for UTF-16, and looks no further than it is given', () => {
    expect(prescanEncoding(utf16('<?xml version="1.0"?>', 'le', false))).toBe('utf-16le');
    expect(prescanEncoding(utf16('<?xml version="1.0"?>', 'be', false))).toBe('utf-16be');
    const late = latin1Bytes(`<html>${' '.repeat(1100)}<meta charset="koi8-r">é`);
    expect(sniffTextEncoding(late, true)?.encoding).toBe('windows-1252');
  });
});

describe('decodeText', () => {
  it('Latin-1, UTF-16 with and without BOM, UTF-8 with a BOM: the same text, no BOM left', () => {
    const plain = MARKDOWN.replace(/[—“”]/g, '"');
    expect(decodeText(latin1Bytes(plain), false)).toBe(plain);
    for (const order of ['le', 'be'] as const) {
      for (const bom of [true, false]) expect(decodeText(utf16(MARKDOWN, order, bom), false), order).toBe(MARKDOWN);
    }
    expect(decodeText(bytesOf(`\ufeff${MARKDOWN}`), false)).toBe(MARKDOWN);
  });

  it('HTML in the encoding its <meta> declares', () => {
    // "Łódź" in ISO 8859-2: Ł A3, ó F3, d, ź BC.
    const bytes = new Uint8Array([...latin1Bytes('<meta charset="iso-8859-2"><p>'), 0xa3, 0xf3, 0x64, 0xbc]);
    expect(decodeText(bytes, true)).toBe('<meta charset="iso-8859-2"><p>Łódź');
    // Markdown has no <meta>: windows-1252.
    expect(decodeText(bytes, false)).toBe('<meta charset="iso-8859-2"><p>£ód¼');
  });
});

describe('sniffFormat and POST /v1/convert with Latin-1 and UTF-16 sources', () => {
  async function convert(bytes: Uint8Array, query: string, name: string): Promise<Response> {
    const form = new FormData();
    form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
    return call(`/v1/convert?${query}`, withKey(await mintKey(), { method: 'POST', body: form }));
  }

  it('UTF-16 HTML is HTML, UTF-16 and Latin-1 Markdown are text', () => {
    expect(sniffFormat(utf16('<!DOCTYPE html><p>é</p>', 'le', true))).toBe('html');
    expect(sniffFormat(utf16('<html><p>é</p>', 'be', false))).toBe('html');
    expect(sniffFormat(utf16(MARKDOWN, 'le', false))).toBe('text');
    expect(sniffFormat(latin1Bytes('Caf\u00e9'))).toBe('text');
  });

  it.each([
    ['Latin-1', latin1Bytes(MARKDOWN.replace(/[—“”]/g, '"'))],
    ['UTF-16LE with a BOM', utf16(MARKDOWN, 'le', true)],
    ['UTF-16BE with a BOM', utf16(MARKDOWN, 'be', true)],
    ['UTF-16LE without a BOM', utf16(MARKDOWN, 'le', false)],
  ])('Markdown in %s converts to PDF with its accents', async (_, bytes) => {
    const res = await convert(bytes, 'to=pdf', 'notes.md');
    expect(res.status).toBe(200);
    const text = (await pdfText(new Uint8Array(await res.arrayBuffer()))).join('\n');
    expect(text).toContain('Café crème');
    expect(text).toContain('À bientôt, Zoë');
  });

  it('HTML with <meta charset="windows-1251"> converts with its Cyrillic, found without a file name', async () => {
    // "Привет" in windows-1251.
    const word = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2];
    const bytes = new Uint8Array([
      ...latin1Bytes('<!doctype html><html><head><meta charset="windows-1251"><title>'),
      ...word,
      ...latin1Bytes('</title></head><body><p>'),
      ...word,
      ...latin1Bytes(', mir</p></body></html>'),
    ]);
    const res = await convert(bytes, 'to=docx', 'page');
    expect(res.status).toBe(200);
    const parts = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(strFromU8(parts['word/document.xml'] as Uint8Array)).toContain('Привет, mir');
    expect(strFromU8(parts['docProps/core.xml'] as Uint8Array)).toContain('<dc:title>Привет</dc:title>');
  });
});
