/**
 * The signature dictionaries of a PDF (ISO 32000-1 §12.8.1, Table 252; §12.7.4.5 signature
 * fields): every /V of a field whose /FT is /Sig, own or inherited (§12.7.3.1, Table 220), walking
 * the /AcroForm /Fields tree and its /Kids from the catalog. pdf-lib gives object access for the
 * walk; the /ByteRange values and the /Contents string's offsets are read from the raw bytes at the
 * dictionary's offset in the cross-reference, because the hole a signature excludes is a byte
 * range of the file as written (§12.8.1), not a parsed value.
 */
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, type PDFObject, PDFRef, PDFString } from 'pdf-lib';
import { type PdfValue, readObjectHeader, readValue } from './pdf-syntax';
import type { RevisionScan } from './revision-types';

/** Fields and widgets visited at most; a form with more is hostile. */
const MAX_NODES = 20_000;

export interface SignatureField {
  /** The fully qualified field name (§12.7.3.2): partial names joined with ".". */
  fieldName: string;
  /** The signature dictionary's object (undefined when /V is a direct dictionary). */
  ref: { num: number; gen: number } | undefined;
  /** /Type: 'Sig', or 'DocTimeStamp' for a document timestamp (ISO 32000-2 §12.8.5); absent /Type reads as 'Sig'. */
  type: 'Sig' | 'DocTimeStamp';
  subFilter: string | undefined;
  /** The four /ByteRange numbers as written, when they are four numbers. */
  byteRange: number[] | undefined;
  /** Offsets of /Contents' "<" and of the byte after its ">", in the raw file. */
  contents: { start: number; end: number } | undefined;
  /**
   * /Cert (§12.8.1 Table 252, required for adbe.x509.rsa_sha1): the certificates' DER, the
   * signer's first. A string is one certificate; an array holds one per string.
   */
  cert?: Uint8Array[];
  problems: string[];
}

export interface SignatureSearch {
  signatures: SignatureField[];
  problems: string[];
}

function name(value: PDFObject | undefined): string | undefined {
  return value instanceof PDFName ? value.decodeText() : undefined;
}

function partialName(dict: PDFDict): string | undefined {
  const t = dict.get(PDFName.of('T'));
  return t instanceof PDFString || t instanceof PDFHexString ? t.decodeText() : undefined;
}

/** The raw dictionary of object `ref`, from the newest revision that lists it. */
function rawObject(
  pdf: Uint8Array,
  scan: RevisionScan,
  ref: { num: number; gen: number },
  problems: string[],
): PdfValue | undefined {
  for (let i = scan.revisions.length - 1; i >= 0; i--) {
    const entry = scan.revisions[i]?.entries.get(ref.num);
    if (!entry) continue;
    if (entry.kind === 'free') break;
    if (entry.kind === 'compressed') {
      // Byte offsets inside a compressed object stream are not offsets of the file (§7.5.7).
      problems.push(`signature dictionary ${ref.num} is in an object stream`);
      return undefined;
    }
    if (entry.offset >= pdf.length) break;
    const header = readObjectHeader(pdf, entry.offset);
    if (!header || header.num !== ref.num || header.gen !== ref.gen) {
      problems.push(`object ${ref.num} ${ref.gen} is not at its xref offset ${entry.offset}`);
      return undefined;
    }
    const value = readValue(pdf, header.bodyStart);
    if (value?.kind !== 'dict') {
      problems.push(`object ${ref.num} is not a readable dictionary`);
      return undefined;
    }
    return value;
  }
  problems.push(`object ${ref.num} ${ref.gen} is not in the cross-reference`);
  return undefined;
}

/** ByteRange and Contents positions from a raw signature dictionary. */
function rawPositions(dict: PdfValue, problems: string[]): Pick<SignatureField, 'byteRange' | 'contents'> {
  if (dict.kind !== 'dict') return { byteRange: undefined, contents: undefined };
  const range = dict.entries.get('ByteRange');
  let byteRange: number[] | undefined;
  if (range?.kind === 'array' && range.items.every((item) => item.kind === 'number')) {
    byteRange = range.items.map((item) => (item.kind === 'number' ? item.value : Number.NaN));
  } else problems.push('/ByteRange is missing or not an array of numbers');
  const contents = dict.entries.get('Contents');
  if (contents?.kind === 'string' && contents.hex)
    return { byteRange, contents: { start: contents.start, end: contents.end } };
  problems.push('/Contents is missing or not a hexadecimal string');
  return { byteRange, contents: undefined };
}

/**
 * Every signature dictionary reachable from the newest catalog's /AcroForm. Never throws: a file
 * pdf-lib cannot read, or a broken form, gives problems.
 */
export async function findSignatureFields(pdf: Uint8Array, scan: RevisionScan): Promise<SignatureSearch> {
  const problems: string[] = [];
  const signatures: SignatureField[] = [];
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { ignoreEncryption: true, throwOnInvalidObject: false, updateMetadata: false });
  } catch (error) {
    problems.push(`the PDF cannot be read: ${(error as Error).message}`);
    return { signatures, problems };
  }
  try {
    walkFields(pdf, scan, doc, signatures, problems);
  } catch (error) {
    // pdf-lib throws on objects of unexpected types; what was found before stays.
    problems.push(`the form cannot be read: ${(error as Error).message}`);
  }
  return { signatures, problems };
}

interface Pending {
  node: PDFObject | undefined;
  ownRef: PDFRef | undefined;
  parentName: string;
  inheritedFieldType: string | undefined;
}

function walkFields(
  pdf: Uint8Array,
  scan: RevisionScan,
  doc: PDFDocument,
  signatures: SignatureField[],
  problems: string[],
): void {
  const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'));
  if (!(acroForm instanceof PDFDict)) return;
  const fields = acroForm.lookup(PDFName.of('Fields'));
  if (!(fields instanceof PDFArray)) return;
  // Depth-first with an explicit stack (no recursion); each object once, so /Kids cycles end.
  const stack: Pending[] = [];
  const pushKids = (kids: PDFArray, parentName: string, inheritedFieldType: string | undefined) => {
    for (let i = kids.size() - 1; i >= 0; i--) {
      const kid = kids.get(i);
      stack.push({
        node: kid instanceof PDFRef ? doc.context.lookup(kid) : kid,
        ownRef: kid instanceof PDFRef ? kid : undefined,
        parentName,
        inheritedFieldType,
      });
    }
  };
  pushKids(fields, '', undefined);
  const seen = new Set<string>();
  let visited = 0;
  while (stack.length > 0) {
    const { node, ownRef, parentName, inheritedFieldType } = stack.pop() as Pending;
    if (++visited > MAX_NODES) {
      problems.push(`the form has more than ${MAX_NODES} fields and widgets; the rest are ignored`);
      return;
    }
    if (!(node instanceof PDFDict)) continue;
    if (ownRef) {
      if (seen.has(ownRef.tag)) {
        problems.push(`field ${ownRef.tag} is reachable twice (a /Kids cycle or a shared field)`);
        continue;
      }
      seen.add(ownRef.tag);
    }
    const partial = partialName(node);
    const fullName = partial === undefined ? parentName : parentName ? `${parentName}.${partial}` : partial;
    const fieldType = name(node.get(PDFName.of('FT'))) ?? inheritedFieldType;
    const kids = node.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray) pushKids(kids, fullName, fieldType);
    if (fieldType !== 'Sig') continue;
    const v = node.get(PDFName.of('V'));
    if (v === undefined) continue; // An unsigned signature field.
    const found = signatureFrom(pdf, scan, doc, ownRef, v, fullName);
    if (found) signatures.push(found);
  }
}

function signatureFrom(
  pdf: Uint8Array,
  scan: RevisionScan,
  doc: PDFDocument,
  fieldRef: PDFRef | undefined,
  v: PDFObject,
  fieldName: string,
): SignatureField | undefined {
  const problems: string[] = [];
  const dict = v instanceof PDFRef ? doc.context.lookup(v) : v;
  if (!(dict instanceof PDFDict)) return undefined;
  const typeName = name(dict.get(PDFName.of('Type')));
  if (typeName !== undefined && typeName !== 'Sig' && typeName !== 'DocTimeStamp') return undefined;
  let raw: PdfValue | undefined;
  if (v instanceof PDFRef) raw = rawObject(pdf, scan, { num: v.objectNumber, gen: v.generationNumber }, problems);
  else if (fieldRef) {
    // A direct /V: the positions are inside the field's own object.
    const rawField = rawObject(pdf, scan, { num: fieldRef.objectNumber, gen: fieldRef.generationNumber }, problems);
    raw = rawField?.kind === 'dict' ? rawField.entries.get('V') : undefined;
  } else problems.push('the signature dictionary is direct in a direct field: its offsets cannot be found');
  const positions = raw ? rawPositions(raw, problems) : { byteRange: undefined, contents: undefined };
  return {
    fieldName,
    ref: v instanceof PDFRef ? { num: v.objectNumber, gen: v.generationNumber } : undefined,
    type: typeName === 'DocTimeStamp' ? 'DocTimeStamp' : 'Sig',
    subFilter: name(dict.get(PDFName.of('SubFilter'))),
    ...positions,
    ...certEntry(dict.lookup(PDFName.of('Cert'))),
    problems,
  };
}

function certEntry(value: PDFObject | undefined): Pick<SignatureField, 'cert'> {
  const bytes = (item: PDFObject | undefined) =>
    item instanceof PDFString || item instanceof PDFHexString ? [item.asBytes()] : [];
  if (value instanceof PDFArray) return { cert: value.asArray().flatMap((_, i) => bytes(value.lookup(i))) };
  return value === undefined ? {} : { cert: bytes(value) };
}
