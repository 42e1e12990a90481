/**
 * What changed after a signature (ISO 32000-1 §12.8.2.2 DocMDP, Table 254 /P): every object
 * (re)defined by a revision after the signed one (§7.5.6) is compared with the object as it stood
 * in the signed revision and given a class by its dictionary /Type and role:
 *
 * - signatures: new signature or document timestamp dictionaries (§12.8.1), their fields and
 *   widgets (§12.7.4.5), the /AcroForm /Fields array growing by signature fields, /DSS and /VRI
 *   (ETSI EN 319 142-1 §5.4) and the certificate, OCSP and CRL streams they hold; with them the
 *   bookkeeping every saving tool does: the document information dictionary (§14.3.3), XMP
 *   metadata streams (§14.3.2), and the catalog's /Version and /Extensions (§7.7.2, §7.12);
 * - form-filling: a non-signature field's /V, /I and its widgets' appearances (§12.7.3, §12.5.5);
 * - annotations: new or changed annotations (§12.5), a page's /Annots, and the catalog's
 *   appearance name tree (/Names /AP, §7.7.4);
 * - other: everything else — page content, resources, the page tree, other catalog entries, a
 *   change to a signature dictionary that already existed (the "shadow attack": the signed
 *   revision's own signature must not be rewritten), a new object only unchanged objects or
 *   private trailer keys reach, and a revision whose cross-reference section cannot be read (its
 *   changes would be invisible).
 *
 * A key whose value is written differently but resolves to the same thing (a /Resources
 * dictionary moved into a new object, a string re-encoded) is not a change.
 *
 * The overall class is the most severe found. Never throws; what cannot be read counts as other.
 */

import { latin1 } from '../input';
import {
  canonical,
  ObjectReader,
  type ObjectState,
  type PdfValue,
  type RevisionScan,
  readPageTree,
  sameBytes,
  stringBytes,
  textOf,
} from '../pdf-read';
import { type Reference, type ReferenceGraph, referenceGraph, referencesIn, TRAILER } from './reference-graph';

export type ModificationClass = 'none' | 'signatures' | 'form-filling' | 'annotations' | 'other';

export interface ModificationReport {
  classification: ModificationClass;
  /** Whether a later revision adds an approval signature (not a document timestamp). */
  approvalSignatureAdded: boolean;
  /** The first detail of the most severe class found, in plain words. */
  reason: string | undefined;
  /** Plain words: "page 2 content changed", "a page was added", "signature dictionary 12 0 R changed". */
  details: string[];
  /** Fully qualified names (§12.7.3.2) of the form fields filled in after signing, for field locks. */
  filledFields: string[];
}

/** Objects compared at most; a file with more changed objects is reported as other. */
const MAX_OBJECTS = 100_000;
/** Form field tree nodes walked to find the signature widgets. */
const MAX_FIELD_NODES = 100_000;

const SEVERITY: Record<ModificationClass, number> = {
  none: 0,
  signatures: 1,
  'form-filling': 2,
  annotations: 3,
  other: 4,
};

/**
 * Catalog keys a signature or a saving tool may add or change (§12.7.2 /AcroForm; /DSS of ETSI
 * EN 319 142-1; /Version and /Extensions, which PAdES and PDF 2.0 writers update, §7.7.2; and
 * /Metadata, the XMP stream a saving tool rewrites, §14.3.2).
 */
const SIGNATURE_CATALOG_KEYS = new Set(['AcroForm', 'DSS', 'Version', 'Extensions', 'Metadata']);
/**
 * Private keys saving tools stamp on the catalog and the page tree, which no viewer reads: iText
 * writes its version as /ITXT when it saves (adding a signature included).
 */
const BOOKKEEPING_KEYS = new Set(['ITXT']);
/**
 * Keys of a non-signature field that filling it changes (§12.7.3.1 Table 220, §12.7.4; /I of a
 * choice field, §12.7.4.4; /DA, the font the filler sets the value in, §12.7.4.3).
 */
const FILLING_FIELD_KEYS = new Set(['V', 'AS', 'AP', 'MK', 'I', 'DA']);
/** Keys of a signature field's widget that signing it may change (§12.7.4.5; /F, the annotation flags such as Locked, §12.5.3). */
const SIGNING_FIELD_KEYS = new Set([...FILLING_FIELD_KEYS, 'F']);
/** Problems of a revision that leave its cross-reference section readable (its changes are all seen). */
const TOLERATED_DAMAGE = /^(startxref \d+ is off by|no end-of-line after the final %%EOF)/;
/** Values compared at most when resolving references to decide whether a key really changed. */
const MAX_COMPARED_VALUES = 10_000;
/** AcroForm keys that signing or filling touches (§12.7.2 Table 218). */
const ACROFORM_SIGNATURE_KEYS = new Set(['Fields', 'SigFlags']);
const ACROFORM_FILLING_KEYS = new Set(['DR', 'DA', 'NeedAppearances']);

type Resolved = Extract<ObjectState, { kind: 'object' }>;

class Report {
  classification: ModificationClass = 'none';
  /** Approval signatures (not document timestamps) added: DocMDP P=1 forbids them (§12.8.2.2.2). */
  approvalSignaturesAdded = 0;
  readonly details: string[] = [];
  readonly filledFields = new Set<string>();
  /** The first detail given for each class: the reason a verdict cites. */
  readonly firstOf = new Map<ModificationClass, string>();
  add(cls: ModificationClass, detail: string | undefined): void {
    if (SEVERITY[cls] > SEVERITY[this.classification]) this.classification = cls;
    if (detail && !this.firstOf.has(cls)) this.firstOf.set(cls, detail);
    if (detail && this.details.length < 50 && !this.details.includes(detail)) this.details.push(detail);
  }
}

function dictOf(state: ObjectState | undefined): Map<string, PdfValue> | undefined {
  return state?.kind === 'object' && state.value.kind === 'dict' ? state.value.entries : undefined;
}

function nameOf(value: PdfValue | undefined): string | undefined {
  return value?.kind === 'name' ? value.value : undefined;
}

function refNum(value: PdfValue | undefined): number | undefined {
  return value?.kind === 'ref' ? value.num : undefined;
}

function refsIn(value: PdfValue | undefined): number[] {
  return value?.kind === 'array' ? value.items.flatMap((item) => (item.kind === 'ref' ? [item.num] : [])) : [];
}

/** The keys whose values differ between two dictionaries. */
function changedKeys(before: Resolved, after: Resolved): string[] {
  const a = before.value.kind === 'dict' ? before.value.entries : new Map<string, PdfValue>();
  const b = after.value.kind === 'dict' ? after.value.entries : new Map<string, PdfValue>();
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((key) => canonical(a.get(key), before.buffer) !== canonical(b.get(key), after.buffer));
}

function sameObject(before: Resolved, after: Resolved): boolean {
  return (
    canonical(before.value, before.buffer) === canonical(after.value, after.buffer) &&
    sameBytes(before.streamData, after.streamData)
  );
}

interface Context {
  reader: ObjectReader;
  signed: number;
  last: number;
  /** Page object number → page number (1-based), in the newest revision. */
  pages: Map<number, number>;
  report: Report;
  /** The signed revision's /AcroForm when it is an indirect object (§12.7.2). */
  signedForm: Resolved | undefined;
  /** Objects new or changed after signing, with the class decided for them (for referenced objects). */
  classes: Map<number, ModificationClass>;
  /** Every object (re)defined after the signed revision. */
  changed: Set<number>;
  /** Signature fields and their widgets (also /Kids widgets without /Parent) in the newest revision. */
  signatureWidgets: Set<number>;
  scan: RevisionScan;
  /**
   * Objects of the signed revision changed later that have no class of their own (an appearance
   * stream rewritten, an indirect array of the DSS grown), with the detail to give if they are
   * other: what refers to them decides (settleByReferrers).
   */
  deferred: Map<number, string>;
  /** Who refers to whom in the signed and the newest revision, built on first use (reference-graph.ts). */
  graphs: () => Graphs;
  /**
   * Changes to the logical structure (§14.7): the structure tree's bookkeeping for annotations and
   * fields (a widget's /StructParent, its /Form element, the parent tree). They are permitted with
   * the change they record, never alone (settleStructure).
   */
  structure: Set<string>;
}

interface Graphs {
  newest: ReferenceGraph;
  signed: ReferenceGraph;
}

export function classifyModifications(
  pdf: Uint8Array,
  scan: RevisionScan,
  signedRevisionIndex: number,
  options: { signedToEnd?: boolean } = {},
): ModificationReport {
  const report = new Report();
  try {
    // Bytes the signature itself covers to the file's end are signed, whatever they hold.
    if (!options.signedToEnd) checkTail(pdf, scan, report);
    run(pdf, scan, signedRevisionIndex, report);
  } catch (error) {
    report.add('other', `the later revisions cannot be compared: ${(error as Error).message}`);
  }
  return {
    classification: report.classification,
    approvalSignatureAdded: report.approvalSignaturesAdded > 0,
    reason: report.firstOf.get(report.classification),
    details: report.details,
    filledFields: [...report.filledFields],
  };
}

function run(pdf: Uint8Array, scan: RevisionScan, signed: number, report: Report): void {
  const last = scan.revisions.length - 1;
  if (signed < 0 || signed > last) {
    report.add('other', `revision ${signed + 1} is not a revision of this file`);
    return;
  }
  if (signed === last) return;
  const changed = new Set<number>();
  for (let i = signed + 1; i <= last; i++) {
    const revision = scan.revisions[i];
    if (!revision) continue;
    for (const problem of revision.problems) {
      // Damage that hides nothing is said, not counted as a change; anything else may hide one.
      report.add(TOLERATED_DAMAGE.test(problem) ? 'none' : 'other', `revision ${i + 1} is damaged: ${problem}`);
    }
    for (const num of revision.entries.keys()) {
      if (num === 0) continue; // The head of the free list (§7.5.4).
      changed.add(num);
      if (changed.size > MAX_OBJECTS) {
        report.add('other', `more than ${MAX_OBJECTS} objects changed after signing`);
        return;
      }
    }
  }
  const reader = new ObjectReader(pdf, scan);
  let graphs: Graphs | undefined;
  const context: Context = {
    reader,
    signed,
    last,
    pages: readPageTree(reader, last).pages,
    signedForm: signedAcroForm(reader, signed),
    report,
    classes: new Map(),
    changed,
    signatureWidgets: signatureWidgets(reader, last),
    scan,
    deferred: new Map(),
    structure: new Set(),
    graphs: () => {
      graphs ??= { newest: referenceGraph(reader, scan, last), signed: referenceGraph(reader, scan, signed) };
      return graphs;
    },
  };
  // Typed objects first; untyped new objects (appearance streams, certificates, fonts) then take
  // the class of the changed objects that refer to them.
  const untyped: number[] = [];
  for (const num of [...changed].sort((a, b) => a - b)) {
    const cls = classifyObject(context, num, scan.revisions[last]?.root?.num);
    if (cls !== undefined) context.classes.set(num, cls);
    else if (!context.deferred.has(num)) untyped.push(num);
  }
  let pending = inheritClasses(context, untyped);
  if (pending.length > 0 || context.deferred.size > 0) {
    settleByReferrers(context, context.graphs());
    pending = settleUnreached(context, context.graphs().newest, inheritClasses(context, pending));
  }
  // Reached, but only through unchanged objects or trailer keys: a reference the signed revision left
  // undefined now means something (§7.3.10), or a private trailer key names new content.
  const newest = pending.length > 0 ? context.graphs().newest : undefined;
  for (const num of pending) {
    const referrers = newest?.referrers.get(num) ?? [];
    const by = referrers.length > 0 ? `; it is used ${describeReferrers(context, referrers)}` : '';
    report.add('other', `object ${num} 0 R was added, but nothing changed refers to it${by}`);
  }
  // The inherited classes count towards the overall class without details of their own.
  for (const cls of context.classes.values()) report.add(cls, undefined);
  settleStructure(context);
}

/** Keys of the structure tree root (§14.7.2, Table 322) that recording a new element or annotation changes. */
const STRUCTURE_ROOT_KEYS = new Set(['K', 'ParentTree', 'ParentTreeNextKey', 'IDTree']);

/**
 * The logical structure (§14.7): the structure tree root, structure elements, and the parent tree
 * (a number tree, §7.9.7). A tagged document records each annotation and field in it (PDF/UA; a
 * signer adds a /Form element for the widget it adds, §14.8.4.4), so the root's kids and parent
 * tree may change, and new elements appear; an existing element may gain or lose kids, but not
 * change its type, alternate text or actual text (what assistive technology reads).
 */
function classifyStructure(
  context: Context,
  num: number,
  type: string | undefined,
  dict: Map<string, PdfValue>,
  before: Resolved | undefined,
  after: Resolved,
): ModificationClass | undefined {
  const ref = `${num} 0 R`;
  if (type !== 'StructTreeRoot' && type !== 'StructElem') return undefined;
  const was = before ?? (type === 'StructTreeRoot' ? signedStructTreeRoot(context) : undefined);
  if (!was) {
    context.structure.add(`a structure ${type === 'StructElem' ? 'element' : 'tree root'} was added`);
    return 'none';
  }
  const allowed = type === 'StructTreeRoot' ? STRUCTURE_ROOT_KEYS : new Set(['K']);
  const bad = changedKeys(was, after).filter(
    (key) => !allowed.has(key) && !sameResolved(context, entry(was, key), entry(after, key)),
  );
  if (!kidsKept(context, was, after)) {
    context.report.add('other', `structure ${type === 'StructElem' ? 'element' : 'tree root'} ${ref} lost kids`);
    return 'other';
  }
  if (bad.length > 0) {
    context.report.add(
      'other',
      `structure ${type === 'StructElem' ? 'element' : 'tree root'} ${ref} ${bad.map((key) => `/${key}`).join(', ')} changed`,
    );
    return 'other';
  }
  context.structure.add(dict.has('S') ? `structure element ${ref} changed its kids` : 'the structure tree changed');
  return 'none';
}

/** The signed revision's structure tree root (§14.7.2), which a renumbered root is compared with. */
function signedStructTreeRoot(context: Context): Resolved | undefined {
  const value = signedCatalog(context)?.value;
  const root = value?.kind === 'dict' ? refNum(value.entries.get('StructTreeRoot')) : undefined;
  const state = root === undefined ? undefined : context.reader.read(root, context.signed);
  return state?.kind === 'object' ? state : undefined;
}

/**
 * Whether every kid an element (or the root) had when signed is still among its kids, but for
 * those that recorded an annotation since removed from its page: recording a new annotation adds
 * kids, deleting one (DocMDP P=3) drops its object reference; dropping any other kid removes
 * structure of content that was signed (iText refuses it). Kids are compared by what they are
 * (§14.7.5): an object reference by the object it names, a marked-content id or reference as
 * written, an element by its number.
 */
function kidsKept(context: Context, before: Resolved, after: Resolved): boolean {
  const was = kidsOf(context, before, context.signed);
  const now = kidsOf(context, after, context.last);
  if (!was || !now) return false;
  return [...was].every(([id, kid]) => now.has(id) || removedAnnotationRecord(context, kid, 0));
}

type Kid = { kind: 'objr'; obj: number } | { kind: 'element'; num: number } | { kind: 'other' };

function kidsOf(context: Context, state: Resolved, index: number): Map<string, Kid> | undefined {
  let value = state.value.kind === 'dict' ? state.value.entries.get('K') : undefined;
  let buffer = state.buffer;
  if (value?.kind === 'ref') {
    const target = context.reader.read(value.num, index);
    if (target.kind !== 'object') return undefined;
    if (target.value.kind === 'array') {
      value = target.value;
      buffer = target.buffer;
    }
  }
  const items = value === undefined ? [] : value.kind === 'array' ? value.items : [value];
  const out = new Map<string, Kid>();
  for (const item of items) {
    let dict = item.kind === 'dict' ? item.entries : undefined;
    if (item.kind === 'ref') dict = dictOf(context.reader.read(item.num, index));
    const obj = refNum(dict?.get('Obj'));
    if (dict && obj !== undefined && !dict.has('S')) out.set(`objr ${obj}`, { kind: 'objr', obj });
    else if (item.kind === 'ref') out.set(`ref ${item.num}`, { kind: 'element', num: item.num });
    else out.set(canonical(item, buffer), { kind: 'other' });
  }
  return out;
}

/**
 * Whether a kid lost since signing only recorded annotations no page holds any more: an object
 * reference to a (non-widget) annotation gone from every page's /Annots, or an element made of
 * nothing else.
 */
function removedAnnotationRecord(context: Context, kid: Kid, depth: number): boolean {
  if (depth > 8 || kid.kind === 'other') return false;
  if (kid.kind === 'objr') {
    const annotation = dictOf(context.reader.read(kid.obj, context.signed));
    if (!annotation || !isAnnotation(annotation) || nameOf(annotation.get('Subtype')) === 'Widget') return false;
    return ![...context.pages.keys()].some((page) => refsIn(annotsOf(context, page)).includes(kid.obj));
  }
  const element = context.reader.read(kid.num, context.signed);
  if (element.kind !== 'object') return false;
  const kids = kidsOf(context, element, context.signed);
  return (
    kids !== undefined &&
    kids.size > 0 &&
    [...kids.values()].every((k) => removedAnnotationRecord(context, k, depth + 1))
  );
}

/** A page's /Annots array in the newest revision, direct or an array object of its own. */
function annotsOf(context: Context, page: number): PdfValue | undefined {
  const annots = dictOf(context.reader.read(page, context.last))?.get('Annots');
  if (annots?.kind !== 'ref') return annots;
  const state = context.reader.read(annots.num, context.last);
  return state.kind === 'object' ? state.value : undefined;
}

/**
 * Structure-tree bookkeeping rides with the change it records: permitted when an annotation,
 * field or signature changed too, and then said; alone it changes what assistive technology reads
 * of content nobody touched, which no permitted change does.
 */
function settleStructure(context: Context): void {
  const { report, structure } = context;
  if (structure.size === 0) return;
  const [first] = structure;
  if (report.classification === 'none') {
    report.add('other', `${first}, but no annotation, field or signature it would record did`);
    return;
  }
  for (const detail of structure) report.add('none', detail);
}

/** Object, cross-reference or trailer syntax (§7.3.10, §7.5.4, §7.5.5) in bytes after the last %%EOF. */
const UPDATE_SYNTAX = /\d+\s+\d+\s+obj\b|\bxref\b|\btrailer\b|\bstartxref\b/;
/** Tail bytes looked at: an update that hides in more is still seen by its first objects. */
const MAX_TAIL = 1024 * 1024;

/**
 * Bytes after the newest revision's %%EOF that hold objects, a cross-reference section or a
 * trailer: an incremental update left without its %%EOF (§7.5.5). No revision closes it, yet a
 * reader that repairs the file (iText, Acrobat's reconstruction) shows its objects, such as a
 * page replaced after signing (the "incremental saving attack"); it is other. White space, NULs
 * or other stray bytes a transfer appends are not.
 */
function checkTail(pdf: Uint8Array, scan: RevisionScan, report: Report): void {
  const end = scan.revisions.at(-1)?.end ?? pdf.length;
  if (end >= pdf.length) return;
  if (UPDATE_SYNTAX.test(latin1(pdf.subarray(end, Math.min(pdf.length, end + MAX_TAIL))))) {
    report.add('other', `the ${pdf.length - end} bytes after the last %%EOF hold an update no %%EOF closes`);
  }
}

/** The interactive form dictionary of revision `index`, direct or indirect (§12.7.2). */
function formOf(reader: ObjectReader, index: number): Map<string, PdfValue> | undefined {
  return reader.dictAt(reader.catalog(index)?.get('AcroForm'), index)?.entries;
}

/**
 * The signed revision's catalog, to compare a catalog written under a new object number with:
 * savers renumber it (a trailer /Root to a fresh object) with the same entries plus /DSS.
 */
function signedCatalog(context: Context): Resolved | undefined {
  const rootNum = context.scan.revisions[context.signed]?.root?.num;
  const state = rootNum === undefined ? undefined : context.reader.read(rootNum, context.signed);
  return state?.kind === 'object' ? state : undefined;
}

function signedAcroForm(reader: ObjectReader, signed: number): Resolved | undefined {
  const formNum = refNum(reader.catalog(signed)?.get('AcroForm'));
  const form = formNum === undefined ? undefined : reader.read(formNum, signed);
  return form?.kind === 'object' ? form : undefined;
}

/** Whether object `num` (as of revision `index`) is a signature field or a widget of one (§12.7.4.5). */
function isSignatureField(context: Context, num: number, index: number, depth = 0): boolean {
  if (index === context.last && context.signatureWidgets.has(num)) return true;
  const dict = dictOf(context.reader.read(num, index));
  if (!dict || depth > 32) return false;
  const ft = nameOf(dict.get('FT'));
  if (ft !== undefined) return ft === 'Sig';
  const parent = refNum(dict.get('Parent'));
  return parent !== undefined && isSignatureField(context, parent, index, depth + 1);
}

/**
 * The signature fields of revision `index`'s form and every /Kids widget under them (§12.7.4.5):
 * a widget need not carry /Parent to belong to its field, and /Kids may be an indirect array.
 */
function signatureWidgets(reader: ObjectReader, index: number): Set<number> {
  const found = new Set<number>();
  const form = formOf(reader, index);
  const kids = (value: PdfValue | undefined): number[] => {
    if (value?.kind !== 'ref') return refsIn(value);
    const state = reader.read(value.num, index);
    return state.kind === 'object' ? refsIn(state.value) : [];
  };
  const stack: { num: number; sig: boolean }[] = kids(form?.get('Fields')).map((num) => ({ num, sig: false }));
  const seen = new Set<number>();
  while (stack.length > 0 && seen.size < MAX_FIELD_NODES) {
    const { num, sig } = stack.pop() as { num: number; sig: boolean };
    if (seen.has(num)) continue;
    seen.add(num);
    const dict = dictOf(reader.read(num, index));
    if (!dict) continue;
    const ft = nameOf(dict.get('FT'));
    const isSig = ft === undefined ? sig : ft === 'Sig';
    if (isSig) found.add(num);
    for (const kid of kids(dict.get('Kids'))) stack.push({ num: kid, sig: isSig });
  }
  return found;
}

function isSignatureDictionary(dict: Map<string, PdfValue>): boolean {
  const type = nameOf(dict.get('Type'));
  if (type === 'Sig' || type === 'DocTimeStamp') return true;
  return type === undefined && dict.has('ByteRange') && dict.has('Contents') && dict.has('Filter');
}

/** An annotation dictionary (§12.5.2): /Type /Annot, or a /Subtype with a /Rect. */
function isAnnotation(dict: Map<string, PdfValue>): boolean {
  return nameOf(dict.get('Type')) === 'Annot' || (dict.get('Subtype')?.kind === 'name' && dict.has('Rect'));
}

/**
 * Whether new object `num` is out of the document: the newest revision does not reach it (an
 * orphan a saving tool left, such as iText's stray widget), so it changes nothing and is said.
 */
function unreached(context: Context, num: number): boolean {
  const { newest } = context.graphs();
  if (!newest.complete || newest.reachable.has(num)) return false;
  context.report.add('none', `object ${num} 0 R was added, but nothing in the document refers to it`);
  return true;
}

function isField(dict: Map<string, PdfValue>): boolean {
  return dict.has('FT') || (dict.has('T') && (dict.has('Kids') || dict.has('Parent') || dict.has('V')));
}

/** The class of one changed object, or undefined when it has no type of its own and is new. */
function classifyObject(context: Context, num: number, rootNum: number | undefined): ModificationClass | undefined {
  const { reader, signed, last, report } = context;
  const before = reader.read(num, signed);
  const after = reader.read(num, last);
  const ref = `${num} 0 R`;
  if (before.kind === 'problem' || after.kind === 'problem') {
    const problem = before.kind === 'problem' ? before.problem : (after as { problem: string }).problem;
    report.add('other', problem);
    return 'other';
  }
  if (after.kind === 'absent') {
    if (before.kind === 'absent') return 'none';
    const was = dictOf(before);
    if (was && isAnnotation(was) && nameOf(was.get('Subtype')) !== 'Widget') {
      // DocMDP P=3 permits "annotation creation, deletion, and modification" (§12.8.2.2, Table 254).
      report.add('annotations', `annotation ${ref} was deleted`);
      return 'annotations';
    }
    const page = context.pages.get(num);
    const owner = page ? undefined : deletedOwner(context, num);
    if (owner !== undefined) return owner;
    report.add('other', page ? 'a page was removed' : `object ${ref} was deleted`);
    return 'other';
  }
  if (before.kind === 'object' && sameObject(before, after)) return 'none';
  const dict = after.value.kind === 'dict' ? after.value.entries : undefined;
  if (!dict) {
    // An indirect array or other non-dictionary (an /Annots or /Fields array, a /Contents array).
    if (before.kind === 'absent') return undefined;
    const role = arrayRole(context, num);
    if (role && before.kind === 'object')
      return classifyListChange(context, role, refsIn(before.value), refsIn(after.value));
    context.deferred.set(num, `object ${ref} changed`);
    return undefined;
  }
  const type = nameOf(dict.get('Type'));
  const beforeResolved = before.kind === 'object' ? before : undefined;
  if (num === rootNum || type === 'Catalog')
    return classifyCatalog(context, beforeResolved ?? signedCatalog(context), after);
  if (isSignatureDictionary(dict)) {
    if (beforeResolved) {
      report.add('other', `signature dictionary ${ref} changed`);
      return 'other';
    }
    if (type === 'DocTimeStamp') report.add('signatures', 'a document timestamp was added');
    else {
      report.approvalSignaturesAdded++;
      report.add('signatures', 'a signature was added');
    }
    return 'signatures';
  }
  if (isInfoUpdate(context, num, beforeResolved, after)) {
    report.add('signatures', 'the document information dictionary was updated');
    return 'signatures';
  }
  if (isExtensionsUpdate(context, num, beforeResolved) && onlyReferredToAs(context, num, 'Extensions')) {
    const was = { value: (beforeResolved as Resolved).value, buffer: (beforeResolved as Resolved).buffer, index: -1 };
    if (!extensionsOnlyGrow(context, was, { value: after.value, buffer: after.buffer, index: -1 })) {
      report.add('other', "the document's declared extensions were removed or lowered");
      return 'other';
    }
    report.add('signatures', "the document's declared extensions changed");
    return 'signatures';
  }
  const structure = classifyStructure(context, num, type, dict, beforeResolved, after);
  if (structure !== undefined) return structure;
  if (isMetadataUpdate(context, num, beforeResolved, after)) {
    report.add('signatures', 'the XMP metadata was updated');
    return 'signatures';
  }
  if (isValidationData(dict)) {
    report.add('signatures', 'validation data (DSS) was added or updated');
    return 'signatures';
  }
  if (type === 'Page') return classifyPage(context, num, beforeResolved, after);
  if (type === 'Pages') {
    const changed =
      beforeResolved &&
      changedKeys(beforeResolved, after).filter(
        (key) => !sameResolved(context, entry(beforeResolved, key), entry(after, key)),
      );
    if (changed?.every((key) => BOOKKEEPING_KEYS.has(key))) {
      report.add('signatures', `the page tree's ${changed.map((key) => `/${key}`).join(', ')} stamp changed`);
      return 'signatures';
    }
    if (!beforeResolved) report.add('other', 'a page tree node was added');
    else {
      const count = (state: Resolved) => {
        const value = state.value.kind === 'dict' ? state.value.entries.get('Count') : undefined;
        return value?.kind === 'number' ? value.value : undefined;
      };
      const b = count(beforeResolved);
      const a = count(after);
      if (a !== undefined && b !== undefined && a > b) report.add('other', 'a page was added');
      else if (a !== undefined && b !== undefined && a < b) report.add('other', 'a page was removed');
      else report.add('other', 'the page tree changed');
    }
    return 'other';
  }
  if (dict.has('Fields')) return classifyAcroForm(context, beforeResolved, after);
  const subtype = nameOf(dict.get('Subtype'));
  if (subtype === 'Widget' || isField(dict)) return classifyFieldOrWidget(context, num, beforeResolved, after);
  if (isAnnotation(dict)) {
    if (!beforeResolved && unreached(context, num)) return 'none';
    report.add('annotations', beforeResolved ? `annotation ${ref} changed` : `a ${subtype ?? ''} annotation was added`);
    return 'annotations';
  }
  if (type === 'XRef' || type === 'ObjStm') return 'none';
  if (!beforeResolved) return undefined;
  context.deferred.set(num, type ? `${type} object ${ref} changed` : `object ${ref} changed`);
  return undefined;
}

/**
 * The document information dictionary (§14.3.3) a saving tool rewrites: the one the signed
 * revision's trailer names, or a new object the newest trailer names. Never a stream, so that
 * pointing /Info at a content stream cannot pass its change off as bookkeeping.
 */
function isInfoUpdate(context: Context, num: number, before: Resolved | undefined, after: Resolved): boolean {
  const { scan } = context;
  if (after.streamData !== undefined || before?.streamData !== undefined) return false;
  if (after.value.kind !== 'dict' || after.value.entries.has('Type')) return false;
  return num === scan.revisions[context.signed]?.info || (!before && num === scan.revisions[context.last]?.info);
}

/**
 * Whether the catalog's `key` is the only thing that refers to object `num`, in the signed and in
 * the newest revision: an object that is also reached another way (an unknown catalog key, a page)
 * is not bookkeeping, whatever path a check expects it on.
 */
function onlyReferredToAs(context: Context, num: number, key: string): boolean {
  const { newest, signed } = context.graphs();
  const only = (graph: ReferenceGraph, index: number) =>
    graph.complete &&
    (graph.referrers.get(num) ?? []).every(
      (reference) => reference.from === context.scan.revisions[index]?.root?.num && reference.key === key,
    );
  return only(signed, context.signed) && only(newest, context.last);
}

/**
 * Whether the catalog's /Extensions (§7.12, ISO 32000-2 Table 50) only gained extensions or
 * raised their level: each developer prefix present when signed is still there with a base
 * version and extension level no lower (iText refuses a decrease; a signer never lowers one).
 */
function extensionsOnlyGrow(context: Context, was: Located, now: Located): boolean {
  const levels = (located: Located, index: number): Map<string, [number, number]> | undefined => {
    if (located.value === undefined) return new Map();
    const dict = context.reader.dictAt(located.value, index)?.entries;
    if (!dict) return undefined;
    const out = new Map<string, [number, number]>();
    for (const [prefix, value] of dict) {
      if (prefix === 'Type') continue;
      // ISO 32000-2 allows an array of extension dictionaries per prefix: the highest counts.
      const items = value.kind === 'array' ? value.items : [value];
      let best: [number, number] = [0, 0];
      for (const item of items) {
        const extension = context.reader.dictAt(item, index)?.entries;
        const base = extension?.get('BaseVersion');
        const level = extension?.get('ExtensionLevel');
        const version = base?.kind === 'name' ? Number.parseFloat(base.value) : 0;
        const candidate: [number, number] = [
          Number.isFinite(version) ? version : 0,
          level?.kind === 'number' ? level.value : 0,
        ];
        if (candidate[0] > best[0] || (candidate[0] === best[0] && candidate[1] > best[1])) best = candidate;
      }
      out.set(prefix, best);
    }
    return out;
  };
  const before = levels(was, context.signed);
  const after = levels(now, context.last);
  if (!before || !after) return false;
  for (const [prefix, [version, level]] of before) {
    const later = after.get(prefix);
    if (!later || later[0] < version || (later[0] === version && later[1] < level)) return false;
  }
  return true;
}

/** The catalog's /Extensions dictionary (§7.12) kept in an object of its own, as signed. */
function isExtensionsUpdate(context: Context, num: number, before: Resolved | undefined): boolean {
  if (!before || before.streamData !== undefined) return false;
  return refNum(context.reader.catalog(context.signed)?.get('Extensions')) === num;
}

/**
 * An XMP metadata stream (§14.3.2) rewritten: one that was a metadata stream when signed, or the
 * new one the newest catalog names. Anything else dressed as /Type /Metadata (a page's content
 * stream) is not let through.
 */
function isMetadataUpdate(context: Context, num: number, before: Resolved | undefined, after: Resolved): boolean {
  const isXmp = (state: Resolved) => {
    const dict = state.value.kind === 'dict' ? state.value.entries : undefined;
    return nameOf(dict?.get('Type')) === 'Metadata' && nameOf(dict?.get('Subtype')) === 'XML';
  };
  if (!isXmp(after)) return false;
  if (before) return isXmp(before);
  return refNum(context.reader.catalog(context.last)?.get('Metadata')) === num;
}

/**
 * The catalog (§7.7.2): /AcroForm, /DSS and the saving bookkeeping may change after signing;
 * /Lang only in its encoding; /Names only in its annotation appearance tree.
 */
function classifyCatalog(context: Context, before: Resolved | undefined, after: Resolved): ModificationClass {
  const { report } = context;
  if (!before) {
    report.add('other', 'the document catalog was replaced');
    return 'other';
  }
  let cls: ModificationClass = 'none';
  const others: string[] = [];
  for (const key of changedKeys(before, after)) {
    const was = entry(before, key);
    const now = entry(after, key);
    if (key === 'DSS' && was.value !== undefined && now.value === undefined) {
      // Validation data is only ever added (ETSI EN 319 142-1 §5.4): removing it is not signing.
      report.add('other', 'the DSS (validation data) was removed');
      return 'other';
    }
    if (key === 'Extensions' && !extensionsOnlyGrow(context, was, now)) {
      report.add('other', "the document's declared extensions were removed or lowered");
      return 'other';
    }
    if (key === 'StructTreeRoot' && now.value?.kind === 'ref') {
      // A new root object is compared with the signed one where it is classed (classifyStructure).
      context.structure.add('the structure tree root was added or replaced');
      continue;
    }
    if (SIGNATURE_CATALOG_KEYS.has(key) || BOOKKEEPING_KEYS.has(key)) cls = maxClass(cls, 'signatures');
    else if (sameResolved(context, was, now)) continue;
    else if (key === 'Lang' && sameText(was, now)) continue;
    else if (key === 'Names' && namesOnlyAddAppearances(context, was, now)) {
      report.add('annotations', 'annotation appearances were added to the name dictionary');
      cls = maxClass(cls, 'annotations');
    } else others.push(key);
  }
  if (others.length > 0) {
    report.add('other', `catalog ${others.map((key) => `/${key}`).join(', ')} changed`);
    return 'other';
  }
  return cls;
}

interface Located {
  value: PdfValue | undefined;
  buffer: Uint8Array;
  /** The revision whose objects its references name. */
  index: number;
}

function entry(state: Resolved, key: string, index?: number): Located {
  const value = state.value.kind === 'dict' ? state.value.entries.get(key) : undefined;
  return { value, buffer: state.buffer, index: index ?? -1 };
}

/**
 * Whether two values mean the same once references are followed: a reference to an object no
 * later revision touched is equal to itself; others are compared by what they resolve to, as of
 * the signed and the newest revision. Bounded by MAX_COMPARED_VALUES.
 */
function sameResolved(context: Context, a: Located, b: Located): boolean {
  const budget = { left: MAX_COMPARED_VALUES };
  const at = (located: Located, index: number): Located => ({
    ...located,
    index: located.index < 0 ? index : located.index,
  });
  return same(context, at(a, context.signed), at(b, context.last), budget, 0);
}

function same(context: Context, a: Located, b: Located, budget: { left: number }, depth: number): boolean {
  if (--budget.left < 0 || depth > 32) return false;
  let { value: x, buffer: xb } = a;
  let { value: y, buffer: yb } = b;
  let xData: Uint8Array | undefined;
  let yData: Uint8Array | undefined;
  if (x?.kind === 'ref' && y?.kind === 'ref' && x.num === y.num && !context.changed.has(x.num)) return true;
  if (x?.kind === 'ref') {
    const state = context.reader.read(x.num, a.index);
    if (state.kind === 'problem') return false;
    [x, xb, xData] =
      state.kind === 'object' ? [state.value, state.buffer, state.streamData] : [undefined, xb, undefined];
  }
  if (y?.kind === 'ref') {
    const state = context.reader.read(y.num, b.index);
    if (state.kind === 'problem') return false;
    [y, yb, yData] =
      state.kind === 'object' ? [state.value, state.buffer, state.streamData] : [undefined, yb, undefined];
  }
  if (!sameBytes(xData, yData)) return false;
  if (x?.kind === 'dict' && y?.kind === 'dict') {
    if (x.entries.size !== y.entries.size) return false;
    for (const [key, item] of x.entries) {
      if (!y.entries.has(key)) return false;
      const next = { value: y.entries.get(key), buffer: yb, index: b.index };
      if (!same(context, { value: item, buffer: xb, index: a.index }, next, budget, depth + 1)) return false;
    }
    return true;
  }
  if (x?.kind === 'array' && y?.kind === 'array') {
    if (x.items.length !== y.items.length) return false;
    return x.items.every((item, i) =>
      same(
        context,
        { value: item, buffer: xb, index: a.index },
        { value: y.items[i], buffer: yb, index: b.index },
        budget,
        depth + 1,
      ),
    );
  }
  return canonical(x, xb) === canonical(y, yb);
}

/** Two text strings with the same characters, however encoded (§7.9.2.2). */
function sameText(a: Located, b: Located): boolean {
  return (
    a.value?.kind === 'string' &&
    b.value?.kind === 'string' &&
    textOf(stringBytes(a.value, a.buffer)) === textOf(stringBytes(b.value, b.buffer))
  );
}

/**
 * Whether the name dictionary (§7.7.4) changed only in /AP, the appearance streams annotations
 * use (Acrobat adds its comment icons there); any other tree (/JavaScript, /EmbeddedFiles,
 * /Dests…) changing is other.
 */
function namesOnlyAddAppearances(context: Context, was: Located, now: Located): boolean {
  const resolve = (located: Located, index: number): Map<string, PdfValue> | undefined => {
    if (located.value?.kind === 'dict') return located.value.entries;
    if (located.value?.kind === 'ref') return dictOf(context.reader.read(located.value.num, index));
    return located.value === undefined ? new Map() : undefined;
  };
  const before = resolve(was, context.signed);
  const after = resolve(now, context.last);
  if (!before || !after) return false;
  const bufferOf = (located: Located, index: number): Uint8Array => {
    if (located.value?.kind !== 'ref') return located.buffer;
    const state = context.reader.read(located.value.num, index);
    return state.kind === 'object' ? state.buffer : located.buffer;
  };
  const keys = new Set([...before.keys(), ...after.keys()]);
  keys.delete('AP');
  for (const key of keys) {
    const x = { value: before.get(key), buffer: bufferOf(was, context.signed), index: context.signed };
    const y = { value: after.get(key), buffer: bufferOf(now, context.last), index: context.last };
    if (!same(context, x, y, { left: MAX_COMPARED_VALUES }, 0)) return false;
  }
  return true;
}

/** A page (§7.7.3.3): only /Annots may change, and new annotations are classed on their own. */
function classifyPage(context: Context, num: number, before: Resolved | undefined, after: Resolved): ModificationClass {
  const { report } = context;
  const page = context.pages.get(num);
  const label = page ? `page ${page}` : `page object ${num} 0 R`;
  if (!before) {
    if (unreached(context, num)) return 'none';
    report.add('other', 'a page was added');
    return 'other';
  }
  const keys = changedKeys(before, after);
  let tabs: ModificationClass = 'none';
  const others = keys.filter((key) => {
    if (key === 'Annots' || sameResolved(context, entry(before, key), entry(after, key))) return false;
    if (key === 'StructParents') {
      context.structure.add(`${label} /StructParents changed`);
      return false;
    }
    if (key === 'Tabs') {
      // The tab order of the page's annotations (§12.5, Table 31): part of annotating. Setting the
      // structure order /S where none was given changes nothing iText or Acrobat shows.
      const was = entry(before, key).value;
      const now = entry(after, key).value;
      if (was === undefined && nameOf(now) === 'S') return false;
      report.add('annotations', `${label} tab order changed`);
      tabs = 'annotations';
      return false;
    }
    return true;
  });
  if (others.length > 0) {
    for (const key of others) {
      if (key === 'Contents') report.add('other', `${label} content changed`);
      else if (key === 'Resources') report.add('other', `${label} resources changed`);
      else report.add('other', `${label} /${key} changed`);
    }
    return 'other';
  }
  if (!keys.includes('Annots')) return tabs;
  // Only /Annots changed: widgets of new signature fields are part of signing (§12.7.4.5).
  const annots = (state: Resolved) =>
    refsIn(state.value.kind === 'dict' ? state.value.entries.get('Annots') : undefined);
  const old = new Set(annots(before));
  const now = annots(after);
  const added = now.filter((n) => !old.has(n));
  const removed = [...old].filter((n) => !now.includes(n));
  if (removed.length === 0 && added.length > 0 && added.every((n) => isSignatureField(context, n, context.last)))
    return maxClass('signatures', tabs);
  report.add('annotations', `${label} annotations changed`);
  return 'annotations';
}

type ListRole = { kind: 'annots'; label: string } | { kind: 'fields' };

/**
 * What an indirect array that changed is to the newest revision: a page's /Annots (§7.7.3.3) or
 * the form's /Fields (§12.7.2), which may each be an array object of its own.
 */
function arrayRole(context: Context, num: number): ListRole | undefined {
  const { reader, last } = context;
  const form = formOf(reader, last);
  if (refNum(form?.get('Fields')) === num) return { kind: 'fields' };
  for (const [pageNum, page] of context.pages) {
    if (refNum(dictOf(reader.read(pageNum, last))?.get('Annots')) === num)
      return { kind: 'annots', label: `page ${page}` };
  }
  return undefined;
}

/** A page's annotation list or the form's field list that gained or lost entries. */
function classifyListChange(context: Context, role: ListRole, before: number[], after: number[]): ModificationClass {
  const { report } = context;
  const old = new Set(before);
  const added = after.filter((n) => !old.has(n));
  const removed = before.filter((n) => !after.includes(n));
  const signing = removed.length === 0 && added.every((n) => isSignatureField(context, n, context.last));
  if (role.kind === 'fields') {
    if (signing) return 'signatures';
    report.add('other', removed.length > 0 ? 'a form field was removed' : 'a form field was added');
    return 'other';
  }
  if (signing) return added.length > 0 ? 'signatures' : 'none';
  report.add('annotations', `${role.label} annotations changed`);
  return 'annotations';
}

/** The interactive form dictionary (§12.7.2, Table 218). */
function classifyAcroForm(context: Context, own: Resolved | undefined, after: Resolved): ModificationClass {
  const { report } = context;
  // A new form object replacing the signed revision's is compared with it, so fields cannot be
  // dropped by swapping the whole form; a form created to hold a new signature field is signing.
  const before = own ?? context.signedForm;
  if (!before) return 'signatures';
  let cls: ModificationClass = 'none';
  for (const key of changedKeys(before, after)) {
    if (key === 'Fields') {
      const get = (state: Resolved) =>
        refsIn(state.value.kind === 'dict' ? state.value.entries.get('Fields') : undefined);
      const old = new Set(get(before));
      const now = get(after);
      const removed = [...old].filter((n) => !now.includes(n));
      const added = now.filter((n) => !old.has(n));
      if (removed.length > 0 || added.some((n) => !isSignatureField(context, n, context.last))) {
        report.add('other', removed.length > 0 ? 'a form field was removed' : 'a form field was added');
        return 'other';
      }
      cls = maxClass(cls, 'signatures');
    } else if (ACROFORM_SIGNATURE_KEYS.has(key)) cls = maxClass(cls, 'signatures');
    else if (ACROFORM_FILLING_KEYS.has(key)) cls = maxClass(cls, 'form-filling');
    else {
      report.add('other', `the form's /${key} changed`);
      return 'other';
    }
  }
  if (cls === 'form-filling') report.add(cls, "the form's defaults changed");
  return cls;
}

/** A field or widget (§12.7.3, §12.5.6.19): signature ones belong to signing, others to filling. */
function classifyFieldOrWidget(
  context: Context,
  num: number,
  before: Resolved | undefined,
  after: Resolved,
): ModificationClass {
  const { report } = context;
  const signature = isSignatureField(context, num, context.last);
  const ref = `${num} 0 R`;
  if (!before) {
    // The common case first: a field signed in this update. The reach check walks the whole
    // document, so it is only asked when the answer would otherwise count against the update.
    if (signature && signatureValueOf(context, num, context.last) !== undefined) return 'signatures';
    if (unreached(context, num)) return 'none';
    if (signature) {
      // Signing is filling a signature field (§12.8.2.2, Table 254 P=2); a new field left empty is
      // a new widget annotation, which P=1 and P=2 do not permit (iText refuses it too).
      report.add('annotations', `an empty signature field ${ref} was added`);
      return 'annotations';
    }
    report.add('other', 'a form field was added');
    return 'other';
  }
  const allKeys = changedKeys(before, after);
  if (allKeys.includes('StructParent')) context.structure.add(`the structure parent of ${ref} changed`);
  const keys = allKeys.filter((key) => key !== 'StructParent');
  if (keys.length === 0) return 'none';
  const shared = keys.includes('AP') ? sharedAppearance(context, num, before) : undefined;
  if (shared) {
    report.add('other', shared);
    return 'other';
  }
  if (signature) {
    // Signing an empty signature field sets its /V (and appearance); a set /V must not change.
    const beforeV = before.value.kind === 'dict' ? before.value.entries.get('V') : undefined;
    // The appearance of a field signed when this signature was made is part of what was signed:
    // redrawing it (even only moving its font) can change what the visible signature shows (iText
    // refuses it; Acrobat lets it pass).
    const signedAlready = signatureValueOf(context, num, context.signed) !== undefined;
    const bad = keys.filter(
      (key) =>
        !SIGNING_FIELD_KEYS.has(key) || (key === 'V' && beforeV !== undefined) || (key === 'AP' && signedAlready),
    );
    if (bad.length > 0) {
      report.add('other', `signature field ${num} 0 R ${bad.map((key) => `/${key}`).join(', ')} changed`);
      return 'other';
    }
    return 'signatures';
  }
  const bad = keys.filter((key) => !FILLING_FIELD_KEYS.has(key));
  if (bad.length > 0) {
    report.add('other', `form field ${num} 0 R ${bad.map((key) => `/${key}`).join(', ')} changed`);
    return 'other';
  }
  if (!keys.includes('V') && !keys.includes('I') && !valueChanged(context, num)) {
    // Filling a field changes its value and then its appearance; a new appearance over an
    // unchanged value shows what was never filled in (the "replace" shadow attack).
    report.add('other', `form field ${num} 0 R shows a new appearance, but its value did not change`);
    return 'other';
  }
  report.add('form-filling', 'a form field was filled in');
  report.filledFields.add(qualifiedName(context, num));
  return 'form-filling';
}

/**
 * A widget's appearance dictionary kept in an object of its own (§12.5.5) that something besides
 * the widget also refers to in the signed revision: pointing the widget elsewhere is filling it,
 * but what else uses that dictionary was signed with it, and pyHanko refuses the update (its
 * `_allow_appearance_update`), so a filler cannot pass off a shared object as the field's own.
 */
function sharedAppearance(context: Context, num: number, before: Resolved): string | undefined {
  const ap = refNum(entry(before, 'AP').value);
  if (ap === undefined) return undefined;
  const { signed } = context.graphs();
  const others = (signed.referrers.get(ap) ?? []).filter((reference) => reference.from !== num);
  if (signed.complete && others.length === 0) return undefined;
  return `the appearance dictionary ${ap} 0 R of form field ${num} 0 R is also used ${describeReferrers(context, others)}`;
}

/** Plain words for who refers to an object: "by the catalog's /FooBar", "by object 12 0 R". */
function describeReferrers(context: Context, references: Reference[]): string {
  if (references.length === 0) return 'elsewhere';
  const root = context.scan.revisions[context.signed]?.root?.num;
  const words = references.slice(0, 3).map(({ from, key }) => {
    if (from === TRAILER) return `the trailer's /${key}`;
    const where = from === root ? 'the catalog' : `object ${from} 0 R`;
    return key === undefined ? where : `${where} (/${key})`;
  });
  return `by ${words.join(', ')}`;
}

/** A field's fully qualified name in the newest revision (§12.7.3.2): the partial names up its /Parent chain. */
function qualifiedName(context: Context, num: number): string {
  const parts: string[] = [];
  let current: number | undefined = num;
  for (let depth = 0; current !== undefined && depth < 32; depth++) {
    const state = context.reader.read(current, context.last);
    const dict = dictOf(state);
    const t = dict?.get('T');
    if (t?.kind === 'string' && state.kind === 'object') parts.unshift(textOf(stringBytes(t, state.buffer)));
    current = refNum(dict?.get('Parent'));
  }
  return parts.join('.');
}

/** The /V of a signature field as of revision `index`, its own or its parent field's (§12.7.3.1). */
function signatureValueOf(context: Context, num: number, index: number): PdfValue | undefined {
  let current: number | undefined = num;
  for (let depth = 0; current !== undefined && depth < 32; depth++) {
    const dict = dictOf(context.reader.read(current, index));
    const value = dict?.get('V');
    if (value !== undefined && value.kind !== 'keyword') return value; // not `null`
    current = refNum(dict?.get('Parent'));
  }
  return undefined;
}

/** Whether the /V (or /I) a widget shows, its own or its parent field's (§12.7.3.1), changed after signing. */
function valueChanged(context: Context, num: number): boolean {
  const { reader, signed, last } = context;
  let current: number | undefined = num;
  for (let depth = 0; current !== undefined && depth < 32; depth++) {
    const before = reader.read(current, signed);
    const after = reader.read(current, last);
    if (before.kind !== 'object' || after.kind !== 'object') return true;
    const dict = dictOf(after);
    if (dict?.has('V') || dictOf(before)?.has('V')) {
      return ['V', 'I'].some((key) => !sameResolved(context, entry(before, key), entry(after, key)));
    }
    current = refNum(dict?.get('Parent'));
  }
  return false;
}

function maxClass(a: ModificationClass, b: ModificationClass): ModificationClass {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

/**
 * New objects without a type of their own (appearance streams, certificate and OCSP streams,
 * fonts, indirect arrays) take the most severe class of the changed objects that refer to them,
 * repeated until nothing changes. Returns those no classed object refers to (settleUnreached
 * decides about them): a number the signed revision referred to but did not define would give its
 * references new meaning (§7.3.10: a reference to an undefined object is null).
 */
function inheritClasses(context: Context, untyped: number[]): number[] {
  const { reader, last, classes } = context;
  const referrers = new Map<number, Set<number>>();
  for (const num of [...classes.keys(), ...untyped]) {
    const state = reader.read(num, last);
    if (state.kind !== 'object') continue;
    for (const target of referencesIn(state.value)) {
      const set = referrers.get(target) ?? new Set<number>();
      set.add(num);
      referrers.set(target, set);
    }
  }
  let pending = untyped;
  for (let round = 0; round < 64 && pending.length > 0; round++) {
    const next: number[] = [];
    for (const num of pending) {
      const from = [...(referrers.get(num) ?? [])].map((r) => classes.get(r)).filter((c) => c !== undefined);
      if (from.length === 0) next.push(num);
      else classes.set(num, from.reduce(maxClass, 'none'));
    }
    if (next.length === pending.length) break;
    pending = next;
  }
  return pending;
}

/**
 * Objects of the signed revision rewritten later, with no class of their own, take their class
 * from everything that refers to them, in the signed revision and in the newest:
 * - signature machinery (a signature field or widget not yet signed then, through its appearance,
 *   §12.7.4.5, §12.5.5; a signature dictionary; the DSS or a VRI entry, ETSI EN 319 142-1 §5.4):
 *   signing, so an appearance stream a later signer redraws in the empty field it signs, or a DSS
 *   array that grows, is permitted;
 * - the appearance of a form field whose value changed: form filling (its widget's stream redrawn
 *   in place, as some fillers do);
 * - the structure tree (§14.7): its bookkeeping (an array of kids, a parent tree node);
 * - or an object only such referrers reach (an appearance dictionary, a form XObject of it).
 * Anything else referring to it (a page drawing the same stream, the catalog under another key)
 * makes the change other, since it alters what the signed document shows. An object the newest
 * revision no longer reaches changes nothing. Repeated until nothing changes, since one such
 * object may hold another.
 */
function settleByReferrers(context: Context, graphs: Graphs): void {
  const { deferred, classes, report } = context;
  const roles: [Role, ModificationClass][] = [
    ['signature', 'signatures'],
    ['form', 'form-filling'],
    ['structure', 'none'],
  ];
  for (let round = 0; round < 16 && deferred.size > 0; round++) {
    let settled = false;
    for (const num of [...deferred.keys()]) {
      let cls: ModificationClass | undefined;
      if (graphs.newest.complete && !graphs.newest.reachable.has(num)) cls = 'none';
      for (const [role, roleClass] of roles) {
        if (cls !== undefined) break;
        const owned = (graph: ReferenceGraph, index: number) => isOwnedBy(context, role, graph, num, index, new Set());
        if (owned(graphs.newest, context.last) && owned(graphs.signed, context.signed)) cls = roleClass;
        if (cls === undefined) continue;
        if (role === 'signature')
          report.add('signatures', 'an appearance or validation-data object of a signature was updated');
        else if (role === 'form')
          report.add('form-filling', `the appearance ${num} 0 R of a field filled in was redrawn`);
        else context.structure.add('the structure tree changed');
      }
      if (cls === undefined) continue;
      classes.set(num, cls);
      deferred.delete(num);
      settled = true;
    }
    if (!settled) break;
  }
  for (const [num, detail] of deferred) {
    classes.set(num, 'other');
    const referrers = graphs.signed.referrers.get(num) ?? graphs.newest.referrers.get(num) ?? [];
    report.add(
      'other',
      referrers.length > 0 ? `${detail}; it is used ${describeReferrers(context, referrers)}` : detail,
    );
  }
  deferred.clear();
}

type Role = 'signature' | 'form' | 'structure' | 'annotation';

/**
 * The class of deleting object `num`, by what referred to it when signed (and still does): one the
 * signed revision did not reach changes nothing; one only validation data or signature machinery
 * held is signing (a DSS rewritten with fresh streams), one only annotations held (a page's
 * /Annots array, a popup) is annotating, one only the structure tree held is its bookkeeping.
 * Undefined when something else held it.
 */
function deletedOwner(context: Context, num: number): ModificationClass | undefined {
  const { newest, signed } = context.graphs();
  if (!signed.complete || !newest.complete) return undefined;
  if (!signed.reachable.has(num)) {
    context.report.add('none', `object ${num} 0 R, which the signed document did not use, was deleted`);
    return 'none';
  }
  const roles: [Role, ModificationClass, string][] = [
    ['signature', 'signatures', `validation data or a signature's object ${num} 0 R was replaced`],
    ['annotation', 'annotations', `annotation object ${num} 0 R was deleted`],
    ['structure', 'none', `structure object ${num} 0 R was deleted`],
  ];
  for (const [role, cls, detail] of roles) {
    const stillUsed = newest.reachable.has(num) && !isOwnedBy(context, role, newest, num, context.last, new Set());
    if (stillUsed || !isOwnedBy(context, role, signed, num, context.signed, new Set())) continue;
    if (role === 'structure') context.structure.add(detail);
    else context.report.add(cls, detail);
    return cls;
  }
  return undefined;
}

/** Keys of a signature field or widget under which what it refers to is its own (§12.7.4.5, §12.5.2). */
const SIGNATURE_WIDGET_KEYS = new Set(['AP', 'V', 'MK', 'Kids', 'Lock', 'SV']);

/** Whether every referrer of `num` in `graph` (revision `index`) is a part of `role`. */
function isOwnedBy(
  context: Context,
  role: Role,
  graph: ReferenceGraph,
  num: number,
  index: number,
  visiting: Set<number>,
): boolean {
  if (!graph.complete || visiting.has(num) || visiting.size > 64) return false;
  const referrers = graph.referrers.get(num);
  if (!referrers || referrers.length === 0) return false;
  visiting.add(num);
  try {
    return referrers.every(({ from, key }) => {
      if (from === TRAILER) return false;
      if (context.deferred.has(from) && index === context.last) return false;
      const dict = dictOf(context.reader.read(from, index));
      if (role === 'signature') {
        if (dict && (isSignatureDictionary(dict) || isValidationData(dict))) return true;
        if (from === context.scan.revisions[index]?.root?.num) return key === 'DSS';
        if (dict && isSignatureField(context, from, index)) {
          // A field signed when this signature was made keeps its appearance (classifyFieldOrWidget).
          if (key === 'AP' && signatureValueOf(context, from, context.signed) !== undefined) return false;
          return key !== undefined && SIGNATURE_WIDGET_KEYS.has(key);
        }
      } else if (role === 'form') {
        // The form's default resources (§12.7.2 Table 218): the fonts a filler adds to set values in.
        if (dict?.has('Fields')) return key === 'DR';
        if (dict && (isField(dict) || nameOf(dict.get('Subtype')) === 'Widget')) {
          return (
            (key === 'AP' || key === 'MK') &&
            !isSignatureField(context, from, context.last) &&
            valueChanged(context, from)
          );
        }
      } else if (role === 'annotation') {
        if (dict && nameOf(dict.get('Type')) === 'Page') return key === 'Annots';
        if (dict && isAnnotation(dict)) return nameOf(dict.get('Subtype')) !== 'Widget';
      } else {
        const type = nameOf(dict?.get('Type'));
        if (type === 'StructTreeRoot') return key !== undefined && STRUCTURE_ROOT_KEYS.has(key);
        if (type === 'StructElem') return key === 'K';
      }
      // An object of no role of its own (an appearance dictionary, a form XObject or image of an
      // appearance, an array, a number tree node) belongs to what refers to it.
      return hasNoRole(dict) && isOwnedBy(context, role, graph, from, index, visiting);
    });
  } finally {
    visiting.delete(num);
  }
}

/** Not a field, widget, annotation, page or catalog: an array, an appearance dictionary, an XObject (§8.8, §8.10). */
function hasNoRole(dict: Map<string, PdfValue> | undefined): boolean {
  if (!dict) return true;
  if (dict.has('FT') || dict.has('Parent')) return false;
  const type = nameOf(dict.get('Type'));
  const subtype = nameOf(dict.get('Subtype'));
  return (
    (type === undefined || type === 'XObject') && (subtype === undefined || subtype === 'Form' || subtype === 'Image')
  );
}

/** The DSS or a VRI dictionary (ETSI EN 319 142-1 §5.4.2, §5.4.3). */
function isValidationData(dict: Map<string, PdfValue>): boolean {
  const type = nameOf(dict.get('Type'));
  return type === 'DSS' || type === 'VRI' || dict.has('VRI') || (type === undefined && dict.has('Certs'));
}

/**
 * New objects that nothing changed refers to: harmless when the newest revision does not reach
 * them at all (nothing draws or runs them; pyHanko's "unreferenced object"), said with no class.
 * Returns those still reached: an unchanged object refers to them, so they give a reference of the
 * signed revision a meaning it did not have.
 */
function settleUnreached(context: Context, newest: ReferenceGraph, pending: number[]): number[] {
  if (!newest.complete) return pending;
  const reached: number[] = [];
  for (const num of pending) {
    if (newest.reachable.has(num)) reached.push(num);
    else context.report.add('none', `object ${num} 0 R was added, but nothing in the document refers to it`);
  }
  return reached;
}
