/**
 * Several DOCX packages merged into one WordprocessingML package, each document keeping its look
 * (issue 27). The first input's package is the base, edited in place with the template filler's
 * package editor (src/services/annotate: bounded ZIP directory and inflate, untouched parts copied
 * as stored); every following input's body is appended as its own section(s):
 *
 * - Sections (ECMA-376 Part 1 §17.6.17, §17.6.18): the body-level w:sectPr that closed the
 *   document before moves into the w:pPr of the paragraph ending that document's content, so it
 *   still governs that content; the appended document's last w:sectPr becomes the body's. Its first
 *   section starts on a new page (§17.6.22 type nextPage), restarts page numbers at 1 as it did on
 *   its own (§17.6.12 pgNumType start), and gets empty headers/footers for the kinds it had none
 *   of, since a section without a header reference inherits the previous section's (§17.10.5).
 * - Parts the moved content uses through relationships (media, headers, footers, charts, embedded
 *   objects, fonts) are copied under new names with new relationship ids (Part 2 §9.3), and their
 *   content types declared (Part 2 §10.1.2).
 * - Styles (§17.7), numbering (§17.9), footnotes/endnotes (§17.11), comments (§17.13.4), bookmarks
 *   (§17.13.6) and drawing object ids (§20.4.2.5 docPr) are merged with ids renumbered where they
 *   would clash, and every reference in the moved content rewritten.
 */

import { type PackageLimits, type Relationship, relationshipKind, relationshipsPartName } from '../../engine';
import { ApiError } from '../../errors';
import {
  createW,
  type Document,
  descendants,
  type Element,
  elementChildren,
  elementXml,
  isW,
  markChanged,
  openPackageEditor,
  type PackageEditor,
  R_NS,
  removeNode,
  serializePartXml,
  setWAttr,
  storyParts,
  wAttr,
  wChild,
  wChildren,
  wDescendants,
} from '../annotate';
import { MAX_MERGE_DOCUMENTS, MIN_MERGE_DOCUMENTS } from './merge-limits';

export interface MergeDocxInput {
  bytes: Uint8Array;
  /** A file name, used in messages only. */
  name?: string;
}

export interface MergeDocxOptions {
  /** Bytes each input package may inflate to (ZIP bombs; src/limits.ts). */
  limits: PackageLimits;
}

export interface MergedDocx {
  docx: Uint8Array;
  warnings: string[];
}

const R_STRICT_NS = 'http://purl.oclc.org/ooxml/officeDocument/relationships';
const O_NS = 'urn:schemas-microsoft-com:office:office';
const WP_NS = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
const OFFICE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const WORDML = 'application/vnd.openxmlformats-officedocument.wordprocessingml';
const CONTENT_TYPES_PART = '[Content_Types].xml';

/** Notes Word keeps once per part, whatever the document: they draw the separator lines (§17.11.23). */
const SPECIAL_NOTE_TYPES = new Set(['separator', 'continuationSeparator', 'continuationNotice']);

/** The children of w:sectPr in schema order (§17.6.17, CT_SectPr), to insert where they belong. */
const SECT_PR_ORDER = [
  'headerReference',
  'footerReference',
  'footnotePr',
  'endnotePr',
  'type',
  'pgSz',
  'pgMar',
  'paperSrc',
  'pgBorders',
  'lnNumType',
  'pgNumType',
  'cols',
  'formProt',
  'vAlign',
  'noEndnote',
  'titlePg',
  'textDirection',
  'bidi',
  'rtlGutter',
  'docGrid',
  'printerSettings',
  'sectPrChange',
];

/** A part of the main document merged rather than copied, by relationship kind. */
interface MergedKind {
  kind: string;
  root: string;
  file: string;
  contentType: string;
}
const STYLES: MergedKind = { kind: 'styles', root: 'styles', file: 'styles.xml', contentType: `${WORDML}.styles+xml` };
const NUMBERING: MergedKind = {
  kind: 'numbering',
  root: 'numbering',
  file: 'numbering.xml',
  contentType: `${WORDML}.numbering+xml`,
};
const FOOTNOTES: MergedKind = {
  kind: 'footnotes',
  root: 'footnotes',
  file: 'footnotes.xml',
  contentType: `${WORDML}.footnotes+xml`,
};
const ENDNOTES: MergedKind = {
  kind: 'endnotes',
  root: 'endnotes',
  file: 'endnotes.xml',
  contentType: `${WORDML}.endnotes+xml`,
};
const COMMENTS: MergedKind = {
  kind: 'comments',
  root: 'comments',
  file: 'comments.xml',
  contentType: `${WORDML}.comments+xml`,
};
const FONT_TABLE: MergedKind = {
  kind: 'fontTable',
  root: 'fonts',
  file: 'fontTable.xml',
  contentType: `${WORDML}.fontTable+xml`,
};

/** The base package being built. */
interface Base {
  editor: PackageEditor;
  main: string;
  document: Document;
  body: Element;
  /** Merged parts by relationship kind: name and DOM (found in the base or created). */
  parts: Map<string, { name: string; document: Document }>;
  /** The largest bookmark and drawing object ids used so far. */
  maxBookmarkId: number;
  maxDocPrId: number;
  bookmarkNames: Set<string>;
  evenAndOddHeaders: boolean;
}

/** One input being appended, with its id maps. */
interface Source {
  editor: PackageEditor;
  main: string;
  /** 1-based number of the input, used in renamed style ids (Heading1-2). */
  number: number;
  styles: Map<string, string>;
  numbers: Map<string, string>;
  footnotes: Map<string, string>;
  endnotes: Map<string, string>;
  comments: Map<string, string>;
  bookmarkNames: Map<string, string>;
  bookmarkIdOffset: number;
  docPrIdOffset: number;
  /** The paragraph style its unstyled paragraphs take, when it is not the base's default. */
  defaultParagraphStyle: string | undefined;
  /** Copied parts: source part name (lower case) → base part name. */
  copiedParts: Map<string, string>;
  /** Moved relationships: `${sourcePart}\n${targetPart}\n${id}` → new id. */
  movedRelationships: Map<string, string>;
}

export async function mergeDocx(inputs: readonly MergeDocxInput[], options: MergeDocxOptions): Promise<MergedDocx> {
  if (inputs.length < MIN_MERGE_DOCUMENTS || inputs.length > MAX_MERGE_DOCUMENTS) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `A merge takes ${MIN_MERGE_DOCUMENTS} to ${MAX_MERGE_DOCUMENTS} documents; ${inputs.length} were sent.`,
      { details: [{ field: 'inputs', issue: `between ${MIN_MERGE_DOCUMENTS} and ${MAX_MERGE_DOCUMENTS} items` }] },
    );
  }
  const warnings: string[] = [];
  const base = naming(inputs, 0, () => openBase(inputs[0] as MergeDocxInput, options.limits));
  for (let index = 1; index < inputs.length; index++) {
    naming(inputs, index, () => appendDocument(base, inputs[index] as MergeDocxInput, index, options, warnings));
  }
  markChanged(base.document);
  return { docx: await base.editor.finish(), warnings };
}

/** Runs `work` on input `index`, naming that input in any INVALID_DOCUMENT error (a 422). */
function naming<T>(inputs: readonly MergeDocxInput[], index: number, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'INVALID_DOCUMENT') {
      const input = inputs[index];
      const label = `Document ${index + 1}${input?.name ? ` (${input.name})` : ''}`;
      throw new ApiError('INVALID_DOCUMENT', `${label}: ${error.message}`, {
        details: [{ field: `inputs[${index}]`, issue: error.message }],
        cause: error,
      });
    }
    throw error;
  }
}

function openBase(input: MergeDocxInput, limits: PackageLimits): Base {
  const editor = openPackageEditor(input.bytes, limits);
  const stories = storyParts(editor.opc);
  const document = editor.xml(stories.main);
  const body = document?.documentElement ? wChild(document.documentElement, 'body') : undefined;
  if (!document || !body) throw new ApiError('INVALID_DOCUMENT', `The main part ${stories.main} has no w:body.`);
  const base: Base = {
    editor,
    main: stories.main,
    document,
    body,
    parts: new Map(),
    maxBookmarkId: -1,
    maxDocPrId: 0,
    bookmarkNames: new Set(),
    evenAndOddHeaders: false,
  };
  for (const kind of [STYLES, NUMBERING, FOOTNOTES, ENDNOTES, COMMENTS, FONT_TABLE]) {
    const name = partOf(editor, stories.main, kind.kind);
    const part = name ? editor.xml(name) : undefined;
    if (name && part?.documentElement) base.parts.set(kind.kind, { name, document: part });
  }
  const ids = idMaxima(editor, stories.main, [
    ...stories.others,
    ...(base.parts.has('comments') ? [base.parts.get('comments')?.name as string] : []),
  ]);
  base.maxBookmarkId = ids.bookmark;
  base.maxDocPrId = ids.docPr;
  for (const name of ids.bookmarkNames) base.bookmarkNames.add(name);
  const settings = partOf(editor, stories.main, 'settings');
  const settingsRoot = settings ? editor.xml(settings)?.documentElement : undefined;
  base.evenAndOddHeaders = settingsRoot ? isOn(wChild(settingsRoot, 'evenAndOddHeaders')) : false;
  return base;
}

/** The part a main document relates to by relationship kind (styles, numbering…), if any. */
function partOf(editor: PackageEditor, main: string, kind: string): string | undefined {
  const relationship = editor.opc
    .relationships(main)
    .find((item) => !item.external && relationshipKind(item) === kind && editor.opc.hasPart(item.target));
  return relationship?.target;
}

function relationshipOf(editor: PackageEditor, main: string, kind: string): Relationship | undefined {
  return editor.opc
    .relationships(main)
    .find((item) => !item.external && relationshipKind(item) === kind && editor.opc.hasPart(item.target));
}

/** The largest bookmark id (§17.13.6.2) and drawing object id (§20.4.2.5) in the given story parts. */
function idMaxima(editor: PackageEditor, main: string, others: string[]) {
  let maxBookmark = -1;
  let docPr = 0;
  const bookmarkNames: string[] = [];
  for (const part of [main, ...others]) {
    const root = editor.xml(part)?.documentElement;
    if (!root) continue;
    for (const element of descendants(root, () => true)) {
      const bookmark = element.localName === 'bookmarkStart' || element.localName === 'bookmarkEnd';
      if (bookmark && isW(element, element.localName as string)) {
        maxBookmark = Math.max(maxBookmark, integer(wAttr(element, 'id')));
        const name = wAttr(element, 'name');
        if (name) bookmarkNames.push(name);
      } else if (element.localName === 'docPr' && element.namespaceURI === WP_NS) {
        docPr = Math.max(docPr, integer(element.getAttribute('id')));
      }
    }
  }
  return { bookmark: maxBookmark, docPr, bookmarkNames };
}

function appendDocument(
  base: Base,
  input: MergeDocxInput,
  index: number,
  options: MergeDocxOptions,
  warnings: string[],
): void {
  const editor = openPackageEditor(input.bytes, options.limits);
  const stories = storyParts(editor.opc);
  const document = editor.xml(stories.main);
  const body = document?.documentElement ? wChild(document.documentElement, 'body') : undefined;
  if (!document || !body) throw new ApiError('INVALID_DOCUMENT', `The main part ${stories.main} has no w:body.`);
  const label = `Document ${index + 1}${input.name ? ` (${input.name})` : ''}`;
  const source: Source = {
    editor,
    main: stories.main,
    number: index + 1,
    styles: new Map(),
    numbers: new Map(),
    footnotes: new Map(),
    endnotes: new Map(),
    comments: new Map(),
    bookmarkNames: new Map(),
    bookmarkIdOffset: base.maxBookmarkId + 1,
    docPrIdOffset: base.maxDocPrId,
    defaultParagraphStyle: undefined,
    copiedParts: new Map(),
    movedRelationships: new Map(),
  };
  const commentsPart = partOf(editor, stories.main, 'comments');
  const ids = idMaxima(editor, stories.main, [...stories.others, ...(commentsPart ? [commentsPart] : [])]);
  base.maxBookmarkId = source.bookmarkIdOffset + ids.bookmark;
  base.maxDocPrId = source.docPrIdOffset + ids.docPr;
  for (const name of ids.bookmarkNames) {
    if (source.bookmarkNames.has(name)) continue;
    // Bookmark names are unique in a document (§17.13.6.2): a clashing one gets the input's number,
    // and internal hyperlinks to it (w:hyperlink w:anchor) follow.
    let renamed = name;
    for (let suffix = source.number; base.bookmarkNames.has(renamed); suffix++) renamed = `${name}_${suffix}`;
    source.bookmarkNames.set(name, renamed);
    base.bookmarkNames.add(renamed);
  }

  // Decisions first (which ids change), then the moves that rewrite references with them.
  const styleMoves = planStyles(base, source, label, warnings);
  mergeNumbering(base, source);
  for (const move of styleMoves) move();
  mergeNotes(base, source, FOOTNOTES, 'footnote', source.footnotes);
  mergeNotes(base, source, ENDNOTES, 'endnote', source.endnotes);
  mergeNotes(base, source, COMMENTS, 'comment', source.comments);
  mergeFonts(base, source, label, warnings);
  appendBody(base, source, body);
}

// ---- Styles (§17.7) -----------------------------------------------------------------------------

/**
 * Styles the base lacks are added; one whose id the base uses for a different definition is
 * renamed (Heading1 → Heading1-2, its w:name made unique too), so the moved content keeps its own
 * look and the base's keeps the base's; identical definitions are shared. Returns the additions,
 * run once the numbering ids are known (a style's w:numPr names a w:num, §17.9.22).
 */
function planStyles(base: Base, source: Source, label: string, warnings: string[]): (() => void)[] {
  const sourcePart = partOf(source.editor, source.main, 'styles');
  const sourceRoot = sourcePart ? source.editor.xml(sourcePart)?.documentElement : undefined;
  if (!sourcePart || !sourceRoot) return [];
  const target = basePart(base, source, STYLES);
  const targetRoot = target.document.documentElement as Element;
  const baseStyles = new Map<string, Element>();
  const baseNames = new Set<string>();
  let baseDefaultParagraph: string | undefined;
  for (const style of wChildren(targetRoot, 'style')) {
    const id = wAttr(style, 'styleId');
    if (id !== undefined) baseStyles.set(id, style);
    const name = wAttr(wChild(style, 'name'), 'val');
    if (name !== undefined) baseNames.add(name.toLowerCase());
    if (wAttr(style, 'type') === 'paragraph' && isOnValue(wAttr(style, 'default'))) baseDefaultParagraph = id;
  }
  const baseDefaults = wChild(targetRoot, 'docDefaults');
  const sourceDefaults = wChild(sourceRoot, 'docDefaults');
  // One w:docDefaults per package (§17.7.5), the base's. When the input's differ, its own defaults
  // are written into its root paragraph styles (those with no w:basedOn), and its styles are
  // never shared with the base's (the same markup over other defaults is another look).
  const defaultsDiffer =
    sourceDefaults !== undefined && (!baseDefaults || canonical(baseDefaults) !== canonical(sourceDefaults));
  if (defaultsDiffer && wChildren(sourceRoot, 'style').length === 0) {
    warnings.push(
      `${label}: its document defaults (w:docDefaults) differ from the first document's and it has no styles to carry them; the merged package has one set (ECMA-376 §17.7.5), the first's, so its text may look different.`,
    );
  }

  const added: Element[] = [];
  let sourceDefaultParagraph: string | undefined;
  for (const style of wChildren(sourceRoot, 'style')) {
    const id = wAttr(style, 'styleId');
    if (id === undefined) continue;
    if (wAttr(style, 'type') === 'paragraph' && isOnValue(wAttr(style, 'default'))) sourceDefaultParagraph = id;
    const existing = baseStyles.get(id);
    if (existing && !defaultsDiffer && canonical(existing) === canonical(style)) continue; // shared
    if (existing) {
      let renamed = `${id}-${source.number}`;
      for (let suffix = 2; baseStyles.has(renamed); suffix++) renamed = `${id}-${source.number}-${suffix}`;
      source.styles.set(id, renamed);
      baseStyles.set(renamed, style);
    }
    added.push(style);
  }
  if (sourceDefaultParagraph !== undefined) {
    const mapped = source.styles.get(sourceDefaultParagraph) ?? sourceDefaultParagraph;
    if (mapped !== baseDefaultParagraph) source.defaultParagraphStyle = mapped;
  }

  return added.map((style) => () => {
    const id = wAttr(style, 'styleId') as string;
    const copy = target.document.importNode(style, true) as Element;
    const renamed = source.styles.get(id);
    if (renamed !== undefined) setWAttr(copy, 'styleId', renamed);
    // One default style per type (§17.7.4.17 default): the base's stays the default.
    if (copy.hasAttributeNS(copy.namespaceURI, 'default')) copy.removeAttributeNS(copy.namespaceURI, 'default');
    const name = wChild(copy, 'name');
    const display = wAttr(name, 'val');
    if (name && display !== undefined && baseNames.has(display.toLowerCase())) {
      let unique = `${display} (${source.number})`;
      for (let suffix = 2; baseNames.has(unique.toLowerCase()); suffix++)
        unique = `${display} (${source.number}.${suffix})`;
      setWAttr(name, 'val', unique);
      baseNames.add(unique.toLowerCase());
    } else if (display !== undefined) baseNames.add(display.toLowerCase());
    if (defaultsDiffer && sourceDefaults && wAttr(copy, 'type') === 'paragraph' && !wChild(copy, 'basedOn')) {
      foldDefaults(copy, sourceDefaults);
    }
    rewriteReferences(copy, source);
    targetRoot.appendChild(copy);
    markChanged(target.document);
  });
}

/** CT_Style's children in schema order (§17.7.4.17). */
const STYLE_ORDER = [
  'name',
  'aliases',
  'basedOn',
  'next',
  'link',
  'autoRedefine',
  'hidden',
  'uiPriority',
  'semiHidden',
  'unhideWhenUsed',
  'qFormat',
  'locked',
  'personal',
  'personalCompose',
  'personalReply',
  'rsid',
  'pPr',
  'rPr',
  'tblPr',
  'trPr',
  'tcPr',
  'tblStylePr',
];
/** CT_PPr's children in schema order (§17.3.1.26). */
const PPR_ORDER = [
  'pStyle',
  'keepNext',
  'keepLines',
  'pageBreakBefore',
  'framePr',
  'widowControl',
  'numPr',
  'suppressLineNumbers',
  'pBdr',
  'shd',
  'tabs',
  'suppressAutoHyphens',
  'kinsoku',
  'wordWrap',
  'overflowPunct',
  'topLinePunct',
  'autoSpaceDE',
  'autoSpaceDN',
  'bidi',
  'adjustRightInd',
  'snapToGrid',
  'spacing',
  'ind',
  'contextualSpacing',
  'mirrorIndents',
  'suppressOverlap',
  'jc',
  'textDirection',
  'textAlignment',
  'textboxTightWrap',
  'outlineLvl',
  'divId',
  'cnfStyle',
  'rPr',
  'sectPr',
  'pPrChange',
];
/** CT_RPr's children in schema order (§17.3.2.28). */
const RPR_ORDER = [
  'rStyle',
  'rFonts',
  'b',
  'bCs',
  'i',
  'iCs',
  'caps',
  'smallCaps',
  'strike',
  'dstrike',
  'outline',
  'shadow',
  'emboss',
  'imprint',
  'noProof',
  'snapToGrid',
  'vanish',
  'webHidden',
  'color',
  'spacing',
  'w',
  'kern',
  'position',
  'sz',
  'szCs',
  'highlight',
  'u',
  'effect',
  'bdr',
  'shd',
  'fitText',
  'vertAlign',
  'rtl',
  'cs',
  'em',
  'lang',
  'eastAsianLayout',
  'specVanish',
  'oMath',
  'rPrChange',
];

/**
 * Writes the input's document defaults (w:rPrDefault, w:pPrDefault, §17.7.5) into a root
 * paragraph style, each property the style does not set itself, so the style looks over the
 * base's defaults as it did over its own.
 */
function foldDefaults(style: Element, defaults: Element): void {
  const document = ownerDocument(style);
  for (const [defaultLocal, local, order] of [
    ['pPrDefault', 'pPr', PPR_ORDER],
    ['rPrDefault', 'rPr', RPR_ORDER],
  ] as const) {
    const given = wChild(wChild(defaults, defaultLocal), local);
    if (!given) continue;
    let properties = wChild(style, local);
    if (!properties) properties = insertInOrder(style, createW(document, local), STYLE_ORDER);
    for (const property of elementChildren(given)) {
      if (wChild(properties, property.localName ?? '') || !order.includes(property.localName ?? '')) continue;
      insertInOrder(properties, document.importNode(property, true) as Element, order);
    }
  }
}

/** A style's definition for comparison: its markup without revision-save ids (§17.7.4.15 rsid). */
function canonical(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const rsid of wDescendants(copy, 'rsid')) removeNode(rsid);
  return elementXml(copy).replace(/\s+/g, ' ');
}

// ---- Numbering (§17.9) --------------------------------------------------------------------------

/**
 * Every w:abstractNum and w:num of the input added under new ids, so its lists are lists of their
 * own and restart where they did: a list of document 2 never continues one of document 1 (the
 * w:num → w:abstractNum pairing is what makes paragraphs one list, §17.9.15, §17.9.16). A w:nsid
 * the base already uses is replaced, since Word also joins lists by it (§17.9.14).
 */
function mergeNumbering(base: Base, source: Source): void {
  const sourcePart = partOf(source.editor, source.main, 'numbering');
  const sourceRoot = sourcePart ? source.editor.xml(sourcePart)?.documentElement : undefined;
  if (!sourcePart || !sourceRoot) return;
  const target = basePart(base, source, NUMBERING);
  const root = target.document.documentElement as Element;
  const max = (local: string, attribute: string) =>
    Math.max(0, ...wChildren(root, local).map((element) => integer(wAttr(element, attribute))));
  let pictureId = max('numPicBullet', 'numPicBulletId');
  let abstractId = max('abstractNum', 'abstractNumId');
  let numId = max('num', 'numId');
  const nsids = new Set(wChildren(root, 'abstractNum').map((element) => wAttr(wChild(element, 'nsid'), 'val')));
  const pictures = new Map<string, string>();
  const abstracts = new Map<string, string>();
  const firstAbstract = wChild(root, 'abstractNum') ?? wChild(root, 'num') ?? wChild(root, 'numIdMacAtCleanup');
  const firstNum = wChild(root, 'num') ?? wChild(root, 'numIdMacAtCleanup');
  const cleanup = wChild(root, 'numIdMacAtCleanup');
  const insert = (element: Element, before: Element | undefined) => {
    if (before) root.insertBefore(element, before);
    else root.appendChild(element);
  };

  for (const picture of wChildren(sourceRoot, 'numPicBullet')) {
    const copy = imported(target.document, picture);
    const id = String(++pictureId);
    pictures.set(wAttr(picture, 'numPicBulletId') ?? '', id);
    setWAttr(copy, 'numPicBulletId', id);
    moveRelationships(base, source, picture, copy, sourcePart, target.name);
    insert(copy, firstAbstract);
  }
  for (const abstract of wChildren(sourceRoot, 'abstractNum')) {
    const copy = imported(target.document, abstract);
    const id = String(++abstractId);
    abstracts.set(wAttr(abstract, 'abstractNumId') ?? '', id);
    setWAttr(copy, 'abstractNumId', id);
    const nsid = wChild(copy, 'nsid');
    if (nsid) {
      let value = wAttr(nsid, 'val');
      while (value === undefined || nsids.has(value)) value = randomNsid();
      setWAttr(nsid, 'val', value);
      nsids.add(value);
    }
    for (const picture of wDescendants(copy, 'lvlPicBulletId')) {
      const mapped = pictures.get(wAttr(picture, 'val') ?? '');
      if (mapped !== undefined) setWAttr(picture, 'val', mapped);
    }
    for (const link of [...wChildren(copy, 'numStyleLink'), ...wChildren(copy, 'styleLink')]) {
      const mapped = source.styles.get(wAttr(link, 'val') ?? '');
      if (mapped !== undefined) setWAttr(link, 'val', mapped);
    }
    rewriteReferences(copy, source);
    insert(copy, firstNum);
  }
  for (const num of wChildren(sourceRoot, 'num')) {
    const copy = imported(target.document, num);
    const id = String(++numId);
    source.numbers.set(wAttr(num, 'numId') ?? '', id);
    setWAttr(copy, 'numId', id);
    const abstract = wChild(copy, 'abstractNumId');
    const mapped = abstracts.get(wAttr(abstract, 'val') ?? '');
    if (abstract && mapped !== undefined) setWAttr(abstract, 'val', mapped);
    insert(copy, cleanup);
  }
  markChanged(target.document);
}

function randomNsid(): string {
  return crypto.getRandomValues(new Uint32Array(1))[0]?.toString(16).toUpperCase().padStart(8, '0') ?? '00000000';
}

// ---- Notes and comments (§17.11, §17.13.4) ------------------------------------------------------

/**
 * The input's footnotes, endnotes or comments added to the base's part under new ids. Separator
 * notes (w:type separator, continuationSeparator, continuationNotice: ids -1 and 0 as Word writes
 * them) are kept once, the base's; they draw the line above the notes (§17.11.23).
 */
function mergeNotes(base: Base, source: Source, kind: MergedKind, local: string, ids: Map<string, string>): void {
  const sourcePart = partOf(source.editor, source.main, kind.kind);
  const sourceRoot = sourcePart ? source.editor.xml(sourcePart)?.documentElement : undefined;
  if (!sourcePart || !sourceRoot) return;
  const hadPart = base.parts.has(kind.kind);
  const target = basePart(base, source, kind);
  const root = target.document.documentElement as Element;
  let next = Math.max(0, ...wChildren(root, local).map((element) => integer(wAttr(element, 'id')))) + 1;
  for (const item of wChildren(sourceRoot, local)) {
    const special = SPECIAL_NOTE_TYPES.has(wAttr(item, 'type') ?? '');
    if (special && hadPart) continue;
    if (!special) ids.set(wAttr(item, 'id') ?? '', String(next++));
  }
  for (const item of wChildren(sourceRoot, local)) {
    const special = SPECIAL_NOTE_TYPES.has(wAttr(item, 'type') ?? '');
    if (special && hadPart) continue;
    const copy = imported(target.document, item);
    if (!special) setWAttr(copy, 'id', ids.get(wAttr(item, 'id') ?? '') as string);
    rewriteReferences(copy, source);
    moveRelationships(base, source, item, copy, sourcePart, target.name);
    root.appendChild(copy);
  }
  markChanged(target.document);
}

// ---- Fonts (§17.8) ------------------------------------------------------------------------------

/**
 * Font table entries the base lacks are added (matched by w:name, §17.8.3.9); embedded fonts
 * (w:embedRegular… r:id, §17.8.3.3) come with them, their obfuscated parts copied: the key that
 * de-obfuscates them is the entry's w:fontKey, not the part name (§17.8.1), so a new name is safe.
 */
function mergeFonts(base: Base, source: Source, label: string, warnings: string[]): void {
  const sourcePart = partOf(source.editor, source.main, 'fontTable');
  const sourceRoot = sourcePart ? source.editor.xml(sourcePart)?.documentElement : undefined;
  if (!sourcePart || !sourceRoot) return;
  const target = basePart(base, source, FONT_TABLE);
  const root = target.document.documentElement as Element;
  const embeds = (font: Element) => elementChildren(font).some((child) => child.localName?.startsWith('embed'));
  const baseFonts = new Map(wChildren(root, 'font').map((font) => [wAttr(font, 'name')?.toLowerCase(), font]));
  const names = new Set(baseFonts.keys());
  for (const font of wChildren(sourceRoot, 'font')) {
    const name = wAttr(font, 'name')?.toLowerCase();
    if (name === undefined) continue;
    const existing = baseFonts.get(name);
    if (existing && embeds(font) && !embeds(existing)) {
      // One entry per font name (§17.8.3.9): the base's, which embeds nothing, stays.
      warnings.push(
        `${label}: the font ${wAttr(font, 'name')} it embeds is left out; the first document names the same font without embedding it, so it is drawn with the font installed where the file is opened.`,
      );
    }
    if (names.has(name)) continue;
    names.add(name);
    const copy = imported(target.document, font);
    moveRelationships(base, source, font, copy, sourcePart, target.name);
    root.appendChild(copy);
    markChanged(target.document);
  }
}

// ---- The body and its sections (§17.6) ----------------------------------------------------------

function appendBody(base: Base, source: Source, body: Element): void {
  const blocks = elementChildren(body);
  const last = blocks[blocks.length - 1];
  const finalSectPr = last && isW(last, 'sectPr') ? (blocks.pop() as Element) : undefined;

  // The section that closed the document so far now closes its content from a paragraph mark
  // (§17.6.18: a w:sectPr in a paragraph's w:pPr ends a section at that paragraph).
  const baseBlocks = elementChildren(base.body);
  const baseLast = baseBlocks[baseBlocks.length - 1];
  let closing: Element;
  if (baseLast && isW(baseLast, 'sectPr')) {
    closing = baseLast;
    removeNode(baseLast);
  } else closing = createW(base.document, 'sectPr');
  const previous = elementChildren(base.body).at(-1);
  let holder: Element;
  if (previous && isW(previous, 'p') && !wChild(wChild(previous, 'pPr'), 'sectPr')) {
    holder = previous;
  } else {
    holder = createW(base.document, 'p');
    base.body.appendChild(holder);
  }
  let pPr = wChild(holder, 'pPr');
  if (!pPr) {
    pPr = createW(base.document, 'pPr');
    holder.insertBefore(pPr, holder.firstChild);
  }
  const change = wChild(pPr, 'pPrChange');
  if (change) pPr.insertBefore(closing, change);
  else pPr.appendChild(closing);

  // The input's first section: a new page, page numbers from 1, and its own (or empty) headers.
  // The body's last w:sectPr (or, when it has none, an empty one: page defaults, §17.6.17) closes
  // the input's last section; its first section closes at the first paragraph-level w:sectPr.
  const closingSectPr = finalSectPr ?? createW(ownerDocument(body), 'sectPr');
  const firstSectPr =
    blocks.flatMap((block) => (isW(block, 'p') ? wChildren(wChild(block, 'pPr') ?? block, 'sectPr') : []))[0] ??
    closingSectPr;
  startsNewDocument(base, firstSectPr);

  for (const block of blocks) {
    rewriteReferences(block, source);
    moveRelationships(base, source, block, block, source.main, base.main);
    base.body.appendChild(base.document.importNode(block, true));
  }
  rewriteReferences(closingSectPr, source);
  moveRelationships(base, source, closingSectPr, closingSectPr, source.main, base.main);
  base.body.appendChild(base.document.importNode(closingSectPr, true));
}

function startsNewDocument(base: Base, sectPr: Element): void {
  const document = ownerDocument(sectPr);
  // §17.6.22: how this section starts; odd/even page starts are kept, others become a new page.
  const type = wChild(sectPr, 'type');
  const value = wAttr(type, 'val');
  if (value !== 'oddPage' && value !== 'evenPage') {
    const element = type ?? insertInOrder(sectPr, createW(document, 'type'), SECT_PR_ORDER);
    setWAttr(element, 'val', 'nextPage');
  }
  // §17.6.12: on its own the document numbered its pages from 1 (or its own start).
  const pageNumbers =
    wChild(sectPr, 'pgNumType') ?? insertInOrder(sectPr, createW(document, 'pgNumType'), SECT_PR_ORDER);
  if (wAttr(pageNumbers, 'start') === undefined) setWAttr(pageNumbers, 'start', '1');
  // §17.10.5: a section with no header of a kind takes the previous section's, which would be the
  // previous document's; an empty header stops that, as the document had none on its own.
  const kinds = [
    'default',
    ...(wChild(sectPr, 'titlePg') ? ['first'] : []),
    ...(base.evenAndOddHeaders ? ['even'] : []),
  ];
  for (const [local, root] of [
    ['headerReference', 'hdr'],
    ['footerReference', 'ftr'],
  ] as const) {
    const present = new Set(wChildren(sectPr, local).map((reference) => wAttr(reference, 'type') ?? 'default'));
    for (const kind of kinds) {
      if (present.has(kind)) continue;
      const part = base.editor.addXmlPart(
        `word/${root === 'hdr' ? 'header' : 'footer'}-empty.xml`,
        new TextEncoder().encode(
          `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:${root} xmlns:w="${base.document.documentElement?.namespaceURI ?? ''}"><w:p/></w:${root}>`,
        ),
      );
      base.editor.setOverrideContentType(part.name, `${WORDML}.${root === 'hdr' ? 'header' : 'footer'}+xml`);
      const id = base.editor.addRelationship(
        base.main,
        `${OFFICE_RELATIONSHIPS}/${root === 'hdr' ? 'header' : 'footer'}`,
        relativeTarget(base.main, part.name),
      );
      // Written with the base's id already: moveRelationships leaves it alone.
      const reference = createW(document, local);
      setWAttr(reference, 'type', kind);
      reference.setAttributeNS(R_NS, 'r:id', id);
      referencesInPlace.add(reference);
      insertInOrder(sectPr, reference, SECT_PR_ORDER);
    }
  }
}

/** Inserts `element` before the first child that comes after it in `order`; returns it. */
/** Header/footer references the merge wrote with a base relationship id already. */
const referencesInPlace = new WeakSet<Element>();

function insertInOrder(parent: Element, element: Element, order: readonly string[]): Element {
  const rank = order.indexOf(element.localName ?? '');
  const after = elementChildren(parent).find((child) => order.indexOf(child.localName ?? '') > rank);
  if (after) parent.insertBefore(element, after);
  else parent.appendChild(element);
  return element;
}

// ---- References in moved content ----------------------------------------------------------------

/**
 * Rewrites, in `root` and below, every id the merge changed: style references (§17.7.4: pStyle,
 * rStyle, tblStyle, basedOn, next, link), list references (w:numId, §17.9.18), note and comment
 * references, bookmark ids and names (§17.13.6), internal hyperlink anchors (§17.16.22) and
 * drawing object ids (wp:docPr id, §20.4.2.5, unique in the document). Unstyled paragraphs get
 * the input's default paragraph style when it is not the base's (§17.7.4.17).
 */
function rewriteReferences(root: Element, source: Source): void {
  const map = (element: Element, attribute: string, ids: Map<string, string>) => {
    const mapped = ids.get(wAttr(element, attribute) ?? '');
    if (mapped !== undefined) setWAttr(element, attribute, mapped);
  };
  for (const element of [root, ...descendants(root, () => true)]) {
    if (element.localName === 'docPr' && element.namespaceURI === WP_NS) {
      const id = element.getAttribute('id');
      if (id) element.setAttribute('id', String(integer(id) + source.docPrIdOffset));
      continue;
    }
    if (!isW(element, element.localName ?? '')) continue;
    switch (element.localName) {
      case 'pStyle':
      case 'rStyle':
      case 'tblStyle':
      case 'basedOn':
      case 'next':
      case 'link':
        map(element, 'val', source.styles);
        break;
      case 'numId':
        map(element, 'val', source.numbers);
        break;
      case 'footnoteReference':
        map(element, 'id', source.footnotes);
        break;
      case 'endnoteReference':
        map(element, 'id', source.endnotes);
        break;
      case 'commentRangeStart':
      case 'commentRangeEnd':
      case 'commentReference':
        map(element, 'id', source.comments);
        break;
      case 'bookmarkStart':
      case 'bookmarkEnd': {
        const id = wAttr(element, 'id');
        if (id !== undefined) setWAttr(element, 'id', String(integer(id) + source.bookmarkIdOffset));
        map(element, 'name', source.bookmarkNames);
        break;
      }
      case 'hyperlink':
        map(element, 'anchor', source.bookmarkNames);
        break;
      case 'p':
        if (source.defaultParagraphStyle !== undefined && !wChild(wChild(element, 'pPr'), 'pStyle')) {
          const document = ownerDocument(element);
          let pPr = wChild(element, 'pPr');
          if (!pPr) {
            pPr = createW(document, 'pPr');
            element.insertBefore(pPr, element.firstChild);
          }
          const style = createW(document, 'pStyle');
          setWAttr(style, 'val', source.defaultParagraphStyle);
          pPr.insertBefore(style, pPr.firstChild);
        }
        break;
    }
  }
}

/**
 * Gives every relationship id that `original` (in the input part `sourcePart`) uses a relationship
 * of `targetPart` in the base, written into `copy` (the same element or its copy): r:id, r:embed,
 * r:link, r:href, r:pict… (any attribute in the relationships namespace, Part 1 §22.8.2.1) and
 * VML's o:relid. Internal targets are copied into the base first (copyPart).
 */
function moveRelationships(
  base: Base,
  source: Source,
  original: Element,
  copy: Element,
  sourcePart: string,
  targetPart: string,
): void {
  const relationships = new Map(source.editor.opc.relationships(sourcePart).map((item) => [item.id, item]));
  const originals = [original, ...descendants(original, () => true)];
  const copies = original === copy ? originals : [copy, ...descendants(copy, () => true)];
  originals.forEach((element, index) => {
    const target = copies[index] as Element;
    if (referencesInPlace.has(element)) return;
    const attributes = element.attributes;
    for (let at = 0; at < attributes.length; at++) {
      const attribute = attributes.item(at);
      if (!attribute) continue;
      const namespace = attribute.namespaceURI;
      const isRelationship =
        namespace === R_NS || namespace === R_STRICT_NS || (namespace === O_NS && attribute.localName === 'relid');
      if (!isRelationship) continue;
      const relationship = relationships.get(attribute.value);
      if (!relationship) continue;
      const key = `${sourcePart}\n${targetPart}\n${relationship.id}`;
      let id = source.movedRelationships.get(key);
      if (id === undefined) {
        id = relationship.external
          ? base.editor.addRelationship(targetPart, relationship.type, relationship.target, true)
          : base.editor.addRelationship(
              targetPart,
              relationship.type,
              relativeTarget(targetPart, copyPart(base, source, relationship)),
            );
        source.movedRelationships.set(key, id);
      }
      target.setAttributeNS(namespace as string, attribute.name, id);
    }
  });
}

/**
 * Copies an input part the moved content relates to, under a new name if the base uses its name,
 * with its content type. Headers and footers are rewritten (their styles, lists and relationships
 * follow the merge); other parts (media, charts, embedded objects, fonts) are copied as they are,
 * with their own relationships (same ids, targets copied too).
 */
function copyPart(base: Base, source: Source, relationship: Relationship): string {
  const name = relationship.target;
  const cached = source.copiedParts.get(name.toLowerCase());
  if (cached !== undefined) return cached;
  const opc = source.editor.opc;
  const contentType = opc.contentType(name);
  const kind = relationshipKind(relationship);
  if (kind === 'header' || kind === 'footer') {
    const document = source.editor.xml(name);
    const root = document?.documentElement;
    if (!document || !root) throw new ApiError('INVALID_DOCUMENT', `The ${kind} part ${name} is empty.`);
    rewriteReferences(root, source);
    const added = base.editor.addXmlPart(name, serializePartXml(document));
    source.copiedParts.set(name.toLowerCase(), added.name);
    declareContentType(base, added.name, contentType ?? `${WORDML}.${kind}+xml`);
    const addedRoot = added.document.documentElement as Element;
    moveRelationships(base, source, addedRoot, addedRoot, name, added.name);
    return added.name;
  }
  const bytes = opc.readPart(name);
  if (bytes === undefined) {
    // A relationship to a missing part: it stays as dangling as it was (the reader warns about it).
    source.copiedParts.set(name.toLowerCase(), name);
    return name;
  }
  const added = base.editor.addPart(name, bytes);
  source.copiedParts.set(name.toLowerCase(), added);
  if (contentType) declareContentType(base, added, contentType);
  const own = opc.relationships(name);
  if (own.length > 0) {
    const items = own.map((item) => {
      const target = item.external ? item.target : relativeTarget(added, copyPart(base, source, item));
      const mode = item.external ? ' TargetMode="External"' : '';
      return `<Relationship Id="${escapeAttribute(item.id)}" Type="${escapeAttribute(item.type)}" Target="${escapeAttribute(target)}"${mode}/>`;
    });
    base.editor.addXmlPart(
      relationshipsPartName(added),
      new TextEncoder().encode(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.join('')}</Relationships>`,
      ),
    );
  }
  return added;
}

/** The part's content type in the base: the extension's Default when it matches, else an Override (Part 2 §10.1.2). */
function declareContentType(base: Base, partName: string, contentType: string): void {
  const root = base.editor.xml(CONTENT_TYPES_PART)?.documentElement;
  if (!root) throw new ApiError('INVALID_DOCUMENT', 'The package has no [Content_Types].xml part.');
  const dot = partName.lastIndexOf('.');
  const extension = dot === -1 ? '' : partName.slice(dot + 1).toLowerCase();
  const declared = elementChildren(root).find(
    (element) => element.localName === 'Default' && element.getAttribute('Extension')?.toLowerCase() === extension,
  );
  if (declared?.getAttribute('ContentType') === contentType) return;
  if (!declared && extension !== '') base.editor.ensureDefaultContentType(extension, contentType);
  else base.editor.setOverrideContentType(partName, contentType);
}

/**
 * The base's part of a merged kind (styles, numbering, notes, comments, font table); created
 * empty, with the input's root element and namespace declarations, when the base has none.
 */
function basePart(base: Base, source: Source, kind: MergedKind): { name: string; document: Document } {
  const existing = base.parts.get(kind.kind);
  if (existing) return existing;
  const relationship = relationshipOf(source.editor, source.main, kind.kind);
  const sourceRoot = relationship ? source.editor.xml(relationship.target)?.documentElement : undefined;
  const empty = sourceRoot ? (sourceRoot.cloneNode(false) as Element) : undefined;
  const text = empty ? elementXml(empty) : `<w:${kind.root} xmlns:w="${base.document.documentElement?.namespaceURI}"/>`;
  const added = base.editor.addXmlPart(
    `word/${kind.file}`,
    new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${text}`),
  );
  base.editor.setOverrideContentType(added.name, kind.contentType);
  base.editor.addRelationship(
    base.main,
    relationship?.type ?? `${OFFICE_RELATIONSHIPS}/${kind.kind}`,
    relativeTarget(base.main, added.name),
  );
  base.parts.set(kind.kind, added);
  return added;
}

// ---- Small helpers ------------------------------------------------------------------------------

/** A relationship target for `target` written from `source`: relative when under its folder, else from the root (Part 2 §9.3.3). */
function relativeTarget(source: string, target: string): string {
  const folder = source.slice(0, source.lastIndexOf('/') + 1);
  return folder !== '' && target.startsWith(folder) ? target.slice(folder.length) : `/${target}`;
}

function imported(document: Document, element: Element): Element {
  return document.importNode(element, true) as Element;
}

function ownerDocument(element: Element): Document {
  const document = element.ownerDocument;
  if (!document) throw new Error('an element outside any document');
  return document;
}

function integer(value: string | null | undefined): number {
  const number = Number.parseInt(value ?? '', 10);
  return Number.isFinite(number) ? number : 0;
}

/** An on/off property (§17.17.4 ST_OnOff): present and not false/0/off. */
function isOn(element: Element | undefined): boolean {
  return element !== undefined && isOnValue(wAttr(element, 'val') ?? 'true');
}

function isOnValue(value: string | undefined): boolean {
  return value === 'true' || value === '1' || value === 'on';
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
