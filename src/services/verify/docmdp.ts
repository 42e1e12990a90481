/**
 * Certification signatures (ISO 32000-1 §12.8.2.2 DocMDP): the author's signature that says
 * which later changes keep the document valid. It is found from the catalog's /Perms /DocMDP
 * (§12.8.4, Table 258) or from a signature dictionary's /Reference entry whose /TransformMethod
 * is /DocMDP (Table 253); /TransformParams /P (Table 254) is 1, 2 (the default) or 3.
 */

import type { ObjectReader, PdfValue, RevisionScan } from '../pdf-read';
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
