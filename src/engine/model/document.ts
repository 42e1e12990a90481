/**
 * The document model: what every reader (DOCX now, Markdown and HTML later) produces and the
 * layout consumes. Plain data with computed properties: the style cascade is already resolved, so
 * layout never looks at a style. Lengths are in points (1/72 in); colours are 6-digit hex RGB
 * without '#', or undefined for "auto". See docs/engine.md "One pipeline".
 */
import type { MathList } from './math';

export interface DocumentModel {
  properties: CoreProperties;
  settings: DocumentSettings;
  sections: Section[];
  /** Images referenced by ImageInline.imageId. */
  images: Record<string, ImageResource>;
  /**
   * EMF/WMF pictures as drawing commands, by the same ids as `images` (an id is in one or the
   * other): layout draws them into the picture's box, and their text's fonts are loaded up front.
   */
  pictures?: Record<string, MetafilePicture>;
  /** Fonts embedded in the package (word/fonts, de-obfuscated), tried before the bundled faces. */
  embeddedFonts: EmbeddedFont[];
  /**
   * What the font table says of fonts the document names (w:fonts, ECMA-376 Part 1 §17.8.3), by
   * name as given: Word's alternate name and design family for a font that is not installed.
   */
  declaredFonts?: Record<string, DeclaredFont>;
  /** Footnote and endnote content by note id (w:footnotes / w:endnotes), referenced by NoteReferenceInline. */
  notes: { footnotes: Record<string, Block[]>; endnotes: Record<string, Block[]> };
  /** Non-fatal problems met while reading (unsupported parts, missing images), for logs/headers. */
  warnings: string[];
  /**
   * The page colour (RRGGBB), painted under everything on every page: an HTML page's background
   * when backgrounds print (CSS 2.1 §14.2). Written to DOCX as w:background (ECMA-376 Part 1
   * §17.2.1) with w:displayBackgroundShape (§17.15.1.33). The DOCX reader leaves a document's
   * w:background out: Word prints it only when asked ("Print background colors and images").
   */
  background?: string;
  /**
   * List definitions by id, referenced by Paragraph.list (Markdown/HTML readers; the DOCX reader
   * resolves numbering into labels and leaves this out). The DOCX writer turns each into a
   * w:abstractNum and w:num.
   */
  lists?: Record<string, ListDefinition>;
}

/** A font table entry's substitution hints (§17.8.3.9 w:font). */
export interface DeclaredFont {
  /** w:altName (§17.8.3.1): the name Word tries when the font is not installed. */
  altName?: string;
  /** w:family (§17.8.3.10, ST_FontFamily): the design class. */
  family?: 'roman' | 'swiss' | 'modern' | 'script' | 'decorative';
  /** w:pitch (§17.8.3.13, ST_Pitch): fixed-width or proportional. */
  pitch?: 'fixed' | 'variable';
}

/** A list's levels, index = level (0-based), as the DOCX writer needs them (ECMA-376 §17.9). */
export interface ListDefinition {
  levels: ListLevel[];
}

export interface ListLevel {
  format: 'decimal' | 'lowerLetter' | 'upperLetter' | 'lowerRoman' | 'upperRoman' | 'bullet';
  /** w:lvlText: '%1.' for numbers, the bullet character itself for bullets. */
  text: string;
  /** The first number (w:start), 1 unless an <ol start> said otherwise. */
  start: number;
  /** Left indent of the level's text and the hanging indent of its label, points. */
  indent: number;
  hanging: number;
  /** The face the label is set in (bullets), when not the paragraph's. */
  font?: string;
}

/** A paragraph's place in a list: which ListDefinition, and its 0-based level. */
export interface ListMembership {
  listId: string;
  level: number;
  /**
   * A later paragraph of the same item: indented like the item's text, without a label; the DOCX
   * writer gives it a numbering level with no text.
   */
  continuation?: true;
}

export interface CoreProperties {
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  /** ISO 8601; used for DATE/TIME fields so output does not depend on the clock. */
  created?: string;
  modified?: string;
}

export interface DocumentSettings {
  /** w:defaultTabStop, points. Word's default is 36 pt (720 twips). */
  defaultTabStop: number;
  /** w:evenAndOddHeaders: even pages use the even header/footer slot only when this is set. */
  evenAndOddHeaders: boolean;
  /**
   * Word 2013+ justification: a justified line may shrink its spaces to take one more word
   * (engine/layout/line-breaker.ts shrinkAdmits). Set for documents of compatibilityMode 15 or
   * more (w:compatSetting, ECMA-376 Part 1 §17.15.3.4; [MS-DOCX] 2.3.3); absent: off.
   */
  justifyByShrinking?: boolean;
}

export type SectionStart = 'nextPage' | 'continuous' | 'evenPage' | 'oddPage' | 'nextColumn';
export type PageNumberFormat =
  | 'decimal'
  | 'upperRoman'
  | 'lowerRoman'
  | 'upperLetter'
  | 'lowerLetter'
  | 'ordinal'
  | 'decimalZero'
  | 'arabicAlpha'
  | 'arabicAbjad'
  | 'hebrew1'
  | 'hebrew2'
  | 'hindiNumbers'
  | 'none';

export interface PageGeometry {
  width: number;
  height: number;
  margins: { top: number; right: number; bottom: number; left: number; header: number; footer: number; gutter: number };
  /**
   * A negative w:pgMar top or bottom (§17.6.11): the body's edge stays at the margin however tall
   * the header or footer grows (they are drawn over it instead of pushing it).
   */
  fixedTop?: boolean;
  fixedBottom?: boolean;
  /**
   * w:textDirection tbRl on the section (§17.6.20): lines run top to bottom and follow each other
   * right to left (engine/pages/vertical-text.ts). Width, height and margins stay the physical page's.
   */
  vertical?: boolean;
  /**
   * The document grid's line pitch, points (w:docGrid, §17.6.5, of type lines, linesAndChars or
   * snapToChars): lines of paragraphs that snap to the grid take whole pitches.
   */
  lineGrid?: number;
}

export interface Columns {
  count: number;
  /** Space between columns when widths are equal. */
  space: number;
  separator: boolean;
  /** Explicit column widths and spaces when w:equalWidth="0". */
  widths?: { width: number; space: number }[];
}

export interface HeaderFooterSet {
  default?: Block[];
  first?: Block[];
  even?: Block[];
}

export interface Section {
  start: SectionStart;
  page: PageGeometry;
  columns: Columns;
  titlePage: boolean;
  pageNumbering: { start?: number; format: PageNumberFormat };
  /** Resolved with inheritance from the previous section already applied (ECMA-376 §17.10.5). */
  headers: HeaderFooterSet;
  footers: HeaderFooterSet;
  blocks: Block[];
}

export type Block = Paragraph | Table;

export type Alignment = 'left' | 'center' | 'right' | 'both' | 'distribute';
export type LineRule = 'auto' | 'exact' | 'atLeast';

export interface Border {
  style: string;
  /** Points. */
  width: number;
  /** Points between border and text. */
  space: number;
  color?: string;
}

export interface TabStop {
  position: number;
  align: 'left' | 'center' | 'right' | 'decimal' | 'bar';
  leader: 'none' | 'dot' | 'hyphen' | 'underscore' | 'heavy' | 'middleDot';
}

export interface ParagraphProperties {
  styleId?: string;
  align: Alignment;
  indent: { left: number; right: number /** positive: first line; negative: hanging */; firstLine: number };
  spacing: {
    before: number;
    after: number;
    /** For lineRule 'auto' a multiple of single spacing (1 = single); otherwise points. */
    line: number;
    lineRule: LineRule;
    /** w:beforeAutospacing / w:afterAutospacing: HTML-style automatic space (`before`/`after` hold its size). */
    beforeAuto?: boolean;
    afterAuto?: boolean;
  };
  /** Explicit stops (cleared ones removed), sorted by position, relative to the text margin. */
  tabs: TabStop[];
  keepNext: boolean;
  keepLines: boolean;
  widowControl: boolean;
  pageBreakBefore: boolean;
  contextualSpacing: boolean;
  borders: { top?: Border; bottom?: Border; left?: Border; right?: Border; between?: Border };
  shading?: string;
  /** 0-based outline level (0 = Heading 1); undefined for body text. */
  outlineLevel?: number;
  /** Bidirectional paragraph (w:bidi). */
  rtl: boolean;
  /** w:snapToGrid off (§17.3.1.32): the section's line grid does not apply. Unset: it does. */
  snapToGrid?: false;
  /**
   * w:autoSpaceDE / w:autoSpaceDN off (§17.3.1.2, §17.3.1.3): no automatic space between East
   * Asian text and Latin letters / digits. Unset: Word's default, on.
   */
  autoSpaceLatin?: false;
  autoSpaceDigits?: false;
  /** w:framePr (§17.3.1.11): the paragraph is a text frame, set apart from the flow of the text. */
  frame?: ParagraphFrame;
}

/**
 * A text frame (w:framePr, ECMA-376 Part 1 §17.3.1.11): the paragraph (with the paragraphs next to
 * it that have the same frame) leaves the flow of the text and is set at its own place, measured
 * from the page, the margins or, vertically, the paragraph after it ("text": the frame's anchor).
 * Lengths are points. Word's page-number gallery makes one: a PAGE field framed at the right
 * margin, beside the header's or footer's text.
 */
export interface ParagraphFrame {
  /** w:w; unset: as wide as its widest line. */
  width?: number;
  /** w:h with w:hRule: unset (auto) the height of its text, atLeast at least, exact exactly. */
  height?: number;
  heightRule: 'auto' | 'atLeast' | 'exact';
  /** w:hAnchor with w:x or w:xAlign (the alignment wins). */
  x: { from: 'page' | 'margin' | 'text'; offset: number; align?: 'left' | 'center' | 'right' | 'inside' | 'outside' };
  /** w:vAnchor with w:y or w:yAlign. */
  y: { from: 'page' | 'margin' | 'text'; offset: number; align?: 'top' | 'center' | 'bottom' | 'inside' | 'outside' };
  /** w:wrap (§17.18.104 ST_Wrap). */
  wrap: 'auto' | 'notBeside' | 'around' | 'tight' | 'through' | 'none';
  /** w:hSpace / w:vSpace: distance kept from the text around. */
  distance: { horizontal: number; vertical: number };
  /** w:dropCap with w:lines: a drop capital set in the first lines of the next paragraph. */
  dropCap?: { kind: 'drop' | 'margin'; lines: number };
}

export type UnderlineStyle =
  | 'single'
  | 'double'
  | 'thick'
  | 'dotted'
  | 'dash'
  | 'dotDash'
  | 'dotDotDash'
  | 'wave'
  | 'words';

export interface RunProperties {
  /** The face to use for Latin text (w:ascii/w:hAnsi, theme fonts resolved). */
  font: string;
  /** East Asian and complex-script faces, for characters of those scripts. */
  fontEastAsia?: string;
  fontComplex?: string;
  /** Points. */
  size: number;
  bold: boolean;
  italic: boolean;
  /**
   * Complex-script formatting (w:szCs, w:bCs, w:iCs, ECMA-376 Part 1 §17.3.2.39, §17.3.2.2,
   * §17.3.2.17): what right-to-left, Indic and Thai characters use instead of size/bold/italic,
   * and every character of a run marked w:rtl or w:cs. Unset: the size is `size`, not bold/italic.
   */
  sizeComplex?: number;
  boldComplex?: boolean;
  italicComplex?: boolean;
  /** w:rtl (§17.3.2.30): a right-to-left run; its characters take complex-script formatting. */
  rtl?: boolean;
  /** w:cs (§17.3.2.7): treat the run as complex script whatever its characters. */
  complexScript?: boolean;
  /**
   * w:rFonts/@w:hint eastAsia (§17.3.2.26): characters whose slot is ambiguous, such as the curly
   * quotation marks, take the East Asian font rather than the Latin one.
   */
  fontHintEastAsia?: boolean;
  /**
   * The language of the run's East Asian text (w:lang/@w:eastAsia, ECMA-376 Part 1 §17.3.2.20; an
   * HTML lang attribute), a BCP 47 tag: which CJK face draws its ideographs first when its East
   * Asian font does not say (fallback-faces.ts eastAsianVariant).
   */
  languageEastAsia?: string;
  underline?: UnderlineStyle;
  underlineColor?: string;
  strike: boolean;
  doubleStrike: boolean;
  caps: boolean;
  smallCaps: boolean;
  color?: string;
  highlight?: string;
  shading?: string;
  verticalAlign: 'baseline' | 'superscript' | 'subscript';
  /** Extra space after each character, points (w:spacing). */
  characterSpacing: number;
  /** Raise (+) or lower (−) from the baseline, points (w:position). */
  position: number;
  hidden: boolean;
}

/** How a tracked change shows under revisions=markup (the reader drops or keeps content per mode). */
export interface RevisionMark {
  kind: 'insert' | 'delete' | 'moveFrom' | 'moveTo' | 'format';
  author?: string;
  date?: string;
}

export type LinkTarget = { url: string } | { anchor: string };

interface InlineBase {
  props: RunProperties;
  revision?: RevisionMark;
  link?: LinkTarget;
  /**
   * The character style the run was given (Markdown/HTML readers: Hyperlink, VerbatimChar,
   * FootnoteReference; see src/engine/read/markup/markup-styles.ts). Layout ignores it: `props` is already
   * resolved. The DOCX writer names it, and writes only what `props` adds to it.
   */
  styleId?: string;
}

export interface TextInline extends InlineBase {
  kind: 'text';
  text: string;
}

export interface TabInline extends InlineBase {
  kind: 'tab';
  /**
   * An absolute position tab (w:ptab, ECMA-376 Part 1 §17.3.3.23): it goes to the left edge, the
   * centre or the right edge of the margins or of the indents, whatever the tab stops, and aligns
   * the text after it there; past that point, it goes there on the next line.
   */
  absolute?: PositionalTab;
}

export interface PositionalTab {
  align: 'left' | 'center' | 'right';
  relativeTo: 'margin' | 'indent';
  leader: TabStop['leader'];
}

export interface BreakInline extends InlineBase {
  kind: 'break';
  type: 'line' | 'page' | 'column';
}

export interface ImageInline extends InlineBase {
  kind: 'image';
  imageId: string;
  /** Points, as placed in the document (wp:extent). */
  width: number;
  height: number;
  description?: string;
}

/**
 * A chart, shape group, text box, SmartArt drawing or floating picture (src/engine/model/drawing.ts),
 * sized like a picture. `floating` places it from its anchor (wp:anchor) instead of in the line:
 * it takes no room in the text, which flows around it as its wrapping says.
 */
export interface DrawingInline extends InlineBase {
  kind: 'drawing';
  width: number;
  height: number;
  drawing: Drawing;
  floating?: FloatingPlacement;
}

/**
 * Where a floating object sits (wp:positionH / wp:positionV, ECMA-376 Part 1 §20.4.2.10–11), as
 * an offset in points from the edge named by `from`, and how text wraps around it (§20.4.2.16–20:
 * wrapTight and wrapThrough are treated as wrapSquare on the bounding box).
 */
export interface FloatingPlacement {
  x: { from: 'page' | 'margin' | 'column' | 'character'; offset: number; align?: 'left' | 'center' | 'right' };
  y: { from: 'page' | 'margin' | 'paragraph' | 'line'; offset: number; align?: 'top' | 'center' | 'bottom' };
  behindText: boolean;
  wrap: 'none' | 'square' | 'topAndBottom';
  /** Which side of a square-wrapped object text may use (wrapText). */
  side: 'both' | 'left' | 'right' | 'largest';
  /** Distance kept from text (distT/distB/distL/distR), points. */
  distance: { top: number; bottom: number; left: number; right: number };
  /**
   * wrapTight/wrapThrough's outline (wp:wrapPolygon, §20.4.2.17), as fractions of the object's
   * width and height: text comes up to it rather than to the bounding box.
   */
  polygon?: { x: number; y: number }[];
}

/** A field whose value depends on layout; `cached` is Word's last result, printed if unknown. */
export interface FieldInline extends InlineBase {
  kind: 'field';
  field: 'PAGE' | 'NUMPAGES' | 'SECTIONPAGES' | 'PAGEREF';
  /** PAGEREF: the bookmark. */
  argument?: string;
  /** \* format switch: Arabic, roman, ROMAN, alphabetic, ALPHABETIC… */
  format?: string;
  cached: string;
}

/** A bookmark start: the target of internal links and PAGEREF. */
export interface BookmarkInline {
  kind: 'bookmark';
  name: string;
}

/**
 * A footnote or endnote reference (w:footnoteReference / w:endnoteReference): `mark` is the number
 * or custom mark as displayed in the body (props carry the reference style, usually superscript);
 * the note's own blocks start with the same mark (w:footnoteRef) already resolved by the reader.
 */
export interface NoteReferenceInline extends InlineBase {
  kind: 'noteReference';
  note: 'footnote' | 'endnote';
  id: string;
  mark: string;
}

/**
 * Mathematics (Office Math, ECMA-376 Part 1 §22.1; src/engine/model/math.ts): `display` math is set on
 * lines of its own (m:oMathPara), inline math sits in the line (m:oMath). Layout sets it in two
 * dimensions (src/engine/layout/math-layout.ts) at the size and colour of `props`.
 */
export interface MathInline extends InlineBase {
  kind: 'math';
  display: boolean;
  nodes: MathList;
  /**
   * Where display math sits on its lines (m:oMathParaPr/m:jc, §22.1.2.51), whatever the
   * paragraph's own alignment; centred when unset.
   */
  justification?: 'left' | 'right' | 'center';
}

export type Inline =
  | TextInline
  | MathInline
  | TabInline
  | BreakInline
  | ImageInline
  | DrawingInline
  | FieldInline
  | BookmarkInline
  | NoteReferenceInline;

export interface ListLabel {
  /** The computed label text ("1.2.", "iv)", "•" mapped to Unicode). */
  text: string;
  props: RunProperties;
  /** What follows the label (w:suff). */
  suffix: 'tab' | 'space' | 'nothing';
  align: 'left' | 'center' | 'right';
  /**
   * The symbol font a bullet was written in when `text` was mapped out of it to be drawn in
   * `props.font`: Word still gives the line that font's height (Symbol is 1.23 em tall).
   */
  metricsFont?: string;
  /** A picture bullet (w:lvlPicBulletId): drawn instead of `text`, its aspect ratio kept. */
  image?: { imageId: string; width: number; height: number };
}

export interface Paragraph {
  kind: 'paragraph';
  props: ParagraphProperties;
  /** Properties of the paragraph mark: the height of an empty paragraph comes from these. */
  markProps: RunProperties;
  inlines: Inline[];
  label?: ListLabel;
  /** Revision of the paragraph mark itself (an inserted or deleted paragraph). */
  markRevision?: RevisionMark;
  /** Markdown/HTML readers: the list the paragraph is an item of (`label` holds its computed label). */
  list?: ListMembership;
}

/** A cell or table edge's border; style 'none' is an explicit "no border" that overrides a lower level. */
export interface CellBorders {
  top?: Border;
  left?: Border;
  bottom?: Border;
  right?: Border;
}

export interface TableBorders extends CellBorders {
  /** Between rows and between columns inside the table (§17.4.39, §17.4.40). */
  insideH?: Border;
  insideV?: Border;
}

export interface CellMargins {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/**
 * A preferred width (CT_TblWidth, §17.18.87 ST_TblWidth): points for dxa, a fraction (1 = 100 %)
 * of the reference width for pct, nothing for auto/nil.
 */
export type PreferredWidth = { type: 'dxa'; value: number } | { type: 'pct'; value: number } | { type: 'auto' };

export interface TableCell {
  blocks: Block[];
  /** Grid columns spanned (w:gridSpan). */
  span: number;
  /** w:vMerge: 'restart' starts a merged region, 'continue' belongs to the one above. */
  verticalMerge?: 'restart' | 'continue';
  /** Preferred width in points when it was given in dxa (or resolved from pct of the table). */
  width?: number;
  shading?: string;
  /** w:tcBorders over the table style's conditional and whole-table borders (already merged). */
  borders?: CellBorders;
  /** w:tcMar, each side over the table's (§17.4.42). */
  margins?: Partial<CellMargins>;
  verticalAlign?: 'top' | 'center' | 'bottom';
  /** w:textDirection (§17.4.72): btLr and tbRl set text vertically. */
  textDirection?: 'lrTb' | 'btLr' | 'tbRl';
  /** w:noWrap: the cell's text does not wrap when the table is autofit (§17.4.30). */
  noWrap?: boolean;
  /** Stands in for w:gridBefore / w:gridAfter: holds grid columns, draws nothing. */
  placeholder?: boolean;
}

export interface TableRow {
  cells: TableCell[];
  isHeader: boolean;
  cantSplit: boolean;
  height?: { value: number; rule: 'auto' | 'atLeast' | 'exact' };
}

/**
 * A floating table (w:tblpPr, §17.4.58): placed by its offsets from the anchors; text wraps
 * around it only as far as the page flow knows how (see src/engine/layout/table).
 */
export interface TablePosition {
  horizontalAnchor: 'text' | 'margin' | 'page';
  verticalAnchor: 'text' | 'margin' | 'page';
  x?: number;
  xAlign?: 'left' | 'center' | 'right' | 'inside' | 'outside';
  y?: number;
  /** Distances kept from the text that wraps around the table, points. */
  topFromText: number;
  bottomFromText: number;
  leftFromText: number;
  rightFromText: number;
}

/** What CSS table layout needs besides the cells (Table.cssLayout). */
export interface CssTableLayout {
  /**
   * table-layout (CSS 2.1 §17.5.2): 'fixed' (§17.5.2.1, widths from the col elements and the first
   * row) when the CSS asks for it on a table of declared width; else 'auto' (§17.5.2.2).
   */
  algorithm: 'auto' | 'fixed';
  /**
   * Per grid column, the width declared for it (col/colgroup, then the cells: every single-column
   * cell for 'auto', the first row's for 'fixed'): points, or a fraction of the table's width.
   */
  columns: (PreferredWidth | undefined)[];
  /** The containing block's width, points: an auto-width table fits in it; percentages refer to it. */
  available: number;
}

export interface Table {
  kind: 'table';
  /** w:tblGrid column widths, points. */
  grid: number[];
  rows: TableRow[];
  /** w:tblInd, points: the leading edge of the first cell's text goes here minus its left margin. */
  indent: number;
  /** w:tblW. */
  width?: PreferredWidth;
  /** w:tblLayout: fixed keeps the preferred widths; autofit (the default) widens for content. */
  layout: 'fixed' | 'autofit';
  /** w:jc on the table (§17.4.29). */
  align: 'left' | 'center' | 'right';
  /** w:tblCellMar (default 0.08 in left and right, 0 top and bottom). */
  cellMargins: CellMargins;
  /**
   * w:tblCellSpacing, points: half the space between adjacent cells (§17.4.44). Present, even at
   * 0, it switches the table to separate borders: every cell draws its own four edges and the
   * table its frame, with no conflict resolution (§17.4.66 applies only without spacing).
   */
  cellSpacing?: number;
  borders: TableBorders;
  floating?: TablePosition;
  /** Markdown/HTML readers: the table style named in the DOCX they write (markup-styles.ts). */
  styleId?: string;
  /**
   * HTML/Markdown readers: the columns are to be sized by CSS table layout (CSS 2.1 §17.5.2) from
   * their content and declared widths. That takes font metrics, which the reader has not: layout's
   * sizeCssTables sets `grid` (and each cell's `width`) and removes this, before the pages and the
   * DOCX writer read them, so both get the same widths. Until then `grid` is a provisional share.
   */
  cssLayout?: CssTableLayout;
  /**
   * HTML/Markdown readers: a table whose content cannot be narrower than the text column (the sum
   * of its columns' minimum content widths, CSS 2.1 §17.5.2.2) widens into the page margins,
   * centred on the column, as far as layout allows, rather than breaking its words mid-word. A
   * browser lets such a table overflow and its print shrinks the page to fit; Word's autofit
   * squeezes it into the column instead, which DOCX input keeps.
   */
  widensIntoMargins?: boolean;
}

export type ImageResource = EncodedImage | DecodedImage;

export interface EncodedImage {
  /** Bytes the PDF painter can embed directly. */
  format: 'png' | 'jpeg';
  bytes: Uint8Array;
  /** Intrinsic size in pixels. */
  pixelWidth: number;
  pixelHeight: number;
}

/** Decoded pixels (engine/read/images/pixel-budget.ts says when), for the painter to compress. */
export interface DecodedImage {
  format: 'pixels';
  /** 8-bit RGB, row by row, pixelWidth * pixelHeight * 3 bytes. */
  rgb: Uint8Array;
  /** 8-bit alpha, pixelWidth * pixelHeight bytes; absent when every pixel is opaque. */
  alpha?: Uint8Array;
  pixelWidth: number;
  pixelHeight: number;
}

export interface EmbeddedFont {
  family: string;
  bold: boolean;
  italic: boolean;
  /** TrueType/OpenType bytes, de-obfuscated (ECMA-376 Part 1 §17.8.1). */
  bytes: Uint8Array;
}

// ---- Drawings (drawing.ts was its own file; merged here because a text box holds blocks and a
// block holds drawings: the model's types are one recursive family) ----

/**
 * Drawings that are not pictures: DrawingML charts (ECMA-376 Part 1 §21.2), shapes and text boxes
 * (wps:wsp, §20.4 / §20.1.9), and SmartArt's pre-drawn shapes (the diagramDrawing part). Plain
 * data with everything resolved by the reader: colours are 6-digit hex (theme colours applied),
 * lengths are points, text carries computed run properties. Layout draws them; it reads no XML.
 */
export type Drawing = ChartDrawing | ShapesDrawing;

export interface ChartDrawing {
  kind: 'chart';
  chart: Chart;
}

/** Shapes in the drawing's own frame (0,0 = the drawing's top-left corner), in paint order. */
export interface ShapesDrawing {
  kind: 'shapes';
  shapes: Shape[];
}

// ---- Shapes --------------------------------------------------------------------------------------

/** The preset geometries drawn as themselves (§20.1.10.56 ST_ShapeType); others draw as their box. */
export type ShapeGeometry =
  | 'rect'
  | 'roundRect'
  | 'ellipse'
  | 'line'
  | 'triangle'
  | 'rtTriangle'
  | 'diamond'
  | 'parallelogram'
  | 'hexagon'
  | 'octagon'
  | 'chevron'
  | 'homePlate'
  | 'rightArrow'
  | 'leftArrow'
  | 'upArrow'
  | 'downArrow';

export interface ShapeStroke {
  color: string;
  /** Points. */
  width: number;
  dash?: number[];
}

export interface ShapeText {
  blocks: Block[];
  /** bodyPr insets (lIns, tIns, rIns, bIns), points; Word's defaults are 7.2 / 3.6 pt. */
  insets: { left: number; top: number; right: number; bottom: number };
  /** Vertical placement of the text in the shape (bodyPr anchor). */
  anchor: 'top' | 'middle' | 'bottom';
  /**
   * WordArt: each line is stretched, across and down, to fill its share of the box inside the
   * insets (a VML text path that fits its shape, ECMA-376 Part 4 §19.1.2.22 fitshape/fitpath; a
   * DrawingML text warp, Part 1 §20.1.9.19 prstTxWarp). With `trim` (textpath trim) the glyphs'
   * ink fills the line's height, otherwise their ascent and descent do.
   */
  fit?: { trim: boolean };
  /** WordArt: the glyphs' outlines are stroked over their fill (a VML text path's shape stroke). */
  outline?: ShapeStroke;
  /** WordArt with its fill off: the glyphs are not filled (only `outline`, if any, shows). */
  unfilled?: boolean;
}

export interface Shape {
  geometry: ShapeGeometry;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Degrees clockwise (a:xfrm rot). */
  rotation: number;
  flipH: boolean;
  flipV: boolean;
  fill?: string;
  stroke?: ShapeStroke;
  text?: ShapeText;
  /** A picture filling the shape's box (pic:pic in a drawing): the id of DocumentModel.images. */
  imageId?: string;
}

// ---- Charts --------------------------------------------------------------------------------------

export interface ChartText {
  text: string;
  props: RunProperties;
}

export type ChartPlotType = 'bar' | 'line' | 'area' | 'pie' | 'doughnut' | 'scatter' | 'bubble' | 'radar';

export interface ChartSeries {
  name: string;
  /** Category labels (c:cat), or the x values of scatter and bubble series as text. */
  categories: string[];
  values: (number | undefined)[];
  /** Scatter and bubble: c:xVal as numbers (undefined when they are text categories). */
  xValues?: (number | undefined)[];
  /** Bubble: c:bubbleSize. */
  sizes?: (number | undefined)[];
  /** Fill (bars, areas, slices) or line colour. */
  color: string;
  /** Per data point colours (c:dPt, or varyColors), by point index. */
  pointColors?: (string | undefined)[];
  /** Line width, points (lines and scatter). */
  lineWidth: number;
  /** No line drawn (a:ln noFill): scatter plots of markers only. */
  noLine: boolean;
  marker: boolean;
  formatCode: string;
}

export interface ChartDataLabels {
  value: boolean;
  percent: boolean;
  category: boolean;
  series: boolean;
  props: RunProperties;
}

export interface ChartPlot {
  type: ChartPlotType;
  /** Bars: vertical columns (col) or horizontal bars (bar). */
  direction: 'col' | 'bar';
  grouping: 'clustered' | 'stacked' | 'percentStacked' | 'standard';
  series: ChartSeries[];
  /** Plotted against the secondary value axis. */
  secondary: boolean;
  /** Bars: gap between categories as a percentage of a bar's width (c:gapWidth, default 150). */
  gapWidth: number;
  /** Bars: overlap of the series' bars, percent (c:overlap; negative leaves gaps). */
  overlap: number;
  /** Doughnut hole, percent of the radius. */
  holeSize: number;
  /** Pie: angle of the first slice, degrees clockwise from 12 o'clock. */
  firstSliceAngle: number;
  dataLabels?: ChartDataLabels;
}

export interface ChartAxis {
  id: string;
  kind: 'category' | 'value';
  /** Where the axis sits (c:axPos): b, t, l, r. */
  position: 'b' | 't' | 'l' | 'r';
  deleted: boolean;
  title?: ChartText;
  numberFormat: string;
  min?: number;
  max?: number;
  majorUnit?: number;
  reversed: boolean;
  majorGridlines: boolean;
  /** c:majorGridlines/c:spPr line colour. */
  gridlineColor: string;
  labels: boolean;
  labelProps: RunProperties;
  lineColor?: string;
}

export interface Chart {
  title?: ChartText;
  plots: ChartPlot[];
  axes: ChartAxis[];
  legend?: { position: 'r' | 'l' | 't' | 'b' | 'tr'; props: RunProperties };
  /** Chart area fill (c:chartSpace/c:spPr), undefined for none. */
  background?: string;
  border?: string;
}

// ---- Metafile pictures ----

/**
 * A Windows metafile picture (EMF or WMF) as plain drawing commands, read once by
 * engine/read/metafile and drawn by engine/pages/metafile-layout.ts. Coordinates are picture units from the
 * picture's top-left corner, y growing downwards; the picture spans width × height of them and
 * layout stretches that onto the picture's box. Text stays text (the font stage loads its faces,
 * the PDF carries extractable characters).
 */
/** One step of a path: move, line, cubic Bézier curve (control points then end), close. */
export type MetafilePathCommand =
  | { op: 'M' | 'L'; x: number; y: number }
  | { op: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { op: 'Z' };

export interface MetafilePath {
  kind: 'path';
  commands: MetafilePathCommand[];
  /** 6-digit hex RGB. */
  fill?: string;
  stroke?: string;
  /** Picture units. */
  strokeWidth?: number;
  dash?: number[];
  /** GDI's ALTERNATE polygon fill mode (the default): even-odd rather than non-zero winding. */
  evenOdd?: boolean;
}

export interface MetafileFont {
  family: string;
  bold: boolean;
  italic: boolean;
}

export interface MetafileText {
  kind: 'text';
  /** Reference point, picture units; what it marks is said by align and valign. */
  x: number;
  y: number;
  text: string;
  font: MetafileFont;
  /** Em size in picture units, or the cell height (ascent + descent) when `cellHeight`. */
  size: number;
  cellHeight: boolean;
  color: string;
  align: 'left' | 'center' | 'right';
  valign: 'top' | 'baseline' | 'bottom';
  /** Degrees counter-clockwise about the reference point. */
  angle: number;
  /** The advance the metafile gives the whole string (its Dx array), picture units. */
  width?: number;
  underline: boolean;
}

export interface MetafileImage {
  kind: 'image';
  x: number;
  y: number;
  width: number;
  height: number;
  image: ImageResource;
  /** The bitmap is mirrored (drawn through a transform that flips an axis, as GDI does). */
  flipX: boolean;
  flipY: boolean;
}

export type MetafileItem = MetafilePath | MetafileText | MetafileImage;

export interface MetafilePicture {
  format: 'emf' | 'wmf';
  width: number;
  height: number;
  items: MetafileItem[];
}
