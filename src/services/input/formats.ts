/** The formats document input is told apart by (format-sniffer.ts) and described in (format-description.ts). */

/** What the bytes are, as far as the endpoints care. */
export type SniffedFormat =
  | 'pdf'
  | 'docx'
  | 'zip'
  | 'damaged-zip'
  | 'ole'
  | 'encrypted-ooxml'
  | 'html'
  | 'text'
  | 'binary';

/** The formats an endpoint can ask for. */
export type DocumentFormat = 'pdf' | 'docx' | 'md' | 'html';
