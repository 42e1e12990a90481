import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCrl } from '../../../src/services/revocation/certificate-list';
import { cmsRevocationData } from '../../../src/services/revocation/cms-revocation';
import {
  hasRevocationData,
  type RevocationDatum,
  revocationStatus,
  type StatusQuery,
} from '../../../src/services/revocation/revocation-status';
import { checkX509Signature } from '../../../src/services/verify/long-term';
import {
  ADBE_REVOCATION_INFO_ARCHIVAL,
  basicOcsp,
  crl,
  makeRevocationPki,
  ocspResponse,
  REVOCATION_VALUES,
  type RevocationPki,
  revocationChoices,
} from '../verify/revocation-fixtures';

const signedAt = new Date('2026-03-04T05:06:07Z');
const before = new Date('2026-01-01T00:00:00Z');
const after = new Date('2026-03-05T00:00:00Z');
const later = new Date('2026-04-01T00:00:00Z');

describe('revocationStatus (RFC 6960, RFC 5280 §6.3)', () => {
  let pki: RevocationPki;
  let query: (
    data: RevocationDatum[],
    changes?: Partial<StatusQuery>,
  ) => Promise<Awaited<ReturnType<typeof revocationStatus>>>;

  beforeAll(async () => {
    pki = await makeRevocationPki();
    query = async (data, changes = {}) =>
      revocationStatus({
        certificate: pki.leafDer,
        certificates: [pki.caDer],
        data,
        at: signedAt,
        atProven: false,
        verify: checkX509Signature,
        label: 'the signer certificate',
        ...changes,
      });
  });

  const ocsp = (der: Uint8Array, source: RevocationDatum['source'] = 'dss'): RevocationDatum => ({
    kind: 'ocsp',
    der,
    source,
  });

  it('a good OCSP response from the CA, issued after signing, is good', async () => {
    const der = await ocspResponse(pki, { status: 'good', thisUpdate: after });
    expect(await query([ocsp(der, 'cms')])).toEqual({ status: 'good', source: 'cms', problems: [] });
  });

  it('a good response issued before signing counts while its nextUpdate covers the signing time (pyHanko), not after', async () => {
    const current = await ocspResponse(pki, { status: 'good', thisUpdate: before, nextUpdate: later });
    expect((await query([ocsp(current)])).status).toBe('good');
    const stale = await ocspResponse(pki, { status: 'good', thisUpdate: before, nextUpdate: before });
    const result = await query([ocsp(stale)]);
    expect(result.status).toBe('unknown');
    expect(result.problems.join()).toMatch(/issued on 2026-01-01.*before the signing time/);
  });

  it('a delegated responder needs the CA’s certificate with id-kp-OCSPSigning (RFC 6960 §4.2.2.2)', async () => {
    const delegated = await ocspResponse(pki, {
      status: 'good',
      thisUpdate: after,
      signerKey: pki.responderKey.privateKey,
      responder: pki.responder,
      certs: [pki.responder],
    });
    expect((await query([ocsp(delegated)])).status).toBe('good');
    // The stray TSA is no responder of the CA: it signed, it named itself, it is not authorized.
    const rogue = await ocspResponse(pki, {
      status: 'good',
      thisUpdate: after,
      signerKey: pki.strayTsaKey.privateKey,
      responder: pki.strayTsa,
      certs: [pki.strayTsa],
    });
    const result = await query([ocsp(rogue)]);
    expect(result.status).toBe('unknown');
    expect(result.problems[0]).toMatch(/not usable: its responder certificate was not issued by the issuing CA/);
  });

  it('a response signed with the wrong key is unknown, with a problem', async () => {
    const forged = await ocspResponse(pki, {
      status: 'good',
      thisUpdate: after,
      signerKey: pki.responderKey.privateKey,
    });
    const result = await query([ocsp(forged)]);
    expect(result).toMatchObject({ status: 'unknown', source: null });
    expect(result.problems).toEqual([
      'an OCSP response in the DSS about the signer certificate is not usable: its signature does not verify with the issuing CA’s key',
    ]);
  });

  it('revoked at or before the signing time is revoked; after it, only a proven time lets the signature stand', async () => {
    const early = await ocspResponse(pki, { status: 'revoked', revokedAt: before, thisUpdate: after });
    const revoked = await query([ocsp(early)]);
    expect(revoked).toMatchObject({ status: 'revoked', source: 'dss', revokedAt: before.toISOString() });
    expect(revoked.problems[0]).toMatch(/^the signer certificate is revoked: .* revoked on 2026-01-01/);

    const late = await ocspResponse(pki, { status: 'revoked', revokedAt: later, thisUpdate: later });
    const claimed = await query([ocsp(late)]);
    expect(claimed.status).toBe('revoked');
    expect(claimed.problems[0]).toMatch(/no trusted timestamp proves the signature was made before the revocation/);
    const proven = await query([ocsp(late)], { atProven: true });
    expect(proven.status).toBe('good');
    expect(proven.problems[0]).toMatch(/does not affect it/);
  });

  it('revoked wins over good; a responder that does not know the certificate says nothing', async () => {
    const good = await ocspResponse(pki, { status: 'good', thisUpdate: after });
    const list = await crl(pki, {
      thisUpdate: after,
      revoked: [{ serial: pki.leaf.serialNumber, at: before, reason: 1 }],
    });
    const result = await query([ocsp(good, 'cms'), { kind: 'crl', der: list, source: 'dss' }]);
    expect(result).toMatchObject({ status: 'revoked', source: 'dss' });
    expect(result.problems[0]).toContain('(keyCompromise)');
    const unknown = await query([ocsp(await ocspResponse(pki, { status: 'unknown', thisUpdate: after }))]);
    expect(unknown.status).toBe('unknown');
    expect(unknown.problems[0]).toMatch(/does not know the signer certificate/);
  });

  it('a CRL of the CA that does not list the certificate is good; one signed by another key is unknown', async () => {
    const clean = await crl(pki, { thisUpdate: after, nextUpdate: later });
    expect(await query([{ kind: 'crl', der: clean, source: 'online' }])).toEqual({
      status: 'good',
      source: 'online',
      problems: [],
    });
    const forged = await crl(pki, { thisUpdate: after, signerKey: pki.responderKey.privateKey });
    const result = await query([{ kind: 'crl', der: forged, source: 'dss' }]);
    expect(result.status).toBe('unknown');
    expect(result.problems[0]).toMatch(/a CRL in the DSS from the issuer of the signer certificate is not usable/);
  });

  it('reads a CRL of thousands of entries (more ASN.1 nodes than asn1js parses by default) and finds the one', async () => {
    const big = await crl(pki, {
      thisUpdate: after,
      padding: 4000,
      revoked: [{ serial: pki.leaf.serialNumber, at: before }],
    });
    const parsed = parseCrl(big);
    expect(typeof parsed).not.toBe('string');
    expect((await query([{ kind: 'crl', der: big, source: 'dss' }])).status).toBe('revoked');
  });

  it('damaged, truncated or foreign data is unknown with a problem, never a throw', async () => {
    const good = await ocspResponse(pki, { status: 'good', thisUpdate: after });
    const data: RevocationDatum[] = [
      ocsp(new Uint8Array([0x30, 0x03, 0x0a, 0x01, 0x00])),
      ocsp(good.subarray(0, good.length - 20)),
      { kind: 'crl', der: new Uint8Array(50).fill(0x30), source: 'cms' },
      ocsp(new Uint8Array([0x30, 0x03, 0x0a, 0x01, 0x06])),
    ];
    const result = await query(data);
    expect(result.status).toBe('unknown');
    expect(result.problems).toHaveLength(4);
    expect(result.problems.at(-1)).toMatch(/answered unauthorized/);
    // An unreadable signer certificate is unknown too.
    expect((await query([ocsp(good)], { certificate: new Uint8Array([1, 2, 3]) })).status).toBe('unknown');
  });

  it('a bare BasicOCSPResponse (CAdES revocation-values) is read as well', async () => {
    const basic = await basicOcsp(pki, { status: 'good', thisUpdate: after });
    expect((await query([{ kind: 'basic-ocsp', der: basic, source: 'cms' }])).status).toBe('good');
  });

  it('hasRevocationData matches an OCSP response or a CRL about the certificate, not about another', async () => {
    const good = await ocspResponse(pki, { status: 'good', thisUpdate: after });
    const list = await crl(pki, { thisUpdate: after });
    expect(await hasRevocationData(pki.leafDer, [ocsp(good)])).toBe(true);
    expect(await hasRevocationData(pki.leafDer, [{ kind: 'crl', der: list, source: 'dss' }])).toBe(true);
    expect(await hasRevocationData(pki.caDer, [ocsp(good)])).toBe(false);
  });
});

describe('cmsRevocationData', () => {
  it('reads adbe-revocationInfoArchival, revocation-values and SignedData.crls (with id-ri-ocsp-response)', async () => {
    const pki = await makeRevocationPki();
    const thisUpdate = new Date('2026-03-05T00:00:00Z');
    const ocspDer = await ocspResponse(pki, { status: 'good', thisUpdate });
    const basicDer = await basicOcsp(pki, { status: 'good', thisUpdate });
    const crlDer = await crl(pki, { thisUpdate });
    const signerInfo = new pkijs.SignerInfo({
      version: 1,
      sid: new pkijs.IssuerAndSerialNumber({ issuer: pki.leaf.issuer, serialNumber: pki.leaf.serialNumber }),
      digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.1' }),
      signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '1.2.840.10045.4.3.2' }),
      signature: new asn1js.OctetString({ valueHex: new Uint8Array(64) }),
      signedAttrs: new pkijs.SignedAndUnsignedAttributes({
        type: 0,
        attributes: [
          new pkijs.Attribute({
            type: ADBE_REVOCATION_INFO_ARCHIVAL,
            values: [revocationChoices({ crls: [crlDer], ocsps: [ocspDer] })],
          }),
        ],
      }),
      unsignedAttrs: new pkijs.SignedAndUnsignedAttributes({
        type: 1,
        attributes: [
          new pkijs.Attribute({ type: REVOCATION_VALUES, values: [revocationChoices({ ocsps: [basicDer] })] }),
        ],
      }),
    });
    const signedData = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: '1.2.840.113549.1.7.1' }),
      crls: [
        pkijs.CertificateRevocationList.fromBER(crlDer),
        new pkijs.OtherRevocationInfoFormat({
          otherRevInfoFormat: '1.3.6.1.5.5.7.16.2',
          otherRevInfo: asn1js.fromBER(ocspDer).result,
        }),
      ],
      signerInfos: [signerInfo],
    });
    // Through DER and back, as a signature is read.
    const reread = new pkijs.SignedData({ schema: asn1js.fromBER(signedData.toSchema(true).toBER()).result });
    const { data, problems } = cmsRevocationData(reread, reread.signerInfos[0] as pkijs.SignerInfo);
    expect(problems).toEqual([]);
    expect(data.map((datum) => datum.kind)).toEqual(['crl', 'ocsp', 'basic-ocsp', 'crl', 'ocsp']);
    expect(data.every((datum) => datum.source === 'cms')).toBe(true);
    expect(data[1]?.der).toEqual(ocspDer);
    expect(data[4]?.der).toEqual(ocspDer);
  });
});
