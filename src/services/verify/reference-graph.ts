/**
 * Which objects of one revision refer to which, among those its trailer reaches (ISO 32000-1
 * §7.5.5: the document is what the trailer's /Root, /Info and /Encrypt lead to, §7.3.10 through
 * indirect references; keys the standard lacks are followed too, as pyHanko does, so that an
 * object a private trailer key also names counts as used there). An object nothing reaches is not part of the document: no viewer draws
 * or runs it, which is why pyHanko calls an unreferenced object added after signing harmless.
 *
 * Each reference keeps the key of the referring dictionary it sits under (the top-level key; for
 * an array object, undefined), so the modification check can tell a signature widget's /AP from
 * its /P, or the catalog's /DSS from its /OpenAction. Bounded: past `limit` objects the walk stops
 * and the graph says it is incomplete, and the caller must then assume the worst.
 */

import type { ObjectReader, PdfValue, RevisionScan } from '../pdf-read';

/** The referrer that stands for the trailer itself. */
export const TRAILER = -1;
/** Objects walked at most. */
const MAX_OBJECTS = 200_000;

export interface Reference {
  /** The referring object's number, or TRAILER. */
  from: number;
  /** The top-level dictionary key the reference sits under (a trailer key for TRAILER). */
  key: string | undefined;
}

export interface ReferenceGraph {
  /** Object number → who refers to it. */
  referrers: Map<number, Reference[]>;
  reachable: Set<number>;
  /** False when the walk stopped at its bound: an object missing from `reachable` may still be reached. */
  complete: boolean;
}

export function referenceGraph(
  reader: ObjectReader,
  scan: RevisionScan,
  index: number,
  limit = MAX_OBJECTS,
): ReferenceGraph {
  const referrers = new Map<number, Reference[]>();
  const reachable = new Set<number>();
  const queue: number[] = [];
  const link = (to: number, from: number, key: string | undefined) => {
    const list = referrers.get(to);
    if (list) list.push({ from, key });
    else referrers.set(to, [{ from, key }]);
    if (!reachable.has(to)) {
      reachable.add(to);
      queue.push(to);
    }
  };
  const revision = scan.revisions[index];
  if (revision?.root) link(revision.root.num, TRAILER, 'Root');
  if (revision?.info !== undefined) link(revision.info, TRAILER, 'Info');
  if (revision?.encrypt) for (const to of referencesIn(revision.encrypt)) link(to, TRAILER, 'Encrypt');
  for (const [key, value] of revision?.unknownTrailerRefs ?? [])
    for (const to of referencesIn(value)) link(to, TRAILER, key);
  let complete = true;
  for (let next = 0; next < queue.length; next++) {
    if (reachable.size > limit) {
      complete = false;
      break;
    }
    const num = queue[next] as number;
    const state = reader.read(num, index);
    if (state.kind !== 'object') continue;
    const { value } = state;
    if (value.kind === 'dict') {
      for (const [key, item] of value.entries) for (const to of referencesIn(item)) link(to, num, key);
    } else for (const to of referencesIn(value)) link(to, num, undefined);
  }
  return { referrers, reachable, complete };
}

/** The object numbers a value refers to, at any depth (bounded). */
export function referencesIn(value: PdfValue, out: number[] = [], depth = 0): number[] {
  if (depth > 32 || out.length > 100_000) return out;
  if (value.kind === 'ref') out.push(value.num);
  else if (value.kind === 'array') for (const item of value.items) referencesIn(item, out, depth + 1);
  else if (value.kind === 'dict') for (const item of value.entries.values()) referencesIn(item, out, depth + 1);
  return out;
}
