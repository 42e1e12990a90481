/**
 * The pages of a revision, found by walking its page tree from the catalog (ISO 32000-1 §7.7.3):
 * the page objects really there, numbered in document order. A node's /Count is the writer's
 * claim about them (§7.7.3.2, Table 29), and a file can claim a billion pages in ten bytes, so it
 * is not read. The walk is iterative, reads each node once (a loop or a node listed twice ends
 * there), and stops at a cap on nodes and on /Kids entries: then it is incomplete, and says so.
 */
import type { ObjectReader } from './object-reader';
import type { PdfValue } from './pdf-syntax';

/** Page tree nodes and pages read at most. */
const MAX_PAGE_NODES = 100_000;
/** /Kids entries followed at most (a node may list the same kid many times). */
const MAX_KID_ENTRIES = 1_000_000;

export interface PageTree {
  /** Page object number → page number (1-based). */
  pages: Map<number, number>;
  /** False when there is no readable tree, or the walk stopped at a cap before the end. */
  complete: boolean;
}

function refsIn(value: PdfValue | undefined): number[] {
  return value?.kind === 'array' ? value.items.flatMap((item) => (item.kind === 'ref' ? [item.num] : [])) : [];
}

/** The page tree of revision `index` (0 = the original), walked from its catalog's /Pages. */
export function readPageTree(reader: ObjectReader, index: number): PageTree {
  const pages = new Map<number, number>();
  const top = reader.catalog(index)?.get('Pages');
  if (top?.kind !== 'ref') return { pages, complete: false };
  const stack = [top.num];
  const seen = new Set<number>();
  let entries = 0;
  let rootRead = false;
  while (stack.length > 0) {
    if (seen.size >= MAX_PAGE_NODES || entries > MAX_KID_ENTRIES) return { pages, complete: false };
    const num = stack.pop() as number;
    if (seen.has(num)) continue;
    seen.add(num);
    const state = reader.read(num, index);
    const dict = state.kind === 'object' && state.value.kind === 'dict' ? state.value.entries : undefined;
    if (!dict) continue;
    rootRead = true;
    const type = dict.get('Type');
    const kids = refsIn(dict.get('Kids'));
    if ((type?.kind === 'name' && type.value === 'Page') || (kids.length === 0 && !dict.has('Kids'))) {
      pages.set(num, pages.size + 1);
      continue;
    }
    entries += kids.length;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as number);
  }
  return { pages, complete: rootRead };
}
