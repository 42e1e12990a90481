/**
 * PDF merge (issue 27's core for `POST /v1/merge?to=pdf`): the chosen pages of 2–50 PDFs, one after
 * the other, with their links, named destinations and outlines kept working. Plain data in, plain
 * data out; a bad input is an ApiError naming `documents[i]`.
 *
 * pdf-lib copies a page with everything it references. A link's destination names a page object
 * (ISO 32000-1 §12.3.2.2) and an annotation's /P its page (§12.5.2, Table 164), so copying a page
 * as it is would drag in the pages it links to and, through their /Parent, the source's whole page
 * tree (sejda#238, #244), and a link to a chosen page would get a second, orphan copy of it
 * (pdf-lib copies a page reached by reference apart from the one copied as a page). So before
 * copying, each chosen page's annotations are rewritten on the (throw-away) source: /P goes, a
 * destination on a page left out goes, and one on a chosen page names that page by its place in
 * the copy (a page number, as a remote destination does, §12.3.2.2) until the copied page's
 * reference is known, when it is put back. Named destinations (§12.3.2.3) and outlines (§12.3.3)
 * are read from the source and written anew for the output.
 */
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  type PDFDocument as PDFDocumentType,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRef,
  PDFString,
} from 'pdf-lib';
import { ApiError } from '../../errors';
import { inPageRanges, type PageRange, parsePageRanges, rangesBeyond } from '../../kit';
import { Budget, type Limits, tooComplex } from '../../limits';
import { assertParseableStreams, walkPageTree } from '../sign';
import { MAX_MERGE_DOCUMENTS, MIN_MERGE_DOCUMENTS } from './merge-limits';

export interface PdfMergeInput {
  bytes: Uint8Array;
  /** The pages to take (1-based, Chromium's syntax, kit/page-ranges.ts); absent: all. */
  pages?: string;
  /** The title of this document's top outline entry. */
  bookmark?: string;
  /** The caller's name for it (a file name): the outline entry's title when it has no bookmark or /Title. */
  name?: string;
}

export interface PdfMergeOptions {
  /** What the merge may cost (src/limits.ts): pages, time, decoded PDF streams. */
  limits: Limits;
  /** Refuse (422) rather than merge a signed input, whose signatures the merge would invalidate. */
  keepSignatures?: boolean;
  /** The clock the time budget reads; Date.now unless a test drives it. */
  now?: () => number;
}

export interface MergedPdf {
  pdf: Uint8Array;
  pages: number;
  warnings: string[];
}

/** Name tree nodes, outline items and form fields read from one input: more than a real file has. */
const MAX_WALK = 100_000;
/** Outline nesting kept: deeper entries are read as their ancestor's siblings would be (never in real files). */
const MAX_OUTLINE_DEPTH = 64;

const N = {
  Annots: PDFName.of('Annots'),
  P: PDFName.of('P'),
  Dest: PDFName.of('Dest'),
  Dests: PDFName.of('Dests'),
  D: PDFName.of('D'),
  A: PDFName.of('A'),
  AA: PDFName.of('AA'),
  S: PDFName.of('S'),
  GoTo: PDFName.of('GoTo'),
  URI: PDFName.of('URI'),
  Subtype: PDFName.of('Subtype'),
  Link: PDFName.of('Link'),
  B: PDFName.of('B'),
  Names: PDFName.of('Names'),
  Kids: PDFName.of('Kids'),
  Outlines: PDFName.of('Outlines'),
  First: PDFName.of('First'),
  Last: PDFName.of('Last'),
  Next: PDFName.of('Next'),
  Prev: PDFName.of('Prev'),
  Parent: PDFName.of('Parent'),
  Count: PDFName.of('Count'),
  Title: PDFName.of('Title'),
  C: PDFName.of('C'),
  F: PDFName.of('F'),
  Type: PDFName.of('Type'),
  AcroForm: PDFName.of('AcroForm'),
  Fields: PDFName.of('Fields'),
  FT: PDFName.of('FT'),
  Sig: PDFName.of('Sig'),
  V: PDFName.of('V'),
  T: PDFName.of('T'),
  Fit: PDFName.of('Fit'),
  PageMode: PDFName.of('PageMode'),
  UseOutlines: PDFName.of('UseOutlines'),
};

/** A destination read from a source: the page it names and the rest of its array (§12.3.2.2, Table 151). */
interface Target {
  page: PDFRef;
  view: PDFObject[];
}

/** An outline item read from a source (§12.3.3, Table 153), its destination resolved. */
interface OutlineItem {
  title: PDFObject;
  target?: Target;
  uri?: PDFObject;
  color?: PDFObject;
  flags?: PDFObject;
  open: boolean;
  children: OutlineItem[];
}

/** An outline item as written: its destination in the output. */
interface OutItem {
  title: PDFObject;
  dest?: PDFArray;
  action?: PDFDict;
  color?: PDFObject;
  flags?: PDFObject;
  open: boolean;
  children: OutItem[];
}

export async function mergePdfs(inputs: readonly PdfMergeInput[], options: PdfMergeOptions): Promise<MergedPdf> {
  if (inputs.length < MIN_MERGE_DOCUMENTS || inputs.length > MAX_MERGE_DOCUMENTS) {
    const issue = `must hold ${MIN_MERGE_DOCUMENTS} to ${MAX_MERGE_DOCUMENTS} documents; it holds ${inputs.length}`;
    throw new ApiError('VALIDATION_ERROR', `documents: ${issue}`, { details: [{ field: 'documents', issue }] });
  }
  // Every range is read before any PDF is: a typo is a 400 however damaged the files.
  const ranges = inputs.map((input, index) => readRanges(input.pages, index));
  const budget = new Budget(options.limits, options.now);
  const out = await PDFDocument.create({ updateMetadata: false });
  const warnings: string[] = [];
  const outline: OutItem[] = [];
  /** The output's named destinations, by name (§7.9.6: written sorted). */
  const names = new Map<string, PDFArray>();
  let pages = 0;

  for (const [index, input] of inputs.entries()) {
    const label = describeInput(input, index);
    const source = await loadSource(input.bytes, index, label, options.limits);
    const pageRefs = source.getPages().map((page) => page.ref);
    const chosen = chosenPages(ranges[index], pageRefs.length, index, label, warnings);
    pages += chosen.length;
    if (pages > options.limits.pages) {
      throw tooComplex(
        `the merged PDF would have more than ${options.limits.pages.toLocaleString('en-US')} pages`,
        `${options.limits.pages} pages`,
      );
    }
    if (hasSignature(source)) {
      if (options.keepSignatures) {
        const issue = `${label} is signed, and merging it into a new PDF invalidates its signatures; they cannot be kept`;
        throw new ApiError('INVALID_DOCUMENT', `keepSignatures: ${issue}`, {
          details: [{ field: 'keepSignatures', issue }],
        });
      }
      warnings.push(`${label} is signed; merging invalidates its signatures, which the merged PDF does not carry`);
    }

    /** Place in the copy (0-based, within this input) of each chosen page, by its reference. */
    const place = new Map<PDFRef, number>(chosen.map((pageIndex, at) => [pageRefs[pageIndex] as PDFRef, at]));
    const sourceNames = readNamedDestinations(source);
    const sourceOutline = readOutline(source, sourceNames);
    // Names whose page is chosen are carried; a name an earlier input took is prefixed (below).
    const renamed = new Map<string, string>();
    for (const [name, target] of sourceNames) {
      if (!place.has(target.page)) continue;
      let outName = names.has(name) ? `${index + 1}:${name}` : name;
      for (let n = 2; names.has(outName); n++) outName = `${index + 1}:${name}#${n}`;
      renamed.set(name, outName);
      names.set(outName, PDFArray.withContext(out.context)); // filled once the pages are copied
    }
    const dropped = prepareAnnotations(source, chosen, place, sourceNames, renamed);
    if (dropped > 0) {
      warnings.push(
        `${label}: ${dropped} link${dropped === 1 ? '' : 's'} to pages left out ${dropped === 1 ? 'was' : 'were'} dropped`,
      );
    }

    // One copier per source, so resources its pages share are copied once (pdf-lib#393).
    const copied = await out.copyPages(source, chosen);
    for (const page of copied) out.addPage(page);
    const copiedRefs = copied.map((page) => page.ref);
    const outTarget = (target: Target | undefined): PDFArray | undefined => {
      const at = target && place.get(target.page);
      return at === undefined || target === undefined
        ? undefined
        : out.context.obj([copiedRefs[at] as PDFRef, ...target.view.map((v) => v.clone())]);
    };
    restoreAnnotationTargets(out, copied);
    for (const [name, outName] of renamed) {
      const dest = outTarget(sourceNames.get(name));
      if (dest) names.set(outName, dest);
    }
    outline.push({
      title: textObject(input.bookmark ?? infoTitle(source) ?? input.name ?? `Document ${index + 1}`),
      dest: out.context.obj([copiedRefs[0] as PDFRef, N.Fit]),
      open: true,
      children: remapOutline(sourceOutline, outTarget, out),
    });
    if (index === 0) copyInfo(source, out);
    budget.checkTime();
  }

  writeNames(out, names);
  writeOutline(out, outline);
  out.catalog.set(N.PageMode, N.UseOutlines);
  out.setProducer('Quire');
  const now = new Date();
  out.setCreationDate(now);
  out.setModificationDate(now);
  return { pdf: await out.save(), pages, warnings };
}

function describeInput(input: PdfMergeInput, index: number): string {
  return input.name ? `documents[${index}] ("${input.name}")` : `documents[${index}]`;
}

function readRanges(pages: string | undefined, index: number): PageRange[] | undefined {
  if (pages === undefined) return undefined;
  const parsed = parsePageRanges(pages);
  if ('ranges' in parsed) return parsed.ranges;
  const field = `documents[${index}].pages`;
  throw new ApiError('VALIDATION_ERROR', `${field}: ${parsed.problem}`, {
    details: [{ field, issue: parsed.problem }],
  });
}

/** The 0-based indices of the pages chosen, in document order (as convert's pageRanges chooses them). */
function chosenPages(
  ranges: PageRange[] | undefined,
  count: number,
  index: number,
  label: string,
  warnings: string[],
): number[] {
  const all = Array.from({ length: count }, (_, i) => i);
  if (!ranges) return all;
  const chosen = all.filter((i) => inPageRanges(ranges, i + 1));
  const field = `documents[${index}].pages`;
  const has = `${label} has ${count} page${count === 1 ? '' : 's'}`;
  if (chosen.length === 0) {
    const issue = `chooses no page: ${has}`;
    throw new ApiError('VALIDATION_ERROR', `${field}: ${issue}`, { details: [{ field, issue }] });
  }
  const beyond = rangesBeyond(ranges, count);
  if (beyond.length > 0) {
    warnings.push(
      `${field} ${beyond.join(', ')} reach${beyond.length === 1 ? 'es' : ''} past the last page (${has}); the merged PDF holds the pages chosen that exist`,
    );
  }
  return chosen;
}

/**
 * Loads one input as sign loads a PDF (pdf-source.ts): what pdf-lib would decode is measured first;
 * a damaged or encrypted file (§7.6: its strings and streams would need its key) is INVALID_DOCUMENT
 * naming the input; the page tree must be a tree of bounded size.
 */
async function loadSource(bytes: Uint8Array, index: number, label: string, limits: Limits): Promise<PDFDocumentType> {
  const field = `documents[${index}]`;
  const invalid = (issue: string, cause?: unknown) =>
    new ApiError('INVALID_DOCUMENT', `${label}: ${issue}`, { details: [{ field, issue }], cause });
  try {
    assertParseableStreams(bytes, limits);
    const doc = await PDFDocument.load(bytes, {
      updateMetadata: false,
      ignoreEncryption: true,
      throwOnInvalidObject: false,
    }).catch((error: unknown) => {
      throw invalid(`the PDF is damaged and cannot be read: ${(error as Error).message}`, error);
    });
    if (doc.isEncrypted) throw invalid('the PDF is encrypted; decrypt it before merging');
    walkPageTree(doc);
    if (doc.getPageCount() === 0) throw invalid('the PDF has no pages');
    return doc;
  } catch (error) {
    if (error instanceof ApiError) {
      if (error.message.startsWith(label)) throw error;
      throw new ApiError(error.code, `${label}: ${error.message}`, {
        details: [{ field, issue: error.message }],
        cause: error,
      });
    }
    throw invalid(`the PDF is damaged: ${(error as Error).message}`, error);
  }
}

/** The text of a name or string (a name tree key, §7.9.6; a /Dests key, §12.3.2.3). */
function keyText(object: PDFObject | undefined): string | undefined {
  if (object instanceof PDFName) return object.decodeText();
  if (object instanceof PDFString || object instanceof PDFHexString) return object.decodeText();
  return undefined;
}

/** A text string (§7.9.2.2) for `text`: PDFDocEncoding's ASCII as is, UTF-16BE past it. */
function textObject(text: string): PDFHexString {
  return /^[\x20-\x7e]*$/.test(text)
    ? PDFHexString.of([...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join(''))
    : PDFHexString.fromText(text);
}

/** A destination's page and view: an explicit array, or a dictionary whose /D is one (§12.3.2.3). */
function explicitTarget(doc: PDFDocumentType, value: PDFObject | undefined): Target | undefined {
  let dest = value instanceof PDFRef ? doc.context.lookup(value) : value;
  if (dest instanceof PDFDict) dest = dest.lookup(N.D);
  if (!(dest instanceof PDFArray) || dest.size() === 0) return undefined;
  const page = dest.get(0);
  if (!(page instanceof PDFRef)) return undefined;
  const view: PDFObject[] = [];
  for (let i = 1; i < dest.size(); i++) {
    const item = dest.lookup(i);
    if (item instanceof PDFName || item instanceof PDFNumber || item?.toString() === 'null')
      view.push(item as PDFObject);
  }
  return { page, view: view.length > 0 ? view : [N.Fit] };
}

/**
 * A source's named destinations (§12.3.2.3): the catalog's /Dests dictionary (PDF 1.1) and the
 * /Dests name tree of its /Names (§7.7.4), the tree taking precedence; each resolved to a page.
 */
function readNamedDestinations(doc: PDFDocumentType): Map<string, Target> {
  const found = new Map<string, Target>();
  const old = doc.catalog.lookup(N.Dests);
  if (old instanceof PDFDict) {
    for (const [key, value] of old.entries()) {
      const target = explicitTarget(doc, value);
      if (target) found.set(key.decodeText(), target);
    }
  }
  const namesDict = doc.catalog.lookup(N.Names);
  const root = namesDict instanceof PDFDict ? namesDict.lookup(N.Dests) : undefined;
  const queue: PDFObject[] = root ? [root] : [];
  const seen = new Set<PDFObject>();
  for (let i = 0; i < queue.length && i < MAX_WALK; i++) {
    const node = doc.context.lookup(queue[i]);
    if (!(node instanceof PDFDict) || seen.has(node)) continue;
    seen.add(node);
    const pairs = node.lookup(N.Names);
    if (pairs instanceof PDFArray) {
      for (let k = 0; k + 1 < pairs.size(); k += 2) {
        const name = keyText(pairs.lookup(k));
        const target = explicitTarget(doc, pairs.get(k + 1));
        if (name !== undefined && target) found.set(name, target);
      }
    }
    const kids = node.lookup(N.Kids);
    if (kids instanceof PDFArray) for (let k = 0; k < kids.size(); k++) queue.push(kids.get(k));
  }
  return found;
}

/** Where a destination value (explicit, or a name or string naming one) leads, with its name when it has one. */
function readTarget(
  doc: PDFDocumentType,
  value: PDFObject | undefined,
  named: Map<string, Target>,
): { target?: Target; name?: string } {
  const resolved = value instanceof PDFRef ? doc.context.lookup(value) : value;
  const name = keyText(resolved);
  if (name !== undefined) return { target: named.get(name), name };
  return { target: explicitTarget(doc, resolved) };
}

/** A GoTo action's dictionary (§12.6.4.2), when `action` is one. */
function goTo(doc: PDFDocumentType, action: PDFObject | undefined): PDFDict | undefined {
  const dict = action instanceof PDFRef ? doc.context.lookup(action) : action;
  return dict instanceof PDFDict && dict.lookup(N.S) === N.GoTo ? dict : undefined;
}

function isUri(doc: PDFDocumentType, action: PDFObject | undefined): boolean {
  const dict = action instanceof PDFRef ? doc.context.lookup(action) : action;
  return dict instanceof PDFDict && dict.lookup(N.S) === N.URI;
}

/**
 * Rewrites, on the source, the annotations of the chosen pages so that copying them reaches no
 * other page (see the file's head). /P (Table 164) goes on every annotation of the source, and /B (a page's
 * article beads, §12.4.3) on every chosen page: articles are not carried. A link (§12.5.6.5) or a
 * GoTo action (§12.6.4.2) to a chosen page names it by its place in the copy, a named one by its
 * name in the output; to a page left out (or nowhere), the link is dropped, unless it also has a
 * URI action, which is kept without the destination; another annotation loses just the action.
 * Additional actions (/AA, §12.6.3) are dropped: they may go to any page. Returns the links dropped.
 */
function prepareAnnotations(
  doc: PDFDocumentType,
  chosen: number[],
  place: Map<PDFRef, number>,
  named: Map<string, Target>,
  renamed: Map<string, string>,
): number {
  const pages = doc.getPages();
  let dropped = 0;
  /** The output form of a destination value, or undefined when it leads to no chosen page. */
  const rewrite = (value: PDFObject | undefined): PDFObject | undefined => {
    const { target, name } = readTarget(doc, value, named);
    const at = target && place.get(target.page);
    if (target === undefined || at === undefined) return undefined;
    const outName = name === undefined ? undefined : renamed.get(name);
    if (outName !== undefined) return textObject(outName);
    return doc.context.obj([PDFNumber.of(at), ...target.view]);
  };
  // /P goes from every page's annotations, not only the chosen pages': a widget reaches its field
  // through /Parent (§12.7.3.1), and the field its other widgets, on pages perhaps left out, through /Kids.
  for (const page of pages) {
    const annots = page.node.lookup(N.Annots);
    if (!(annots instanceof PDFArray)) continue;
    for (let i = 0; i < annots.size(); i++) {
      const annot = annots.lookup(i);
      if (annot instanceof PDFDict) annot.delete(N.P);
    }
  }
  for (const pageIndex of chosen) {
    const node = (pages[pageIndex] as PDFPage).node;
    node.delete(N.B);
    const annots = node.lookup(N.Annots);
    if (!(annots instanceof PDFArray)) {
      node.delete(N.Annots);
      continue;
    }
    const kept: PDFObject[] = [];
    for (let i = 0; i < annots.size(); i++) {
      const ref = annots.get(i);
      const annot = doc.context.lookup(ref);
      if (!(annot instanceof PDFDict)) continue;
      annot.delete(N.AA);
      const isLink = annot.lookup(N.Subtype) === N.Link;
      let keep = true;
      if (annot.has(N.Dest)) {
        const dest = rewrite(annot.get(N.Dest));
        if (dest) annot.set(N.Dest, dest);
        else {
          annot.delete(N.Dest);
          if (isLink && !isUri(doc, annot.get(N.A))) keep = false;
        }
      }
      const action = goTo(doc, annot.get(N.A));
      if (action) {
        const dest = rewrite(action.get(N.D));
        // The action may be shared with another annotation: the rewritten one is the annotation's own.
        if (dest) annot.set(N.A, doc.context.obj({ S: N.GoTo, D: dest }));
        else {
          annot.delete(N.A);
          if (isLink) keep = false;
        }
      } else {
        const other = annot.lookup(N.A);
        // Other actions may chain to a GoTo through /Next (§12.6.2); the chain is not followed, so it goes.
        if (other instanceof PDFDict) other.delete(N.Next);
      }
      if (keep) kept.push(ref);
      else dropped++;
    }
    node.set(N.Annots, doc.context.obj(kept));
  }
  return dropped;
}

/** Puts the copied pages' references where prepareAnnotations left a page's place in the copy. */
function restoreAnnotationTargets(out: PDFDocumentType, copied: PDFPage[]): void {
  const fix = (dest: PDFObject | undefined) => {
    const array = dest instanceof PDFRef ? out.context.lookup(dest) : dest;
    if (!(array instanceof PDFArray)) return;
    const at = array.get(0);
    if (at instanceof PDFNumber) {
      const page = copied[at.asNumber()];
      if (page) array.set(0, page.ref);
    }
  };
  for (const page of copied) {
    const annots = page.node.lookup(N.Annots);
    if (!(annots instanceof PDFArray)) continue;
    for (let i = 0; i < annots.size(); i++) {
      const annot = annots.lookup(i);
      if (!(annot instanceof PDFDict)) continue;
      fix(annot.get(N.Dest));
      const action = annot.lookup(N.A);
      if (action instanceof PDFDict && action.lookup(N.S) === N.GoTo) fix(action.get(N.D));
    }
  }
}

/** A source's outline (§12.3.3), its items' destinations resolved; bounded, each item read once. */
function readOutline(doc: PDFDocumentType, named: Map<string, Target>): OutlineItem[] {
  const root = doc.catalog.lookup(N.Outlines);
  if (!(root instanceof PDFDict)) return [];
  const seen = new Set<PDFDict>();
  const children = (parent: PDFDict, depth: number): OutlineItem[] => {
    const items: OutlineItem[] = [];
    let node = parent.lookup(N.First);
    while (node instanceof PDFDict && !seen.has(node) && seen.size < MAX_WALK) {
      seen.add(node);
      const title = node.lookup(N.Title);
      const action = node.lookup(N.A);
      const target = node.has(N.Dest)
        ? readTarget(doc, node.get(N.Dest), named).target
        : readTarget(doc, goTo(doc, action)?.get(N.D), named).target;
      const count = node.lookup(N.Count);
      items.push({
        title: title instanceof PDFString || title instanceof PDFHexString ? title : textObject(''),
        ...(target ? { target } : {}),
        ...(isUri(doc, action) && action instanceof PDFDict ? { uri: action.lookup(N.URI) } : {}),
        ...(node.has(N.C) ? { color: node.lookup(N.C) } : {}),
        ...(node.has(N.F) ? { flags: node.lookup(N.F) } : {}),
        open: count instanceof PDFNumber && count.asNumber() > 0,
        children: depth < MAX_OUTLINE_DEPTH ? children(node, depth + 1) : [],
      });
      node = node.lookup(N.Next);
    }
    return items;
  };
  return children(root, 1);
}

/**
 * The source outline with its destinations in the output. An entry whose destination is on a page
 * left out is dropped and its children take its place; an entry with no destination (nor URI) is
 * kept only as the heading of children that are.
 */
function remapOutline(
  items: OutlineItem[],
  outTarget: (target: Target | undefined) => PDFArray | undefined,
  out: PDFDocumentType,
): OutItem[] {
  return items.flatMap((item): OutItem[] => {
    const children = remapOutline(item.children, outTarget, out);
    const dest = outTarget(item.target);
    const simple = (value: PDFObject | undefined) =>
      value instanceof PDFArray || value instanceof PDFNumber ? value.clone(out.context) : undefined;
    const style = {
      ...(simple(item.color) ? { color: simple(item.color) } : {}),
      ...(simple(item.flags) ? { flags: simple(item.flags) } : {}),
    };
    if (dest) return [{ title: item.title.clone(), dest, open: item.open, children, ...style }];
    if (item.uri instanceof PDFString || item.uri instanceof PDFHexString) {
      const action = out.context.obj({ S: N.URI, URI: item.uri.clone() });
      return [{ title: item.title.clone(), action, open: item.open, children, ...style }];
    }
    if (item.target === undefined && children.length > 0) {
      return [{ title: item.title.clone(), open: item.open, children, ...style }];
    }
    return children;
  });
}

/** Descendants visible when `item` is open (§12.3.3, Table 153 /Count): children, and theirs when open. */
function visibleBelow(item: OutItem): number {
  return item.children.reduce((sum, child) => sum + 1 + (child.open ? visibleBelow(child) : 0), 0);
}

/** Writes the outline dictionary and its items (§12.3.3, Tables 152 and 153). */
function writeOutline(out: PDFDocumentType, items: OutItem[]): void {
  const context = out.context;
  const rootRef = context.nextRef();
  const root = context.obj({ Type: 'Outlines' });
  const link = (parentRef: PDFRef, parent: PDFDict, list: OutItem[]) => {
    const refs = list.map(() => context.nextRef());
    list.forEach((item, i) => {
      const dict = context.obj({});
      dict.set(N.Title, item.title);
      dict.set(N.Parent, parentRef);
      if (i > 0) dict.set(N.Prev, refs[i - 1] as PDFRef);
      if (i + 1 < list.length) dict.set(N.Next, refs[i + 1] as PDFRef);
      if (item.dest) dict.set(N.Dest, item.dest);
      if (item.action) dict.set(N.A, item.action);
      if (item.color) dict.set(N.C, item.color);
      if (item.flags) dict.set(N.F, item.flags);
      if (item.children.length > 0) {
        const below = visibleBelow(item);
        dict.set(N.Count, PDFNumber.of(item.open ? below : -below));
        link(refs[i] as PDFRef, dict, item.children);
      }
      context.assign(refs[i] as PDFRef, dict);
    });
    if (refs.length > 0) {
      parent.set(N.First, refs[0] as PDFRef);
      parent.set(N.Last, refs.at(-1) as PDFRef);
    }
  };
  link(rootRef, root, items);
  root.set(N.Count, PDFNumber.of(items.reduce((sum, item) => sum + 1 + (item.open ? visibleBelow(item) : 0), 0)));
  context.assign(rootRef, root);
  out.catalog.set(N.Outlines, rootRef);
}

/** The output's /Dests name tree (§7.7.4, §7.9.6): one leaf, its keys in byte order. */
function writeNames(out: PDFDocumentType, names: Map<string, PDFArray>): void {
  const entries = [...names].filter(([, dest]) => dest.size() > 0);
  if (entries.length === 0) return;
  const keyed = entries.map(([name, dest]) => ({ key: textObject(name), dest }));
  keyed.sort((a, b) => compareBytes(a.key.asBytes(), b.key.asBytes()));
  const pairs = keyed.flatMap(({ key, dest }) => [key, out.context.register(dest)]);
  const tree = out.context.obj({ Names: out.context.obj(pairs) });
  out.catalog.set(N.Names, out.context.obj({ Dests: out.context.register(tree) }));
}

/** Keys compared as their bytes (§7.9.6: "lexical order"). */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/**
 * Whether an input holds a signature: a field of type /Sig (inherited from its ancestors, §12.7.3.1)
 * with a value (§12.7.4.5); read from the catalog's /AcroForm /Fields, bounded, each field once.
 */
function hasSignature(doc: PDFDocumentType): boolean {
  const form = doc.catalog.lookup(N.AcroForm);
  const fields = form instanceof PDFDict ? form.lookup(N.Fields) : undefined;
  if (!(fields instanceof PDFArray)) return false;
  const queue: { field: PDFObject; type?: PDFObject }[] = [];
  for (let i = 0; i < fields.size(); i++) queue.push({ field: fields.get(i) });
  const seen = new Set<PDFDict>();
  for (let i = 0; i < queue.length && i < MAX_WALK; i++) {
    const { field: ref, type: inherited } = queue[i] as { field: PDFObject; type?: PDFObject };
    const field = doc.context.lookup(ref);
    if (!(field instanceof PDFDict) || seen.has(field)) continue;
    seen.add(field);
    const type = field.lookup(N.FT) ?? inherited;
    if (type === N.Sig && field.lookup(N.V) instanceof PDFDict) return true;
    const kids = field.lookup(N.Kids);
    if (kids instanceof PDFArray) for (let k = 0; k < kids.size(); k++) queue.push({ field: kids.get(k), type });
  }
  return false;
}

/** The source's /Info /Title (§14.3.3), when it has a non-blank one. */
function infoTitle(doc: PDFDocumentType): string | undefined {
  const title = doc.getTitle()?.trim();
  return title ? title : undefined;
}

/** Title, Author, Subject, Keywords and Creator of the first input (§14.3.3, Table 317). */
function copyInfo(source: PDFDocumentType, out: PDFDocumentType): void {
  const info = source.context.lookup(source.context.trailerInfo.Info);
  if (!(info instanceof PDFDict)) return;
  // pdf-lib makes the output's /Info when a field is first set; Producer is ours (the caller sets it again).
  out.setProducer('Quire');
  const target = out.context.lookup(out.context.trailerInfo.Info);
  if (!(target instanceof PDFDict)) return;
  for (const key of ['Title', 'Author', 'Subject', 'Keywords', 'Creator']) {
    const value = info.lookup(PDFName.of(key));
    if (value instanceof PDFString || value instanceof PDFHexString) target.set(PDFName.of(key), value.clone());
  }
}
