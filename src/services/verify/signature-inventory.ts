/**
 * What signatures a PDF already carries, for a signer about to add one: how many signature
 * dictionaries are really signed (not empty placeholders, ISO 32000-1 §12.8.1), and the
 * certification (§12.8.2.2 DocMDP) that says what a later signature may change.
 */

import { findRevisions, ObjectReader, withDecryptedStreams } from '../pdf-read';
import { type Certification, findCertification } from './docmdp';
import { findSignatureFields, type SignatureField } from './signature-fields';

export interface SignatureInventory {
  signed: number;
  certification: Certification | undefined;
}

/**
 * A signature dictionary written before signing and never signed: a /Contents of zeros, the
 * placeholder a signer fills in (§12.8.1), whether or not the /ByteRange is written yet. A
 * signer writes the ByteRange first and the signature last, into the hole the ByteRange leaves,
 * so a dictionary whose range is set and whose hole is still zeros was never signed: no CMS
 * to check, no signature to count (as pyHanko and DSS count it), rather than a failed one.
 */
export function isPlaceholder(pdf: Uint8Array, field: SignatureField): boolean {
  if (!field.contents) return false;
  for (let i = field.contents.start + 1; i < field.contents.end - 1; i++) {
    const b = pdf[i];
    if (b !== 0x30 && b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  }
  return true;
}

export async function signatureInventory(pdf: Uint8Array): Promise<SignatureInventory> {
  const { scan } = await withDecryptedStreams(pdf, findRevisions(pdf));
  const reader = new ObjectReader(pdf, scan);
  const search = await findSignatureFields(pdf, scan);
  const signed = search.signatures.filter((field) => !isPlaceholder(pdf, field));
  const certification = findCertification(
    reader,
    scan,
    signed.flatMap((field) => (field.ref ? [field.ref.num] : [])),
  );
  return { signed: signed.length, certification };
}
