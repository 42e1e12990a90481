/** PDFs for the verifier's tests: pdf-lib originals, hand-written incremental updates, signatures. */
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFPage, type PDFRef, PDFString } from 'pdf-lib';
import { DEFAULT_LIMITS as limits } from '../../../src/limits';
import { changedObjects, snapshotObjects, writeIncrementalUpdate } from '../../../src/services/sign/incremental-writer';
import { loadPdfForUpdate } from '../../../src/services/sign/pdf-source';
import { signPdf } from '../../../src/services/sign/sign-pdf';
import type { SignatureDetails, SigningIdentity } from '../../../src/services/sign/sign-types';
import { loadSigningIdentity } from '../../../src/services/sign/signing-identity';
import { makeTestPki } from '../../helpers/test-identity';

const latin1 = new TextDecoder('latin1');

export async function makeOriginal(objectStreams: boolean): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  return doc.save({ useObjectStreams: objectStreams });
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Latin-1 bytes of `text` (the inverse of text()), so binary header comments survive a round trip. */
export function ascii(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

export function text(pdf: Uint8Array): string {
  return latin1.decode(pdf);
}

/** The last startxref offset and /Root, /Size of a file written by pdf-lib. */
function lastTrailer(pdf: Uint8Array): { startxref: number; root: string; size: number } {
  const source = text(pdf);
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(source)?.[1]);
  const root = [...source.matchAll(/\/Root (\d+ \d+ R)/g)].at(-1)?.[1] ?? '1 0 R';
  const size = Number([...source.matchAll(/\/Size (\d+)/g)].at(-1)?.[1]);
  return { startxref, root, size };
}

/**
 * Appends one incremental update by hand (ISO 32000-1 §7.5.6): a new object, a one-entry xref
 * table, a trailer with /Prev. `num` is the new object's number (the next free one by default);
 * `prev` overrides the /Prev written (for cycles and damage);
 * `trailerExtra` is written into the trailer as is.
 */
export function appendUpdate(
  pdf: Uint8Array,
  options: { prev?: number; trailerExtra?: string; num?: number } = {},
): Uint8Array {
  const { startxref, root, size } = lastTrailer(pdf);
  const num = options.num ?? size;
  const objectOffset = pdf.length;
  const object = `${num} 0 obj\n<< /Note (update) >>\nendobj\n`;
  const xrefOffset = objectOffset + object.length;
  const entry = `${String(objectOffset).padStart(10, '0')} 00000 n\r\n`;
  const tail =
    `xref\n${num} 1\n${entry}trailer\n<< /Size ${Math.max(size, num + 1)} /Root ${root} /Prev ${options.prev ?? startxref}${options.trailerExtra ?? ''} >>\n` +
    `startxref\n${xrefOffset}\n%%EOF\n`;
  return concat(pdf, ascii(object + tail));
}

export const details: SignatureDetails = {
  name: 'Test Signer',
  reason: 'Testing',
  location: 'Here',
  contactInfo: 'test@example.com',
  signingTime: new Date('2026-03-04T05:06:07Z'),
};

export async function testIdentity(): Promise<SigningIdentity> {
  const pki = await makeTestPki('ec-p256');
  return loadSigningIdentity(pki.keyPem, pki.chainPem);
}

export async function sign(pdf: Uint8Array, identity: SigningIdentity): Promise<Uint8Array> {
  return signPdf(pdf, { identity, details, limits });
}

/** One incremental update (ISO 32000-1 §7.5.6) carrying whatever `edit` changes, written as the signer writes. */
export async function update(pdf: Uint8Array, edit: (doc: PDFDocument) => void | Promise<void>): Promise<Uint8Array> {
  const { doc, xref } = await loadPdfForUpdate(pdf, limits);
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, xref.size - 1);
  const snapshot = snapshotObjects(doc.context);
  await edit(doc);
  await doc.flush();
  return writeIncrementalUpdate(pdf, doc.context, changedObjects(doc.context, snapshot), xref).file;
}

/** The form's text field (pdf-lib's createTextField: a field with one widget in /Kids). */
export function textField(doc: PDFDocument): PDFDict {
  const fields = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict).lookup(PDFName.of('Fields'), PDFArray);
  const field = fields
    .asArray()
    .map((ref) => doc.context.lookup(ref, PDFDict))
    .find((dict) => dict.lookup(PDFName.of('FT')) === PDFName.of('Tx'));
  if (!field) throw new Error('no text field');
  return field;
}

/** An unsigned signature field "Later" on `page`, a merged field and widget with a blank appearance stream of its own. */
export function emptySignatureField(doc: PDFDocument, page: PDFPage): { widget: PDFRef; blank: PDFRef } {
  const blank = doc.context.register(
    doc.context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 60, 20] }),
  );
  const widget = doc.context.register(
    doc.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFString.of('Later'),
      Rect: [10, 10, 70, 30],
      P: page.ref,
      AP: doc.context.register(doc.context.obj({ N: blank })),
    }),
  );
  return { widget, blank };
}
