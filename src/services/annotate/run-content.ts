/**
 * Runs (ECMA-376 Part 1 §17.3.2.25 w:r) holding a value: text in w:t (§17.3.3.31, with
 * xml:space="preserve" so edge spaces survive), a line feed as w:br (§17.3.3.1), a tab as w:tab
 * (§17.3.3.32). XML escaping is the serializer's job.
 */
import { createW, type Document, type Element, elementChildren, isW, ownerOf, wChild } from './ooxml-dom';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** A new w:t holding `text`. */
export function textElement(document: Document, text: string): Element {
  const t = createW(document, 't');
  t.setAttributeNS(XML_NS, 'xml:space', 'preserve');
  t.appendChild(document.createTextNode(text));
  return t;
}

/** Sets a w:t's text, keeping edge spaces. */
export function setText(t: Element, text: string): void {
  while (t.firstChild) t.removeChild(t.firstChild);
  t.appendChild(ownerOf(t).createTextNode(text));
  t.setAttributeNS(XML_NS, 'xml:space', 'preserve');
}

/** One run with `properties` (cloned) holding `value`; `\n` → w:br, `\t` → w:tab. */
export function textRun(document: Document, value: string, properties: Element | undefined): Element {
  const run = newRun(document, properties);
  value
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .forEach((line, index) => {
      if (index > 0) run.appendChild(createW(document, 'br'));
      line.split('\t').forEach((segment, tabIndex) => {
        if (tabIndex > 0) run.appendChild(createW(document, 'tab'));
        if (segment !== '') run.appendChild(textElement(document, segment));
      });
    });
  return run;
}

/** An empty run with a copy of `properties`. */
export function newRun(document: Document, properties: Element | undefined): Element {
  const run = createW(document, 'r');
  if (properties) run.appendChild(properties.cloneNode(true));
  return run;
}

/** Whether a run holds nothing but its properties. */
export function isEmptyRun(run: Element): boolean {
  return elementChildren(run).every((child) => isW(child, 'rPr'));
}

/** The run properties of the first run in `root` that has some (copies are taken, never moved). */
export function firstRunProperties(root: Element | undefined): Element | undefined {
  if (!root) return undefined;
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const element = stack.shift() as Element;
    if (isW(element, 'r')) {
      const properties = wChild(element, 'rPr');
      if (properties) return properties;
      continue;
    }
    stack.unshift(...elementChildren(element));
  }
  return undefined;
}
