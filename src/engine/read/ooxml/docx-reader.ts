import { ApiError } from '../../../errors';
import type { Block, DocumentModel, HeaderFooterSet, Section } from '../../model';
import { PixelBudget } from '../images';
import { BlockReader, readBlockContent } from './block-reader';
import { readCoreProperties } from './core-properties';
import { readDeclaredFonts, readEmbeddedFonts } from './embedded-fonts';
import { IdentityCache } from './identity-cache';
import type { CheckedPngs } from './image-resource';
import { numberNoteReferences, type SectionNoteNumbering } from './note-numbering';
import { readNotes } from './notes-reader';
import { NO_NUMBERING, readNumbering } from './numbering';
import {
  type OpcPackage,
  openPackage,
  type PackageLimits,
  type PartsAhead,
  type Relationship,
  relationshipKind,
} from './package-reader';
import { PartError } from './part-error';
import { type DocumentContext, newStory, type RevisionMode, type StoryContext } from './read-context';
import { type HeaderFooterSlot, readSectionProperties, type SectionProperties } from './section-reader';
import { DEFAULT_SETTINGS, readSettings } from './settings-reader';
import { EMPTY_STYLE_SHEET, readStyleSheet, StyleCascade } from './style-cascade';
import { readThemeColors } from './theme-colors';
import { readThemeFonts } from './theme-fonts';
import { type ChildStream, child, type XmlElement } from './xml-tree';

/**
 * The OOXML reader: a DOCX package (ECMA-376 Part 1 WordprocessingML in a Part 2 package) into the
 * document model, with the style cascade resolved. Synchronous and single-pass over each part.
 *
 * Errors: bytes that are not a ZIP, or a ZIP without word/document.xml → UNSUPPORTED_MEDIA_TYPE;
 * a damaged archive, a main document that cannot be found or parsed, or a DTD anywhere →
 * INVALID_DOCUMENT; more inflated bytes than `limits` allow → DOCUMENT_TOO_COMPLEX. Missing or
 * broken optional parts (styles, numbering, settings, theme, headers, pictures) fall back to
 * defaults with a warning.
 */

export interface ReadDocxOptions {
  /** markup: every change shown and marked; final: changes accepted; original: changes rejected. */
  revisions: RevisionMode;
  /** The most bytes the package may inflate to, all parts and the XML parts (ZIP bomb guard, src/limits.ts). */
  limits: PackageLimits;
  /** Parts read ahead (readPartsAhead); each is taken out of the map when it is read. */
  partsAhead?: PartsAhead;
  /** What checkPngsAhead found of the PNGs among the image parts. */
  checkedPngs?: CheckedPngs;
}

/** Relationship types (last segment) of the parts read besides the main document. */
const PART_KINDS = {
  styles: 'styles',
  numbering: 'numbering',
  settings: 'settings',
  theme: 'theme',
  fontTable: 'fontTable',
  footnotes: 'footnotes',
  endnotes: 'endnotes',
} as const;

const MAX_WARNINGS = 200;

export function readDocx(bytes: Uint8Array, options: ReadDocxOptions): DocumentModel {
  const warnings: string[] = [];
  const seen = new Set<string>();
  const warn = (message: string) => {
    if (seen.has(message) || warnings.length >= MAX_WARNINGS) return;
    seen.add(message);
    warnings.push(message);
  };
  try {
    return readPackage(openPackage(bytes, options.limits, warn, options.partsAhead), options, warnings, warn);
  } catch (error) {
    // Part problems that reach this far are fatal ones (a DTD, limits) or in required parts.
    throw toApiError(error);
  }
}

function readPackage(
  pkg: OpcPackage,
  options: ReadDocxOptions,
  warnings: string[],
  warn: (message: string) => void,
): DocumentModel {
  const mainPart = findMainDocument(pkg, warn);
  const relationships = pkg.relationships(mainPart);
  const optional = (kind: string, label: string): { element: XmlElement; partName: string } | undefined => {
    const partName = targetOf(relationships, kind) ?? conventionalPart(pkg, mainPart, kind);
    if (partName === undefined) return undefined;
    const element = readOptionalXml(pkg, partName, label, warn);
    return element === undefined ? undefined : { element, partName };
  };

  const theme = optional(PART_KINDS.theme, 'theme (fonts and colours)')?.element;
  const colors = readThemeColors(theme);
  const themeFonts = readThemeFonts(theme);
  const stylesPart = optional(PART_KINDS.styles, 'styles');
  if (stylesPart === undefined) warn('The document has no readable styles part; Word’s default formatting is used.');
  const sheet = stylesPart ? readStyleSheet(stylesPart.element, colors) : EMPTY_STYLE_SHEET;
  const numberingPart = optional(PART_KINDS.numbering, 'numbering (lists)');
  const numbering = numberingPart
    ? { ...readNumbering(numberingPart.element, sheet, colors), partName: numberingPart.partName }
    : NO_NUMBERING;
  for (const format of numbering.unsupportedFormats) {
    warn(`List numbers in the ${format} format are not supported yet and are shown as 1, 2, 3.`);
  }
  const settingsPart = optional(PART_KINDS.settings, 'settings');
  const settings = settingsPart ? readSettings(settingsPart.element) : DEFAULT_SETTINGS;
  const coreName = targetOf(pkg.relationships(''), 'core-properties') ?? 'docProps/core.xml';
  const properties = readCoreProperties(readOptionalXml(pkg, coreName, 'document properties', warn));

  const doc: DocumentContext = {
    pkg,
    cascade: new StyleCascade(sheet, themeFonts),
    numbering,
    settings,
    colors,
    themeFonts,
    properties,
    revisions: options.revisions,
    images: {},
    pictures: {},
    imageIds: new Map(),
    checkedPngs: options.checkedPngs ?? new Map(),
    pixelBudget: new PixelBudget(),
    customNoteMarks: new Set(),
    cellBorders: new IdentityCache(4096),
    warn,
    readBlocks: readBlockContent,
  };

  // The body is read as it is parsed, one paragraph or table at a time (xml-tree.ts ChildStream):
  // the element tree of a large document never exists whole. Everything the body's paragraphs
  // look up (styles, numbering, settings, theme) was read above.
  let bodyStory = newStory(doc, mainPart, relationships);
  let reader = new BlockReader(bodyStory, undefined);
  const document = readRequiredXml(pkg, mainPart, {
    path: ['w:document', 'w:body'],
    take: (element) => {
      if (element.name === 'w:sectPr') return false;
      reader.read(element);
      return true;
    },
    restart: () => {
      bodyStory = newStory(doc, mainPart, relationships);
      reader = new BlockReader(bodyStory, undefined);
    },
  });
  const body = child(document, 'w:body');
  if (document.name !== 'w:document' || body === undefined) {
    throw new ApiError(
      'INVALID_DOCUMENT',
      `The main document part ${mainPart} is not a WordprocessingML document (its root is <${document.name}>${body === undefined && document.name === 'w:document' ? ' without a <w:body>' : ''}), so there is no text to read.`,
    );
  }
  const content = reader.finish();
  const finalProperties = child(body, 'w:sectPr');
  const { sections, noteNumbering } = buildSections(
    doc,
    bodyStory,
    content.blocks,
    content.sectionBreaks,
    finalProperties,
  );

  // Notes after the body: their marks (w:footnoteRef) are the numbers their references got.
  const numbered = numberNoteReferences(
    sections,
    noteNumbering,
    { footnote: settings.footnoteNumbering, endnote: settings.endnoteNumbering },
    doc.customNoteMarks,
    warn,
  );
  const notes: DocumentModel['notes'] = { footnotes: {}, endnotes: {} };
  for (const kind of ['footnote', 'endnote'] as const) {
    const referenced = numbered.referenced[kind];
    if (referenced.length === 0) continue;
    const part = optional(kind === 'footnote' ? PART_KINDS.footnotes : PART_KINDS.endnotes, `${kind}s`);
    const read = part ? readNotes(doc, part.element, part.partName, kind, numbered.marks[kind]) : {};
    notes[kind === 'footnote' ? 'footnotes' : 'endnotes'] = read;
    const missing = referenced.filter((id) => !Object.hasOwn(read, id));
    if (missing.length > 0) {
      warn(
        `${missing.length} ${kind} reference${missing.length === 1 ? '' : 's'} (id ${missing.slice(0, 5).join(', ')}) ${missing.length === 1 ? 'has' : 'have'} no ${kind} text in the document; only the mark is printed.`,
      );
    }
  }

  const fontTablePart = optional(PART_KINDS.fontTable, 'font table');
  const embeddedFonts = fontTablePart
    ? readEmbeddedFonts(fontTablePart.element, fontTablePart.partName, pkg, warn)
    : [];

  return {
    properties,
    settings: {
      defaultTabStop: settings.defaultTabStop,
      evenAndOddHeaders: settings.evenAndOddHeaders,
      ...(settings.justifyByShrinking ? { justifyByShrinking: true } : {}),
    },
    sections,
    images: doc.images,
    pictures: doc.pictures,
    embeddedFonts,
    declaredFonts: readDeclaredFonts(fontTablePart?.element),
    notes,
    warnings,
  };
}

/**
 * The main document: the target of the package's officeDocument relationship (Part 2 §9.3, Part 1
 * §11.3.10). A package whose relationships do not name it but that has word/document.xml is read
 * from there, with a warning: the content is what matters.
 */
function findMainDocument(pkg: OpcPackage, warn: (message: string) => void): string {
  // Broken package relationships read as none (with a warning from the package reader).
  const hasDocumentXml = pkg.hasPart('word/document.xml');
  if (!hasDocumentXml && !pkg.hasPart('[Content_Types].xml')) {
    throw new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The document is a ZIP archive but not a Word document: it has neither [Content_Types].xml nor word/document.xml. Send a .docx file.',
    );
  }
  if (!pkg.hasPart('[Content_Types].xml')) {
    throw new ApiError(
      'INVALID_DOCUMENT',
      'The document is missing [Content_Types].xml, which every Office document has; the file is damaged or was not saved by a word processor.',
    );
  }
  const target = targetOf(pkg.relationships(''), 'officeDocument');
  if (target !== undefined && pkg.hasPart(target)) {
    const other = otherOfficeFormat(pkg.contentType(target) ?? '');
    if (other === undefined || hasDocumentXml) return other === undefined ? target : 'word/document.xml';
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `The document is ${other}, not a Word document. Send a .docx file.`);
  }
  if (hasDocumentXml) {
    if (target !== undefined)
      warn(`The package names ${target} as its main document, but it is missing; word/document.xml is read instead.`);
    return 'word/document.xml';
  }
  if (target !== undefined) {
    throw new ApiError(
      'INVALID_DOCUMENT',
      `The document's main part (${target}) is missing from the archive, so there is nothing to read; the file is damaged.`,
    );
  }
  throw new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    'The document is a ZIP archive but not a Word document: it has no main document part (word/document.xml). Send a .docx file.',
  );
}

/** Other Office Open XML formats, named by their main part's content type (Part 1 §11–§13). */
function otherOfficeFormat(contentType: string): string | undefined {
  if (contentType.includes('spreadsheetml')) return 'an Excel workbook (XLSX)';
  if (contentType.includes('presentationml')) return 'a PowerPoint presentation (PPTX)';
  return undefined;
}

function targetOf(relationships: Relationship[], kind: string): string | undefined {
  return relationships.find((relationship) => !relationship.external && relationshipKind(relationship) === kind)
    ?.target;
}

/** Parts found where Word puts them when the relationship is missing (lenient, like Word itself). */
function conventionalPart(pkg: OpcPackage, mainPart: string, kind: string): string | undefined {
  const folder = mainPart.slice(0, mainPart.lastIndexOf('/') + 1);
  const name = kind === 'theme' ? 'theme/theme1.xml' : `${kind}.xml`;
  const candidate = `${folder}${name}`;
  return pkg.hasPart(candidate) ? candidate : undefined;
}

function readRequiredXml(pkg: OpcPackage, partName: string, stream: ChildStream): XmlElement {
  try {
    const element = pkg.streamXml(partName, stream);
    if (element === undefined) {
      throw new ApiError('INVALID_DOCUMENT', `The document's main part ${partName} is missing.`);
    }
    return element;
  } catch (error) {
    throw toApiError(error);
  }
}

/** An optional part: undefined with a warning when it is missing or broken; fatal problems throw. */
function readOptionalXml(
  pkg: OpcPackage,
  partName: string,
  label: string,
  warn: (message: string) => void,
): XmlElement | undefined {
  try {
    return pkg.readXml(partName);
  } catch (error) {
    if (error instanceof PartError && !error.fatal) {
      warn(`${error.message} The ${label} part is ignored and defaults are used.`);
      return undefined;
    }
    throw toApiError(error);
  }
}

function toApiError(error: unknown): unknown {
  if (error instanceof PartError) return new ApiError('INVALID_DOCUMENT', error.message);
  return error;
}

/**
 * Sections in body order (§17.6.17): each paragraph holding a w:sectPr ends a section; the body's
 * own w:sectPr describes the last. Header and footer slots a section does not define are
 * inherited from the section before it (§17.10.5).
 */
function buildSections(
  doc: DocumentContext,
  bodyStory: StoryContext,
  blocks: Block[],
  breaks: { blockCount: number; properties: XmlElement }[],
  finalProperties: XmlElement | undefined,
): { sections: Section[]; noteNumbering: SectionNoteNumbering[] } {
  const sections: Section[] = [];
  const noteNumbering: SectionNoteNumbering[] = [];
  const headerCache = new Map<string, Block[] | null>();
  let previousHeaders: HeaderFooterSet = {};
  let previousFooters: HeaderFooterSet = {};
  let start = 0;
  const spans = [...breaks, { blockCount: blocks.length, properties: finalProperties }];
  for (const span of spans) {
    const properties = readSectionProperties(span.properties);
    const headers = resolveSlots(doc, bodyStory, properties.headerReferences, previousHeaders, headerCache, 'header');
    const footers = resolveSlots(doc, bodyStory, properties.footerReferences, previousFooters, headerCache, 'footer');
    sections.push(section(properties, headers, footers, blocks.slice(start, span.blockCount)));
    noteNumbering.push(properties.noteNumbering);
    previousHeaders = headers;
    previousFooters = footers;
    start = span.blockCount;
  }
  return { sections, noteNumbering };
}

function section(
  properties: SectionProperties,
  headers: HeaderFooterSet,
  footers: HeaderFooterSet,
  blocks: Block[],
): Section {
  return {
    start: properties.start,
    page: properties.page,
    columns: properties.columns,
    titlePage: properties.titlePage,
    pageNumbering: properties.pageNumbering,
    headers,
    footers,
    blocks,
  };
}

const SLOTS: HeaderFooterSlot[] = ['default', 'first', 'even'];

function resolveSlots(
  doc: DocumentContext,
  bodyStory: StoryContext,
  references: Partial<Record<HeaderFooterSlot, string>>,
  previous: HeaderFooterSet,
  cache: Map<string, Block[] | null>,
  kind: 'header' | 'footer',
): HeaderFooterSet {
  const set: HeaderFooterSet = {};
  for (const slot of SLOTS) {
    const id = references[slot];
    const blocks = id === undefined ? previous[slot] : readHeaderFooter(doc, bodyStory, id, cache, kind);
    if (blocks !== undefined) set[slot] = blocks;
  }
  return set;
}

/** A header or footer part (§17.10.3/§17.10.4) by relationship id, read once however many sections use it. */
function readHeaderFooter(
  doc: DocumentContext,
  bodyStory: StoryContext,
  id: string,
  cache: Map<string, Block[] | null>,
  kind: 'header' | 'footer',
): Block[] | undefined {
  const relationship = bodyStory.relationships.find((candidate) => candidate.id === id);
  if (relationship === undefined || relationship.external) {
    doc.warn(`A section refers to a ${kind} (relationship ${id}) that the document does not have; it is left empty.`);
    return undefined;
  }
  const partName = relationship.target;
  const cached = cache.get(partName);
  if (cached !== undefined) return cached ?? undefined;
  const root = readOptionalXml(doc.pkg, partName, kind, doc.warn);
  if (root === undefined) {
    if (!doc.pkg.hasPart(partName)) doc.warn(`The ${kind} part ${partName} is missing; it is left empty.`);
    cache.set(partName, null);
    return undefined;
  }
  const headerStory = newStory(doc, partName, doc.pkg.relationships(partName));
  const blocks = readBlockContent(root, headerStory, undefined).blocks;
  cache.set(partName, blocks);
  return blocks;
}
