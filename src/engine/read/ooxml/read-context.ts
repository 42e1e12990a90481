import type {
  Block,
  BookmarkInline,
  CellBorders,
  CoreProperties,
  ImageResource,
  LinkTarget,
  MetafilePicture,
  NoteReferenceInline,
  RevisionMark,
  RunProperties,
} from '../../model';
import type { PixelBudget } from '../images';
import type { FieldInstruction } from './field-instruction';
import type { IdentityCache } from './identity-cache';
import type { CheckedPngs } from './image-resource';
import { ListCounters, type NumberingDefinitions } from './numbering';
import type { OpcPackage, Relationship } from './package-reader';
import type { DocumentSettingsPart } from './settings-reader';
import type { StyleCascade } from './style-cascade';
import type { ThemeColors } from './theme-colors';
import type { ThemeFonts } from './theme-fonts';
import type { XmlElement } from './xml-tree';

/** How tracked changes come out (see docx-reader.ts): the one list, which the API's `revisions` takes too. */
export const REVISION_MODES = ['markup', 'final', 'original'] as const;
export type RevisionMode = (typeof REVISION_MODES)[number];

/** What every part of one document shares while it is read. */
export interface DocumentContext {
  pkg: OpcPackage;
  cascade: StyleCascade;
  numbering: NumberingDefinitions;
  settings: DocumentSettingsPart;
  colors: ThemeColors;
  /** The theme's font scheme, for DrawingML text ("+mn-lt") in charts and shapes. */
  themeFonts: ThemeFonts;
  properties: CoreProperties;
  revisions: RevisionMode;
  /** Images by id (the image part's name), filled as pictures are met. */
  images: Record<string, ImageResource>;
  /** EMF/WMF pictures by id, like `images` (DocumentModel.pictures). */
  pictures: Record<string, MetafilePicture>;
  /** Image part → its id, or null when it could not be used (so it is reported once). */
  imageIds: Map<string, string | null>;
  /** Image part bytes whose PNG data was proven whole ahead of reading (image-resource.ts). */
  checkedPngs: CheckedPngs;
  /** Room for decoded images kept as pixels for the painter (engine/read/images/pixel-budget.ts). */
  pixelBudget: PixelBudget;
  /** Note references whose mark is the text of the run after them (w:customMarkFollows): they take no number. */
  customNoteMarks: Set<NoteReferenceInline>;
  /** A cell's own borders by its w:tcBorders element (shared by the scanner, see identity-cache.ts); never written to. */
  cellBorders: IdentityCache<XmlElement, CellBorders>;
  warn(message: string): void;
  /**
   * Reads block content (block-reader.ts readBlockContent). Table cells and text boxes hold blocks
   * that hold tables and text boxes again: their readers reach the block reader through here
   * rather than importing the module that imports them.
   */
  readBlocks(container: XmlElement, story: StoryContext, tableStyleId: string | undefined): BlockContent;
}

/** Block-level content as read: its blocks, and the section breaks among them. */
export interface BlockContent {
  blocks: Block[];
  /** Paragraphs that end a section: after `blockCount` blocks, with these properties. */
  sectionBreaks: { blockCount: number; properties: XmlElement }[];
}

/**
 * One story: the body, one header/footer part, or one note. Relationships are the story part's own, and
 * field and list state run through the story (a TOC field spans paragraphs; a header's lists do
 * not continue the body's).
 */
export interface StoryContext {
  doc: DocumentContext;
  partName: string;
  relationships: Relationship[];
  fields: OpenField[];
  counters: ListCounters;
  /** Bookmarks met between paragraphs (or in rows), put at the start of the next paragraph. */
  pendingBookmarks: BookmarkInline[];
  /** In a footnote or endnote: the note's mark, printed where w:footnoteRef / w:endnoteRef stands. */
  noteMark?: string;
}

export function newStory(doc: DocumentContext, partName: string, relationships: Relationship[]): StoryContext {
  return { doc, partName, relationships, fields: [], counters: new ListCounters(), pendingBookmarks: [] };
}

/** A complex field (§17.16.2) between its begin and end characters. */
export interface OpenField {
  /** Instruction text collected until the separate character. */
  instruction: string;
  phase: 'instruction' | 'result';
  parsed?: FieldInstruction;
  /** PAGE, NUMPAGES, SECTIONPAGES, PAGEREF: the result is captured into one FieldInline. */
  capture?: 'PAGE' | 'NUMPAGES' | 'SECTIONPAGES' | 'PAGEREF';
  cached: string;
  /** The properties of the first result run, else those of the run holding "begin". */
  props: RunProperties | undefined;
  beginProps: RunProperties;
  /** HYPERLINK fields link their result. */
  link?: LinkTarget;
  /** Whether any result text came out (DATE/TIME without one print the document's date). */
  hadResult: boolean;
  /** Legacy form checkbox state (w:ffData/w:checkBox), drawn as a ballot box. */
  checkBox?: boolean;
}

/** The context of inline content: the tracked change and link around it. */
export interface InlineScope {
  revision?: RevisionMark;
  link?: LinkTarget;
  /** Inside w:del/w:moveFrom whose content is shown (markup, original): w:delText is text. */
  showDeleted: boolean;
}
