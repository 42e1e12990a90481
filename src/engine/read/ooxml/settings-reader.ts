import type { DocumentSettings } from '../../model';
import {
  DEFAULT_ENDNOTE_NUMBERING,
  DEFAULT_FOOTNOTE_NUMBERING,
  type NoteNumbering,
  readNoteNumbering,
} from './note-numbering';
import { clamp, EXTENT, onOff, twips } from './units';
import { child, type XmlElement } from './xml-tree';

/** What the reader uses from word/settings.xml (ECMA-376 Part 1, §17.15.1). */
export interface DocumentSettingsPart extends DocumentSettings {
  /** Document-wide footnote and endnote numbering (§17.11.12 w:footnotePr, §17.11.5 w:endnotePr). */
  footnoteNumbering: NoteNumbering;
  endnoteNumbering: NoteNumbering;
}

/** Word's defaults: 0.5 in tab stops (§17.15.1.25 leaves it to the application; Word uses 720 twips). */
export const DEFAULT_SETTINGS: DocumentSettingsPart = {
  defaultTabStop: 36,
  evenAndOddHeaders: false,
  footnoteNumbering: DEFAULT_FOOTNOTE_NUMBERING,
  endnoteNumbering: DEFAULT_ENDNOTE_NUMBERING,
};

export function readSettings(root: XmlElement | undefined): DocumentSettingsPart {
  if (root === undefined) return DEFAULT_SETTINGS;
  const tabStop = clamp(twips(child(root, 'w:defaultTabStop')?.attributes['w:val']), EXTENT);
  const evenAndOdd = child(root, 'w:evenAndOddHeaders');
  const mode = compatibilityMode(root);
  return {
    // A zero or negative default tab stop would make layout loop; Word ignores it too.
    defaultTabStop: tabStop !== undefined && tabStop > 0 ? tabStop : DEFAULT_SETTINGS.defaultTabStop,
    evenAndOddHeaders: evenAndOdd !== undefined && onOff(evenAndOdd.attributes['w:val']),
    ...(mode !== undefined && mode >= 15 ? { justifyByShrinking: true } : {}),
    footnoteNumbering: { ...DEFAULT_FOOTNOTE_NUMBERING, ...readNoteNumbering(child(root, 'w:footnotePr')) },
    endnoteNumbering: { ...DEFAULT_ENDNOTE_NUMBERING, ...readNoteNumbering(child(root, 'w:endnotePr')) },
  };
}

/**
 * The Word version whose layout the document asks for: w:compat/w:compatSetting named
 * "compatibilityMode" ([MS-DOCX] 2.3.3: 11 Word 2003, 12 Word 2007, 14 Word 2010, 15 Word 2013
 * and later). Absent, Word lays the document out as Word 2007 would (mode 12).
 */
function compatibilityMode(root: XmlElement): number | undefined {
  const compat = child(root, 'w:compat');
  if (!compat) return undefined;
  for (const setting of compat.children) {
    if (setting.name !== 'w:compatSetting') continue;
    if (setting.attributes['w:name'] !== 'compatibilityMode') continue;
    if (setting.attributes['w:uri'] !== 'http://schemas.microsoft.com/office/word') continue;
    const value = Number.parseInt(setting.attributes['w:val'] ?? '', 10);
    return Number.isFinite(value) ? value : undefined;
  }
  return undefined;
}
