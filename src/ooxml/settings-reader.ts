import type { DocumentSettings } from '../model/document';
import { onOff, twips } from './units';
import { child, type XmlElement } from './xml-tree';

/** What the reader uses from word/settings.xml (ECMA-376 Part 1, §17.15.1). */
export interface DocumentSettingsPart extends DocumentSettings {
  /** Footnote and endnote reference formats (§17.11.17 numFmt in w:footnotePr / w:endnotePr). */
  footnoteFormat: string;
  endnoteFormat: string;
}

/** Word's defaults: 0.5 in tab stops (§17.15.1.25 leaves it to the application; Word uses 720 twips). */
export const DEFAULT_SETTINGS: DocumentSettingsPart = {
  defaultTabStop: 36,
  evenAndOddHeaders: false,
  footnoteFormat: 'decimal',
  endnoteFormat: 'lowerRoman',
};

export function readSettings(root: XmlElement | undefined): DocumentSettingsPart {
  if (root === undefined) return DEFAULT_SETTINGS;
  const tabStop = twips(child(root, 'w:defaultTabStop')?.attributes['w:val']);
  const evenAndOdd = child(root, 'w:evenAndOddHeaders');
  return {
    // A zero or negative default tab stop would make layout loop; Word ignores it too.
    defaultTabStop: tabStop !== undefined && tabStop > 0 ? tabStop : DEFAULT_SETTINGS.defaultTabStop,
    evenAndOddHeaders: evenAndOdd !== undefined && onOff(evenAndOdd.attributes['w:val']),
    footnoteFormat:
      child(child(root, 'w:footnotePr'), 'w:numFmt')?.attributes['w:val'] ?? DEFAULT_SETTINGS.footnoteFormat,
    endnoteFormat: child(child(root, 'w:endnotePr'), 'w:numFmt')?.attributes['w:val'] ?? DEFAULT_SETTINGS.endnoteFormat,
  };
}
