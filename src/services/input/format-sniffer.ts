import { DamagedZipError, listZipEntryNames } from '../../engine';
import { ApiError } from '../../errors';
import { ascii, indexOfBytes, startsWith, utf16le } from './byte-patterns';
import { describeContent, describeExpected } from './format-description';
import type { DocumentFormat, SniffedFormat } from './formats';
import { sniffTextEncoding, type TextEncoding } from './text-encoding';

export type { DocumentFormat, SniffedFormat } from './formats';

const PDF_HEADER = ascii('%PDF-');
/** Local file header, or the end record alone for an archive with no entries (APPNOTE §4.3.7, §4.3.16). */
const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];
const ZIP_EMPTY_ARCHIVE = [0x50, 0x4b, 0x05, 0x06];
/** OLE compound file signature ([MS-CFB] §2.2): legacy .doc/.xls/.ppt, and encrypted OOXML. */
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/**
 * A password-protected DOCX/XLSX/PPTX is not a ZIP but an OLE file holding an "EncryptedPackage"
 * stream ([MS-OFFCRYPTO] §2.3.4.4); the directory stores the name in UTF-16LE.
 */
const ENCRYPTED_PACKAGE = utf16le('EncryptedPackage');
const PDF_HEADER_WINDOW = 1024;
const HTML_WINDOW = 1024;

/**
 * Sniffs the format from the bytes alone; a file name, data URI type or Content-Type is never
 * consulted (docs/api.md "Document input object"). Reads at most the ZIP central directory, the first
 * 64 KiB for text (text-encoding.ts), and an OLE file's bytes for one name; nothing is decompressed.
 */
export function sniffFormat(bytes: Uint8Array): SniffedFormat {
  // Formats with a signature at offset 0 come first: a ZIP or OLE file can hold "%PDF-" in its
  // first KiB (a stored attachment), which the PDF leading-junk rule below would otherwise catch.
  if (startsWith(bytes, PDF_HEADER)) return 'pdf';
  if (startsWith(bytes, ZIP_LOCAL_HEADER) || startsWith(bytes, ZIP_EMPTY_ARCHIVE)) return sniffZip(bytes);
  if (startsWith(bytes, OLE_SIGNATURE)) {
    return indexOfBytes(bytes, ENCRYPTED_PACKAGE) === -1 ? 'ole' : 'encrypted-ooxml';
  }
  if (hasLatePdfHeader(bytes)) return 'pdf';
  // Text in any encoding a browser would read it in (text-encoding.ts): UTF-16 has NULs, Latin-1
  // is not UTF-8, and neither is binary data.
  const encoding = sniffTextEncoding(bytes, true);
  if (!encoding) return 'binary';
  return looksLikeHtml(bytes, encoding) ? 'html' : 'text';
}

/**
 * Returns the first of `accepted` that the bytes are, or throws: INVALID_DOCUMENT for a DOCX that
 * cannot be opened (damaged ZIP, password), UNSUPPORTED_MEDIA_TYPE naming what the bytes are and
 * what was expected. The order of `accepted` decides between formats that fit the same bytes
 * (plain text is both Markdown and an HTML fragment).
 */
export function expectFormat(bytes: Uint8Array, accepted: readonly DocumentFormat[]): DocumentFormat {
  if (bytes.length === 0) {
    throw new ApiError('INVALID_DOCUMENT', 'The document is empty (0 bytes); send the content of the file.');
  }
  const sniffed = sniffFormat(bytes);
  const match = accepted.find((format) => ACCEPTS[format].includes(sniffed));
  if (match) return match;

  if (accepted.includes('docx') && sniffed === 'damaged-zip') {
    throw new ApiError(
      'INVALID_DOCUMENT',
      `The document is a ZIP archive, but the archive is damaged (${zipDamage(bytes)}), so it cannot be read as a DOCX. Save or export the file again and send the new copy.`,
    );
  }
  if (accepted.includes('docx') && sniffed === 'encrypted-ooxml') {
    throw new ApiError(
      'INVALID_DOCUMENT',
      'The document is a password-protected (encrypted) Office file and cannot be opened; remove the password and send it again.',
    );
  }
  throw new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `The document is ${describeContent(bytes, sniffed, accepted)}. Send ${describeExpected(accepted)}.`,
  );
}

/**
 * Which sniffed formats each requested format takes. HTML takes plain text too: a fragment such
 * as `<p>Hello</p>` has no <html> or doctype to sniff, and text is valid HTML content anyway.
 */
const ACCEPTS: Record<DocumentFormat, readonly SniffedFormat[]> = {
  pdf: ['pdf'],
  docx: ['docx'],
  md: ['text'],
  html: ['html', 'text'],
};

function sniffZip(bytes: Uint8Array): SniffedFormat {
  let names: string[];
  try {
    names = listZipEntryNames(bytes);
  } catch (error) {
    if (error instanceof DamagedZipError) return 'damaged-zip';
    throw error;
  }
  // OPC part names compare case-insensitively (ECMA-376 Part 2, §9.1.1.1).
  return names.some((name) => name.toLowerCase() === 'word/document.xml') ? 'docx' : 'zip';
}

function zipDamage(bytes: Uint8Array): string {
  try {
    listZipEntryNames(bytes);
    return 'unknown damage';
  } catch (error) {
    return error instanceof DamagedZipError ? error.message : 'unknown damage';
  }
}

/**
 * PDF readers accept the header anywhere in the first 1024 bytes (ISO 32000-1 §7.5.2, and Adobe's
 * implementation notes), so leading junk such as a mail header is tolerated. Away from offset 0 a
 * version digit must follow, so that text merely mentioning "%PDF-" is not taken for a PDF.
 */
function hasLatePdfHeader(bytes: Uint8Array): boolean {
  const at = indexOfBytes(bytes, PDF_HEADER, 0, PDF_HEADER_WINDOW);
  if (at === -1) return false;
  const digit = bytes[at + PDF_HEADER.length];
  return digit !== undefined && digit >= 0x30 && digit <= 0x39;
}

/**
 * An HTML document announces itself in its first bytes: a doctype, or an <html>, <head> or <body>
 * start tag (a subset of the patterns of WHATWG MIME Sniffing §7.1), or a comment or XML declaration
 * with a doctype or <html> later in the first KiB. The tag name must end there: <header> is not <head>.
 * The bytes are read in their encoding, so UTF-16 HTML is HTML too.
 */
function looksLikeHtml(bytes: Uint8Array, encoding: TextEncoding): boolean {
  const window = bytes.subarray(encoding.bom, encoding.bom + HTML_WINDOW);
  const head = new TextDecoder(encoding.encoding, { fatal: false, ignoreBOM: true })
    .decode(window, { stream: true })
    .replace(/^[\t\n\f\r ]+/, '')
    .toLowerCase();
  if (/^(?:<!doctype\s+html|<(?:html|head|body))(?=[\s>/])/.test(head)) return true;
  if (head.startsWith('<!--') || head.startsWith('<?xml'))
    return /<!doctype\s+html(?=[\s>])|<html(?=[\s>/])/.test(head);
  return false;
}
