/**
 * What changed after a signature (ISO 32000-1 §12.8.2.2 DocMDP, Table 254 /P): every object
 * (re)defined by a revision after the signed one (§7.5.6) is compared with the object as it stood
 * in the signed revision and given a class by its dictionary /Type and role:
 *
 * - signatures: new signature or document timestamp dictionaries (§12.8.1), their fields and
 *   widgets (§12.7.4.5), the /AcroForm /Fields array growing by signature fields, /DSS and /VRI
 *   (ETSI EN 319 142-1 §5.4) and the certificate, OCSP and CRL streams they hold;
 * - form-filling: a non-signature field's /V and its widgets' appearances (§12.7.3, §12.5.5);
 * - annotations: new or changed annotations (§12.5) and a page's /Annots;
 * - other: everything else — page content, resources, the page tree, catalog entries other than
 *   /AcroForm and /DSS, and a change to a signature dictionary that already existed (the
 *   "shadow attack": the signed revision's own signature must not be rewritten).
 *
 * The overall class is the most severe found. Never throws; what cannot be read counts as other.
 */
import { canonical, ObjectReader, type ObjectState, sameBytes } from './object-reader';
import type { PdfValue } from './pdf-syntax';
import type { RevisionScan } from './revision-types';

export type ModificationClass = 'none' | 'signatures' | 'form-filling' | 'annotations' | 'other';

export interface ModificationReport {
  classification: ModificationClass;
  /** Plain words: "page 2 content changed", "a page was added", "signature dictionary 12 0 R changed". */
  details: string[];
}

/** Objects compared at most; a file with more changed objects is reported as other. */
const MAX_OBJECTS = 100_000;
/** Page tree nodes walked to number the pages. */
const MAX_PAGE_NODES = 100_000;

const SEVERITY: Record<ModificationClass, number> = {
  none: 0,
  signatures: 1,
  'form-filling': 2,
  annotations: 3,
  other: 4,
};

/** Catalog keys a signature may add or change (§12.7.2 /AcroForm; /DSS of ETSI EN 319 142-1). */
const SIGNATURE_CATALOG_KEYS = new Set(['AcroForm', 'DSS']);
/** Keys of a non-signature field that filling it changes (§12.7.3.1 Table 220, §12.7.4). */
const FILLING_FIELD_KEYS = new Set(['V', 'AS', 'AP', 'MK']);
/** AcroForm keys that signing or filling touches (§12.7.2 Table 218). */
const ACROFORM_SIGNATURE_KEYS = new Set(['Fields', 'SigFlags']);
const ACROFORM_FILLING_KEYS = new Set(['DR', 'DA', 'NeedAppearances']);

type Resolved = Extract<ObjectState, { kind: 'object' }>;

class Report {
  classification: ModificationClass = 'none';
  readonly details: string[] = [];
  add(cls: ModificationClass, detail: string | undefined): void {
    if (SEVERITY[cls] > SEVERITY[this.classification]) this.classification = cls;
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
}

export function classifyModifications(
  pdf: Uint8Array,
  scan: RevisionScan,
  signedRevisionIndex: number,
): ModificationReport {
  const report = new Report();
  try {
    run(pdf, scan, signedRevisionIndex, report);
  } catch (error) {
    report.add('other', `the later revisions cannot be compared: ${(error as Error).message}`);
  }
  // TODO: DocMDP (§12.8.2.2, /Perms /DocMDP /TransformParams /P): with P=1 nothing, with P=2 only
  // form filling and signatures, with P=3 also annotations, are permitted; decided by the caller.
  return { classification: report.classification, details: report.details };
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
    if (revision.problems.length > 0) report.add('other', `revision ${i + 1} is damaged: ${revision.problems[0]}`);
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
  const context: Context = {
    reader,
    signed,
    last,
    pages: pageNumbers(reader, scan, last),
    signedForm: signedAcroForm(reader, scan, signed),
    report,
    classes: new Map(),
  };
  // Typed objects first; untyped new objects (appearance streams, certificates, fonts) then take
  // the class of the changed objects that refer to them.
  const untyped: number[] = [];
  for (const num of [...changed].sort((a, b) => a - b)) {
    const cls = classifyObject(context, num, scan.revisions[last]?.root?.num);
    if (cls === undefined) untyped.push(num);
    else context.classes.set(num, cls);
  }
  inheritClasses(context, untyped);
}

function signedAcroForm(reader: ObjectReader, scan: RevisionScan, signed: number): Resolved | undefined {
  const rootNum = scan.revisions[signed]?.root?.num;
  const formNum = rootNum === undefined ? undefined : refNum(dictOf(reader.read(rootNum, signed))?.get('AcroForm'));
  const form = formNum === undefined ? undefined : reader.read(formNum, signed);
  return form?.kind === 'object' ? form : undefined;
}

/** The page tree of revision `index` walked from the catalog (§7.7.3), bounded and cycle-safe. */
function pageNumbers(reader: ObjectReader, scan: RevisionScan, index: number): Map<number, number> {
  const pages = new Map<number, number>();
  const rootNum = scan.revisions[index]?.root?.num;
  if (rootNum === undefined) return pages;
  const top = refNum(dictOf(reader.read(rootNum, index))?.get('Pages'));
  if (top === undefined) return pages;
  const stack = [top];
  const seen = new Set<number>();
  while (stack.length > 0 && seen.size < MAX_PAGE_NODES) {
    const num = stack.pop() as number;
    if (seen.has(num)) continue;
    seen.add(num);
    const dict = dictOf(reader.read(num, index));
    if (!dict) continue;
    const kids = refsIn(dict.get('Kids'));
    if (nameOf(dict.get('Type')) === 'Page' || (kids.length === 0 && !dict.has('Kids'))) {
      pages.set(num, pages.size + 1);
      continue;
    }
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as number);
  }
  return pages;
}

/** Whether object `num` (as of revision `index`) is a signature field or a widget of one (§12.7.4.5). */
function isSignatureField(context: Context, num: number, index: number, depth = 0): boolean {
  const dict = dictOf(context.reader.read(num, index));
  if (!dict || depth > 32) return false;
  const ft = nameOf(dict.get('FT'));
  if (ft !== undefined) return ft === 'Sig';
  const parent = refNum(dict.get('Parent'));
  return parent !== undefined && isSignatureField(context, parent, index, depth + 1);
}

function isSignatureDictionary(dict: Map<string, PdfValue>): boolean {
  const type = nameOf(dict.get('Type'));
  if (type === 'Sig' || type === 'DocTimeStamp') return true;
  return type === undefined && dict.has('ByteRange') && dict.has('Contents') && dict.has('Filter');
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
    const page = context.pages.get(num);
    report.add('other', page ? 'a page was removed' : `object ${ref} was deleted`);
    return 'other';
  }
  if (before.kind === 'object' && sameObject(before, after)) return 'none';
  const dict = after.value.kind === 'dict' ? after.value.entries : undefined;
  if (!dict) {
    // An indirect array or other non-dictionary (an /Annots or /Fields array, a /Contents array).
    if (before.kind === 'absent') return undefined;
    report.add('other', `object ${ref} changed`);
    return 'other';
  }
  const type = nameOf(dict.get('Type'));
  const beforeResolved = before.kind === 'object' ? before : undefined;
  if (num === rootNum || type === 'Catalog') return classifyCatalog(report, beforeResolved, after);
  if (isSignatureDictionary(dict)) {
    if (beforeResolved) {
      report.add('other', `signature dictionary ${ref} changed`);
      return 'other';
    }
    report.add('signatures', type === 'DocTimeStamp' ? 'a document timestamp was added' : 'a signature was added');
    return 'signatures';
  }
  if (type === 'DSS' || type === 'VRI' || dict.has('VRI') || (dict.has('Certs') && !dict.has('Type'))) {
    report.add('signatures', 'validation data (DSS) was added or updated');
    return 'signatures';
  }
  if (type === 'Page') return classifyPage(context, num, beforeResolved, after);
  if (type === 'Pages') {
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
  if (type === 'Annot' || (subtype !== undefined && dict.has('Rect'))) {
    report.add('annotations', beforeResolved ? `annotation ${ref} changed` : `a ${subtype ?? ''} annotation was added`);
    return 'annotations';
  }
  if (type === 'XRef' || type === 'ObjStm') return 'none';
  if (!beforeResolved) return undefined;
  report.add('other', type ? `${type} object ${ref} changed` : `object ${ref} changed`);
  return 'other';
}

/** The catalog (§7.7.2): only /AcroForm and /DSS may change after signing. */
function classifyCatalog(report: Report, before: Resolved | undefined, after: Resolved): ModificationClass {
  if (!before) {
    report.add('other', 'the document catalog was replaced');
    return 'other';
  }
  const keys = changedKeys(before, after);
  const others = keys.filter((key) => !SIGNATURE_CATALOG_KEYS.has(key));
  if (others.length > 0) {
    report.add('other', `catalog ${others.map((key) => `/${key}`).join(', ')} changed`);
    return 'other';
  }
  return keys.length > 0 ? 'signatures' : 'none';
}

/** A page (§7.7.3.3): only /Annots may change, and new annotations are classed on their own. */
function classifyPage(context: Context, num: number, before: Resolved | undefined, after: Resolved): ModificationClass {
  const { report } = context;
  const page = context.pages.get(num);
  const label = page ? `page ${page}` : `page object ${num} 0 R`;
  if (!before) {
    report.add('other', 'a page was added');
    return 'other';
  }
  const keys = changedKeys(before, after);
  const others = keys.filter((key) => key !== 'Annots');
  if (others.length > 0) {
    for (const key of others) {
      if (key === 'Contents') report.add('other', `${label} content changed`);
      else if (key === 'Resources') report.add('other', `${label} resources changed`);
      else report.add('other', `${label} /${key} changed`);
    }
    return 'other';
  }
  if (keys.length === 0) return 'none';
  // Only /Annots changed: widgets of new signature fields are part of signing (§12.7.4.5).
  const annots = (state: Resolved) =>
    refsIn(state.value.kind === 'dict' ? state.value.entries.get('Annots') : undefined);
  const old = new Set(annots(before));
  const now = annots(after);
  const added = now.filter((n) => !old.has(n));
  const removed = [...old].filter((n) => !now.includes(n));
  if (removed.length === 0 && added.length > 0 && added.every((n) => isSignatureField(context, n, context.last)))
    return 'signatures';
  report.add('annotations', `${label} annotations changed`);
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
  if (!before) {
    if (signature) return 'signatures';
    report.add('other', 'a form field was added');
    return 'other';
  }
  const keys = changedKeys(before, after);
  if (signature) {
    // Signing an empty signature field sets its /V (and appearance); a set /V must not change.
    const beforeV = before.value.kind === 'dict' ? before.value.entries.get('V') : undefined;
    const bad = keys.filter((key) => !FILLING_FIELD_KEYS.has(key) || (key === 'V' && beforeV !== undefined));
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
  report.add('form-filling', 'a form field was filled in');
  return 'form-filling';
}

function maxClass(a: ModificationClass, b: ModificationClass): ModificationClass {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

/**
 * New objects without a type of their own (appearance streams, certificate and OCSP streams,
 * fonts, indirect arrays) take the most severe class of the changed objects that refer to them,
 * repeated until nothing changes. One no changed object refers to is other: a number the signed
 * revision referred to but did not define would give its references new meaning (§7.3.10: a
 * reference to an undefined object is null).
 */
function inheritClasses(context: Context, untyped: number[]): void {
  const { reader, last, classes, report } = context;
  const referrers = new Map<number, Set<number>>();
  const changedNums = [...classes.keys(), ...untyped];
  for (const num of changedNums) {
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
  // Also those only referred to by each other (a cycle no classed object leads into).
  for (const num of pending) report.add('other', `object ${num} 0 R was added, but nothing changed refers to it`);
  // The inherited classes count towards the overall class without details of their own.
  for (const cls of classes.values()) report.add(cls, undefined);
}

function referencesIn(value: PdfValue, out: number[] = [], depth = 0): number[] {
  if (depth > 32 || out.length > 100_000) return out;
  if (value.kind === 'ref') out.push(value.num);
  else if (value.kind === 'array') for (const item of value.items) referencesIn(item, out, depth + 1);
  else if (value.kind === 'dict') for (const item of value.entries.values()) referencesIn(item, out, depth + 1);
  return out;
}
