/**
 * Certification signatures (ISO 32000-1 §12.8.2.2 DocMDP): the author's signature that says
 * which later changes keep the document valid. It is found from the catalog's /Perms /DocMDP
 * (§12.8.4, Table 258) or from a signature dictionary's /Reference entry whose /TransformMethod
 * is /DocMDP (Table 253); /TransformParams /P (Table 254) is 1, 2 (the default) or 3.
 *
 * Field locks (§12.8.2.4 FieldMDP): an approval signature may lock form fields, by a /Reference
 * whose /TransformMethod is /FieldMDP, or by its field's /Lock (§12.7.4.5, Table 233, which says
 * what signing the field locks): /Action /All, /Include or /Exclude of /Fields (fully qualified
 * names), and in PDF 2.0 a /P that restricts later changes as DocMDP does (ISO 32000-2 Table 233).
 */

import { type ObjectReader, type PdfValue, type RevisionScan, stringBytes, textOf } from '../pdf-read';
import type { ModificationReport } from './modification-check';

export type DocMdpLevel = 1 | 2 | 3;

export interface Certification {
  /** The certifying signature dictionary's object number. */
  signatureRef: number;
  p: DocMdpLevel;
}

function levelOf(reader: ObjectReader, reference: Map<string, PdfValue>, index: number): DocMdpLevel {
  const p = reader.dictAt(reference.get('TransformParams'), index)?.entries.get('P');
  // Any value other than 1 or 3 reads as the default 2 (Table 254).
  return p?.kind === 'number' && (p.value === 1 || p.value === 3) ? p.value : 2;
}

/** The certification of the newest revision, or undefined when the document is not certified. */
export function findCertification(
  reader: ObjectReader,
  scan: RevisionScan,
  signatureRefs: readonly number[],
): Certification | undefined {
  const last = scan.revisions.length - 1;
  const catalog = reader.catalog(last);
  const docMdp = reader.dictAt(catalog?.get('Perms'), last)?.entries.get('DocMDP');
  const candidates = docMdp?.kind === 'ref' ? [docMdp.num, ...signatureRefs] : signatureRefs;
  for (const num of candidates) {
    const state = reader.read(num, last);
    const signature = state.kind === 'object' && state.value.kind === 'dict' ? state.value.entries : undefined;
    const references = signature?.get('Reference');
    const items = references?.kind === 'array' ? references.items : [];
    for (const item of items.slice(0, 16)) {
      const reference = reader.dictAt(item, last)?.entries;
      const method = reference?.get('TransformMethod');
      if (reference && method?.kind === 'name' && method.value === 'DocMDP') {
        return { signatureRef: num, p: levelOf(reader, reference, last) };
      }
    }
    // /Perms /DocMDP names the certifying signature even when its /Reference is missing.
    if (docMdp?.kind === 'ref' && num === docMdp.num && signature) return { signatureRef: num, p: 2 };
  }
  return undefined;
}

/**
 * Whether the changes after a signature are within the certification's permissions (Table 254):
 * P=1 permits none, except the validation data and document timestamps ISO 32000-2 §12.8.2.2.2
 * and PAdES (ETSI EN 319 142-1 §5.4) add; P=2 permits form filling and further signatures; P=3
 * also annotations. The reason is undefined when permitted.
 */
export function docMdpViolation(p: DocMdpLevel, modifications: ModificationReport): string | undefined {
  const cls = modifications.classification;
  if (p === 1 && (modifications.approvalSignatureAdded || (cls !== 'none' && cls !== 'signatures'))) {
    return `the certification (DocMDP P=1) permits no changes, but ${modifications.approvalSignatureAdded ? 'a signature was added' : (modifications.reason ?? 'the document changed')}`;
  }
  if (p === 2 && cls === 'annotations') {
    return `the certification (DocMDP P=2) does not permit annotations, but ${modifications.reason ?? 'annotations changed'}`;
  }
  return undefined;
}

export interface FieldLock {
  action: 'All' | 'Include' | 'Exclude';
  /** Fully qualified field names (§12.7.3.2). */
  fields: string[];
  /** ISO 32000-2: the DocMDP level that applies after this signature. */
  p: DocMdpLevel | undefined;
}

/** A dictionary value with the buffer its strings point into (a direct one keeps its parent's). */
function dictIn(
  reader: ObjectReader,
  value: PdfValue | undefined,
  buffer: Uint8Array | undefined,
  index: number,
): { entries: Map<string, PdfValue>; buffer: Uint8Array | undefined } | undefined {
  const found = reader.dictAt(value, index);
  return found ? { entries: found.entries, buffer: found.buffer ?? buffer } : undefined;
}

/** Object `num` of revision `index` when it is a dictionary, with the buffer its strings point into. */
function objectDict(
  reader: ObjectReader,
  num: number,
  index: number,
): { entries: Map<string, PdfValue>; buffer: Uint8Array } | undefined {
  const state = reader.read(num, index);
  return state.kind === 'object' && state.value.kind === 'dict'
    ? { entries: state.value.entries, buffer: state.buffer }
    : undefined;
}

/**
 * The fields a signature locks: its /Reference's FieldMDP transform parameters, else its
 * field's /Lock dictionary. Undefined when it locks nothing.
 */
export function findFieldLock(
  reader: ObjectReader,
  scan: RevisionScan,
  signatureRef: number | undefined,
  fieldRef: number | undefined,
): FieldLock | undefined {
  const last = scan.revisions.length - 1;
  const candidates: { entries: Map<string, PdfValue>; buffer: Uint8Array | undefined }[] = [];
  const signature = signatureRef === undefined ? undefined : objectDict(reader, signatureRef, last);
  const references = signature?.entries.get('Reference');
  for (const item of references?.kind === 'array' ? references.items.slice(0, 16) : []) {
    const reference = dictIn(reader, item, signature?.buffer, last);
    const method = reference?.entries.get('TransformMethod');
    if (method?.kind !== 'name' || method.value !== 'FieldMDP') continue;
    const params = dictIn(reader, reference?.entries.get('TransformParams'), reference?.buffer, last);
    if (params) candidates.push(params);
  }
  const field = fieldRef === undefined ? undefined : objectDict(reader, fieldRef, last);
  const lock = dictIn(reader, field?.entries.get('Lock'), field?.buffer, last);
  if (lock) candidates.push(lock);
  for (const { entries, buffer } of candidates) {
    const action = entries.get('Action');
    const p = entries.get('P');
    const level = p?.kind === 'number' && (p.value === 1 || p.value === 2 || p.value === 3) ? p.value : undefined;
    const names = entries.get('Fields');
    let list: PdfValue[] = [];
    let listBuffer = buffer;
    if (names?.kind === 'array') list = names.items;
    else if (names?.kind === 'ref') {
      const state = reader.read(names.num, last);
      if (state.kind === 'object' && state.value.kind === 'array')
        [list, listBuffer] = [state.value.items, state.buffer];
    }
    const fields = list
      .slice(0, 1000)
      .flatMap((item) => (item.kind === 'string' && listBuffer ? [textOf(stringBytes(item, listBuffer))] : []));
    if (
      action?.kind === 'name' &&
      (action.value === 'All' || action.value === 'Include' || action.value === 'Exclude')
    ) {
      return { action: action.value, fields, p: level };
    }
    if (level !== undefined) return { action: 'Include', fields: [], p: level };
  }
  return undefined;
}

/**
 * Whether the changes after a signature break its field lock: a locked field filled in (a name
 * locks the field and everything under it, §12.7.3.2), or, with a PDF 2.0 /P, a change that
 * level forbids. The reason is undefined when permitted.
 */
export function fieldLockViolation(lock: FieldLock, modifications: ModificationReport): string | undefined {
  const listed = (name: string) => lock.fields.some((locked) => name === locked || name.startsWith(`${locked}.`));
  const locked = modifications.filledFields.find((name) =>
    lock.action === 'All' ? true : lock.action === 'Include' ? listed(name) : !listed(name),
  );
  if (locked !== undefined) {
    return `the field "${locked}" is locked by this signature (FieldMDP /${lock.action}, ISO 32000-1 §12.8.2.4), but it was filled in`;
  }
  const byLevel = lock.p === undefined ? undefined : docMdpViolation(lock.p, modifications);
  return byLevel?.replace(
    /the certification \(DocMDP P=(\d)\)/,
    "the signature field's lock (P=$1, ISO 32000-2 Table 233)",
  );
}
