/**
 * Footnotes as markdown-it-footnote and pandoc write them in HTML: a section of class
 * "footnotes" (pandoc: role="doc-endnotes", DPUB-ARIA §4) holding an ordered list whose items
 * carry the ids that the references in the text link to ("#fn1"). They become real footnotes:
 * the section and its separator leave the body, the references become note references, and the
 * back-links ("↩︎", role="doc-backlink") are dropped.
 */
import { fragmentOf } from './bookmark-names';
import { attribute, type Element, type ElementsInOrder, hasClass, tagName } from './html-tree';

export interface FootnoteSources {
  /** Elements left out of the body: the footnotes sections and their separator rules. */
  dropped: Set<Element>;
  /** Each note's list item by its id. */
  items: Map<string, Element>;
}

export function isFootnoteSection(element: Element): boolean {
  return (
    attribute(element, 'role') === 'doc-endnotes' ||
    ((tagName(element) === 'section' || tagName(element) === 'div') && hasClass(element, 'footnotes'))
  );
}

/** The elements in document order with their depths (html-tree.ts elementsInOrder). */
export function findFootnotes({ elements, depths }: ElementsInOrder): FootnoteSources {
  const dropped = new Set<Element>();
  const items = new Map<string, Element>();
  /** The depth of the footnotes section the walk is inside, or -1. */
  let insideDepth = -1;
  let section: Element | undefined;
  /** Footnotes sections that hold no list item with an id: not in this shape, they stay in the body. */
  const empty = new Set<Element>();
  const sectionOf = new Map<Element, Element>();
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i] as Element;
    const depth = depths[i] as number;
    if (insideDepth >= 0 && depth <= insideDepth) insideDepth = -1;
    const inside = insideDepth >= 0;
    if (!inside && isFootnoteSection(element)) {
      dropped.add(element);
      empty.add(element);
      section = element;
      insideDepth = depth;
      continue;
    }
    if (!inside && tagName(element) === 'hr' && hasClass(element, 'footnotes-sep')) dropped.add(element);
    const id = attribute(element, 'id');
    if (inside && section && tagName(element) === 'li' && id !== undefined && !items.has(id)) {
      items.set(id, element);
      sectionOf.set(element, section);
      empty.delete(section);
    }
  }
  // A "footnotes" block of plain paragraphs (docx4j's XHTML export: <a name="fn1"> anchors) has
  // nothing to make notes of, and one with an item no link refers to would lose that item's text:
  // such a block stays in the body as it is.
  const referenced = new Set<string>();
  for (const element of elements) {
    if (tagName(element) !== 'a') continue;
    const fragment = fragmentOf(attribute(element, 'href') ?? '');
    if (fragment !== undefined) referenced.add(fragment);
  }
  for (const [id, item] of items) if (!referenced.has(id)) empty.add(sectionOf.get(item) as Element);
  for (const element of empty) {
    dropped.delete(element);
    for (const [id, item] of items) if (sectionOf.get(item) === element) items.delete(id);
  }
  return { dropped, items };
}

/** The note a link refers to, when it is a reference to one of `items`. */
export function noteTarget(anchor: Element, items: ReadonlyMap<string, Element>): string | undefined {
  const fragment = fragmentOf(attribute(anchor, 'href') ?? '');
  return fragment !== undefined && items.has(fragment) ? fragment : undefined;
}

/** A footnote's link back to its reference, left out of the note. */
export function isBackLink(anchor: Element): boolean {
  return (
    hasClass(anchor, 'footnote-backref') ||
    hasClass(anchor, 'footnote-back') ||
    attribute(anchor, 'role') === 'doc-backlink' ||
    (attribute(anchor, 'href') ?? '').startsWith('#fnref')
  );
}
