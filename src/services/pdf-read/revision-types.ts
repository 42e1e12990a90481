/** The contracts of the revision scanner (ISO 32000-1 §7.5.4–§7.5.8). */
import type { PdfValue } from './pdf-syntax';

/** One cross-reference entry (§7.5.4 Table 17 for tables, §7.5.8.3 Table 18 for streams). */
export type XrefEntry =
  | { kind: 'offset'; offset: number; generation: number }
  | { kind: 'compressed'; streamObject: number; index: number; generation: 0 }
  | { kind: 'free'; nextFree: number; generation: number };

/** 'hybrid' is a table whose trailer has /XRefStm (§7.5.8.4). */
export type XrefKind = 'table' | 'stream' | 'hybrid';

export interface Revision {
  /** The byte after the end of this revision's %%EOF line (§7.5.5): the file's length at that revision. */
  end: number;
  /**
   * The byte after "%%EOF" itself. Writers differ on whether the EOL after it belongs to the
   * revision (pdf-lib writes none, and the next update then begins with one), so a signature that
   * covers up to either `eofEnd` or `end` covers the whole revision.
   */
  eofEnd: number;
  /** The offset written after `startxref`, or undefined when there is none. */
  startxref: number | undefined;
  /** Where the xref section really was found (may differ from `startxref` in damaged files). */
  xrefOffset: number | undefined;
  xrefKind: XrefKind | undefined;
  /** The trailer's (or xref stream dictionary's) /Prev, /Root, /Size, and whether /Encrypt is present. */
  prev: number | undefined;
  root: { num: number; gen: number } | undefined;
  size: number | undefined;
  encrypted: boolean;
  /** The trailer's /Encrypt (§7.6.1): a reference or a direct dictionary. */
  encrypt?: PdfValue;
  /** The first string of the trailer's /ID (§14.4), which the file key is computed from (§7.6.3.3). */
  id?: Uint8Array;
  /** The trailer's /Info (§14.3.3), the document information dictionary, when it is a reference. */
  info: number | undefined;
  /**
   * Trailer entries ISO 32000 does not define (Tables 15 and 17) whose values hold references
   * (LibreOffice's /AdditionalStreams, a tool's private key): paths to objects outside the catalog,
   * which the modification check follows like any other (pyHanko walks the whole trailer too).
   */
  unknownTrailerRefs: Map<string, PdfValue>;
  /**
   * This section's entries only (for a hybrid file, the table's and then the /XRefStm's; for a
   * linearized file, the first-page section's and then the main section's it leads to, §F.3).
   */
  entries: Map<number, XrefEntry>;
  /** What was damaged or had to be guessed; empty for a clean revision. */
  problems: string[];
}

export interface RevisionScan {
  /** Oldest first. */
  revisions: Revision[];
  /**
   * For an encrypted file that opens without a password: object streams' decrypted data by the
   * file offset of their stored data (standard-security.ts), which the object reader then uses.
   */
  decryptedStreams?: ReadonlyMap<number, Uint8Array>;
  /** Problems of the file as a whole (no %%EOF, /Prev chain broken or cyclic, too many revisions). */
  problems: string[];
}
