/**
 * The document outline (bookmarks, ISO 32000-1 §12.3.3), built by hand: pdf-lib has no outline
 * API. Items are nested by level (a deeper entry belongs to the nearest shallower one before it)
 * and all are open, so every /Count is the positive number of descendants.
 */
import type { PDFContext, PDFRef } from 'pdf-lib';
import type { OutlineEntry } from '../../pages';
import { explicitDestination } from './destinations';
import { textString } from './pdf-strings';

export interface OutlineNode {
  entry: OutlineEntry;
  children: OutlineNode[];
}

/** Entries in document order as a tree; a level jump (0 → 2) nests under the nearest parent. */
export function nestOutline(entries: readonly OutlineEntry[]): OutlineNode[] {
  const roots: OutlineNode[] = [];
  const open: OutlineNode[] = [];
  for (const entry of entries) {
    while (open.length > 0 && (open[open.length - 1] as OutlineNode).entry.level >= entry.level) open.pop();
    const node: OutlineNode = { entry, children: [] };
    const parent = open[open.length - 1];
    (parent ? parent.children : roots).push(node);
    open.push(node);
  }
  return roots;
}

export function countDescendants(nodes: readonly OutlineNode[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countDescendants(node.children), 0);
}

/** Writes the outline dictionaries and returns the /Outlines root, or undefined when empty. */
export function writeOutline(
  context: PDFContext,
  entries: readonly OutlineEntry[],
  pageRefs: readonly PDFRef[],
  pageHeights: readonly number[],
): PDFRef | undefined {
  const usable = entries.filter((entry) => pageRefs[entry.page] !== undefined);
  const roots = nestOutline(usable);
  if (roots.length === 0) return undefined;

  const rootRef = context.nextRef();
  const writeLevel = (nodes: readonly OutlineNode[], parent: PDFRef): PDFRef[] => {
    const refs = nodes.map(() => context.nextRef());
    nodes.forEach((node, i) => {
      const childRefs = writeLevel(node.children, refs[i] as PDFRef);
      const item = context.obj({
        Title: textString(node.entry.title),
        Parent: parent,
        Prev: refs[i - 1],
        Next: refs[i + 1],
        First: childRefs[0],
        Last: childRefs[childRefs.length - 1],
        Count: node.children.length > 0 ? countDescendants(node.children) : undefined,
        Dest: explicitDestination(context, pageRefs, pageHeights, node.entry),
      });
      context.assign(refs[i] as PDFRef, item);
    });
    return refs;
  };
  const topRefs = writeLevel(roots, rootRef);
  context.assign(
    rootRef,
    context.obj({
      Type: 'Outlines',
      First: topRefs[0],
      Last: topRefs[topRefs.length - 1],
      Count: countDescendants(roots),
    }),
  );
  return rootRef;
}
