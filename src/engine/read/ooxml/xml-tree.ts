import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { MAX_XML_DEPTH, MAX_XML_ELEMENTS, tooComplex } from '../../../limits';
import { CONVENTIONAL_PREFIXES } from './namespaces';
import { PartError } from './part-error';
import { MalformedXmlError, scanXml } from './xml-scanner';
import type { ChildStream, SharedSubtree, StartTag, TreeSink, XmlElement, XmlParseOptions } from './xml-types';

export type { ChildStream, SharedSubtree, StartTag, XmlElement, XmlParseOptions } from './xml-types';

/**
 * Parses one XML part into a small element tree. OOXML parts are read whole and walked several
 * times (styles by id, sections in order, headers once per use), so a tree is simpler than
 * streaming, and each part is parsed exactly once. The exception is the main document's body,
 * the one part that can be tens of megabytes: its children are handed over one by one as they
 * close (ChildStream) and let go of once read.
 *
 * Two parsers feed the same tree builder: a fast scanner written for this (xml-scanner.ts) and
 * saxes, a complete XML parser. The scanner reads everything OOXML writers produce several times
 * faster than saxes; anything it refuses goes to saxes, which either reads it (the two build the
 * same tree) or describes the error with a line and column.
 *
 * Safety: OOXML never carries a DTD: ECMA-376 Part 2 (Open Packaging Conventions), "XML usage",
 * rule [M1.18], says DTD declarations shall not be used and that their presence is an error. So any
 * DOCTYPE is refused outright, which makes entity-expansion bombs impossible. Depth and element
 * count are bounded so that a hostile part cannot exhaust the stack or memory.
 */

/** An error thrown by a ChildStream's `take`, carried out of the parsers unchanged. */
class TakeFailed extends Error {
  readonly error: unknown;
  constructor(error: unknown) {
    super('stream take failed');
    this.error = error;
  }
}

/** The budgets of src/limits.ts. */
export const DEFAULT_XML_LIMITS: XmlParseOptions = { maxDepth: MAX_XML_DEPTH, maxElements: MAX_XML_ELEMENTS };

/**
 * Parses `xml` (the bytes of part `partName`, or its text); throws PartError naming the part,
 * fatal for a DTD; exceeded limits throw DOCUMENT_TOO_COMPLEX.
 */
export function parseXml(
  xml: Uint8Array | string,
  partName: string,
  options: XmlParseOptions = DEFAULT_XML_LIMITS,
): XmlElement {
  try {
    const builder = new TreeBuilder(partName, options);
    scanXml(utf8Bytes(xml), builder);
    return builder.finish();
  } catch (error) {
    if (error instanceof TakeFailed) throw error.error;
    if (!(error instanceof MalformedXmlError)) throw error;
  }
  // The scanner refused the text: saxes decides (with positions, to describe a failure).
  options.stream?.restart();
  try {
    const builder = new TreeBuilder(partName, options);
    parseWithSaxes(typeof xml === 'string' ? xml : decodeXmlBytes(xml), partName, builder);
    return builder.finish();
  } catch (error) {
    if (error instanceof TakeFailed) throw error.error;
    if (error instanceof PartError) throw error;
    const detail = error instanceof Error ? error.message.replace(/\s+/g, ' ').trim() : String(error);
    throw new PartError(`The part ${partName} is not well-formed XML (${detail}).`, false);
  }
}

/** Decodes part bytes: UTF-8 unless a UTF-16 byte order mark says otherwise (XML 1.0 §4.3.3). */
export function decodeXmlBytes(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return decodeUtf16(bytes.subarray(2), true);
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return decodeUtf16(bytes.subarray(2), false);
  return UTF8.decode(bytes);
}

const UTF8 = new TextDecoder('utf-8');

/** What the scanner reads: UTF-8 bytes (a UTF-16 part, which is rare, is converted first). */
function utf8Bytes(xml: Uint8Array | string): Uint8Array {
  if (typeof xml === 'string') return new TextEncoder().encode(xml);
  const utf16 = xml.length >= 2 && ((xml[0] === 0xff && xml[1] === 0xfe) || (xml[0] === 0xfe && xml[1] === 0xff));
  return utf16 ? new TextEncoder().encode(decodeXmlBytes(xml)) : xml;
}

function decodeUtf16(bytes: Uint8Array, littleEndian: boolean): string {
  const units = new Uint16Array(bytes.length >> 1);
  for (let i = 0; i < units.length; i++) {
    const a = bytes[2 * i] as number;
    const b = bytes[2 * i + 1] as number;
    units[i] = littleEndian ? a | (b << 8) : (a << 8) | b;
  }
  const parts: string[] = [];
  for (let i = 0; i < units.length; i += 8192) {
    parts.push(String.fromCharCode(...units.subarray(i, i + 8192)));
  }
  return parts.join('');
}

function parseWithSaxes(xml: string, partName: string, builder: TreeBuilder): void {
  const parser = new SaxesParser({ xmlns: false, position: true, fileName: partName });
  parser.on('doctype', () => builder.doctype());
  const ignore = builder.ignoreAttribute;
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const attributes = tag.attributes;
    if (ignore) for (const key in attributes) if (ignore(key)) delete attributes[key];
    let declares = false;
    for (const key in attributes) if (key.startsWith('xmlns')) declares = true;
    builder.open(builder.startTag(tag.name, attributes, declares, attributes['xml:space']));
  });
  parser.on('closetag', () => builder.close());
  parser.on('text', (text) => builder.text(text));
  parser.on('cdata', (text) => builder.text(text));
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
}

interface MutableElement {
  name: string;
  attributes: Record<string, string>;
  children: MutableElement[];
  text: string;
}

/** Children of leaves share one empty array: most elements (w:b, w:sz, …) have none. */
const NO_CHILDREN: MutableElement[] = [];
Object.freeze(NO_CHILDREN);

interface Scope {
  /** The depth of the element that declared the bindings; the scope ends when it closes. */
  depth: number;
  previous: ReadonlyMap<string, string> | undefined;
}

/**
 * Builds the tree from parser events: renames prefixes to the conventional ones, keeps
 * xml:space, enforces the limits, and leaves out ignored elements and attributes.
 */
export class TreeBuilder implements TreeSink {
  readonly ignoreAttribute: ((name: string) => boolean) | undefined;
  readonly shareElements: ReadonlySet<string> | undefined;
  private readonly partName: string;
  private readonly options: XmlParseOptions;
  private readonly root: MutableElement = { name: '#document', attributes: {}, children: [], text: '' };
  private readonly stack: MutableElement[] = [this.root];
  /**
   * The children of every open element, one after the other: an element's own start where it is
   * opened (starts), so that on closing it takes them as one array of the exact size. Growing a
   * children array by push instead left most of them with room for 17 (V8's first growth), which
   * the garbage collector then copied for every element of a large table.
   */
  private readonly pending: (MutableElement | undefined)[] = [];
  private pendingCount = 0;
  private readonly starts: number[] = [0];
  /** xml:space="preserve" per open element (it inherits, XML 1.0 §2.10). */
  private readonly preserve: boolean[] = [false];
  private elements = 0;
  private renames: ReadonlyMap<string, string> | undefined;
  private readonly scopes: Scope[] = [];
  /** Depth of an ignored element being skipped, or 0. */
  private skipping = 0;

  constructor(partName: string, options: XmlParseOptions) {
    this.partName = partName;
    this.options = options;
    this.ignoreAttribute = options.ignoreAttribute;
    this.shareElements = options.shareElements;
  }

  /**
   * Whether an element named `writtenName` opening now is left out of the tree (ignored, or inside
   * an ignored one): the scanner then makes nothing of its attributes.
   */
  discards(writtenName: string): boolean {
    return this.skipping > 0 || this.options.ignoreElements?.has(writtenName) === true;
  }

  doctype(): never {
    throw new PartError(
      `The part ${this.partName} contains a DOCTYPE declaration; DTDs are not allowed in Office documents (they could expand entities without bound), so the file is refused.`,
      true,
    );
  }

  /**
   * The start tag of an element named `writtenName` with these attributes, for open; `space` is
   * their xml:space (the parser has it at hand).
   */
  startTag(
    writtenName: string,
    attributes: Record<string, string>,
    declaresNamespaces: boolean,
    space: string | undefined,
  ): StartTag {
    return {
      name: writtenName,
      attributes,
      declaresNamespaces,
      ignored: this.options.ignoreElements?.has(writtenName) === true,
      shareable: this.shareElements?.has(writtenName) === true,
      space,
    };
  }

  open(tag: StartTag): void {
    const stack = this.stack;
    const depth = stack.length;
    if (this.skipping > 0) {
      this.skipping++;
      return;
    }
    if (tag.ignored) {
      this.skipping = 1;
      return;
    }
    if (depth > this.options.maxDepth) this.tooDeep();
    if (++this.elements > this.options.maxElements) this.tooManyElements();
    const attributes = tag.attributes;
    if (tag.declaresNamespaces) {
      const declared = namespaceDeclarations(attributes, this.renames);
      if (declared !== this.renames) {
        this.scopes.push({ depth, previous: this.renames });
        this.renames = declared;
      }
    }
    let name = tag.name;
    let own = attributes;
    if (this.renames !== undefined) {
      name = rename(name, this.renames, true);
      // The scanner shares frozen attribute objects between elements: rename a copy.
      if (Object.isFrozen(own) && hasPrefixedAttribute(own)) own = { ...own };
      renameAttributes(own, this.renames);
    }
    const element: MutableElement = { name, attributes: own, children: NO_CHILDREN, text: '' };
    this.pending[this.pendingCount++] = element;
    this.starts.push(this.pendingCount);
    stack.push(element);
    // Renaming never touches xml: attributes, so the tag's xml:space is the element's.
    const space = tag.space;
    this.preserve.push(space === undefined ? (this.preserve[depth - 1] as boolean) : space === 'preserve');
  }

  close(): void {
    if (this.skipping > 0) {
      this.skipping--;
      return;
    }
    const closed = this.stack.pop();
    this.preserve.pop();
    const start = this.starts.pop() as number;
    if (closed !== undefined && this.pendingCount > start) {
      const pending = this.pending;
      closed.children = pending.slice(start, this.pendingCount) as MutableElement[];
      // Cleared, not truncated: the scratch keeps its capacity, and holds no subtree it let go of.
      // A loop, not fill(): an element has a few children, fewer than a builtin call costs.
      for (let i = start; i < this.pendingCount; i++) pending[i] = undefined;
      this.pendingCount = start;
    }
    const stream = this.options.stream;
    if (stream !== undefined && closed !== undefined && this.stack.length === stream.path.length + 1) {
      this.handOver(stream, closed);
    }
    // Length first: reading index -1 of an empty array is a slow property lookup, and this runs
    // for every element.
    const scopes = this.scopes;
    if (scopes.length === 0) return;
    const scope = scopes[scopes.length - 1] as Scope;
    if (scope.depth === this.stack.length) {
      this.scopes.pop();
      this.renames = scope.previous;
    }
  }

  /**
   * close(), for an element the scanner may share: the subtree to share, or undefined when the
   * element was left out (ignoreElements).
   */
  closeShared(): SharedSubtree | undefined {
    if (this.skipping > 0) {
      this.close();
      return undefined;
    }
    const element = this.stack[this.stack.length - 1] as MutableElement;
    this.close();
    const [elements, height] = measure(element);
    return {
      element,
      elements,
      height,
      renames: this.renames,
      preserve: this.preserve[this.preserve.length - 1] as boolean,
    };
  }

  /**
   * Places `shared` as the next child of the open element, as if its bytes had been read here;
   * false, changing nothing, when the context reads them differently.
   */
  adopt(shared: SharedSubtree): boolean {
    if (this.skipping > 0) return true;
    const preserve = this.preserve[this.preserve.length - 1] as boolean;
    if (shared.renames !== this.renames || shared.preserve !== preserve) return false;
    if (this.stack.length + shared.height - 1 > this.options.maxDepth) this.tooDeep();
    this.elements += shared.elements;
    if (this.elements > this.options.maxElements) this.tooManyElements();
    const element = shared.element as MutableElement;
    this.pending[this.pendingCount++] = element;
    const stream = this.options.stream;
    if (stream !== undefined && this.stack.length === stream.path.length + 1) this.handOver(stream, element);
    return true;
  }

  // Depth and element count are budgets of the request (src/limits.ts): DOCUMENT_TOO_COMPLEX.
  private tooDeep(): never {
    throw tooComplex(
      `the part ${this.partName} nests elements more than ${this.options.maxDepth} levels deep, which no real document does`,
      `${this.options.maxDepth} levels`,
    );
  }

  private tooManyElements(): never {
    throw tooComplex(
      `the part ${this.partName} has more than ${this.options.maxElements.toLocaleString('en-US')} elements`,
      `${this.options.maxElements.toLocaleString('en-US')} elements per part`,
    );
  }

  /** A closed child of the streamed element: taken (and let go of) when its ancestors match the path. */
  private handOver(stream: ChildStream, element: MutableElement): void {
    const { path } = stream;
    for (let i = 0; i < path.length; i++) if (this.stack[i + 1]?.name !== path[i]) return;
    let taken: boolean;
    try {
      taken = stream.take(element);
    } catch (error) {
      throw new TakeFailed(error);
    }
    if (!taken) return;
    if (this.pending[this.pendingCount - 1] === element) this.pending[--this.pendingCount] = undefined;
  }

  text(text: string): void {
    const depth = this.stack.length - 1;
    if (depth === 0 || this.skipping > 0) return;
    if (!this.preserve[depth] && isWhitespace(text)) return;
    const element = this.stack[depth] as MutableElement;
    element.text = element.text === '' ? text : element.text + text;
  }

  finish(): XmlElement {
    const documentElement = this.pending[0];
    if (documentElement === undefined) throw new PartError(`The part ${this.partName} has no root element.`, false);
    return documentElement;
  }
}

/** How many elements the subtree holds, and its height. */
function measure(element: XmlElement): [number, number] {
  let elements = 1;
  let height = 0;
  for (let i = 0; i < element.children.length; i++) {
    const [childElements, childHeight] = measure(element.children[i] as XmlElement);
    elements += childElements;
    if (childHeight > height) height = childHeight;
  }
  return [elements, height + 1];
}

function isWhitespace(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return false;
  }
  return true;
}

/**
 * The prefix renames in force after this element's xmlns declarations, or `current` itself when it
 * declares nothing that changes them (the common case: no allocation). A rename maps a written
 * prefix ('' for the default namespace) to the conventional one for its URI.
 */
function namespaceDeclarations(
  attributes: Record<string, string>,
  current: ReadonlyMap<string, string> | undefined,
): ReadonlyMap<string, string> | undefined {
  let next: Map<string, string> | undefined;
  for (const key in attributes) {
    if (key.charCodeAt(0) !== 0x78 /* x */ || !key.startsWith('xmlns')) continue;
    let written: string;
    if (key.length === 5) written = '';
    else if (key.charCodeAt(5) === 0x3a /* : */) written = key.slice(6);
    else continue;
    const conventional = CONVENTIONAL_PREFIXES.get(attributes[key] as string);
    // Identity (or an unknown URI for a prefix never renamed) changes nothing.
    const target = conventional ?? written;
    const existing = current?.get(written);
    if (target === written && existing === undefined) continue;
    if (existing === target) continue;
    next ??= new Map(current);
    if (target === written) next.delete(written);
    else next.set(written, target);
  }
  if (next === undefined) return current;
  return next.size === 0 ? undefined : next;
}

function rename(name: string, renames: ReadonlyMap<string, string>, isElement: boolean): string {
  const colon = name.indexOf(':');
  if (colon === -1) {
    // Unprefixed attributes are in no namespace; unprefixed elements take the default one.
    if (!isElement) return name;
    const target = renames.get('');
    return target ? `${target}:${name}` : name;
  }
  const target = renames.get(name.slice(0, colon));
  if (target === undefined) return name;
  return target === '' ? name.slice(colon + 1) : `${target}${name.slice(colon)}`;
}

function hasPrefixedAttribute(attributes: Record<string, string>): boolean {
  for (const key in attributes) if (key.indexOf(':') !== -1) return true;
  return false;
}

function renameAttributes(attributes: Record<string, string>, renames: ReadonlyMap<string, string>): void {
  let renamed: [string, string][] | undefined;
  for (const key in attributes) {
    if (key.indexOf(':') === -1 || key.startsWith('xmlns') || key.startsWith('xml:')) continue;
    const target = rename(key, renames, false);
    if (target === key) continue;
    renamed ??= [];
    renamed.push([key, target]);
  }
  if (renamed === undefined) return;
  for (const [from, to] of renamed) {
    attributes[to] = attributes[from] as string;
    delete attributes[from];
  }
}

// ---- Small helpers for walking the tree -------------------------------------------------------

/** The first child named `name`, or undefined. */
export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  if (element === undefined) return undefined;
  // Indexed, not for…of: called for nearly every element read, and the iterator for…of makes was
  // the reader's largest single allocation on a large document.
  const children = element.children;
  for (let i = 0; i < children.length; i++) {
    const candidate = children[i] as XmlElement;
    if (candidate.name === name) return candidate;
  }
  return undefined;
}
