import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS as limits } from '../../../src/limits';
import { signPdf } from '../../../src/services/sign/sign-pdf';
import type { SignatureDetails, SigningIdentity } from '../../../src/services/sign/sign-types';
import { loadSigningIdentity } from '../../../src/services/sign/signing-identity';
import { verifyTimestampToken } from '../../../src/services/verify/timestamp-token';
import { verifyPdf } from '../../../src/services/verify/verify-document';
import { makeTestPki, type TestPki } from '../../helpers/test-identity';
import { makePdf, readSignatures, verifies } from './sign-pdf-helpers';
import { stubTsa as stubTsaSignedBy, type TsaOptions } from './tsa-fixture';

const details: SignatureDetails = {
  name: 'Tim Stamp',
  reason: 'B-T',
  location: 'Bern',
  signingTime: new Date('2026-03-04T05:06:07Z'),
};
const SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';

/** The TSA fixture, its tokens signed by the test CA itself. */
const stubTsa = (pki: TestPki, options: TsaOptions = {}) =>
  stubTsaSignedBy({ certificate: new Uint8Array(pki.caCert.rawData), privateKey: pki.caKey.privateKey }, options);

describe('signPdf with a TSA (PAdES B-T)', () => {
  let pki: TestPki;
  let identity: SigningIdentity;
  beforeAll(async () => {
    pki = await makeTestPki('rsa');
    identity = await loadSigningIdentity(pki.keyPem, pki.chainPem);
  });

  it('adds the token as signatureTimeStampToken over the signature value (RFC 3161 Appendix A)', async () => {
    const tsa = stubTsa(pki);
    const signed = await signPdf(await makePdf(), {
      identity,
      details,
      limits,
      tsa: { url: 'https://tsa.test/', fetch: tsa.fetch },
    });
    expect(tsa.requests).toHaveLength(1);
    const request = pkijs.TimeStampReq.fromBER(tsa.requests[0] as Uint8Array);
    expect(request.certReq).toBe(true);
    expect(request.nonce).toBeDefined();
    expect(request.messageImprint.hashAlgorithm.algorithmId).toBe('2.16.840.1.101.3.4.2.1');

    const signature = readSignatures(signed)[0];
    if (!signature) throw new Error('no signature');
    expect(await verifies(signature)).toBe(true);
    const signerInfo = signature.signedData.signerInfos[0] as pkijs.SignerInfo;
    expect(signerInfo.unsignedAttrs?.attributes.map((attribute) => attribute.type)).toEqual([SIGNATURE_TIMESTAMP]);
    const signatureValue = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
    const imprint = new Uint8Array(await crypto.subtle.digest('SHA-256', signatureValue));
    expect(new Uint8Array(request.messageImprint.hashedMessage.valueBlock.valueHexView)).toEqual(imprint);
    // The token is the TSA's DER, byte for byte, so the TSA's signature on it is untouched.
    const tokenSchema = signerInfo.unsignedAttrs?.attributes[0]?.values[0] as asn1js.Sequence;
    expect(new Uint8Array(tokenSchema.valueBeforeDecodeView)).toEqual(tsa.tokens[0]);
    // (pkijs cannot verify its own token here: it re-shapes eContent; byte equality is the stronger check.)
    expect(signature.byteRange[2] + signature.byteRange[3]).toBe(signed.length);
  });

  it('lays the update out again when the token is larger than the allowance', async () => {
    const tsa = stubTsa(pki, { padCertificates: 16 });
    const signed = await signPdf(await makePdf(), {
      identity,
      details,
      limits,
      tsa: { url: 'https://tsa.test/', fetch: tsa.fetch },
    });
    expect(tsa.requests).toHaveLength(2);
    expect(tsa.tokens[1]?.length).toBeGreaterThan(8 * 1024);
    const signature = readSignatures(signed)[0];
    if (!signature) throw new Error('no signature');
    expect(await verifies(signature)).toBe(true);
    expect(signature.byteRange[2] + signature.byteRange[3]).toBe(signed.length);
  });

  it('reports a refusal, a wrong nonce, an HTTP error and an unreachable TSA as INTERNAL_ERROR', async () => {
    const pdf = await makePdf();
    const failing: (typeof fetch)[] = [
      stubTsa(pki, { status: 2 }).fetch,
      stubTsa(pki, { wrongNonce: true }).fetch,
      (async () => new Response('busy', { status: 503 })) as typeof fetch,
      (async () => {
        throw new TypeError('connection refused');
      }) as typeof fetch,
      (async () => new Response('not DER')) as typeof fetch,
    ];
    const messages: string[] = [];
    for (const stub of failing) {
      await expect(
        signPdf(pdf, { identity, details, limits, tsa: { url: 'https://tsa.test/', fetch: stub } }),
      ).rejects.toSatisfy((error: { code?: string; message?: string }) => {
        messages.push(error.message ?? '');
        return error.code === 'INTERNAL_ERROR' && /^Timestamping failed: /.test(error.message ?? '');
      });
    }
    expect(messages.join('\n')).toMatch(
      /status 2[\s\S]*nonce[\s\S]*HTTP 503[\s\S]*connection refused[\s\S]*not a TimeStampResp/,
    );
  });

  it('verifies: the token stamps the signature value and the TSA signature holds; other bytes do not match', async () => {
    const tsa = stubTsa(pki);
    const signed = await signPdf(await makePdf(), {
      identity,
      details,
      limits,
      tsa: { url: 'https://tsa.test/', fetch: tsa.fetch },
    });
    const report = await verifyPdf(signed, { trustedRoots: [new Uint8Array(pki.caCert.rawData)] });
    expect(report.valid).toBe(true);
    expect(report.signatures[0]?.timestamp).toEqual({ time: '2026-03-04T05:06:08.000Z', verified: true });
    // A verified timestamp proves the signing time: no "claimed time" problem.
    expect(report.signatures[0]?.problems.join('; ')).not.toMatch(/claims/);
    const token = tsa.tokens[0] as Uint8Array;
    const other = await verifyTimestampToken(token, new TextEncoder().encode('something else'));
    expect(other).toMatchObject({ tsaSignatureValid: true, imprintMatches: false, verified: false });
    expect(other.problems).toContain('the timestamp does not stamp these bytes (its messageImprint differs)');
    const forged = token.slice();
    forged[forged.length - 10] = (forged[forged.length - 10] ?? 0) ^ 0xff; // inside the TSA's signature value
    const broken = await verifyTimestampToken(forged, new Uint8Array());
    expect(broken.tsaSignatureValid).toBe(false);
    expect(broken.verified).toBe(false);
  });
});
