/** File names of uploads and downloads: what the caller's name says, and a safe Content-Disposition. */
import type { DocumentFormat } from '../input';

const EXTENSIONS: Record<string, DocumentFormat> = {
  docx: 'docx',
  md: 'md',
  markdown: 'md',
  html: 'html',
  htm: 'html',
};

/** The format a file name's extension claims, if it names one of ours. */
export function formatFromFileName(name: string | undefined): DocumentFormat | undefined {
  const ext = name?.split('.').pop()?.toLowerCase();
  return ext && ext !== name?.toLowerCase() ? EXTENSIONS[ext] : undefined;
}

/** The upload's name without directories or extension; "document" when there is nothing usable. */
export function baseName(name: string | undefined): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';
  const stem = last.includes('.') ? last.slice(0, last.lastIndexOf('.')) : last;
  // Control characters and quotes would break the header; they never belong in a file name.
  const clean = [...stem]
    .filter((ch) => ch >= ' ' && ch !== '\u007f' && ch !== '"')
    .join('')
    .trim();
  return clean || 'document';
}

/**
 * RFC 6266 §4.3: an ASCII fallback in `filename`, and the exact name UTF-8 encoded in `filename*`
 * (RFC 8187) when it is not plain ASCII.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${ascii}"`;
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The media types of what Quire returns (IANA registrations; ECMA-376 Part 2 Annex for DOCX). */
export const PDF_MEDIA_TYPE = 'application/pdf';
export const DOCX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
