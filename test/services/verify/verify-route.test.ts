import { env } from 'cloudflare:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseCertificates } from '../../../src/kit/certificate-summary';
import { verifyPdf } from '../../../src/services/verify/verify-document';
import { mintKey, postJson, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { toBase64 } from '../input/helpers';

interface VerifyBody {
  valid: boolean;
  reason: string;
  signatures: {
    field: string;
    signer: { name: string | null; email: string | null; certificate: { sha256: string } | null };
    intact: boolean;
    cryptographicallyValid: boolean;
    coverage: string;
    modificationsAfterSigning: string;
    trusted: boolean;
    trust: string;
    revocation: string;
    revocationSource: string | null;
    level: string | null;
    subFilter: string | null;
    digestAlgorithm: string;
    problems: string[];
  }[];
  document: { pages: number | null; revisions: number; sha256: string };
}

async function onePagePdf(text = 'Contract body'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 72, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

function decode(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

async function signedPdf(): Promise<Uint8Array> {
  const res = await postJson('/v1/sign', {
    document: { base64: toBase64(await onePagePdf()) },
    signer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    auditTrail: [{ type: 'submit', timestamp: '2026-11-22T10:02:10Z' }],
  });
  expect(res.status).toBe(200);
  return decode(((await res.json()) as { document: { base64: string } }).document.base64);
}

async function verify(pdf: Uint8Array): Promise<{ status: number; body: VerifyBody }> {
  const res = await postJson('/v1/verify', { document: { base64: toBase64(pdf) } });
  return { status: res.status, body: (await res.json()) as VerifyBody };
}

describe('POST /v1/verify', () => {
  it("finds the service's own signature valid, trusted, covering the entire file", async () => {
    const { status, body } = await verify(await signedPdf());
    expect(status).toBe(200);
    expect(body.valid, body.reason).toBe(true);
    expect(body.signatures).toHaveLength(1);
    const [signature] = body.signatures;
    expect(signature).toMatchObject({
      intact: true,
      cryptographicallyValid: true,
      coverage: 'entire-file',
      modificationsAfterSigning: 'none',
      trusted: true,
      trust: 'trusted',
      subFilter: 'ETSI.CAdES.detached',
      digestAlgorithm: 'SHA-256',
      // PAdES B-B without revocation data, and REVOCATION_CHECK is offline by default.
      level: 'B-B',
      revocation: 'unknown',
      revocationSource: null,
    });
    expect(signature?.signer.certificate?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(body.document.revisions).toBe(2);
    expect(body.document.pages).toBeGreaterThan(1);
    expect(body.document.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('builds the path to a root that is only the CA, and reports untrusted without roots', async () => {
    const pdf = await signedPdf();
    const ca = parseCertificates(env.TEST_SIGNING_CA).map((cert) => new Uint8Array(cert.rawData));
    const viaCa = await verifyPdf(pdf, { trustedRoots: ca });
    expect(viaCa.signatures[0]?.trust, viaCa.signatures[0]?.problems.join('; ')).toBe('trusted');
    const none = await verifyPdf(pdf, { trustedRoots: [] });
    expect(none.valid).toBe(true);
    expect(none.signatures[0]).toMatchObject({ trusted: false, trust: 'untrusted' });
  });

  it('finds a byte changed inside the signed range: not intact, not valid', async () => {
    const pdf = await signedPdf();
    // The header's version digit (%PDF-1.x), which the first range covers.
    const tampered = pdf.slice();
    expect(new TextDecoder('latin1').decode(tampered.subarray(0, 5))).toBe('%PDF-');
    tampered[7] = tampered[7] === 0x37 ? 0x36 : 0x37;
    const { status, body } = await verify(tampered);
    expect(status).toBe(200);
    expect(body.valid).toBe(false);
    expect(body.signatures[0]?.intact).toBe(false);
    expect(body.reason).toMatch(/^Signature 1 of 1: /);
  });

  it('answers an unsigned PDF with valid:false and the exact reason', async () => {
    const { status, body } = await verify(await onePagePdf());
    expect(status).toBe(200);
    expect(body).toMatchObject({ valid: false, reason: 'The document has no signatures', signatures: [] });
    expect(body.document.pages).toBe(1);
  });

  it('does not claim "no signatures" for an encrypted file whose form it cannot read', async () => {
    // Hand-written (§7.5): the form's /Fields is an object whose xref offset holds no object, as
    // an encrypted object stream would be unreadable; the trailer names an /Encrypt dictionary.
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R /AcroForm 3 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      '<< /Fields 4 0 R >>',
      '<< /Filter /Standard /V 4 /R 4 >>',
    ];
    let body = '%PDF-1.7\n';
    const offsets: number[] = [];
    objects.forEach((object, i) => {
      offsets.push(body.length);
      body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    });
    const xrefAt = body.length;
    const entry = (offset: number) => `${String(offset).padStart(10, '0')} 00000 n\r\n`;
    body += `xref\n0 6\n0000000000 65535 f\r\n${entry(offsets[0] ?? 0)}${entry(offsets[1] ?? 0)}${entry(offsets[2] ?? 0)}${entry(3)}${entry(offsets[3] ?? 0)}`;
    body += `trailer\n<< /Size 6 /Root 1 0 R /Encrypt 5 0 R /ID [<00> <00>] >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    const { status, body: report } = await verify(Uint8Array.from(body, (c) => c.charCodeAt(0)));
    expect(status).toBe(200);
    expect(report.valid).toBe(false);
    expect(report.reason).toMatch(/^The document is encrypted and its signature fields cannot be read/);
  });

  /**
   * A copy of `pdf` with the first match of `pattern` (the file read byte for byte as Latin-1,
   * not through TextDecoder, whose "latin1" is windows-1252 and would change bytes 0x80–0x9F of
   * the compressed streams) overwritten by `edit`'s text of the same length: every offset stays.
   */
  function rewrite(pdf: Uint8Array, pattern: RegExp, edit: (match: RegExpExecArray) => string): Uint8Array {
    const text = Array.from(pdf, (b) => String.fromCharCode(b)).join('');
    const match = pattern.exec(text);
    if (!match) throw new Error(`${pattern} is not in the PDF`);
    const replacement = edit(match);
    expect(replacement.length).toBe(match[0].length);
    const out = pdf.slice();
    for (let i = 0; i < replacement.length; i++) out[match.index + i] = replacement.charCodeAt(i);
    return out;
  }
  const zeroContents = (pdf: Uint8Array) =>
    rewrite(pdf, /\/Contents\s*<([0-9A-Fa-f]+)>/, (m) =>
      m[0].replace(m[1] as string, '0'.repeat((m[1] as string).length)),
    );

  it('counts a placeholder never signed (no numeric /ByteRange, /Contents of zeros) as no signature', async () => {
    const pdf = await signedPdf();
    // The numbers become a name of the same length, the signature zeros.
    const noRange = rewrite(
      pdf,
      /\/ByteRange\s*\[([^\]]*)\]/,
      (m) => `/ByteRange [/${'*'.repeat((m[1] as string).length - 1)}]`,
    );
    const result = await verifyPdf(zeroContents(noRange), { trustedRoots: [] });
    expect(result).toMatchObject({ valid: false, reason: 'The document has no signatures', signatures: [] });
  });

  it('counts a signature dictionary whose ByteRange is set and whose /Contents is still zeros as no signature', async () => {
    const pdf = await signedPdf();
    expect(await verifyPdf(pdf, { trustedRoots: [] })).toMatchObject({ signatures: [{}] });
    const result = await verifyPdf(zeroContents(pdf), { trustedRoots: [] });
    expect(result).toMatchObject({ valid: false, reason: 'The document has no signatures', signatures: [] });
  });

  it('refuses what is not a PDF with 415', async () => {
    const res = await postJson('/v1/verify', { document: { base64: toBase64(new TextEncoder().encode('hello')) } });
    await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a truncated signed PDF with 200 or 422, never a 500', async () => {
    const pdf = await signedPdf();
    for (const length of [20, Math.floor(pdf.length / 3), pdf.length - 40]) {
      const res = await postJson('/v1/verify', { document: { base64: toBase64(pdf.subarray(0, length)) } });
      expect([200, 422]).toContain(res.status);
      if (res.status === 200) expect(((await res.json()) as VerifyBody).valid).toBe(false);
    }
  });

  it('takes the PDF as a multipart file part', async () => {
    const form = new FormData();
    form.append('file', new File([await signedPdf()], 'signed.pdf', { type: 'application/pdf' }));
    const res = await call('/v1/verify', withKey(await mintKey(), { method: 'POST', body: form }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as VerifyBody;
    expect(body.valid, body.reason).toBe(true);
  });

  it('refuses another content type with 415', async () => {
    const res = await call(
      '/v1/verify',
      withKey(await mintKey(), { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' }),
    );
    await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});
