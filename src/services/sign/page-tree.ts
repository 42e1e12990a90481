/**
 * The page tree of a PDF being signed (ISO 32000-1 §7.7.3), walked over pdf-lib's objects before
 * pdf-lib walks it. pdf-lib recurses through /Kids without remembering where it has been (to
 * count the pages), descends by each node's /Count (to insert one) and climbs by /Parent (to add
 * to the counts): a node listed a thousand times under a node listed a thousand times took the
 * worker down with an 18 KB file, a /Parent loop recursed until the stack ran out (a 500), and a
 * /Count lower than the pages below it made the insertion throw (a 500 too). Here the tree is
 * walked once, iteratively and bounded, and must be a tree: every node and page reached once,
 * and each node's /Parent, when it names a node, the one that lists it (Table 29).
 */
import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFPageLeaf,
  PDFPageTree,
} from 'pdf-lib';
import { ApiError } from '../../errors';
import { tooComplex } from '../../limits';

/** Pages and page tree nodes together: more than a document to sign has (pdf-lib keeps an object for each). */
const MAX_PAGE_TREE_ENTRIES = 100_000;
/** Levels of nodes: a real tree is a few deep; pdf-lib recurses once a level, three frames at a time. */
const MAX_PAGE_TREE_DEPTH = 64;

const KIDS = PDFName.of('Kids');
const PARENT = PDFName.of('Parent');
const COUNT = PDFName.of('Count');

export interface PageTreeNode {
  node: PDFPageTree;
  /** The pages below it, as pdf-lib counts them (page objects, not what /Count says). */
  pages: number;
}

/**
 * The page tree's nodes, root first, each with the number of pages below it. Throws
 * INVALID_DOCUMENT when it is not a tree, DOCUMENT_TOO_COMPLEX past the size cap.
 */
export function walkPageTree(doc: PDFDocument): PageTreeNode[] {
  // pdf-lib leaves the catalog undefined when the trailer's /Root names nothing it found.
  const catalog: PDFDict | undefined = doc.catalog;
  const root = catalog instanceof PDFDict ? catalog.lookup(PDFName.of('Pages')) : undefined;
  if (!(root instanceof PDFPageTree)) throw damaged('its page tree cannot be read');
  if (root.lookup(PARENT) instanceof PDFPageTree) throw damaged('the root of its page tree names a /Parent');
  const nodes: PageTreeNode[] = [{ node: root, pages: 0 }];
  const parents: number[] = [-1];
  const depths: number[] = [1];
  const seen = new Set<PDFObject>([root]);
  for (let index = 0; index < nodes.length; index++) {
    const { node } = nodes[index] as PageTreeNode;
    const kids = node.lookup(KIDS);
    if (!(kids instanceof PDFArray)) continue;
    for (let i = 0; i < kids.size(); i++) {
      const kid = doc.context.lookup(kids.get(i));
      if (!(kid instanceof PDFPageTree || kid instanceof PDFPageLeaf)) continue;
      if (seen.has(kid)) throw damaged('its page tree reaches the same page or node twice');
      seen.add(kid);
      if (seen.size > MAX_PAGE_TREE_ENTRIES) {
        throw tooComplex(
          `its page tree has more than ${MAX_PAGE_TREE_ENTRIES.toLocaleString('en-US')} pages and nodes`,
          `${MAX_PAGE_TREE_ENTRIES.toLocaleString('en-US')} pages and page tree nodes`,
        );
      }
      if (kid instanceof PDFPageLeaf) {
        (nodes[index] as PageTreeNode).pages++;
        continue;
      }
      const parent = kid.lookup(PARENT);
      if (parent instanceof PDFPageTree && parent !== node) {
        throw damaged("a page tree node's /Parent is not the node that lists it");
      }
      const depth = (depths[index] as number) + 1;
      if (depth > MAX_PAGE_TREE_DEPTH) throw damaged('its page tree is nested deeper than any real file');
      nodes.push({ node: kid, pages: 0 });
      parents.push(index);
      depths.push(depth);
    }
  }
  // Children come after their parent: summing from the end adds each subtree to its parent once.
  for (let index = nodes.length - 1; index > 0; index--) {
    (nodes[parents[index] as number] as PageTreeNode).pages += (nodes[index] as PageTreeNode).pages;
  }
  return nodes;
}

/**
 * Sets every node's /Count to the pages below it where it says otherwise (§7.7.3.2), so that
 * pdf-lib, which finds where to insert a page by the counts, inserts at the end. The nodes it
 * changes are written in the same incremental update as the pages added.
 */
export function correctPageCounts(doc: PDFDocument): void {
  for (const { node, pages } of walkPageTree(doc)) {
    const count = node.lookup(COUNT);
    if (!(count instanceof PDFNumber) || count.asNumber() !== pages) node.set(COUNT, PDFNumber.of(pages));
  }
}

function damaged(why: string): ApiError {
  return new ApiError('INVALID_DOCUMENT', `The PDF is damaged: ${why}`);
}
