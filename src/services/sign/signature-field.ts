import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFRef,
  PDFString,
} from 'pdf-lib';
import { byteRangePlaceholder, contentsPlaceholderText, RawPdfToken } from './byte-range';
import { formatPdfDate } from './pdf-date';
import type { SignatureDetails } from './sign-types';

export interface SignaturePlaceholder {
  /** The signature dictionary's ref: the writer's offset for it is where the placeholders are. */
  signatureRef: PDFRef;
  fieldName: string;
  /** The /Contents hole; resize it before writing with `setContentsBytes`. */
  setContentsBytes(bytes: number): void;
}

/** Annotation flags Print (3) and Locked (8): 4 + 128 (ISO 32000-1 §12.5.3, Table 165). */
const WIDGET_FLAGS = 132;
/** SignaturesExist (1) and AppendOnly (2) (ISO 32000-1 §12.7.2, Table 219). */
const SIG_FLAGS = 3;

/**
 * What the field's /V is: an approval signature (ISO 32000-1 §12.8.1, Table 252) or a document
 * timestamp (ISO 32000-2 §12.8.5), the last step of PAdES B-LTA (ETSI EN 319 142-1 §5.5).
 */
export type SignatureFieldKind = { type: 'signature'; details: SignatureDetails } | { type: 'document-timestamp' };

/**
 * Adds an invisible signature field on the first page: a merged field/widget (§12.7.4.5,
 * §12.5.6.19) with /Rect [0 0 0 0], its /V the signature dictionary, listed in /AcroForm /Fields
 * and the page's /Annots. Existing fields, signed or not, are left alone.
 */
export function addSignatureField(
  doc: PDFDocument,
  kind: SignatureFieldKind,
  contentsBytes: number,
): SignaturePlaceholder {
  const context = doc.context;
  const contents = new RawPdfToken(contentsPlaceholderText(contentsBytes));
  const signature = context.obj({}) as PDFDict;
  signature.set(PDFName.of('Type'), PDFName.of(kind.type === 'signature' ? 'Sig' : 'DocTimeStamp'));
  signature.set(PDFName.of('Filter'), PDFName.of('Adobe.PPKLite'));
  // ISO 32000-2 §12.8.5: a document timestamp's /Contents is an RFC 3161 TimeStampToken over the ByteRange bytes.
  signature.set(
    PDFName.of('SubFilter'),
    PDFName.of(kind.type === 'signature' ? 'ETSI.CAdES.detached' : 'ETSI.RFC3161'),
  );
  signature.set(PDFName.of('ByteRange'), byteRangePlaceholder());
  signature.set(PDFName.of('Contents'), contents);
  if (kind.type === 'signature') setSignerEntries(signature, kind.details);
  const signatureRef = context.register(signature);

  const acroForm = acroFormOf(doc);
  const fields = arrayEntry(acroForm, 'Fields', doc);
  const fieldName = uniqueFieldName(fields, kind.type === 'signature' ? 'Signature' : 'Timestamp');

  const page = doc.getPage(0);
  // An empty appearance: some validators (PDF/A, Adobe preflight) want every widget to have /AP.
  const appearance = context.register(
    context.stream(new Uint8Array(0), { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 0, 0] }),
  );
  const widget = context.obj({}) as PDFDict;
  widget.set(PDFName.of('Type'), PDFName.of('Annot'));
  widget.set(PDFName.of('Subtype'), PDFName.of('Widget'));
  widget.set(PDFName.of('FT'), PDFName.of('Sig'));
  widget.set(PDFName.of('T'), PDFString.of(fieldName)); // "SignatureN", "TimestampN": ASCII, no escaping needed
  widget.set(PDFName.of('V'), signatureRef);
  widget.set(PDFName.of('Rect'), context.obj([0, 0, 0, 0]));
  widget.set(PDFName.of('F'), PDFNumber.of(WIDGET_FLAGS));
  widget.set(PDFName.of('P'), page.ref);
  widget.set(PDFName.of('AP'), context.obj({ N: appearance }));
  const widgetRef = context.register(widget);

  fields.push(widgetRef);
  arrayEntry(page.node, 'Annots', doc).push(widgetRef);
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(SIG_FLAGS));

  return {
    signatureRef,
    fieldName,
    setContentsBytes: (bytes) => contents.setText(contentsPlaceholderText(bytes)),
  };
}

/**
 * The approval signature's human-readable entries (Table 252). PAdES puts the claimed signing time
 * in /M, not in the CMS (ETSI EN 319 142-1 §5.3); a document timestamp has none of these, its time
 * is the token's.
 */
function setSignerEntries(signature: PDFDict, details: SignatureDetails): void {
  signature.set(PDFName.of('M'), PDFString.of(formatPdfDate(details.signingTime)));
  signature.set(PDFName.of('Name'), PDFHexString.fromText(details.name));
  signature.set(PDFName.of('Reason'), PDFHexString.fromText(details.reason));
  signature.set(PDFName.of('Location'), PDFHexString.fromText(details.location));
  if (details.contactInfo) signature.set(PDFName.of('ContactInfo'), PDFHexString.fromText(details.contactInfo));
}

/** The catalog's /AcroForm (§12.7.2), created as an indirect object when absent. */
function acroFormOf(doc: PDFDocument): PDFDict {
  const existing = doc.catalog.lookup(PDFName.of('AcroForm'));
  if (existing instanceof PDFDict) return existing;
  const acroForm = doc.context.obj({ Fields: [] }) as PDFDict;
  doc.catalog.set(PDFName.of('AcroForm'), doc.context.register(acroForm));
  return acroForm;
}

/** The array `dict` holds under `key` (the form's /Fields, a page's /Annots), an empty one set there if it has none. */
function arrayEntry(dict: PDFDict, key: string, doc: PDFDocument): PDFArray {
  const existing = dict.lookup(PDFName.of(key));
  if (existing instanceof PDFArray) return existing;
  const created = doc.context.obj([]) as PDFArray;
  dict.set(PDFName.of(key), created);
  return created;
}

/** "Signature1", "Signature2", … ("Timestamp1", …): the first not already a fully qualified field name (§12.7.3.2). */
function uniqueFieldName(fields: PDFArray, prefix: string): string {
  const names = new Set<string>();
  collectFieldNames(fields, '', names, new Set());
  for (let n = 1; ; n++) if (!names.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

function collectFieldNames(kids: PDFArray, prefix: string, names: Set<string>, seen: Set<PDFObject>): void {
  for (let i = 0; i < kids.size(); i++) {
    const field = kids.lookup(i);
    if (!(field instanceof PDFDict) || seen.has(field)) continue; // damaged or cyclic trees are tolerated
    seen.add(field);
    const partial = field.lookup(PDFName.of('T'));
    const part = partial instanceof PDFString || partial instanceof PDFHexString ? partial.decodeText() : undefined;
    const name = part === undefined ? prefix : prefix ? `${prefix}.${part}` : part;
    if (name) names.add(name);
    const children = field.lookup(PDFName.of('Kids'));
    if (children instanceof PDFArray) collectFieldNames(children, name, names, seen);
  }
}
