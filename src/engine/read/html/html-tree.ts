/**
 * The parsed document: parse5 (the HTML Living Standard §13.2 parsing algorithm, so unclosed and
 * misnested tags end up where a browser puts them) building domhandler nodes, the tree css-select
 * matches selectors against. Helpers here never recurse: documents may nest thousands deep.
 */
import type { ChildNode, Document, Element, ParentNode, Text } from 'domhandler';
import { parse } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';

export type { ChildNode, Element, Text };

/**
 * Parsed as a user agent with scripting disabled (HTML §13.2.2 "scripting flag"): Quire runs no
 * scripts, so `<noscript>` content, written for agents like it, is parsed as elements and shown.
 */
export function parseHtml(html: string): Document {
  return parse(html, { treeAdapter: adapter, scriptingEnabled: false }) as unknown as Document;
}

export function isElement(node: ChildNode | ParentNode | null | undefined): node is Element {
  return node != null && (node.type === 'tag' || node.type === 'script' || node.type === 'style');
}

export function isText(node: ChildNode): node is Text {
  return node.type === 'text';
}

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/**
 * Lower-case tag name. parse5 lower-cases the names of HTML elements as it tokenizes (HTML
 * §13.2.5.8), so only foreign ones (SVG's foreignObject, MathML) need lowering; the walk asks
 * for names several times per element, and skipping toLowerCase there is measurable.
 */
export function tagName(element: Element): string {
  return element.namespace === HTML_NAMESPACE ? element.name : element.name.toLowerCase();
}

export function attribute(element: Element, name: string): string | undefined {
  return element.attribs[name];
}

/**
 * Elements whose content never reaches the output (HTML §4.2 metadata, §4.12 scripting). The
 * fallback content of `<noscript>`, `<object>`, `<canvas>`, `<audio>` and `<video>` is kept: a
 * DOCX or PDF can neither run scripts, embed plug-ins nor play media, so it is the agent that
 * content was written for (HTML §4.8.9: "content … for older user agents"), and it usually carries
 * the link to the media. Their `<param>`, `<source>` and `<track>` children stay hidden.
 */
export const HIDDEN_ELEMENTS: ReadonlySet<string> = new Set([
  'head',
  'script',
  'style',
  'template',
  'svg',
  'iframe',
  'embed',
  'map',
  'datalist',
  'link',
  'meta',
  'base',
  'title',
  'param',
  'source',
  'track',
]);

/** Elements in document order and, at the same index, each one's depth (0 = the html element). */
export interface ElementsInOrder {
  elements: Element[];
  depths: number[];
}

/**
 * Every element in document order with its depth, by an explicit stack. Content of
 * HIDDEN_ELEMENTS is left out. Parallel arrays rather than an object per element and per stack
 * entry: a large page has tens of thousands of nodes, and the wrappers were garbage at once.
 */
export function elementsInOrder(root: ParentNode): ElementsInOrder {
  const elements: Element[] = [];
  const depths: number[] = [];
  const stack: ChildNode[] = [];
  const stackDepths: number[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) {
    stack.push(root.children[i] as ChildNode);
    stackDepths.push(0);
  }
  while (stack.length > 0) {
    const node = stack.pop() as ChildNode;
    const depth = stackDepths.pop() as number;
    if (!isElement(node)) continue;
    elements.push(node);
    depths.push(depth);
    const tag = tagName(node);
    if (HIDDEN_ELEMENTS.has(tag) && tag !== 'head') continue;
    for (let i = node.children.length - 1; i >= 0; i--) {
      stack.push(node.children[i] as ChildNode);
      stackDepths.push(depth + 1);
    }
  }
  return { elements, depths };
}

/** The concatenated text of an element's descendants (textContent), iteratively, hidden content left out. */
export function textContent(element: Element, limit = 1_000_000): string {
  const parts: string[] = [];
  let length = 0;
  const stack: ChildNode[] = [...element.children].reverse();
  while (stack.length > 0 && length < limit) {
    const node = stack.pop() as ChildNode;
    if (isText(node)) {
      parts.push(node.data);
      length += node.data.length;
    } else if (isElement(node) && !HIDDEN_ELEMENTS.has(tagName(node))) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as ChildNode);
    }
  }
  return parts.join('');
}

/** Whether `element` carries `name` in its class attribute. */
export function hasClass(element: Element, name: string): boolean {
  const classes = element.attribs.class;
  return classes?.split(/\s+/).includes(name) ?? false;
}
