/**
 * Replacing one `{{name}}` (placeholder-finder.ts) with new runs. The run holding the `{{` is split
 * at the placeholder: the text before stays in it, the new runs follow it, and the rest of that
 * run (text after the placeholder, later children) goes into a copy of it with the same properties
 * (§17.3.2.28 w:rPr). The placeholder's characters are deleted from the other w:t it spans, and
 * w:t and runs left empty are removed. Placeholders of one paragraph are replaced last to first,
 * so the positions of earlier ones stay valid.
 */
import { type Element, isW, ownerOf, removeNode, wChild } from './ooxml-dom';
import type { Placeholder } from './placeholder-finder';
import { isEmptyRun, setText, textElement } from './run-content';

/** `makeRuns` receives the properties of the run holding the `{{` (to copy or not). */
export function replacePlaceholder(
  placeholder: Placeholder,
  makeRuns: (properties: Element | undefined) => Element[],
): void {
  const [first, ...rest] = placeholder.pieces;
  if (!first) return;
  for (const piece of rest) {
    const text = piece.t.textContent ?? '';
    const kept = text.slice(0, piece.from) + text.slice(piece.to);
    if (kept === '') removeTextAndEmptyRun(piece.t);
    else setText(piece.t, kept);
  }
  const run = first.t.parentNode as Element | null;
  const text = first.t.textContent ?? '';
  const before = text.slice(0, first.from);
  const after = text.slice(first.to);
  if (!run || !isW(run, 'r') || !run.parentNode) {
    setText(first.t, before + after);
    return;
  }
  const document = ownerOf(run);
  const properties = wChild(run, 'rPr');
  // The rest of the run after the placeholder: a copy of the run with its properties.
  const tail = run.cloneNode(false) as Element;
  if (properties) tail.appendChild(properties.cloneNode(true));
  if (after !== '') tail.appendChild(textElement(document, after));
  while (first.t.nextSibling) tail.appendChild(first.t.nextSibling);
  const parent = run.parentNode;
  const next = run.nextSibling;
  for (const created of makeRuns(properties)) parent.insertBefore(created, next);
  if (!isEmptyRun(tail)) parent.insertBefore(tail, next);
  if (before === '') removeNode(first.t);
  else setText(first.t, before);
  if (isEmptyRun(run)) removeNode(run);
}

function removeTextAndEmptyRun(t: Element): void {
  const run = t.parentNode as Element | null;
  removeNode(t);
  if (run && isW(run, 'r') && isEmptyRun(run)) removeNode(run);
}
