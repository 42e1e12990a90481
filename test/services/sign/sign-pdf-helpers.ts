/** Reading back what the signer wrote: the signatures' ByteRange, /Contents and CMS. */
import * as asn1js from 'asn1js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import * as pkijs from 'pkijs';

const latin1 = new TextDecoder('latin1');

export interface WrittenSignature {
  byteRange: [number, number, number, number];
  /** The /Contents hex, without the angle brackets. */
  hex: string;
  signedBytes: Uint8Array;
  signedData: pkijs.SignedData;
}

/** Every signature in file order (the last one is the newest). */
export function readSignatures(file: Uint8Array): WrittenSignature[] {
  const text = latin1.decode(file);
  const found: WrittenSignature[] = [];
  for (const match of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    const byteRange = match.slice(1, 5).map(Number) as [number, number, number, number];
    const [a, b, c, d] = byteRange;
    const hex = text.slice(a + b + 1, c - 1);
    const der = new Uint8Array(hex.length / 2);
    for (let i = 0; i < der.length; i++) der[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    const parsed = asn1js.fromBER(der);
    const contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
    const signedBytes = new Uint8Array(b + d);
    signedBytes.set(file.subarray(a, a + b), 0);
    signedBytes.set(file.subarray(c, c + d), b);
    found.push({ byteRange, hex, signedBytes, signedData: new pkijs.SignedData({ schema: contentInfo.content }) });
  }
  return found;
}

export async function verifies(signature: WrittenSignature): Promise<boolean> {
  const result = await signature.signedData.verify({
    signer: 0,
    data: signature.signedBytes.slice().buffer,
    checkChain: false,
  });
  return result === true;
}

/** A small PDF; classic xref table unless objectStreams (then an xref stream, §7.5.8). */
export async function makePdf(options: { pages?: number; objectStreams?: boolean } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < (options.pages ?? 1); i++) {
    doc.addPage([300, 300]).drawText(`Page ${i + 1}`, { x: 40, y: 200, size: 18, font });
  }
  return doc.save({ useObjectStreams: options.objectStreams ?? false });
}
