import * as x509 from '@peculiar/x509';
import { HttpResponse, http } from 'msw';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectRevocationData } from '../../../src/services/revocation';
import { checkX509Signature } from '../../../src/services/verify/long-term';
import {
  ISSUING_CRL_URL,
  makeRevocationPki,
  OCSP_URL,
  ocspResponse,
  type RevocationLog,
  type RevocationPki,
  ROOT_CRL_URL,
  revocationHandlers,
} from '../../helpers/revocation-pki';
import { generateKeyPair } from '../../helpers/test-identity';
import { network } from '../../setup/network';

const ocspStatus = (der: Uint8Array) => pkijs.OCSPResponse.fromBER(der).responseStatus.valueBlock.valueDec;
const crlIssuer = (der: Uint8Array) =>
  pkijs.CertificateRevocationList.fromBER(der).issuer.typesAndValues.map((t) => t.value.valueBlock.value);

describe('collectRevocationData (RFC 6960 OCSP, RFC 5280 CRLs)', () => {
  let pki: RevocationPki;
  beforeAll(async () => {
    pki = await makeRevocationPki();
  });

  it("asks the signer's OCSP responder by GET and takes the issuing CA's status from the root's CRL; the root needs none", async () => {
    const log: RevocationLog = { ocsp: [], crl: [] };
    network.use(...revocationHandlers(pki, {}, log));
    const data = await collectRevocationData(pki.chain, checkX509Signature);
    expect(data.problems).toEqual([]);
    expect(data.ocsps).toHaveLength(1);
    expect(ocspStatus(data.ocsps[0] as Uint8Array)).toBe(0);
    expect(data.crls).toHaveLength(1);
    expect(crlIssuer(data.crls[0] as Uint8Array)).toContain('Quire Test Root');
    // RFC 6960 §4.1.1: SHA-1 of the issuer's name and key, the signer's serial.
    const [certId] = log.ocsp;
    expect(certId?.hashAlgorithm.algorithmId).toBe('1.3.14.3.2.26');
    const issuer = pkijs.Certificate.fromBER(pki.issuing.der);
    const keyHash = new Uint8Array(
      await crypto.subtle.digest('SHA-1', issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
    );
    expect(new Uint8Array(certId?.issuerKeyHash.valueBlock.valueHexView ?? [])).toEqual(keyHash);
    expect(log.crl).toEqual([ROOT_CRL_URL]);
  });

  it('accepts responses signed by the issuing CA itself, not only by its delegated responder (§4.2.2.2)', async () => {
    network.use(...revocationHandlers(pki, { ocspSignedBy: 'issuing' }));
    const data = await collectRevocationData(pki.chain, checkX509Signature);
    expect(data.problems).toEqual([]);
    expect(data.ocsps).toHaveLength(1);
  });

  it('refuses a response no authorised responder signed, and falls back to the CRL', async () => {
    const log: RevocationLog = { ocsp: [], crl: [] };
    network.use(...revocationHandlers(pki, { ocspSignedBy: 'stranger' }, log));
    const data = await collectRevocationData(pki.chain, checkX509Signature);
    expect(data.ocsps).toHaveLength(0);
    expect(data.crls).toHaveLength(2);
    expect(log.crl).toEqual(expect.arrayContaining([ISSUING_CRL_URL, ROOT_CRL_URL]));
    expect(data.problems).toEqual([]);
  });

  it('says what failed, for each certificate, when neither OCSP nor CRL can be had', async () => {
    network.use(...revocationHandlers(pki, { ocspHttpStatus: 500, crlHttpStatus: 404 }));
    const data = await collectRevocationData(pki.chain, checkX509Signature);
    expect(data.ocsps).toEqual([]);
    expect(data.crls).toEqual([]);
    expect(data.problems).toHaveLength(2);
    expect(data.problems[0]).toMatch(
      /^no revocation data for "Quire Test Signer": OCSP responder http:\/\/ocsp\.quire\.test\/ could not be fetched: ocsp\.quire\.test answered HTTP 500/,
    );
    expect(data.problems[0]).toMatch(
      /CRL http:\/\/crl\.quire\.test\/issuing\.crl could not be fetched: crl\.quire\.test answered HTTP 404/,
    );
    expect(data.problems[1]).toMatch(
      /^no revocation data for "Quire Test Issuing CA": CRL http:\/\/crl\.quire\.test\/root\.crl/,
    );
    // The fetcher's advice to a document URL's caller is not repeated.
    expect(data.problems.join(' ')).not.toMatch(/base64|Check the link|try again later/);
  });

  it('reports a revoked certificate, and keeps the response that says so', async () => {
    network.use(...revocationHandlers(pki, { revoked: [pki.signer.cert.serialNumber] }));
    const data = await collectRevocationData(pki.chain, checkX509Signature);
    expect(data.ocsps).toHaveLength(1);
    expect(data.problems).toEqual([
      expect.stringMatching(
        /^"Quire Test Signer" is revoked according to OCSP responder http:\/\/ocsp\.quire\.test\/ \(since 2026-01-02T03:04:05\.000Z, reason keyCompromise\)/,
      ),
    ]);
  });

  it('finds a revoked certificate on the CRL too', async () => {
    network.use(...revocationHandlers(pki, { revoked: [pki.issuing.cert.serialNumber] }));
    const data = await collectRevocationData(pki.chain, checkX509Signature);
    expect(data.problems).toEqual([
      expect.stringMatching(
        /^"Quire Test Issuing CA" is revoked according to the CRL at http:\/\/crl\.quire\.test\/root\.crl/,
      ),
    ]);
  });

  it('takes the CRL when the responder does not know the certificate (status unknown)', async () => {
    network.use(...revocationHandlers(pki, { unknown: [pki.signer.cert.serialNumber] }));
    const data = await collectRevocationData(pki.chain, checkX509Signature);
    expect(data.ocsps).toHaveLength(0);
    expect(data.crls).toHaveLength(2);
    expect(data.problems).toEqual([]);
  });

  it('refuses a stale response and a response for another certificate', async () => {
    network.use(...revocationHandlers(pki, { now: new Date('2025-06-01T00:00:00Z'), crlHttpStatus: 404 }));
    const stale = await collectRevocationData(pki.chain, checkX509Signature);
    expect(stale.problems[0]).toMatch(/OCSP response from http:\/\/ocsp\.quire\.test\/: the response is stale/);
    // A responder answering about the responder's own certificate, whatever it is asked.
    network.use(
      http.get(`${OCSP_URL}*`, async () => {
        const other = await collectOther(pki);
        return new HttpResponse(other, { headers: { 'Content-Type': 'application/ocsp-response' } });
      }),
      ...revocationHandlers(pki, { crlHttpStatus: 404 }).slice(1),
    );
    const wrong = await collectRevocationData(pki.chain, checkX509Signature);
    expect(wrong.problems[0]).toMatch(/does not answer for this certificate \(no matching CertID\)/);
  });

  it('keeps to the address guard (no private targets), the size cap and the deadline', async () => {
    const keys = await generateKeyPair('ec-p256');
    const leaf = await x509.X509CertificateGenerator.create({
      serialNumber: '2001',
      subject: 'CN=Inward, O=Quire Tests',
      issuer: pki.issuing.cert.subject,
      notBefore: new Date('2025-01-01T00:00:00Z'),
      notAfter: new Date('2035-01-01T00:00:00Z'),
      publicKey: keys.publicKey,
      signingKey: pki.issuing.keys.privateKey,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      extensions: [
        new x509.AuthorityInfoAccessExtension({ ocsp: 'http://10.0.0.7/ocsp' }),
        new x509.CRLDistributionPointsExtension(['http://big.quire.test/huge.crl', 'http://slow.quire.test/slow.crl']),
      ],
    });
    network.use(
      http.get('http://big.quire.test/huge.crl', () => HttpResponse.arrayBuffer(new Uint8Array(2048).buffer)),
      http.get('http://slow.quire.test/slow.crl', () => new Promise<Response>(() => {})),
      ...revocationHandlers(pki),
    );
    const data = await collectRevocationData(
      [new Uint8Array(leaf.rawData), pki.issuing.der, pki.root.der],
      checkX509Signature,
      {
        maxBytes: 1024,
        timeoutMs: 300,
      },
    );
    expect(data.problems, data.problems.join('\n')).toHaveLength(1);
    const [problem] = data.problems;
    expect(problem).toMatch(/OCSP responder http:\/\/10\.0\.0\.7\/ocsp points to a private network address/);
    expect(problem).toMatch(
      /CRL http:\/\/big\.quire\.test\/huge\.crl is 2 KiB \(2,048 bytes\) \(its Content-Length\), more than the limit/,
    );
    expect(problem).toMatch(/Fetching CRL http:\/\/slow\.quire\.test\/slow\.crl timed out after 0\.\d+ s/);
  });

  it('says so when a certificate names no responder and no distribution point', async () => {
    const data = await collectRevocationData([pki.root.der], checkX509Signature);
    expect(data).toEqual({ ocsps: [], crls: [], problems: [] });
    const keys = await generateKeyPair('ec-p256');
    const bare = await x509.X509CertificateGenerator.create({
      serialNumber: '2002',
      subject: 'CN=Bare, O=Quire Tests',
      issuer: pki.issuing.cert.subject,
      notBefore: new Date('2025-01-01T00:00:00Z'),
      notAfter: new Date('2035-01-01T00:00:00Z'),
      publicKey: keys.publicKey,
      signingKey: pki.issuing.keys.privateKey,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    });
    const none = await collectRevocationData([new Uint8Array(bare.rawData)], checkX509Signature);
    expect(none.problems).toEqual([`no revocation data for "Bare": its issuer's certificate is not in the chain`]);
    const named = await collectRevocationData(
      [new Uint8Array(bare.rawData), pki.issuing.der, pki.root.der],
      checkX509Signature,
      {
        fetch: (() => {
          throw new Error('nothing should be fetched');
        }) as typeof fetch,
      },
    );
    expect(named.problems[0]).toBe(
      'no revocation data for "Bare": its certificate names no OCSP responder and no CRL distribution point (http or https)',
    );
  });
});

/** An OCSP response about the responder's own certificate: good, well signed, for the wrong CertID. */
async function collectOther(pki: RevocationPki): Promise<ArrayBuffer> {
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(pkijs.Certificate.fromBER(pki.responder.der), {
    hashAlgorithm: 'SHA-1',
    issuerCertificate: pkijs.Certificate.fromBER(pki.issuing.der),
  });
  return ocspResponse(pki, request);
}
