/**
 * Replacing what a content control shows (§17.5.2.34 w:sdtContent) with new runs, at whatever
 * level the control sits: runs go straight into an inline control; a block control keeps its
 * first paragraph's properties (§17.3.1.26 w:pPr) and holds one paragraph; a cell or row control
 * fills its first cell's first paragraph. The control's properties (w:sdtPr) stay as they are,
 * except w:showingPlcHdr (§17.5.2.39): the control now shows a value, not placeholder text, and
 * the placeholder text's character style goes with it.
 */
import { controlContent, controlLevel } from './content-control-finder';
import { createW, type Element, isW, ownerOf, removeChildren, removeNode, wChild, wChildren } from './ooxml-dom';
import { firstRunProperties } from './run-content';

/** The properties a value in this control should be set with: its content's first run's, or the control's own. */
export function controlRunProperties(sdt: Element): Element | undefined {
  const properties = firstRunProperties(controlContent(sdt)) ?? wChild(wChild(sdt, 'sdtPr'), 'rPr');
  if (!properties || !showsPlaceholder(sdt)) return properties;
  // Placeholder text is shown in Word's "Placeholder Text" character style: not the value's look.
  const copy = properties.cloneNode(true) as Element;
  const style = wChild(copy, 'rStyle');
  if (style && /placeholder/i.test(style.getAttributeNS(style.namespaceURI, 'val') ?? '')) removeNode(style);
  return copy;
}

export function replaceControlContent(sdt: Element, runs: Element[]): void {
  const document = ownerOf(sdt);
  let content = controlContent(sdt);
  if (!content) {
    content = createW(document, 'sdtContent');
    sdt.appendChild(content);
  }
  const level = controlLevel(sdt);
  if (level === 'inline') {
    removeChildren(content);
    for (const run of runs) content.appendChild(run);
  } else if (level === 'block') {
    fillBlockContainer(content, runs);
  } else {
    const row = level === 'row' ? wChild(content, 'tr') : undefined;
    const cell = level === 'row' ? wChild(row, 'tc') : wChild(content, 'tc');
    if (cell) fillBlockContainer(cell, runs);
  }
  clearPlaceholderFlag(sdt);
}

/** A container of paragraphs (sdtContent, w:tc) left with one paragraph holding `runs`. */
export function fillBlockContainer(container: Element, runs: Element[]): void {
  const document = ownerOf(container);
  const paragraph = firstParagraph(container) ?? createW(document, 'p');
  removeChildren(container, (child) => isW(child, 'tcPr') || child === paragraph);
  if (!paragraph.parentNode) container.appendChild(paragraph);
  removeChildren(paragraph, (child) => isW(child, 'pPr'));
  for (const run of runs) paragraph.appendChild(run);
}

export function clearPlaceholderFlag(sdt: Element): void {
  const flag = wChild(wChild(sdt, 'sdtPr'), 'showingPlcHdr');
  if (flag) removeNode(flag);
}

function showsPlaceholder(sdt: Element): boolean {
  return wChild(wChild(sdt, 'sdtPr'), 'showingPlcHdr') !== undefined;
}

/** The first paragraph, looking into nested block controls. */
function firstParagraph(container: Element): Element | undefined {
  const direct = wChildren(container, 'p')[0];
  if (direct) return direct;
  for (const inner of wChildren(container, 'sdt')) {
    const content = controlContent(inner);
    const found = content && firstParagraph(content);
    if (found) {
      removeNode(found);
      return found;
    }
  }
  return undefined;
}
