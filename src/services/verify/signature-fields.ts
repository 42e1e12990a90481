/**
 * The signature dictionaries of a PDF (ISO 32000-1 §12.8.1, Table 252; §12.7.4.5 signature
 * fields): every /V of a field whose /FT is /Sig, own or inherited (§12.7.3.1, Table 220), walking
 * the /AcroForm /Fields tree and its /Kids from the newest catalog through the cross-reference
 * (ObjectReader), never a whole-file parser: hostile xref streams and object counts stay bounded.
 * The /ByteRange values and the /Contents string's offsets come from the signature dictionary as
 * written in the file, because the hole a signature excludes is a byte range of the file
 * (§12.8.1), not a parsed value.
 */

import { ObjectReader, type PdfValue, type RevisionScan, stringBytes, textOf } from '../pdf-read';

/** Fields and widgets visited at most; a form with more is hostile. */
const MAX_NODES = 20_000;

export interface SignatureField {
  /** The fully qualified field name (§12.7.3.2): partial names joined with ".". */
  fieldName: string;
  /** The signature dictionary's object (undefined when /V is a direct dictionary). */
  ref: { num: number; gen: number } | undefined;
  /** The field's own object (its /Lock, §12.7.4.5, is read from it); undefined when direct. */
  fieldRef?: number;
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

type Located = { value: PdfValue; buffer: Uint8Array; num: number | undefined };

/** A value with references followed (one level, as §7.3.10 allows), or undefined when unreadable. */
function resolve(
  reader: ObjectReader,
  index: number,
  value: PdfValue | undefined,
  buffer: Uint8Array,
  problems: string[],
): Located | undefined {
  if (!value) return undefined;
  if (value.kind !== 'ref') return { value, buffer, num: undefined };
  const state = reader.read(value.num, index);
  if (state.kind === 'problem') {
    problems.push(state.problem);
    return undefined;
  }
  return state.kind === 'object' ? { value: state.value, buffer: state.buffer, num: value.num } : undefined;
}

function entries(located: Located | undefined): Map<string, PdfValue> | undefined {
  return located?.value.kind === 'dict' ? located.value.entries : undefined;
}

function nameOf(value: PdfValue | undefined): string | undefined {
  return value?.kind === 'name' ? value.value : undefined;
}

/** ByteRange and Contents positions of a signature dictionary as written in the file. */
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
 * Every signature dictionary reachable from the newest catalog's /AcroForm. Never throws: a
 * broken form gives problems.
 */
export async function findSignatureFields(pdf: Uint8Array, scan: RevisionScan): Promise<SignatureSearch> {
  const problems: string[] = [];
  const signatures: SignatureField[] = [];
  const last = scan.revisions.length - 1;
  const rootNum = scan.revisions[last]?.root?.num;
  if (rootNum === undefined) {
    problems.push('the PDF has no readable catalog');
    return { signatures, problems };
  }
  try {
    walkFields(pdf, new ObjectReader(pdf, scan), last, rootNum, signatures, problems);
  } catch (error) {
    problems.push(`the form cannot be read: ${(error as Error).message}`);
  }
  return { signatures, problems };
}

interface Pending {
  node: PdfValue;
  buffer: Uint8Array;
  parentName: string;
  inheritedFieldType: string | undefined;
}

function walkFields(
  pdf: Uint8Array,
  reader: ObjectReader,
  last: number,
  rootNum: number,
  signatures: SignatureField[],
  problems: string[],
): void {
  const state = reader.read(rootNum, last);
  if (state.kind === 'problem') problems.push(state.problem);
  const catalog: Located | undefined =
    state.kind === 'object' ? { value: state.value, buffer: state.buffer, num: rootNum } : undefined;
  const catalogEntries = entries(catalog);
  if (!catalog || !catalogEntries) return;
  const form = resolve(reader, last, catalogEntries.get('AcroForm'), catalog.buffer, problems);
  const formEntries = entries(form);
  if (!form || !formEntries) return;
  const fields = resolve(reader, last, formEntries.get('Fields'), form.buffer, problems);
  if (fields?.value.kind !== 'array') return;
  // Depth-first with an explicit stack (no recursion); each object once, so /Kids cycles end.
  const stack: Pending[] = [];
  const pushKids = (kids: Located, parentName: string, inheritedFieldType: string | undefined) => {
    if (kids.value.kind !== 'array') return;
    for (let i = kids.value.items.length - 1; i >= 0 && stack.length <= MAX_NODES; i--) {
      stack.push({ node: kids.value.items[i] as PdfValue, buffer: kids.buffer, parentName, inheritedFieldType });
    }
  };
  pushKids(fields, '', undefined);
  const seen = new Set<number>();
  let visited = 0;
  while (stack.length > 0) {
    const pending = stack.pop() as Pending;
    if (++visited > MAX_NODES) {
      problems.push(`the form has more than ${MAX_NODES} fields and widgets; the rest are ignored`);
      return;
    }
    if (pending.node.kind === 'ref') {
      if (seen.has(pending.node.num)) {
        problems.push(`field ${pending.node.num} 0 R is reachable twice (a /Kids cycle or a shared field)`);
        continue;
      }
      seen.add(pending.node.num);
    }
    const node = resolve(reader, last, pending.node, pending.buffer, problems);
    const dict = entries(node);
    if (!node || !dict) continue;
    const t = dict.get('T');
    const partial = t?.kind === 'string' ? textOf(stringBytes(t, node.buffer)) : undefined;
    const { parentName } = pending;
    const fullName = partial === undefined ? parentName : parentName ? `${parentName}.${partial}` : partial;
    const fieldType = nameOf(dict.get('FT')) ?? pending.inheritedFieldType;
    const kids = resolve(reader, last, dict.get('Kids'), node.buffer, problems);
    if (kids) pushKids(kids, fullName, fieldType);
    if (fieldType !== 'Sig') continue;
    const v = dict.get('V');
    if (v === undefined || v.kind === 'keyword') continue; // An unsigned signature field (or /V null).
    const found = signatureFrom(pdf, reader, last, node, v, fullName);
    if (!found) continue;
    // One signature dictionary as the /V of several fields is one signature (EU DSS reads it so, DSS-1895).
    const same = found.ref && signatures.find((other) => other.ref?.num === found.ref?.num);
    if (same) {
      same.problems.push(
        `its signature dictionary ${found.ref?.num} ${found.ref?.gen} R is also the value of field "${fullName}"; it is one signature, checked once`,
      );
      continue;
    }
    signatures.push(found);
  }
}

function signatureFrom(
  pdf: Uint8Array,
  reader: ObjectReader,
  last: number,
  field: Located,
  v: PdfValue,
  fieldName: string,
): SignatureField | undefined {
  const problems: string[] = [];
  const dict = resolve(reader, last, v, field.buffer, problems);
  const sig = entries(dict);
  if (!dict || !sig) return undefined;
  const typeName = nameOf(sig.get('Type'));
  if (typeName !== undefined && typeName !== 'Sig' && typeName !== 'DocTimeStamp') return undefined;
  // Offsets inside a decoded object stream are not offsets of the file (§7.5.7).
  const inFile = dict.buffer === pdf;
  if (!inFile) problems.push(`signature dictionary ${dict.num ?? field.num ?? '?'} is in an object stream`);
  const positions = inFile ? rawPositions(dict.value, problems) : { byteRange: undefined, contents: undefined };
  return {
    fieldName,
    ref: v.kind === 'ref' ? { num: v.num, gen: v.gen } : undefined,
    ...(field.num !== undefined ? { fieldRef: field.num } : {}),
    type: typeName === 'DocTimeStamp' ? 'DocTimeStamp' : 'Sig',
    subFilter: nameOf(sig.get('SubFilter')),
    ...positions,
    ...certEntry(reader, last, sig.get('Cert'), dict.buffer),
    problems,
  };
}

/** /Cert of an adbe.x509.rsa_sha1 signature (Table 252): a string, or an array whose first is the signer's. */
function certEntry(
  reader: ObjectReader,
  last: number,
  value: PdfValue | undefined,
  buffer: Uint8Array,
): Pick<SignatureField, 'cert'> {
  const scratch: string[] = [];
  const located = resolve(reader, last, value, buffer, scratch);
  if (!located) return {};
  const bytes = (item: PdfValue | undefined, from: Uint8Array) => {
    const resolved = resolve(reader, last, item, from, scratch);
    return resolved?.value.kind === 'string' ? [stringBytes(resolved.value, resolved.buffer)] : [];
  };
  if (located.value.kind === 'array')
    return { cert: located.value.items.slice(0, 16).flatMap((item) => bytes(item, located.buffer)) };
  return { cert: bytes(located.value, located.buffer) };
}
