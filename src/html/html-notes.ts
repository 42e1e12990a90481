/**
 * Footnotes as markdown-it-footnote and pandoc write them in HTML: a section of class
 * "footnotes" (pandoc: role="doc-endnotes", DPUB-ARIA §4) holding an ordered list whose items
 * carry the ids that the references in the text link to ("#fn1"). They become real footnotes:
 * the section and its separator leave the body, the references become note references, and the
 * back-links ("↩︎", role="doc-backlink") are dropped.
 */
import { fragmentOf } from './bookmark-names';
import { attribute, type Element, hasClass, tagName } from './html-tree';

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

/** `elements` in document order with their depth (html-tree.ts elementsInOrder). */
export function findFootnotes(elements: readonly { element: Element; depth: number }[]): FootnoteSources {
  const dropped = new Set<Element>();
  const items = new Map<string, Element>();
  let inside: { depth: number } | undefined;
  for (const { element, depth } of elements) {
    if (inside && depth <= inside.depth) inside = undefined;
    if (!inside && isFootnoteSection(element)) {
      dropped.add(element);
      inside = { depth };
      continue;
    }
    if (!inside && tagName(element) === 'hr' && hasClass(element, 'footnotes-sep')) dropped.add(element);
    const id = attribute(element, 'id');
    if (inside && tagName(element) === 'li' && id !== undefined && !items.has(id)) items.set(id, element);
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
