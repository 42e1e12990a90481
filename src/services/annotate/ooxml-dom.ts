/**
 * Parsing, walking and writing back the XML parts of a template with @xmldom/xmldom's DOM: parts
 * are edited in place and serialised again, so everything the editor does not touch (unknown
 * markup, extension lists, revision ids) survives as written.
 *
 * Safety: each part is first read by the project's own parser (src/engine/read/ooxml/xml-tree.ts parseXml,
 * with its DEFAULT_XML_LIMITS). It refuses any DOCTYPE (ECMA-376 Part 2, [M1.18]: DTDs shall not
 * be used, so entity-expansion bombs cannot happen) and bounds depth and element count. The depth
 * bound matters here: xmldom's serializer recurses once per level, so a 10,000-deep part would
 * overflow the stack when written back; it is refused before xmldom sees it.
 */
import { DOMParser, type Document, type Element, type Node, XMLSerializer } from '@xmldom/xmldom';
import { DEFAULT_XML_LIMITS, decodeXmlBytes, PartError, parseXml, type XmlParseOptions, xmlChars } from '../../engine';
import { ApiError } from '../../errors';

/** WordprocessingML, Transitional (§17) and Strict (ISO/IEC 29500 Strict) namespaces. */
export const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const W_STRICT_NS = 'http://purl.oclc.org/ooxml/wordprocessingml/main';
export const W14_NS = 'http://schemas.microsoft.com/office/word/2010/wordml';
export const WP_NS = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
export const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Namespaces a fragment from the picture helper may use without declaring them. */
export const FRAGMENT_NAMESPACES: Readonly<Record<string, string>> = {
  w: W_NS,
  w14: W14_NS,
  wp: WP_NS,
  r: R_NS,
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  pic: 'http://schemas.openxmlformats.org/drawingml/2006/picture',
  a14: 'http://schemas.microsoft.com/office/drawing/2010/main',
  asvg: 'http://schemas.microsoft.com/office/drawing/2016/SVG/main',
  mc: 'http://schemas.openxmlformats.org/markup-compatibility/2006',
  v: 'urn:schemas-microsoft-com:vml',
  o: 'urn:schemas-microsoft-com:office:office',
};

const ELEMENT_NODE = 1;
const utf8 = new TextEncoder();

export type { Document, Element, Node };

/**
 * Limits for a part to be edited: the reader's depth bound, and fewer elements than it allows,
 * since a DOM node costs several times what the reader's tree does (a million elements is a
 * document of a few thousand pages; templates are far smaller).
 */
export const EDIT_XML_LIMITS: XmlParseOptions = { ...DEFAULT_XML_LIMITS, maxElements: 1_000_000 };

/** An XML part larger than this is not edited (the DOM would not fit a Worker's memory). */
export const MAX_EDITED_PART_BYTES = 64 * 1024 * 1024;

/** The part parsed for editing; throws ApiError INVALID_DOCUMENT naming the part. */
export function parsePartXml(bytes: Uint8Array, partName: string): Document {
  if (bytes.length > MAX_EDITED_PART_BYTES) {
    throw new ApiError(
      'INVALID_DOCUMENT',
      `The part ${partName} is ${Math.round(bytes.length / (1024 * 1024))} MiB of XML, more than the ${MAX_EDITED_PART_BYTES / (1024 * 1024)} MiB a template part may be.`,
    );
  }
  try {
    parseXml(bytes, partName, EDIT_XML_LIMITS);
  } catch (error) {
    if (error instanceof PartError) throw new ApiError('INVALID_DOCUMENT', error.message);
    throw error;
  }
  try {
    return new DOMParser().parseFromString(decodeXmlBytes(bytes), 'application/xml');
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/\s+/g, ' ').trim() : String(error);
    throw new ApiError('INVALID_DOCUMENT', `The part ${partName} is not well-formed XML (${detail}).`);
  }
}

/**
 * The part as UTF-8 bytes, its XML declaration kept. Every edited part is written here, so this is
 * where the request's text (values, table cells, signature names, data-bound values, names in
 * attributes) is made XML 1.0 characters (xmlChars): xmldom writes text and attribute values as
 * given, a U+0000 or U+FFFF included, and one of them would make the whole DOCX unreadable. What
 * was parsed is clean already (the reader refuses such characters), so only request text changes.
 */
export function serializePartXml(document: Document): Uint8Array {
  return utf8.encode(xmlChars(new XMLSerializer().serializeToString(document)));
}

export function isElement(node: Node | null | undefined): node is Element {
  return node !== null && node !== undefined && node.nodeType === ELEMENT_NODE;
}

/** Whether `node` is the WordprocessingML element `local` (Transitional or Strict). */
export function isW(node: Node | null | undefined, local: string): node is Element {
  return (
    isElement(node) && node.localName === local && (node.namespaceURI === W_NS || node.namespaceURI === W_STRICT_NS)
  );
}

export function elementChildren(element: Element): Element[] {
  const out: Element[] = [];
  for (let child = element.firstChild; child; child = child.nextSibling) if (isElement(child)) out.push(child);
  return out;
}

export function wChildren(element: Element, local: string): Element[] {
  return elementChildren(element).filter((child) => isW(child, local));
}

export function wChild(element: Element | undefined, local: string): Element | undefined {
  if (!element) return undefined;
  for (let child = element.firstChild; child; child = child.nextSibling) if (isW(child, local)) return child;
  return undefined;
}

/**
 * Descendants of `root` in document order matching `test`; `stopAt` elements are not entered.
 * Iterative, so depth costs no stack.
 */
export function descendants(
  root: Element,
  test: (element: Element) => boolean,
  stopAt?: (element: Element) => boolean,
): Element[] {
  const out: Element[] = [];
  const stack: Element[] = elementChildren(root).reverse();
  while (stack.length > 0) {
    const element = stack.pop() as Element;
    if (test(element)) out.push(element);
    if (stopAt?.(element)) continue;
    const children = elementChildren(element);
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Element);
  }
  return out;
}

export function wDescendants(root: Element, local: string): Element[] {
  return descendants(root, (element) => isW(element, local));
}

/** The nearest ancestor that is the WordprocessingML element `local`. */
export function wAncestor(node: Node, local: string): Element | undefined {
  for (let parent = node.parentNode; parent; parent = parent.parentNode) if (isW(parent, local)) return parent;
  return undefined;
}

/** A w: attribute (w:val, w:tag…), in the element's own namespace. */
export function wAttr(element: Element | undefined, local: string): string | undefined {
  if (!element) return undefined;
  return element.getAttributeNS(element.namespaceURI, local) ?? undefined;
}

/** A new WordprocessingML element, in the namespace and with the prefix the part uses. */
export function createW(document: Document, local: string): Element {
  const root = document.documentElement;
  const namespace =
    root && (root.namespaceURI === W_STRICT_NS || root.lookupNamespaceURI('w') === W_STRICT_NS) ? W_STRICT_NS : W_NS;
  const prefix = root?.lookupPrefix(namespace) ?? 'w';
  return document.createElementNS(namespace, `${prefix}:${local}`);
}

export function setWAttr(element: Element, local: string, value: string): void {
  const namespace = element.namespaceURI ?? W_NS;
  const prefix = element.prefix ?? 'w';
  element.setAttributeNS(namespace, `${prefix}:${local}`, value);
}

export function removeNode(node: Node): void {
  node.parentNode?.removeChild(node);
}

export function removeChildren(element: Element, keep?: (child: Node) => boolean): void {
  for (let child = element.firstChild; child; ) {
    const next = child.nextSibling;
    if (!keep?.(child)) element.removeChild(child);
    child = next;
  }
}

/**
 * Elements from a markup fragment (e.g. `<w:r>…</w:r><w:r>…</w:r>` or `<w:drawing>`), adopted into
 * `document`. The fragment may use the usual prefixes (FRAGMENT_NAMESPACES) undeclared.
 */
export function importFragment(document: Document, xml: string): Element[] {
  const declarations = Object.entries(FRAGMENT_NAMESPACES)
    .map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)
    .join(' ');
  const wrapper = new DOMParser().parseFromString(`<w:fragment ${declarations}>${xml}</w:fragment>`, 'application/xml');
  const root = wrapper.documentElement;
  if (!root) return [];
  return elementChildren(root).map((element) => document.importNode(element, true) as Element);
}

/** Serialises one element (to hand run properties to the picture helper). */
export function elementXml(element: Element): string {
  return new XMLSerializer().serializeToString(element);
}

/** The document a node belongs to (every node the editor touches has one). */
export function ownerOf(node: Node): Document {
  const document = node.ownerDocument;
  if (!document) throw new Error('a node outside any document');
  return document;
}
