/**
 * word/settings.xml (ECMA-376 Part 1 §17.15.1.78), its children in CT_Settings' order. Word 2013+
 * compatibility mode (15) so that Word does not lay the document out as an older version would.
 */
import type { DocumentSettings } from '../../model';
import { toTwips } from './measures';
import { XML_DECLARATION } from './xml-escape';

export function settingsXml(
  settings: DocumentSettings,
  notes: { footnotes: boolean; endnotes: boolean },
  background = false,
): string {
  // The page colour (w:background) shows in Word only with this (§17.15.1.33), before defaultTabStop.
  let xml = background ? '<w:displayBackgroundShape/>' : '';
  xml += `<w:defaultTabStop w:val="${toTwips(settings.defaultTabStop)}"/>`;
  if (settings.evenAndOddHeaders) xml += '<w:evenAndOddHeaders/>';
  xml += '<w:characterSpacingControl w:val="doNotCompress"/>';
  // The separator notes (ids -1 and 0) are named here (§17.11.11, §17.11.4).
  if (notes.footnotes) xml += '<w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>';
  if (notes.endnotes) xml += '<w:endnotePr><w:endnote w:id="-1"/><w:endnote w:id="0"/></w:endnotePr>';
  xml +=
    '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat>';
  return `${XML_DECLARATION}<w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${xml}</w:settings>`;
}
