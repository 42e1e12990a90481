/**
 * Named destinations for AnchorItems (ISO 32000-1 §12.3.2.3), kept in the catalog's name tree
 * /Names /Dests (§7.7.4), whose keys are strings sorted as bytes (§7.9.6). Each destination is
 * [page /XYZ left top zoom] with zoom null ("unchanged", §12.3.2.2).
 */
import type { PDFArray, PDFContext, PDFRef } from 'pdf-lib';
import type { LaidOutDocument } from '../../pages';
import { pdfY } from './pdf-geometry';
import { compareBytes, textString, textStringBytes } from './pdf-strings';

export interface DestinationTarget {
  page: number;
  y: number;
}

/** Anchors by name, first occurrence winning (names in a name tree are unique). */
export function collectAnchors(doc: LaidOutDocument): Map<string, DestinationTarget> {
  const anchors = new Map<string, DestinationTarget>();
  doc.pages.forEach((page, index) => {
    for (const item of page.items) {
      if (item.kind === 'anchor' && !anchors.has(item.name)) anchors.set(item.name, { page: index, y: item.y });
    }
  });
  return anchors;
}

/** [page /XYZ 0 top null]: the left edge of the page, the target's top at the window's top. */
export function explicitDestination(
  context: PDFContext,
  pageRefs: readonly PDFRef[],
  pageHeights: readonly number[],
  target: DestinationTarget,
): PDFArray | undefined {
  const pageRef = pageRefs[target.page];
  const height = pageHeights[target.page];
  if (!pageRef || height === undefined) return undefined;
  return context.obj([pageRef, 'XYZ', 0, pdfY(height, Math.max(0, target.y)), null]);
}

/** The /Dests name tree (a single root node holding every name), or undefined without anchors. */
export function destinationNameTree(
  context: PDFContext,
  anchors: ReadonlyMap<string, DestinationTarget>,
  pageRefs: readonly PDFRef[],
  pageHeights: readonly number[],
): PDFRef | undefined {
  const entries = [...anchors]
    .map(([name, target]) => ({ name, bytes: textStringBytes(name), target }))
    .sort((a, b) => compareBytes(a.bytes, b.bytes));
  const names = context.obj([]);
  for (const { name, target } of entries) {
    const destination = explicitDestination(context, pageRefs, pageHeights, target);
    if (!destination) continue;
    names.push(textString(name));
    names.push(destination);
  }
  if (names.size() === 0) return undefined;
  return context.register(context.obj({ Names: names }));
}
