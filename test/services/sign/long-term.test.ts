/**
 * PAdES B-LT and B-LTA through POST /v1/sign (ETSI EN 319 142-1 §5.4, §5.5): the worker is called
 * with TSA_URL set and the revocation test PKI as its identity; MSW plays the TSA, the OCSP
 * responder and the CRL server.
 */
import { createExecutionContext, env } from 'cloudflare:test';
import type * as asn1js from 'asn1js';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api';
import { verifyPdf } from '../../../src/services/verify/verify-document';
import { mintKey, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { makeRevocationPki, type RevocationPki, revocationHandlers } from '../../helpers/revocation-pki';
import { makeTestPki } from '../../helpers/test-identity';
import { network } from '../../setup/network';
import { toBase64 } from '../input/helpers';
import { readSignatures } from './sign-pdf-helpers';
import { stubTsa, tsaHandler } from './tsa-fixture';

const TSA_URL = 'https://tsa.quire.test/';
const signer = { name: 'Ada Lovelace', email: 'ada@example.com' };
const auditTrail = [{ type: 'submit', timestamp: '2026-11-22T10:02:10Z' }];
const latin1 = new TextDecoder('latin1');
const SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';

async function onePagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc
    .addPage([400, 400])
    .drawText('Lease', { x: 40, y: 300, size: 18, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

function decode(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

async function sha(name: 'SHA-1' | 'SHA-256', bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest(name, bytes));
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** POST /v1/sign on a worker whose environment adds `vars` (TSA_URL, the identity). */
async function sign(vars: Record<string, string>, body: Record<string, unknown>) {
  const request = new Request(
    'https://quire.test/v1/sign',
    withKey(await mintKey(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ signer, auditTrail, certificate: { enabled: false }, ...body }),
    }),
  );
  return createApp().fetch(request, { ...env, ...vars }, createExecutionContext());
}

async function signedPdf(res: Response): Promise<Uint8Array> {
  expect(res.status, await res.clone().text()).toBe(200);
  return decode(((await res.json()) as { document: { base64: string } }).document.base64);
}

/** The DSS of a PDF as pdf-lib reads it: the DER in each array, and the VRI keys. */
async function readDss(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf);
  const dss = doc.catalog.lookup(PDFName.of('DSS'));
  if (!(dss instanceof PDFDict)) return undefined;
  const streams = (key: string) => {
    const array = dss.lookup(PDFName.of(key));
    if (!(array instanceof PDFArray)) return [];
    return array.asArray().map((ref) => {
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) throw new Error(`${key}: not a stream`);
      return stream.contents;
    });
  };
  const vri = dss.lookup(PDFName.of('VRI'));
  return {
    type: dss.get(PDFName.of('Type'))?.toString(),
    certs: streams('Certs'),
    ocsps: streams('OCSPs'),
    crls: streams('CRLs'),
    vri: vri instanceof PDFDict ? vri : undefined,
  };
}

describe('POST /v1/sign level B-LT and B-LTA', () => {
  let pki: RevocationPki;
  let vars: Record<string, string>;
  let tsa: ReturnType<typeof stubTsa>;
  beforeAll(async () => {
    pki = await makeRevocationPki();
    vars = { TSA_URL, SIGNING_KEY: pki.keyPem, SIGNING_CERT_CHAIN: pki.chainPem };
  });
  const serve = (serving: Parameters<typeof revocationHandlers>[1] = {}) => {
    tsa = stubTsa({ certificate: pki.tsa.der, privateKey: pki.tsa.keys.privateKey, extra: [pki.issuing.der] });
    network.use(tsaHandler(TSA_URL, tsa), ...revocationHandlers(pki, serving));
  };

  it('B-LT: a second update adds a /DSS with both chains, their OCSP responses and CRL, and a /VRI for the signature', async () => {
    serve();
    const original = await onePagePdf();
    const res = await sign(vars, { document: { base64: toBase64(original) }, level: 'B-LT' });
    const pdf = await signedPdf(res);
    expect(res.headers.get('X-Quire-Warnings')).toBeNull();
    expect(pdf.subarray(0, original.length)).toEqual(original);

    const [signature] = readSignatures(pdf);
    if (!signature) throw new Error('no signature');
    // The signature covers its own revision; the DSS update follows it (ISO 32000-1 §7.5.6).
    const signedEnd = signature.byteRange[2] + signature.byteRange[3];
    expect(signedEnd).toBeLessThan(pdf.length);
    expect(latin1.decode(pdf.subarray(signedEnd))).toContain('/DSS');
    expect(latin1.decode(pdf.subarray(0, signedEnd))).not.toContain('/DSS');
    const signerInfo = signature.signedData.signerInfos[0];
    expect(signerInfo?.unsignedAttrs?.attributes.map((a) => a.type)).toEqual([SIGNATURE_TIMESTAMP]);

    const dss = await readDss(pdf);
    expect(dss?.type).toBe('/DSS');
    // Every certificate of the signer's chain and of the TSA's, each once.
    const certs = (dss?.certs ?? []).map(hex).sort();
    expect(certs).toEqual([pki.signer.der, pki.issuing.der, pki.root.der, pki.tsa.der].map(hex).sort());
    // OCSP for the signer and the TSA (both name the responder), the root's CRL for the issuing CA.
    expect(dss?.ocsps).toHaveLength(2);
    for (const der of dss?.ocsps ?? []) {
      expect(pkijs.OCSPResponse.fromBER(der).responseStatus.valueBlock.valueDec).toBe(0);
    }
    expect(dss?.crls).toHaveLength(1);
    const crl = pkijs.CertificateRevocationList.fromBER(dss?.crls[0] as Uint8Array);
    expect(crl.issuer.isEqual(pkijs.Certificate.fromBER(pki.root.der).subject)).toBe(true);
    // /VRI keyed by the upper-case hex SHA-1 of the signature's /Contents (ETSI EN 319 142-1 §5.4.2.2).
    const contents = Uint8Array.from(signature.hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
    const key = hex(await sha('SHA-1', contents)).toUpperCase();
    const entry = dss?.vri?.lookup(PDFName.of(key));
    expect(entry).toBeInstanceOf(PDFDict);
    expect((entry as PDFDict).lookup(PDFName.of('OCSP'))).toBeInstanceOf(PDFArray);
    expect(((entry as PDFDict).lookup(PDFName.of('Cert')) as PDFArray).size()).toBe(4);

    const report = await verifyPdf(pdf, { trustedRoots: [pki.root.der] });
    expect(report.valid, report.reason).toBe(true);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]).toMatchObject({ intact: true, cryptographicallyValid: true, trusted: true });
    expect(report.signatures[0]?.modificationsAfterSigning).toBe('signatures');
  });

  it('B-LT with failing responders still completes: the DSS holds the certificates, and X-Quire-Warnings says what is missing and why', async () => {
    serve({ ocspHttpStatus: 503, crlHttpStatus: 503 });
    const res = await sign(vars, { document: { base64: toBase64(await onePagePdf()) }, level: 'B-LT' });
    const pdf = await signedPdf(res);
    const warnings = res.headers.get('X-Quire-Warnings') ?? '';
    expect(res.headers.get('X-Quire-Warning-Count')).toBe('3');
    expect(warnings).toContain(
      'B-LT validation data: no revocation data for "Quire Test Signer": OCSP responder http://ocsp.quire.test/ could not be fetched: ocsp.quire.test answered HTTP 503',
    );
    expect(warnings).toContain('no revocation data for "Quire Test Issuing CA": CRL http://crl.quire.test/root.crl');
    expect(warnings).toContain('no revocation data for "Quire Test TSA"');
    const dss = await readDss(pdf);
    expect(dss?.certs).toHaveLength(4);
    expect(dss?.ocsps).toEqual([]);
    expect(dss?.crls).toEqual([]);
    expect((await verifyPdf(pdf, { trustedRoots: [pki.root.der] })).valid).toBe(true);
  });

  it('B-LT with the development identity (no AIA, no CRL distribution point) says so, and carries its certificates', async () => {
    const testCa = await makeTestPki('ec-p256');
    tsa = stubTsa({ certificate: new Uint8Array(testCa.caCert.rawData), privateKey: testCa.caKey.privateKey });
    network.use(tsaHandler(TSA_URL, tsa));
    const res = await sign({ TSA_URL }, { document: { base64: toBase64(await onePagePdf()) }, level: 'B-LT' });
    const pdf = await signedPdf(res);
    expect(res.headers.get('X-Quire-Warnings')).toBe(
      'B-LT validation data: no revocation data for "Quire Development Signing": its certificate names no OCSP responder and no CRL distribution point (http or https)',
    );
    // The development chain (signer, CA) and the TSA's self-signed certificate; nothing to fetch.
    expect((await readDss(pdf))?.certs).toHaveLength(3);
  });

  it("B-LT with a TSA that leaves its certificate out of the token says the TSA's chain is missing", async () => {
    tsa = stubTsa({ certificate: pki.tsa.der, privateKey: pki.tsa.keys.privateKey }, { withoutCertificates: true });
    network.use(tsaHandler(TSA_URL, tsa), ...revocationHandlers(pki));
    const res = await sign(vars, { document: { base64: toBase64(await onePagePdf()) }, level: 'B-LT' });
    const pdf = await signedPdf(res);
    expect(res.headers.get('X-Quire-Warnings')).toBe(
      "B-LT validation data: the timestamp token does not carry the TSA's certificate, so neither it nor its revocation data is in the DSS",
    );
    const dss = await readDss(pdf);
    expect(dss?.certs.map(hex).sort()).toEqual(pki.chain.map(hex).sort());
    expect(dss?.ocsps).toHaveLength(1);
  });

  it('B-LTA: a third update adds a DocTimeStamp whose imprint is the SHA-256 of its ByteRange bytes (ISO 32000-2 §12.8.5)', async () => {
    serve();
    const res = await sign(vars, { document: { base64: toBase64(await onePagePdf()) }, level: 'B-LTA' });
    const pdf = await signedPdf(res);
    expect(res.headers.get('X-Quire-Warnings')).toBeNull();
    expect(tsa.requests).toHaveLength(2);
    const [approval, stamp] = readSignatures(pdf);
    if (!approval || !stamp) throw new Error('two signatures expected');
    expect(stamp.byteRange[2] + stamp.byteRange[3]).toBe(pdf.length);
    // The document timestamp covers the DSS update.
    const dssAt = latin1.decode(pdf).indexOf('/Type /DSS');
    expect(dssAt).toBeGreaterThan(approval.byteRange[2] + approval.byteRange[3]);
    expect(dssAt).toBeLessThan(stamp.byteRange[1]);
    const update = latin1.decode(pdf.subarray(approval.byteRange[2] + approval.byteRange[3]));
    expect(update).toContain('/Type /DocTimeStamp');
    expect(update).toContain('/SubFilter /ETSI.RFC3161');
    expect(update).toContain('/T (Timestamp1)');

    const eContent = stamp.signedData.encapContentInfo.eContent as asn1js.OctetString;
    const info = pkijs.TSTInfo.fromBER(eContent.getValue());
    expect(new Uint8Array(info.messageImprint.hashedMessage.valueBlock.valueHexView)).toEqual(
      await sha('SHA-256', stamp.signedBytes),
    );
    const doc = await PDFDocument.load(pdf);
    expect(
      doc
        .getForm()
        .getFields()
        .map((field) => field.getName()),
    ).toEqual(['Signature1', 'Timestamp1']);

    const report = await verifyPdf(pdf, { trustedRoots: [pki.root.der] });
    expect(report.valid, report.reason).toBe(true);
    expect(report.signatures.map((s) => [s.subFilter, s.intact, s.cryptographicallyValid])).toEqual([
      ['ETSI.CAdES.detached', true, true],
      ['ETSI.RFC3161', true, true],
    ]);
  });

  it('signed at B-LTA, /v1/verify says: level B-LTA, revocation good from the DSS, valid and trusted', async () => {
    serve();
    const pdf = await signedPdf(
      await sign(vars, { document: { base64: toBase64(await onePagePdf()) }, level: 'B-LTA' }),
    );
    // The verify route of the same deployment: its own chain (the revocation PKI) is trusted.
    const request = new Request(
      'https://quire.test/v1/verify',
      withKey(await mintKey(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ document: { base64: toBase64(pdf) } }),
      }),
    );
    const res = await createApp().fetch(request, { ...env, ...vars }, createExecutionContext());
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      valid: boolean;
      reason: string;
      signatures: {
        field: string;
        level: string | null;
        revocation: string;
        revocationSource: string | null;
        trusted: boolean;
      }[];
    };
    expect(body.valid, body.reason).toBe(true);
    const [approval, stamp] = body.signatures;
    expect(approval).toMatchObject({
      field: 'Signature1',
      level: 'B-LTA',
      revocation: 'good',
      revocationSource: 'dss',
      trusted: true,
    });
    expect(stamp).toMatchObject({ field: 'Timestamp1', level: null });
  });

  it('signing again at B-LTA keeps every earlier signature and timestamp intact, and extends the DSS', async () => {
    serve();
    const once = await signedPdf(
      await sign(vars, { document: { base64: toBase64(await onePagePdf()) }, level: 'B-LTA' }),
    );
    serve();
    const twice = await signedPdf(await sign(vars, { document: { base64: toBase64(once) }, level: 'B-LTA' }));
    expect(twice.subarray(0, once.length)).toEqual(once);
    const report = await verifyPdf(twice, { trustedRoots: [pki.root.der] });
    expect(report.valid, report.reason).toBe(true);
    expect(report.signatures.map((s) => [s.field, s.intact, s.cryptographicallyValid])).toEqual([
      ['Signature1', true, true],
      ['Timestamp1', true, true],
      ['Signature2', true, true],
      ['Timestamp2', true, true],
    ]);
    const dss = await readDss(twice);
    // Certificates already stored are not stored twice; each signature has its /VRI entry.
    expect(dss?.certs).toHaveLength(4);
    expect(dss?.vri?.keys()).toHaveLength(2);
  });

  it('defaults to B-T with a TSA; B-B asked for is not timestamped', async () => {
    serve();
    const stamped = await signedPdf(await sign(vars, { document: { base64: toBase64(await onePagePdf()) } }));
    const [withToken] = readSignatures(stamped);
    expect(withToken?.signedData.signerInfos[0]?.unsignedAttrs?.attributes[0]?.type).toBe(SIGNATURE_TIMESTAMP);
    expect(await readDss(stamped)).toBeUndefined();
    serve();
    const plain = await signedPdf(
      await sign(vars, { document: { base64: toBase64(await onePagePdf()) }, level: 'B-B' }),
    );
    expect(tsa.requests).toHaveLength(0);
    expect(readSignatures(plain)[0]?.signedData.signerInfos[0]?.unsignedAttrs).toBeUndefined();
  });

  it('refuses a level that needs a TSA when TSA_URL is not set (400 on level), and an unknown level', async () => {
    for (const level of ['B-T', 'B-LT', 'B-LTA']) {
      const res = await call(
        '/v1/sign',
        withKey(await mintKey(), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ document: { base64: toBase64(await onePagePdf()) }, signer, auditTrail, level }),
        }),
      );
      const body = await expectError(res, 400, 'VALIDATION_ERROR');
      expect(body.details).toEqual([
        {
          field: 'level',
          issue: `${level} needs a time-stamping authority, and TSA_URL is not set on this deployment; ask for B-B, or have the operator set TSA_URL`,
        },
      ]);
    }
    const res = await call(
      '/v1/sign',
      withKey(await mintKey(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ document: { base64: 'JVBERi0=' }, signer, auditTrail, level: 'B-XL' }),
      }),
    );
    const body = await expectError(res, 400, 'VALIDATION_ERROR');
    expect(body.details?.[0]?.field).toBe('level');
  });
});
