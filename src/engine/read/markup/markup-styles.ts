/**
 * The named styles of documents made from Markdown and HTML. They are written once, as the
 * styles part a DOCX made from such a document carries (ECMA-376 Part 1 §17.7), and the readers
 * resolve their properties by reading that same part with the DOCX engine's style cascade: the
 * PDF made from the model and the PDF made from the written DOCX see the same cascade.
 *
 * Word's built-in names (Title, heading 1–6, Quote, Hyperlink, footnote text…) are used where
 * Word has one, so that Word's navigation pane, pandoc and LibreOffice recognise them. Faces are
 * Calibri and Courier New: the engine bundles metric-compatible faces for both (docs/engine.md).
 */
import { DEFAULT_THEME_FONTS, parseXml, readStyleSheet, StyleCascade, type StyleSheet } from '../ooxml';

/** Paragraph styles the readers use. */
export const PARAGRAPH_STYLES = {
  normal: 'Normal',
  title: 'Title',
  heading: ['Heading1', 'Heading2', 'Heading3', 'Heading4', 'Heading5', 'Heading6'] as const,
  quote: 'Quote',
  code: 'SourceCode',
  listParagraph: 'ListParagraph',
  caption: 'Caption',
  footnoteText: 'FootnoteText',
  /** Paragraphs inside table cells: no space after, so rows stay tight. */
  tableText: 'TableText',
} as const;

/** Character styles the readers name on inlines (Inline.styleId). */
export const CHARACTER_STYLES = {
  hyperlink: 'Hyperlink',
  code: 'VerbatimChar',
  footnoteReference: 'FootnoteReference',
} as const;

/** The table style of every table (its borders come from the source, as direct formatting). */
export const TABLE_STYLE = 'Table';

const heading = (level: number, size: number, before: number, extra = '') =>
  `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="9"/><w:qFormat/><w:pPr><w:keepNext/><w:keepLines/><w:spacing w:before="${before}" w:after="80"/><w:outlineLvl w:val="${level - 1}"/></w:pPr><w:rPr><w:b/><w:bCs/>${extra}<w:color w:val="1F3864"/><w:sz w:val="${size}"/><w:szCs w:val="${size}"/></w:rPr></w:style>`;

/**
 * The styles part itself (word/styles.xml). Sizes are half-points, spacing twentieths of a
 * point (§17.3.2.38, §17.3.1.33).
 */
export const MARKUP_STYLES_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri" w:cs="Calibri"/><w:sz w:val="22"/><w:szCs w:val="22"/><w:lang w:val="en-US" w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="264" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style><w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/></w:style><w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:semiHidden/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="10"/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="240"/><w:contextualSpacing/></w:pPr><w:rPr><w:color w:val="1F3864"/><w:kern w:val="28"/><w:sz w:val="52"/><w:szCs w:val="52"/></w:rPr></w:style>${heading(1, 36, 360)}${heading(2, 30, 320)}${heading(3, 26, 280)}${heading(4, 24, 240, '<w:i/><w:iCs/>')}${heading(5, 22, 240)}${heading(6, 22, 240, '<w:i/><w:iCs/>')}<w:style w:type="paragraph" w:styleId="Quote"><w:name w:val="Quote"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="29"/><w:qFormat/><w:pPr><w:pBdr><w:left w:val="single" w:sz="18" w:space="8" w:color="BFBFBF"/></w:pBdr><w:ind w:left="360" w:right="360"/></w:pPr><w:rPr><w:i/><w:iCs/><w:color w:val="404040"/></w:rPr></w:style><w:style w:type="paragraph" w:customStyle="1" w:styleId="SourceCode"><w:name w:val="Source Code"/><w:basedOn w:val="Normal"/><w:qFormat/><w:pPr><w:pBdr><w:top w:val="single" w:sz="4" w:space="4" w:color="F2F2F2"/><w:left w:val="single" w:sz="4" w:space="4" w:color="F2F2F2"/><w:bottom w:val="single" w:sz="4" w:space="4" w:color="F2F2F2"/><w:right w:val="single" w:sz="4" w:space="4" w:color="F2F2F2"/></w:pBdr><w:shd w:val="clear" w:color="auto" w:fill="F2F2F2"/><w:spacing w:before="60" w:after="180" w:line="240" w:lineRule="auto"/><w:ind w:left="86" w:right="86"/></w:pPr><w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New" w:cs="Courier New"/><w:sz w:val="19"/><w:szCs w:val="19"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/><w:uiPriority w:val="34"/><w:qFormat/><w:pPr><w:spacing w:after="60"/></w:pPr></w:style><w:style w:type="paragraph" w:styleId="Caption"><w:name w:val="caption"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:uiPriority w:val="35"/><w:qFormat/><w:pPr><w:spacing w:after="200"/></w:pPr><w:rPr><w:i/><w:iCs/><w:color w:val="44546A"/><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="FootnoteText"><w:name w:val="footnote text"/><w:basedOn w:val="Normal"/><w:uiPriority w:val="99"/><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="20"/><w:szCs w:val="20"/></w:rPr></w:style><w:style w:type="paragraph" w:customStyle="1" w:styleId="TableText"><w:name w:val="Table Text"/><w:basedOn w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:before="20" w:after="20" w:line="240" w:lineRule="auto"/></w:pPr></w:style><w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/><w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style><w:style w:type="character" w:customStyle="1" w:styleId="VerbatimChar"><w:name w:val="Verbatim Char"/><w:basedOn w:val="DefaultParagraphFont"/><w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New" w:cs="Courier New"/><w:sz w:val="20"/><w:szCs w:val="20"/><w:shd w:val="clear" w:color="auto" w:fill="F2F2F2"/></w:rPr></w:style><w:style w:type="character" w:styleId="FootnoteReference"><w:name w:val="footnote reference"/><w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style><w:style w:type="table" w:styleId="Table"><w:name w:val="Table"/><w:basedOn w:val="TableNormal"/><w:uiPriority w:val="59"/><w:tblPr><w:tblCellMar><w:top w:w="29" w:type="dxa"/><w:left w:w="86" w:type="dxa"/><w:bottom w:w="29" w:type="dxa"/><w:right w:w="86" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style></w:styles>`;

/**
 * MARKUP_STYLES_XML read once, when the module loads: parsing the constant again cost about
 * 0.25 ms twice a conversion (reader and writer), a tenth of a small document's time. The sheet is
 * deep-frozen, so no conversion can change what the next one reads (its styles map is a
 * ReadonlyMap by type); what a cascade learns while resolving stays in the cascade.
 */
const MARKUP_STYLE_SHEET: StyleSheet = deepFreeze(readStyleSheet(parseXml(MARKUP_STYLES_XML, 'word/styles.xml'), {}));

/**
 * A cascade over MARKUP_STYLES_XML, for one conversion: StyleCascade caches per instance, so a
 * reader makes one per document rather than sharing one across requests; the sheet it reads is
 * shared and immutable.
 */
export function markupStyleCascade(): StyleCascade {
  return new StyleCascade(MARKUP_STYLE_SHEET, DEFAULT_THEME_FONTS);
}

/** `value` with every object and array it reaches frozen, Map values included. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  const inner = value instanceof Map ? value.values() : Object.values(value);
  for (const item of inner) deepFreeze(item);
  return value;
}
