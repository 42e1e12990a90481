import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DamagedZipError, listZipEntryNames } from '../../../src/engine/read/zip/zip-directory';
import { expectFormat, type SniffedFormat, sniffFormat } from '../../../src/services/input/format-sniffer';
import { apiErrorOf, bytesOf, fixtures } from './helpers';

/** The offset of the end-of-central-directory record, to corrupt archives on purpose. */
function endRecordOffset(zip: Uint8Array): number {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let at = zip.length - 22;
  while (view.getUint32(at, true) !== 0x06054b50) at--;
  return at;
}

function withCorruptCentralDirectory(zip: Uint8Array): Uint8Array {
  const copy = zip.slice();
  const end = endRecordOffset(copy);
  const directory = new DataView(copy.buffer).getUint32(end + 16, true);
  copy.fill(0, directory, end);
  return copy;
}

describe('sniffFormat', () => {
  const cases: [string, Uint8Array, SniffedFormat][] = [
    ['a PDF', fixtures.pdf(), 'pdf'],
    ['a PDF after leading junk', bytesOf(`From: scanner\r\n\r\n%PDF-1.4\n%%EOF\n`), 'pdf'],
    ['a DOCX', fixtures.docx(), 'docx'],
    ['a DOCX whose part name differs in case', zipSync({ 'Word/Document.xml': strToU8('<w:document/>') }), 'docx'],
    ['a ZIP that is not a DOCX', fixtures.zip(), 'zip'],
    ['an empty ZIP archive', zipSync({}), 'zip'],
    ['a ZIP holding a PDF near its start', zipSync({ 'a.pdf': [fixtures.pdf(), { level: 0 }] }), 'zip'],
    ['a truncated ZIP', fixtures.docx().subarray(0, 200), 'damaged-zip'],
    ['a ZIP with a corrupt central directory', withCorruptCentralDirectory(fixtures.docx()), 'damaged-zip'],
    ['a legacy .doc', fixtures.ole('WordDocument', '1Table', '\u0005SummaryInformation'), 'ole'],
    ['an encrypted OOXML file', fixtures.ole('EncryptionInfo', 'EncryptedPackage'), 'encrypted-ooxml'],
    ['an HTML page with a doctype', bytesOf('<!DOCTYPE html>\n<html><body>Hi</body></html>'), 'html'],
    ['HTML with a BOM and whitespace', bytesOf('\ufeff\n  <HTML lang="en"><p>Hi</p></HTML>'), 'html'],
    ['HTML that starts with <head>', bytesOf('<head><title>x</title></head>'), 'html'],
    ['HTML that starts with <body>', bytesOf('<body>\n<p>x</p>'), 'html'],
    ['HTML after a comment', bytesOf('<!-- generated -->\n<html>\n<p>x</p></html>'), 'html'],
    ['XHTML after an XML declaration', bytesOf('<?xml version="1.0"?>\n<!DOCTYPE html>\n<html/>'), 'html'],
    ['a <header> fragment, which is not an HTML page', bytesOf('<header>Title</header>'), 'text'],
    ['a comment without <html>', bytesOf('<!-- note -->\n# Heading'), 'text'],
    ['Markdown', bytesOf('# Contract\n\nThe **parties** agree — “quoted” ✓.\n'), 'text'],
    ['text mentioning %PDF- without a version', bytesOf('A PDF starts with %PDF- and a version.'), 'text'],
    ['binary with NUL bytes', new Uint8Array([0x00, 0x01, 0x02, 0x03, 0xff]), 'binary'],
    // Not UTF-8, so windows-1252 (text-encoding.ts): Latin-1 text, as a browser reads it.
    ['bytes that are not UTF-8, such as Latin-1', new Uint8Array([0x61, 0xc3, 0x28, 0x62]), 'text'],
    ['bytes that are not UTF-8, with control characters', new Uint8Array([0x61, 0xc3, 0x01, 0x62]), 'binary'],
    ['UTF-16LE text with a BOM', new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0xe9, 0x00]), 'text'],
    ['UTF-16BE text without a BOM', new Uint8Array([0x00, 0x61, 0x00, 0xe9, 0x00, 0x0a]), 'text'],
    ['a PNG image', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 'binary'],
  ];

  it.each(cases)('recognises %s', (_, bytes, expected) => {
    expect(sniffFormat(bytes)).toBe(expected);
  });

  it('judges text on the first 64 KiB, even when a multi-byte character straddles the cut', () => {
    const text = new Uint8Array(70 * 1024).fill(0x61);
    text.set(bytesOf('€'), 64 * 1024 - 1); // three bytes, the first one inside the sample
    expect(sniffFormat(text)).toBe('text');
    // A file that ends inside a character is not valid UTF-8: windows-1252 text.
    expect(sniffFormat(bytesOf('abc€').subarray(0, 5))).toBe('text');
  });
});

describe('listZipEntryNames', () => {
  it('lists the names of the central directory', () => {
    expect(listZipEntryNames(fixtures.zip())).toEqual(['readme.txt', 'data/table.csv']);
  });

  it('says what is damaged', () => {
    expect(() => listZipEntryNames(fixtures.docx().subarray(0, 200))).toThrow(DamagedZipError);
    expect(() => listZipEntryNames(fixtures.docx().subarray(0, 200))).toThrow(/truncated/);
    expect(() => listZipEntryNames(withCorruptCentralDirectory(fixtures.docx()))).toThrow(/entry 1 of 3/);
  });
});

describe('expectFormat', () => {
  it('returns the format the bytes are', () => {
    expect(expectFormat(fixtures.pdf(), ['pdf', 'docx'])).toBe('pdf');
    expect(expectFormat(fixtures.docx(), ['pdf', 'docx'])).toBe('docx');
    expect(expectFormat(bytesOf('# Title'), ['md'])).toBe('md');
    expect(expectFormat(bytesOf('<!doctype html><p>x'), ['html'])).toBe('html');
  });

  it('takes plain text as HTML (a fragment) and lets the order of accepted formats decide', () => {
    expect(expectFormat(bytesOf('<p>Hello</p>'), ['html'])).toBe('html');
    expect(expectFormat(bytesOf('Hello'), ['md', 'html'])).toBe('md');
    expect(expectFormat(bytesOf('Hello'), ['html', 'md'])).toBe('html');
    expect(expectFormat(bytesOf('<html><p>Hello</p></html>'), ['md', 'html'])).toBe('html');
  });

  it('refuses a ZIP that is not a DOCX with UNSUPPORTED_MEDIA_TYPE', () => {
    const error = apiErrorOf(() => expectFormat(fixtures.zip(), ['pdf', 'docx']));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.message).toBe(
      'The document is a ZIP archive but not a DOCX (it has no word/document.xml). Send a PDF or a DOCX.',
    );
  });

  it('names other Office packages', () => {
    const xlsx = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'xl/workbook.xml': strToU8('<workbook/>') });
    expect(apiErrorOf(() => expectFormat(xlsx, ['docx'])).message).toContain('an Excel workbook (.xlsx)');
    const odt = zipSync({
      mimetype: strToU8('application/vnd.oasis.opendocument.text'),
      'content.xml': strToU8('<x/>'),
    });
    expect(apiErrorOf(() => expectFormat(odt, ['docx'])).message).toContain('an OpenDocument file');
  });

  it('refuses a damaged ZIP with INVALID_DOCUMENT when a DOCX is accepted', () => {
    const error = apiErrorOf(() => expectFormat(fixtures.docx().subarray(0, 200), ['pdf', 'docx']));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toContain('the archive is damaged');
    expect(error.message).toContain('truncated');
    const pdfOnly = apiErrorOf(() => expectFormat(fixtures.docx().subarray(0, 200), ['pdf']));
    expect(pdfOnly.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(pdfOnly.message).toBe('The document is a damaged ZIP archive. Send a PDF.');
  });

  it('refuses a password-protected Office file with INVALID_DOCUMENT', () => {
    const error = apiErrorOf(() => expectFormat(fixtures.ole('EncryptionInfo', 'EncryptedPackage'), ['docx']));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toContain('password-protected');
    expect(error.message).toContain('remove the password and send it again');
  });

  it('refuses a legacy .doc, saying what it is', () => {
    const error = apiErrorOf(() => expectFormat(fixtures.ole('WordDocument', '1Table'), ['pdf', 'docx']));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.message).toBe(
      'The document is a legacy Word 97–2003 .doc file; open it in Word or LibreOffice and save it as .docx. Send a PDF or a DOCX.',
    );
    expect(apiErrorOf(() => expectFormat(fixtures.ole('Workbook'), ['pdf'])).message).toBe(
      'The document is a legacy Excel 97–2003 .xls file. Send a PDF.',
    );
  });

  it('refuses text, HTML and binary where a PDF or DOCX is expected', () => {
    expect(apiErrorOf(() => expectFormat(bytesOf('hello'), ['pdf', 'docx'])).message).toBe(
      'The document is plain text. Send a PDF or a DOCX.',
    );
    expect(apiErrorOf(() => expectFormat(bytesOf('<!DOCTYPE html><html>'), ['pdf'])).message).toBe(
      'The document is an HTML page. Send a PDF.',
    );
    const binary = apiErrorOf(() => expectFormat(new Uint8Array([0, 1, 2, 3]), ['docx']));
    expect(binary.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(binary.message).toBe('The document is binary data of an unknown format. Send a DOCX.');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(apiErrorOf(() => expectFormat(png, ['pdf'])).message).toBe('The document is a PNG image. Send a PDF.');
  });

  it('spots base64 that was encoded twice', () => {
    const twice = bytesOf(btoa(btoa('%PDF-1.7 and a lot more content so the text is long enough to look like base64')));
    expect(apiErrorOf(() => expectFormat(twice, ['pdf'])).message).toContain(
      'looks like base64 (was it encoded twice?)',
    );
  });

  it('refuses a PDF or DOCX where text is expected', () => {
    const error = apiErrorOf(() => expectFormat(fixtures.pdf(), ['md']));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.message).toBe('The document is a PDF. Send Markdown text.');
    expect(apiErrorOf(() => expectFormat(fixtures.docx(), ['md', 'html'])).message).toBe(
      'The document is a DOCX (Word) document. Send Markdown text or HTML.',
    );
  });

  it('refuses an empty document', () => {
    const error = apiErrorOf(() => expectFormat(new Uint8Array(0), ['pdf']));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toContain('empty');
  });
});
