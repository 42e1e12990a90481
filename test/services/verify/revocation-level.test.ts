import * as asn1js from 'asn1js';
import { HttpResponse, http } from 'msw';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/config';
import type { Env } from '../../../src/env';
import { verifyPdf } from '../../../src/services/verify/verify-document';
import { network } from '../../setup/network';
import {
  ADBE_REVOCATION_INFO_ARCHIVAL,
  addDocumentTimestamp,
  addDss,
  crl,
  makeRevocationPki,
  ocspResponse,
  type RevocationPki,
  revocationChoices,
  signatureTimestamp,
  signWith,
} from './revocation-fixtures';
import { makeOriginal } from './verify-fixtures';

// verify-fixtures' details: /M is 2026-03-04T05:06:07Z.
const beforeSigning = new Date('2026-02-01T00:00:00Z');
const justBefore = new Date('2026-03-04T05:00:00Z');
const stampedAt = new Date('2026-03-04T05:06:08Z');
const afterSigning = new Date('2026-03-05T00:00:00Z');
const weekLater = new Date('2026-03-11T00:00:00Z');

const archival = (ocsps: Uint8Array[]) =>
  new pkijs.Attribute({ type: ADBE_REVOCATION_INFO_ARCHIVAL, values: [revocationChoices({ ocsps })] });

describe('verifyPdf: revocation status (issue 24)', () => {
  let pki: RevocationPki;
  let original: Uint8Array;
  const verify = (pdf: Uint8Array, options: { online?: boolean; roots?: Uint8Array[] } = {}) =>
    verifyPdf(pdf, {
      trustedRoots: options.roots ?? [pki.caDer],
      ...(options.online ? { revocationCheck: 'online' as const } : {}),
    });

  beforeAll(async () => {
    pki = await makeRevocationPki();
    original = await makeOriginal(false);
  });

  it('(a) a good OCSP response in adbe-revocationInfoArchival: good, from the CMS', async () => {
    // Acrobat fetches it just before signing; its nextUpdate covers the signing time.
    const ocsp = await ocspResponse(pki, { status: 'good', thisUpdate: justBefore, nextUpdate: weekLater });
    const result = await verify(await signWith(original, pki.identity, { signed: [archival([ocsp])] }));
    expect(result.valid, result.reason).toBe(true);
    const [signature] = result.signatures;
    expect(signature).toMatchObject({
      revocation: 'good',
      revocationSource: 'cms',
      trusted: true,
      trust: 'trusted',
      level: 'B-B',
    });
    expect(signature?.problems.filter((problem) => problem.startsWith('revocation'))).toEqual([]);
  });

  it('(b) a DSS whose CRL lists the certificate revoked before signing: revoked, not trusted, still valid', async () => {
    const list = await crl(pki, {
      thisUpdate: afterSigning,
      nextUpdate: weekLater,
      revoked: [{ serial: pki.leaf.serialNumber, at: beforeSigning, reason: 1 }],
    });
    const pdf = await addDss(await signWith(original, pki.identity), { certs: [pki.caDer], crls: [list] });
    const result = await verify(pdf);
    // docs/api.md: `valid` excludes trust; a DSS added later is a permitted change.
    expect(result.valid, result.reason).toBe(true);
    const [signature] = result.signatures;
    expect(signature).toMatchObject({
      revocation: 'revoked',
      revocationSource: 'dss',
      trusted: false,
      trust: 'untrusted',
      modificationsAfterSigning: 'signatures',
    });
    expect(signature?.problems).toContain(
      'revocation: the signer certificate is revoked: a CRL in the DSS says it was revoked on 2026-02-01T00:00:00.000Z (keyCompromise), at or before the signing time 2026-03-04T05:06:07.000Z',
    );
  });

  it('(c) an OCSP response signed by a wrong key: unknown, with a problem, trust untouched', async () => {
    const forged = await ocspResponse(pki, {
      status: 'good',
      thisUpdate: justBefore,
      nextUpdate: weekLater,
      signerKey: pki.responderKey.privateKey,
    });
    const result = await verify(await signWith(original, pki.identity, { signed: [archival([forged])] }));
    const [signature] = result.signatures;
    expect(signature).toMatchObject({ revocation: 'unknown', revocationSource: null, trusted: true });
    expect(signature?.problems).toContain(
      'revocation: an OCSP response in the signature about the signer certificate is not usable: its signature does not verify with the issuing CA’s key',
    );
  });

  it('a revocation after the time a trusted timestamp proves leaves the signature standing, and says so', async () => {
    const tsa = { key: pki.caKey.privateKey, certificate: pki.ca };
    const stamped = await signWith(original, pki.identity, { unsigned: signatureTimestamp(tsa, stampedAt) });
    const late = await ocspResponse(pki, { status: 'revoked', revokedAt: weekLater, thisUpdate: weekLater });
    const [signature] = (await verify(await addDss(stamped, { ocsps: [late] }))).signatures;
    expect(signature).toMatchObject({ revocation: 'good', revocationSource: 'dss', trusted: true });
    expect(signature?.problems.join('\n')).toMatch(
      /revoked on 2026-03-11.*after 2026-03-04T05:06:08.000Z.*does not affect it/,
    );
    // Without the timestamp, nothing proves the signature came first: revoked.
    const [unstamped] = (await verify(await addDss(await signWith(original, pki.identity), { ocsps: [late] })))
      .signatures;
    expect(unstamped).toMatchObject({ revocation: 'revoked', trusted: false });
  });

  it('damaged revocation data in the DSS and the CMS is unknown with a problem, never an error', async () => {
    const garbage = new Uint8Array([0x30, 0x82, 0x10, 0x00, 1, 2, 3]);
    const pdf = await addDss(
      await signWith(original, pki.identity, {
        signed: [
          new pkijs.Attribute({ type: ADBE_REVOCATION_INFO_ARCHIVAL, values: [new asn1js.Integer({ value: 5 })] }),
        ],
      }),
      { ocsps: [garbage], crls: [garbage] },
    );
    const result = await verify(pdf);
    expect(result.valid, result.reason).toBe(true);
    const problems = result.signatures[0]?.problems.join('\n') ?? '';
    expect(result.signatures[0]?.revocation).toBe('unknown');
    expect(problems).toMatch(/revocation: a revocation attribute of the signature is not a SEQUENCE/);
    expect(problems).toMatch(/revocation: an OCSP response in the DSS cannot be read/);
    expect(problems).toMatch(/revocation: a CRL in the DSS cannot be read/);
  });
});

describe('verifyPdf: REVOCATION_CHECK=online', () => {
  const responder = 'http://ocsp.quire-test.example/ocsp';

  it('(d) asks the OCSP responder the certificate names (RFC 6960 Appendix A.1 GET): good, online', async () => {
    const pki = await makeRevocationPki({ ocspUrl: responder });
    const requests: pkijs.OCSPRequest[] = [];
    network.use(
      http.get(`${responder}/:request`, async ({ params }) => {
        const der = Uint8Array.from(atob(decodeURIComponent(String(params.request))), (c) => c.charCodeAt(0));
        const request = pkijs.OCSPRequest.fromBER(der);
        requests.push(request);
        const body = await ocspResponse(pki, { status: 'good', thisUpdate: afterSigning, nextUpdate: weekLater });
        return HttpResponse.arrayBuffer(body.slice().buffer, {
          headers: { 'Content-Type': 'application/ocsp-response' },
        });
      }),
    );
    const pdf = await signWith(await makeOriginal(false), pki.identity);
    const offline = await verifyPdf(pdf, { trustedRoots: [pki.caDer] });
    expect(offline.signatures[0]).toMatchObject({ revocation: 'unknown', revocationSource: null });
    expect(requests).toHaveLength(0);

    const online = await verifyPdf(pdf, { trustedRoots: [pki.caDer], revocationCheck: 'online' });
    expect(online.signatures[0]).toMatchObject({ revocation: 'good', revocationSource: 'online', trusted: true });
    expect(requests).toHaveLength(1);
    const asked = requests[0]?.tbsRequest.requestList[0]?.reqCert;
    expect(asked?.serialNumber.isEqual(pki.leaf.serialNumber)).toBe(true);
  });

  it('a responder that fails is a problem and leaves the status unknown; the CRL distribution point is asked next', async () => {
    const crlUrl = 'http://crl.quire-test.example/ca.crl';
    const pki = await makeRevocationPki({ ocspUrl: responder, crlUrl });
    const list = await crl(pki, {
      thisUpdate: afterSigning,
      revoked: [{ serial: pki.leaf.serialNumber, at: beforeSigning }],
    });
    network.use(
      http.get(`${responder}/:request`, () => new HttpResponse(null, { status: 500 })),
      http.get(crlUrl, () => HttpResponse.arrayBuffer(list.slice().buffer)),
    );
    const pdf = await signWith(await makeOriginal(false), pki.identity);
    const [signature] = (await verifyPdf(pdf, { trustedRoots: [pki.caDer], revocationCheck: 'online' })).signatures;
    expect(signature).toMatchObject({ revocation: 'revoked', revocationSource: 'online', trusted: false });
    expect(signature?.problems.join('\n')).toMatch(
      /online revocation check: the OCSP responder could not be fetched.*HTTP 500/,
    );

    network.use(http.get(crlUrl, () => new HttpResponse(null, { status: 404 })));
    const [failed] = (await verifyPdf(pdf, { trustedRoots: [pki.caDer], revocationCheck: 'online' })).signatures;
    expect(failed).toMatchObject({ revocation: 'unknown', revocationSource: null, trusted: true });
  });

  it('REVOCATION_CHECK reads offline (default) or online; anything else fails loudly', () => {
    const base = {} as Env;
    expect(readConfig(base).revocationCheck).toBe('offline');
    expect(readConfig({ ...base, REVOCATION_CHECK: ' Online ' }).revocationCheck).toBe('online');
    expect(() => readConfig({ ...base, REVOCATION_CHECK: 'sometimes' })).toThrow(/REVOCATION_CHECK must be one of/);
  });
});

describe('verifyPdf: PAdES baseline level (ETSI EN 319 142-1 §6)', () => {
  let pki: RevocationPki;
  let original: Uint8Array;
  let tsa: { key: CryptoKey; certificate: pkijs.Certificate };
  beforeAll(async () => {
    pki = await makeRevocationPki();
    original = await makeOriginal(false);
    tsa = { key: pki.caKey.privateKey, certificate: pki.ca };
  });
  const levels = async (pdf: Uint8Array) =>
    (await verifyPdf(pdf, { trustedRoots: [pki.caDer] })).signatures.map((signature) => signature.level);

  it('(e) B-B, B-T with a signature timestamp, B-LT with a DSS, B-LTA with a document timestamp over it', async () => {
    const bb = await signWith(original, pki.identity);
    expect(await levels(bb)).toEqual(['B-B']);

    const bt = await signWith(original, pki.identity, { unsigned: signatureTimestamp(tsa, stampedAt) });
    const btResult = await verifyPdf(bt, { trustedRoots: [pki.caDer] });
    expect(btResult.signatures[0]).toMatchObject({ level: 'B-T', timestamp: { verified: true } });
    expect(btResult.signatures[0]?.problems.join('\n')).not.toMatch(/TSA/);

    const ocsp = await ocspResponse(pki, { status: 'good', thisUpdate: afterSigning, nextUpdate: weekLater });
    const lt = await addDss(bt, { certs: [pki.caDer], ocsps: [ocsp] });
    const ltResult = await verifyPdf(lt, { trustedRoots: [pki.caDer] });
    expect(ltResult.valid, ltResult.reason).toBe(true);
    expect(ltResult.signatures[0]).toMatchObject({ level: 'B-LT', revocation: 'good', revocationSource: 'dss' });

    const lta = await addDocumentTimestamp(lt, tsa, weekLater);
    const ltaResult = await verifyPdf(lta, { trustedRoots: [pki.caDer] });
    expect(ltaResult.valid, ltaResult.reason).toBe(true);
    expect(ltaResult.signatures.map((signature) => [signature.subFilter, signature.level])).toEqual([
      ['ETSI.CAdES.detached', 'B-LTA'],
      ['ETSI.RFC3161', null],
    ]);
  });

  it('a document timestamp alone makes B-T; a DSS without a timestamp stays B-B; a DSS before the archive timestamp only is B-LT', async () => {
    const bb = await signWith(original, pki.identity);
    expect(await levels(await addDocumentTimestamp(bb, tsa, afterSigning))).toEqual(['B-T', null]);
    const ocsp = await ocspResponse(pki, { status: 'good', thisUpdate: afterSigning, nextUpdate: weekLater });
    expect(await levels(await addDss(bb, { ocsps: [ocsp] }))).toEqual(['B-B']);
    // Document timestamp, then the DSS: the timestamp does not cover it.
    const stamped = await addDocumentTimestamp(bb, tsa, afterSigning);
    expect(await levels(await addDss(stamped, { ocsps: [ocsp] }))).toEqual(['B-LT', null]);
    // A DSS holding data about other certificates only does not make B-LT.
    const other = await ocspResponse(pki, { status: 'good', thisUpdate: afterSigning, target: pki.responder });
    expect(await levels(await addDss(stamped, { ocsps: [other] }))).toEqual(['B-T', null]);
  });

  it('says when the signature timestamp’s TSA does not chain to a trusted root; the level stays B-T', async () => {
    const stray = { key: pki.strayTsaKey.privateKey, certificate: pki.strayTsa };
    const pdf = await signWith(original, pki.identity, { unsigned: signatureTimestamp(stray, stampedAt) });
    const [signature] = (await verifyPdf(pdf, { trustedRoots: [pki.caDer] })).signatures;
    expect(signature).toMatchObject({ level: 'B-T', timestamp: { verified: true }, trusted: true });
    expect(signature?.problems.join('\n')).toMatch(
      /signature timestamp: the TSA certificate is not trusted \(it does not chain to a trusted root: the chain ends at the self-signed CN=Stray TSA/,
    );
  });

  it('a CAdES signature with a signing-time attribute is not PAdES baseline: null, and said', async () => {
    const signingTime = new pkijs.Attribute({
      type: '1.2.840.113549.1.9.5',
      values: [new asn1js.UTCTime({ valueDate: new Date('2026-03-04T05:06:07Z') })],
    });
    const [signature] = (
      await verifyPdf(await signWith(original, pki.identity, { signed: [signingTime] }), { trustedRoots: [pki.caDer] })
    ).signatures;
    expect(signature?.level).toBeNull();
    expect(signature?.problems).toContain(
      'not a PAdES baseline signature (ETSI EN 319 142-1 §6.3): it has a signing-time attribute, which PAdES replaces with /M',
    );
  });
});
