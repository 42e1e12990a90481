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
  return {
    // A zero or negative default tab stop would make layout loop; Word ignores it too.
    defaultTabStop: tabStop !== undefined && tabStop > 0 ? tabStop : DEFAULT_SETTINGS.defaultTabStop,
    evenAndOddHeaders: evenAndOdd !== undefined && onOff(evenAndOdd.attributes['w:val']),
    footnoteNumbering: { ...DEFAULT_FOOTNOTE_NUMBERING, ...readNoteNumbering(child(root, 'w:footnotePr')) },
    endnoteNumbering: { ...DEFAULT_ENDNOTE_NUMBERING, ...readNoteNumbering(child(root, 'w:endnotePr')) },
  };
}
