import { p256 } from '@noble/curves/nist.js';
import { PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { findRevisions } from '../../../src/services/pdf-read/pdf-revisions';
import type { SigningIdentity } from '../../../src/services/sign/sign-types';
import { checkByteRange } from '../../../src/services/verify/byte-range-check';
import { findSignatureFields, type SignatureField } from '../../../src/services/verify/signature-fields';
import { verifyPdf } from '../../../src/services/verify/verify-document';
import { parse, publicKeyInfo, resign, withPublicKey } from './cms-fixtures';
import { appendUpdate, ascii, makeOriginal, sign, testIdentity, text } from './verify-fixtures';

const EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const P256 = '1.2.840.10045.3.1.7';
const SHA256 = '2.16.840.1.101.3.4.2.1';
const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';

async function signaturesOf(pdf: Uint8Array) {
  const scan = findRevisions(pdf);
  const search = await findSignatureFields(pdf, scan);
  return { scan, ...search };
}

describe('findSignatureFields and checkByteRange', () => {
  let identity: SigningIdentity;
  let once: Uint8Array;
  let twice: Uint8Array;
  beforeAll(async () => {
    identity = await testIdentity();
    once = await sign(await makeOriginal(false), identity);
    twice = await sign(once, identity);
  });

  it('an unsigned PDF has no signatures and no problems', async () => {
    const { signatures, problems } = await signaturesOf(await makeOriginal(true));
    expect(signatures).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('a signed PDF: one signature, positions from the raw bytes, covering the entire file', async () => {
    const { scan, signatures, problems } = await signaturesOf(once);
    expect(problems).toEqual([]);
    expect(signatures).toHaveLength(1);
    const [signature] = signatures as [SignatureField];
    expect(signature.type).toBe('Sig');
    expect(signature.subFilter).toBe('ETSI.CAdES.detached');
    expect(signature.fieldName).toMatch(/\S/);
    expect(signature.problems).toEqual([]);
    expect(once[signature.contents?.start ?? -1]).toBe('<'.charCodeAt(0));
    expect(once[(signature.contents?.end ?? 0) - 1]).toBe('>'.charCodeAt(0));
    expect(checkByteRange(once, signature, scan, signatures)).toEqual({
      wellFormed: true,
      coverage: 'entire-file',
      revisionIndex: 1,
      problems: [],
    });
  });

  it('signed twice: the first covers its revision, the second the file; holes do not overlap', async () => {
    const { scan, signatures, problems } = await signaturesOf(twice);
    expect(problems).toEqual([]);
    expect(signatures).toHaveLength(2);
    const checks = signatures.map((signature) => checkByteRange(twice, signature, scan, signatures));
    const byCoverage = checks.map((check) => [check.coverage, check.revisionIndex, check.problems]);
    expect(byCoverage).toContainEqual(['entire-revision', 1, []]);
    expect(byCoverage).toContainEqual(['entire-file', 2, []]);
  });

  it('an update appended after signing: the signature covers its revision, not the file', async () => {
    const updated = appendUpdate(once);
    const { scan, signatures } = await signaturesOf(updated);
    const check = checkByteRange(updated, signatures[0] as SignatureField, scan);
    expect(check.coverage).toBe('entire-revision');
    expect(check.revisionIndex).toBe(1);
  });

  it('a changed byte inside the covered range leaves the ByteRange well-formed (the digest is a later check)', async () => {
    const tampered = once.slice();
    tampered[12] = (tampered[12] as number) ^ 0x01; // in the binary comment of the header
    const { scan, signatures } = await signaturesOf(tampered);
    expect(checkByteRange(tampered, signatures[0] as SignatureField, scan).coverage).toBe('entire-file');
  });

  it('a ByteRange not starting at 0, written in the file, is not well-formed', async () => {
    const source = text(once);
    const damaged = ascii(source.replace(/\/ByteRange \[0 /, '/ByteRange [1 '));
    const { scan, signatures } = await signaturesOf(damaged);
    const check = checkByteRange(damaged, signatures[0] as SignatureField, scan);
    expect(check.wellFormed).toBe(false);
    expect(check.problems.join()).toMatch(/starts at 1/);
  });

  it('malformed ranges: a hole that is not /Contents, overlapping ranges, past the end, wrong count', async () => {
    const { scan, signatures } = await signaturesOf(once);
    const good = signatures[0] as SignatureField;
    const [, b, c, d] = good.byteRange as [number, number, number, number];
    const variant = (byteRange: number[]) => checkByteRange(once, { ...good, byteRange }, scan);
    expect(variant([0, b + 1, c, d - 0]).problems.join()).toMatch(/not the \/Contents string/);
    expect(variant([0, b, c - 1, d + 1]).problems.join()).toMatch(/not the \/Contents string/);
    expect(variant([0, c + 1, c, d]).problems.join()).toMatch(/overlap or are out of order/);
    expect(variant([0, b, c, d + 1]).problems.join()).toMatch(/past the end/);
    expect(variant([0, b, c]).problems.join()).toMatch(/not 4/);
    expect(variant([0, -1, c, d]).wellFormed).toBe(false);
    expect(variant([0, b, c, 1.5]).wellFormed).toBe(false);
    for (const bad of [
      [0, b + 1, c, d],
      [0, c + 1, c, d],
      [0, b, c],
    ])
      expect(variant(bad).coverage).toBeUndefined();
  });

  it('a hole of the hex digits alone, the angle brackets signed, is well formed; a hole one byte further is not', async () => {
    const { scan, signatures } = await signaturesOf(once);
    const good = signatures[0] as SignatureField;
    const [, b, c, d] = good.byteRange as [number, number, number, number];
    const variant = (byteRange: number[]) => checkByteRange(once, { ...good, byteRange }, scan);
    expect(variant([0, b + 1, c - 1, d + 1])).toEqual({
      wellFormed: true,
      coverage: 'entire-file',
      revisionIndex: 1,
      problems: [],
    });
    expect(variant([0, b + 2, c - 2, d + 2]).problems.join()).toMatch(/not the \/Contents string/);
  });

  it('verifies a signature made over a hole of the hex digits alone', async () => {
    // Quire's signature, moved to the narrower hole: the ByteRange rewritten in place (same length),
    // then signed again over the bytes it now names, with a key of the test's own under a copy of
    // the signer's certificate (whose own signature goes stale: trust is not the question here).
    const { signatures } = await signaturesOf(once);
    const field = signatures[0] as SignatureField;
    const [, b, c, d] = field.byteRange as [number, number, number, number];
    const source = text(once);
    const match = /\/ByteRange\s*\[[^\]]*\]/.exec(source);
    if (!match) throw new Error('no /ByteRange');
    const narrower = `${`/ByteRange [0 ${b + 1} ${c - 1} ${d + 1}`.padEnd(match[0].length - 1, ' ')}]`;
    expect(narrower.length).toBe(match[0].length);
    const pdf = once.slice();
    pdf.set(ascii(narrower), match.index);
    const signedBytes = new Uint8Array(b + 1 + d + 1);
    signedBytes.set(pdf.subarray(0, b + 1), 0);
    signedBytes.set(pdf.subarray(c - 1), b + 1);
    const hexStart = (field.contents?.start ?? 0) + 1;
    const hex = source.slice(hexStart, (field.contents?.end ?? 0) - 1);
    const contents = Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
    const secret = p256.utils.randomSecretKey();
    const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', data));
    const resigned = await resign(contents, {
      certificate: withPublicKey(parse(contents), publicKeyInfo(EC_PUBLIC_KEY, p256.getPublicKey(secret, false), P256)),
      digestOid: SHA256,
      messageDigest: await sha256(signedBytes),
      signatureOid: ECDSA_WITH_SHA256,
      sign: async (data) => p256.sign(await sha256(data), secret, { prehash: false }).toBytes('der'),
    });
    const newHex = Array.from(resigned, (byte) => byte.toString(16).padStart(2, '0')).join('');
    expect(newHex.length).toBeLessThanOrEqual(hex.length);
    pdf.set(ascii(newHex.padEnd(hex.length, '0')), hexStart);
    const report = await verifyPdf(pdf, { trustedRoots: [] });
    expect(report.signatures[0]).toMatchObject({ intact: true, cryptographicallyValid: true, coverage: 'entire-file' });
    expect(report.reason).not.toMatch(/byte range/);
    // The same signature under the standard hole no longer matches: the brackets were signed.
    pdf.set(ascii(source.slice(match.index, match.index + match[0].length)), match.index);
    expect((await verifyPdf(pdf, { trustedRoots: [] })).signatures[0]).toMatchObject({ intact: false });
  });

  it('a ByteRange ending before a revision end is partial', async () => {
    const { scan, signatures } = await signaturesOf(once);
    const good = signatures[0] as SignatureField;
    const [a, b, c, d] = good.byteRange as [number, number, number, number];
    const check = checkByteRange(once, { ...good, byteRange: [a, b, c, d - 5] }, scan);
    expect(check.wellFormed).toBe(true);
    expect(check.coverage).toBe('partial');
    expect(check.problems.join()).toMatch(/no revision's end/);
  });

  it('a field added later whose /V is an earlier signature: still one signature, its hole overlapping nothing', async () => {
    const source = text(once);
    const { signatures } = await signaturesOf(once);
    const sigRef = signatures[0]?.ref as { num: number; gen: number };
    // The form, as the signer last wrote it, gets a second field whose /V is the same dictionary.
    const formNum = Number([...source.matchAll(/\/AcroForm (\d+) 0 R/g)].at(-1)?.[1]);
    const formBody =
      [...source.matchAll(new RegExp(`\\n${formNum} 0 obj\\s*([\\s\\S]*?)\\s*endobj`, 'g'))].at(-1)?.[1] ?? '';
    const size = Number([...source.matchAll(/\/Size (\d+)/g)].at(-1)?.[1]);
    const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(source)?.[1]);
    const root = [...source.matchAll(/\/Root (\d+ \d+ R)/g)].at(-1)?.[1];
    const fieldObject = `${size} 0 obj\n<< /FT /Sig /T (Second) /V ${sigRef.num} ${sigRef.gen} R >>\nendobj\n`;
    const formObject = `${formNum} 0 obj\n${formBody.replace(/(\/Fields\s*\[[^\]]*)\]/, `$1 ${size} 0 R ]`)}\nendobj\n`;
    const at = once.length;
    const entry = (offset: number) => `${String(offset).padStart(10, '0')} 00000 n\r\n`;
    const xrefAt = at + fieldObject.length + formObject.length;
    const update =
      fieldObject +
      formObject +
      `xref\n${formNum} 1\n${entry(at + fieldObject.length)}${size} 1\n${entry(at)}` +
      `trailer\n<< /Size ${size + 1} /Root ${root} /Prev ${startxref} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    const shared = new Uint8Array([...once, ...ascii(update)]);
    const result = await verifyPdf(shared, { trustedRoots: [] });
    expect(result.signatures).toHaveLength(1);
    const problems = result.signatures[0]?.problems ?? [];
    expect(problems.join('\n')).not.toMatch(/overlaps/);
    expect(problems).toContain(
      `its signature dictionary ${sigRef.num} ${sigRef.gen} R is also the value of field "Second"; it is one signature, checked once`,
    );
    expect(result.signatures[0]).toMatchObject({ field: 'Signature1', intact: true, cryptographicallyValid: true });
  });

  it('two signatures claiming the same hole is a problem', async () => {
    const { scan, signatures } = await signaturesOf(once);
    const good = signatures[0] as SignatureField;
    const copy = { ...good, fieldName: 'Copy' };
    expect(checkByteRange(once, good, scan, [good, copy]).problems.join()).toMatch(/overlaps the \/Contents/);
  });

  it('fuzz: 200 byte flips and truncations never throw and finish fast', async () => {
    // A fixed linear congruential generator: the same 200 cases every run.
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const started = Date.now();
    let withSignatures = 0;
    for (let i = 0; i < 200; i++) {
      let mutated: Uint8Array;
      if (i % 4 === 0) mutated = twice.subarray(0, random(twice.length));
      else {
        mutated = twice.slice();
        for (let flips = 1 + random(8); flips > 0; flips--) mutated[random(mutated.length)] = random(256);
      }
      const scan = findRevisions(mutated);
      const { signatures } = await findSignatureFields(mutated, scan);
      if (signatures.length > 0) withSignatures++;
      for (const signature of signatures) checkByteRange(mutated, signature, scan, signatures);
      expect(Array.isArray(scan.problems)).toBe(true);
    }
    expect(Date.now() - started).toBeLessThan(20_000);
    // Most flips land in content, so most cases still reach the signatures: the walk was exercised.
    expect(withSignatures).toBeGreaterThan(50);
  });
});

describe('findSignatureFields on hand-built forms', () => {
  /** A form whose signature field inherits /FT from its parent, with a raw /ByteRange and /Contents. */
  async function handBuilt(options: { objectStreams: boolean; cycle?: boolean }): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    const { context } = doc;
    const signature = context.register(
      context.obj({
        Type: 'Sig',
        SubFilter: 'adbe.pkcs7.detached',
        ByteRange: [0, 10, 20, 30],
        Contents: PDFHexString.of('00ff'),
      }),
    );
    const parentRef = context.nextRef();
    const child = context.register(context.obj({ T: PDFString.of('Child'), V: signature, Parent: parentRef }));
    const kids = options.cycle ? [child, parentRef] : [child];
    context.assign(parentRef, context.obj({ T: PDFString.of('Parent'), FT: 'Sig', Kids: kids }));
    doc.catalog.set(PDFName.of('AcroForm'), context.obj({ Fields: [parentRef] }));
    return doc.save({ useObjectStreams: options.objectStreams });
  }

  it('inherited /FT through /Kids, the qualified name, and raw positions', async () => {
    const pdf = await handBuilt({ objectStreams: false });
    const { signatures, problems } = await signaturesOf(pdf);
    expect(problems).toEqual([]);
    expect(signatures).toHaveLength(1);
    const [signature] = signatures as [SignatureField];
    expect(signature.fieldName).toBe('Parent.Child');
    expect(signature.byteRange).toEqual([0, 10, 20, 30]);
    expect(signature.subFilter).toBe('adbe.pkcs7.detached');
    const { start, end } = signature.contents ?? { start: 0, end: 0 };
    expect(text(pdf.subarray(start, end)).toLowerCase()).toBe('<00ff>');
  });

  it('a signature dictionary inside an object stream: found, with a problem and no positions', async () => {
    const pdf = await handBuilt({ objectStreams: true });
    const { signatures } = await signaturesOf(pdf);
    expect(signatures).toHaveLength(1);
    expect(signatures[0]?.contents).toBeUndefined();
    expect(signatures[0]?.problems.join()).toMatch(/object stream/);
  });

  it('one signature dictionary as the /V of two fields is one signature, with a problem naming the other field', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 200]);
    const { context } = doc;
    const signature = context.register(
      context.obj({ Type: 'Sig', ByteRange: [0, 10, 20, 30], Contents: PDFHexString.of('00ff') }),
    );
    const first = context.register(context.obj({ FT: 'Sig', T: PDFString.of('First'), V: signature }));
    const second = context.register(context.obj({ FT: 'Sig', T: PDFString.of('Second'), V: signature }));
    doc.catalog.set(PDFName.of('AcroForm'), context.obj({ Fields: [first, second] }));
    const { signatures, problems } = await signaturesOf(await doc.save({ useObjectStreams: false }));
    expect(problems).toEqual([]);
    expect(signatures).toHaveLength(1);
    expect(signatures[0]?.fieldName).toBe('First');
    expect(signatures[0]?.problems).toEqual([
      `its signature dictionary ${signature.objectNumber} 0 R is also the value of field "Second"; it is one signature, checked once`,
    ]);
  });

  it('a /Kids cycle ends with a problem', async () => {
    const pdf = await handBuilt({ objectStreams: false, cycle: true });
    const { signatures, problems } = await signaturesOf(pdf);
    expect(signatures).toHaveLength(1);
    expect(problems.join()).toMatch(/reachable twice/);
  });
});
