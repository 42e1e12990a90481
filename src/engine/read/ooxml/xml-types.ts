/** The XML tree's types: what the parsers build (xml-tree.ts, xml-scanner.ts) and readers read. */

export interface XmlElement {
  /** Qualified name with the conventional prefix (see namespaces.ts): "w:p", "a:blip", "Relationship". */
  readonly name: string;
  /** Attribute values by qualified name ("w:val", "r:id", "xml:space"). */
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own character data (whitespace-only runs dropped unless xml:space="preserve"). */
  readonly text: string;
}

export interface XmlParseOptions {
  maxDepth: number;
  maxElements: number;
  /**
   * Elements left out of the tree with everything inside them, by the name as written. The reader
   * uses it to skip bulky markup it never looks at (proofing marks, revision-save ids).
   */
  ignoreElements?: ReadonlySet<string>;
  /** Attributes left out, by the name as written (w:rsidR and friends on every paragraph). */
  ignoreAttribute?: (name: string) => boolean;
  /** Children of one element handed over as each closes, instead of all kept (see ChildStream). */
  stream?: ChildStream;
  /**
   * Elements, by the name as written, whose subtrees repeat byte for byte (run and paragraph
   * properties): the scanner reads each distinct one once and puts the same element wherever its
   * bytes recur (see SharedSubtree). Readers never write into the tree, so sharing is invisible to
   * them, except that they may cache what they read from such an element by its identity.
   */
  shareElements?: ReadonlySet<string>;
}

/**
 * An element read once and placed again wherever the same bytes recur. The same bytes read the
 * same under the same prefix renames and the same inherited xml:space; elsewhere they are read
 * afresh.
 */
export interface SharedSubtree {
  readonly element: XmlElement;
  /** Elements in it, counted against maxElements at every use. */
  readonly elements: number;
  /** 1 for an element without children, else one more than its highest child. */
  readonly height: number;
  readonly renames: ReadonlyMap<string, string> | undefined;
  readonly preserve: boolean;
}

/**
 * Streaming of one element's children: when a child of the element at `path` (names from the root
 * down, e.g. ["w:document", "w:body"]) closes, `take` receives it whole; when `take` returns true
 * the tree lets go of it, so a large part never holds all of its subtrees at once (the main
 * document's body: one paragraph or table at a time). `restart` is called before the part is
 * parsed again from the start (the fast scanner refused it and saxes takes over), so whatever was
 * taken so far can be dropped.
 */
export interface ChildStream {
  path: readonly string[];
  take(element: XmlElement): boolean;
  restart(): void;
}

/**
 * A start tag as the builder takes it, made by the builder (startTag). The scanner makes one per
 * distinct tag and hands the same one over wherever the tag recurs, so what depends only on the
 * tag (whether the element is ignored or shared, its xml:space) is looked up once per tag rather
 * than once per element.
 */
export interface StartTag {
  /** The name as written. */
  readonly name: string;
  readonly attributes: Record<string, string>;
  /** Whether any attribute is an xmlns declaration (the parser knows cheaply). */
  readonly declaresNamespaces: boolean;
  /** In ignoreElements: left out of the tree with everything inside it. */
  readonly ignored: boolean;
  /** In shareElements. */
  readonly shareable: boolean;
  /** The xml:space attribute as written, if any (XML 1.0 §2.10). */
  readonly space: string | undefined;
}

/**
 * What the fast scanner (xml-scanner.ts) builds into: the tree builder of xml-tree.ts, named by
 * what the scanner calls on it.
 */
export interface TreeSink {
  readonly ignoreAttribute: ((name: string) => boolean) | undefined;
  /** Whether an element of this name is left out with everything inside it. */
  discards(writtenName: string): boolean;
  /** A DOCTYPE: refused. */
  doctype(): never;
  startTag(
    writtenName: string,
    attributes: Record<string, string>,
    declaresNamespaces: boolean,
    space: string | undefined,
  ): StartTag;
  open(tag: StartTag): void;
  close(): void;
  /** close(), for an element the scanner may share: the subtree to share, or undefined when it was left out. */
  closeShared(): SharedSubtree | undefined;
  /** Places `shared` as the next child of the open element; false, changing nothing, when the context reads its bytes differently. */
  adopt(shared: SharedSubtree): boolean;
  text(text: string): void;
}
