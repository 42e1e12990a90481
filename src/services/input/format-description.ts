import { listZipEntryNames } from '../../engine';
import { ascii, indexOfBytes, latin1, startsWith, utf16le } from './byte-patterns';
import type { DocumentFormat, SniffedFormat } from './formats';

/**
 * Words for UNSUPPORTED_MEDIA_TYPE messages: what the bytes are ("a legacy Word 97–2003 .doc
 * file") and what was expected ("a PDF or a DOCX"). Only runs on the error path, so it may look
 * closer than the sniffer does.
 */

const EXPECTED: Record<DocumentFormat, string> = {
  pdf: 'a PDF',
  docx: 'a DOCX',
  md: 'Markdown text',
  html: 'HTML',
};

/** "a PDF", "a PDF or a DOCX", "a PDF, a DOCX or HTML". */
export function describeExpected(accepted: readonly DocumentFormat[]): string {
  const names = accepted.map((format) => EXPECTED[format]);
  if (names.length <= 1) return names[0] ?? 'a supported document';
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** A noun phrase for what the bytes are, with a hint when one helps. */
export function describeContent(
  bytes: Uint8Array,
  sniffed: SniffedFormat,
  accepted: readonly DocumentFormat[],
): string {
  switch (sniffed) {
    case 'pdf':
      return 'a PDF';
    case 'docx':
      return 'a DOCX (Word) document';
    case 'zip':
      return describeZip(bytes);
    case 'damaged-zip':
      return 'a damaged ZIP archive';
    case 'ole':
      return describeOle(bytes, accepted);
    case 'encrypted-ooxml':
      return 'a password-protected (encrypted) Office file';
    case 'html':
      return 'an HTML page';
    case 'text':
      return describeText(bytes);
    case 'binary':
      return describeBinary(bytes);
  }
}

/** The main part of each OOXML and OpenDocument package tells which application wrote it. */
function describeZip(bytes: Uint8Array): string {
  const names = new Set(listZipEntryNames(bytes).map((name) => name.toLowerCase()));
  if (names.has('xl/workbook.xml')) return 'an Excel workbook (.xlsx), not a Word document (DOCX)';
  if (names.has('ppt/presentation.xml')) return 'a PowerPoint presentation (.pptx), not a Word document (DOCX)';
  if (names.has('mimetype') && names.has('content.xml')) {
    return 'an OpenDocument file (such as .odt), not a DOCX; save it as .docx first';
  }
  return 'a ZIP archive but not a DOCX (it has no word/document.xml)';
}

/** Stream names of the legacy binary formats ([MS-DOC] §2.1.1, [MS-XLS] §2.1.2, [MS-PPT] §2.1.1). */
const OLE_KINDS: readonly (readonly [stream: string, description: string])[] = [
  ['WordDocument', 'a legacy Word 97–2003 .doc file'],
  ['Workbook', 'a legacy Excel 97–2003 .xls file'],
  ['PowerPoint Document', 'a legacy PowerPoint 97–2003 .ppt file'],
];

function describeOle(bytes: Uint8Array, accepted: readonly DocumentFormat[]): string {
  const kind = OLE_KINDS.find(([stream]) => indexOfBytes(bytes, utf16le(stream)) !== -1);
  const what = kind ? kind[1] : 'a legacy Office 97–2003 file (OLE compound file)';
  return accepted.includes('docx') ? `${what}; open it in Word or LibreOffice and save it as .docx` : what;
}

function describeText(bytes: Uint8Array): string {
  const head = latin1(bytes.subarray(0, 1024));
  if (head.startsWith('{\\rtf')) return 'an RTF document, not a DOCX; save it as .docx first';
  // A frequent slip: the base64 text itself was encoded again, or sent where bytes were expected.
  if (/^[A-Za-z0-9+/=_\-\s]{64,}$/.test(head) && !/\s/.test(head.trim().slice(0, 76))) {
    return 'text that looks like base64 (was it encoded twice?)';
  }
  return 'plain text';
}

const BINARY_KINDS: readonly (readonly [signature: ArrayLike<number>, description: string])[] = [
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [ascii('GIF8'), 'a GIF image'],
  [[0x1f, 0x8b], 'a gzip-compressed file'],
];

function describeBinary(bytes: Uint8Array): string {
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'a WebP image';
  const kind = BINARY_KINDS.find(([signature]) => startsWith(bytes, signature));
  return kind ? kind[1] : 'binary data of an unknown format';
}
