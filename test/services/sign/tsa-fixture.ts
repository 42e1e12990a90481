/** A canned RFC 3161 TSA for the signer's tests: answers the request it is given with a token. */
import * as asn1js from 'asn1js';
import { HttpResponse, http } from 'msw';
import * as pkijs from 'pkijs';
import { expect } from 'vitest';

const TST_INFO = '1.2.840.113549.1.9.16.1.4';

export interface TsaSigner {
  /** The TSA's certificate, DER. */
  certificate: Uint8Array;
  privateKey: CryptoKey;
  /** Further certificates the token carries (its issuers), DER. */
  extra?: Uint8Array[];
}

export interface TsaOptions {
  status?: number;
  wrongNonce?: boolean;
  padCertificates?: number;
  genTime?: Date;
  /** A TSA that ignores certReq: the token carries no certificate. */
  withoutCertificates?: boolean;
}

/** A fetch that plays a TSA: `requests` and `tokens` record what it was asked and what it answered. */
export function stubTsa(signer: TsaSigner, options: TsaOptions = {}) {
  const requests: Uint8Array[] = [];
  const tokens: Uint8Array[] = [];
  const stub = async (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const body = new Uint8Array(init?.body as ArrayBuffer);
    requests.push(body);
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/timestamp-query');
    const request = pkijs.TimeStampReq.fromBER(body);
    if (options.status) {
      const refusal = new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: options.status }) });
      return new Response(refusal.toSchema().toBER(), { headers: { 'Content-Type': 'application/timestamp-reply' } });
    }
    const tstInfo = new pkijs.TSTInfo({
      version: 1,
      policy: '1.3.6.1.4.1.99999.1',
      messageImprint: request.messageImprint,
      serialNumber: new asn1js.Integer({ value: 4242 + tokens.length }),
      genTime: options.genTime ?? new Date('2026-03-04T05:06:08Z'),
      nonce: options.wrongNonce ? new asn1js.Integer({ value: 7 }) : request.nonce,
    });
    const tsaCert = pkijs.Certificate.fromBER(signer.certificate);
    const extra = (signer.extra ?? []).map((der) => pkijs.Certificate.fromBER(der));
    const signedData = new pkijs.SignedData({
      version: 3,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({
        eContentType: TST_INFO,
        eContent: new asn1js.OctetString({ valueHex: tstInfo.toSchema().toBER() }),
      }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: tsaCert.issuer, serialNumber: tsaCert.serialNumber }),
        }),
      ],
      // Padding with copies of the certificate makes a token larger than the signer's allowance.
      certificates: options.withoutCertificates
        ? []
        : [tsaCert, ...extra, ...Array.from({ length: options.padCertificates ?? 0 }, () => tsaCert)],
    });
    await signedData.sign(signer.privateKey, 0, 'SHA-256');
    const token = new pkijs.ContentInfo({ contentType: '1.2.840.113549.1.7.2', content: signedData.toSchema(true) });
    tokens.push(new Uint8Array(token.toSchema().toBER()));
    const response = new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 0 }), timeStampToken: token });
    return new Response(response.toSchema().toBER(), { headers: { 'Content-Type': 'application/timestamp-reply' } });
  };
  return { fetch: stub as typeof fetch, requests, tokens };
}

/** The same TSA served by MSW at `url`, for code that uses the runtime's fetch (the route). */
export function tsaHandler(url: string, tsa: ReturnType<typeof stubTsa>) {
  return http.post(url, async ({ request }) => {
    const answer = await tsa.fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: await request.arrayBuffer(),
    });
    return new HttpResponse(await answer.arrayBuffer(), { headers: answer.headers });
  });
}
