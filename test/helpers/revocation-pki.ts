/**
 * A test PKI that publishes revocation data, for PAdES B-LT: a root CA, an issuing CA under it,
 * and under that a signer, a delegated OCSP responder (id-kp-OCSPSigning) and a TSA. The signer and
 * the TSA name the OCSP responder in their Authority Information Access and the issuing CA's CRL in
 * their CRL distribution points (RFC 5280 §4.2.2.1, §4.2.1.13); the issuing CA names only the
 * root's CRL, so its status comes from a CRL. `revocationHandlers` serves all of it over MSW:
 * real OCSP responses signed by the responder (RFC 6960), real CRLs signed by their CAs.
 */
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import { HttpResponse, http } from 'msw';
import * as pkijs from 'pkijs';
import { toPem } from '../../src/services/sign/signing-identity';
import { generateKeyPair } from './test-identity';

export const OCSP_URL = 'http://ocsp.quire.test/';
export const ISSUING_CRL_URL = 'http://crl.quire.test/issuing.crl';
export const ROOT_CRL_URL = 'http://crl.quire.test/root.crl';

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const NOT_BEFORE = new Date('2025-01-01T00:00:00Z');
const NOT_AFTER = new Date('2035-01-01T00:00:00Z');
const ID_PKIX_OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';

export interface Party {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
  der: Uint8Array;
}

export interface RevocationPki {
  root: Party;
  issuing: Party;
  signer: Party;
  responder: Party;
  tsa: Party;
  /** The signer's SIGNING_KEY and SIGNING_CERT_CHAIN (signer, issuing CA, root). */
  keyPem: string;
  chainPem: string;
  /** DER chain of the signer, leaf first. */
  chain: Uint8Array[];
}

function party(cert: x509.X509Certificate, keys: CryptoKeyPair): Party {
  return { cert, keys, der: new Uint8Array(cert.rawData) };
}

async function issue(
  serial: string,
  subject: string,
  issuer: Party,
  keys: CryptoKeyPair,
  extensions: x509.Extension[],
): Promise<Party> {
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial,
    subject,
    issuer: issuer.cert.subject,
    notBefore: NOT_BEFORE,
    notAfter: NOT_AFTER,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    signingAlgorithm: EC,
    extensions: [
      await x509.AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ...extensions,
    ],
  });
  return party(cert, keys);
}

/** The CAs, the OCSP responder and the TSA use P-256 (fast to make); the signer RSA 2048, as the development identity. */
export async function makeRevocationPki(): Promise<RevocationPki> {
  const [rootKeys, issuingKeys, signerKeys, responderKeys, tsaKeys] = await Promise.all([
    generateKeyPair('ec-p256'),
    generateKeyPair('ec-p256'),
    generateKeyPair('rsa'),
    generateKeyPair('ec-p256'),
    generateKeyPair('ec-p256'),
  ]);
  const rootCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Quire Test Root, O=Quire Tests',
    notBefore: NOT_BEFORE,
    notAfter: NOT_AFTER,
    keys: rootKeys,
    signingAlgorithm: EC,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const root = party(rootCert, rootKeys);
  const caUsage = new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true);
  const issuing = await issue('02', 'CN=Quire Test Issuing CA, O=Quire Tests', root, issuingKeys, [
    new x509.BasicConstraintsExtension(true, 0, true),
    caUsage,
    new x509.CRLDistributionPointsExtension([ROOT_CRL_URL]),
  ]);
  const endEntity = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.AuthorityInfoAccessExtension({ ocsp: OCSP_URL }),
    new x509.CRLDistributionPointsExtension([ISSUING_CRL_URL]),
  ];
  const signer = await issue('1001', 'CN=Quire Test Signer, O=Quire Tests', issuing, signerKeys, [
    ...endEntity,
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
  ]);
  const responder = await issue('1002', 'CN=Quire Test OCSP Responder, O=Quire Tests', issuing, responderKeys, [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.ocspSigning], false),
  ]);
  const tsa = await issue('1003', 'CN=Quire Test TSA, O=Quire Tests', issuing, tsaKeys, [
    ...endEntity,
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.timeStamping], true),
  ]);
  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey('pkcs8', signerKeys.privateKey)) as ArrayBuffer);
  return {
    root,
    issuing,
    signer,
    responder,
    tsa,
    keyPem: toPem(pkcs8, 'PRIVATE KEY'),
    chainPem: [signer, issuing, root].map((p) => p.cert.toString('pem')).join('\n'),
    chain: [signer.der, issuing.der, root.der],
  };
}

export interface RevocationServing {
  /** HTTP status the OCSP responder answers with instead of a response. */
  ocspHttpStatus?: number;
  /** Who signs the OCSP responses: the delegated responder (default), the issuing CA itself, or a key no one authorised. */
  ocspSignedBy?: 'responder' | 'issuing' | 'stranger';
  /** HTTP status the CRL server answers with instead of the CRLs. */
  crlHttpStatus?: number;
  /** Serial numbers (hex, as issued) that are revoked: on the CRLs and in the OCSP answers. */
  revoked?: string[];
  /** Serial numbers the responder says it does not know. */
  unknown?: string[];
  /** The time the responses are made at. */
  now?: Date;
}

/** What the handlers were asked, for assertions. */
export interface RevocationLog {
  ocsp: pkijs.CertID[];
  crl: string[];
}

/** MSW handlers for the OCSP responder and both CRLs of `pki`. */
export function revocationHandlers(pki: RevocationPki, serving: RevocationServing = {}, log?: RevocationLog) {
  const now = serving.now ?? new Date();
  return [
    http.get(`${OCSP_URL}*`, async ({ request }) => {
      if (serving.ocspHttpStatus) return new HttpResponse('responder down', { status: serving.ocspHttpStatus });
      const encoded = decodeURIComponent(new URL(request.url).pathname.slice(1));
      const der = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
      const ocspRequest = pkijs.OCSPRequest.fromBER(der);
      log?.ocsp.push(...ocspRequest.tbsRequest.requestList.map((r) => r.reqCert));
      const body = await ocspResponse(pki, ocspRequest, serving, now);
      return new HttpResponse(body, { headers: { 'Content-Type': 'application/ocsp-response' } });
    }),
    http.get(ISSUING_CRL_URL, async () => {
      log?.crl.push(ISSUING_CRL_URL);
      if (serving.crlHttpStatus) return new HttpResponse('gone', { status: serving.crlHttpStatus });
      return new HttpResponse(await crl(pki.issuing, serving.revoked ?? [], now), {
        headers: { 'Content-Type': 'application/pkix-crl' },
      });
    }),
    http.get(ROOT_CRL_URL, async () => {
      log?.crl.push(ROOT_CRL_URL);
      if (serving.crlHttpStatus) return new HttpResponse('gone', { status: serving.crlHttpStatus });
      return new HttpResponse(await crl(pki.root, serving.revoked ?? [], now), {
        headers: { 'Content-Type': 'application/pkix-crl' },
      });
    }),
  ];
}

async function crl(issuer: Party, revoked: string[], now: Date): Promise<ArrayBuffer> {
  const list = await x509.X509CrlGenerator.create({
    issuer: issuer.cert.subject,
    thisUpdate: new Date(now.getTime() - 60_000),
    nextUpdate: new Date(now.getTime() + 7 * 86_400_000),
    entries: revoked.map((serialNumber) => ({
      serialNumber,
      revocationDate: new Date('2026-01-02T03:04:05Z'),
      reason: x509.X509CrlReason.keyCompromise,
    })),
    signingKey: issuer.keys.privateKey,
    signingAlgorithm: EC,
  });
  return list.rawData;
}

/** An OCSPResponse with a BasicOCSPResponse for every CertID asked about (RFC 6960 §4.2.1). */
export async function ocspResponse(
  pki: RevocationPki,
  request: pkijs.OCSPRequest,
  serving: RevocationServing = {},
  now = new Date(),
): Promise<ArrayBuffer> {
  const responses = request.tbsRequest.requestList.map((entry) => {
    const serial = hex(entry.reqCert.serialNumber.valueBlock.valueHexView);
    let certStatus: asn1js.BaseBlock;
    if ((serving.revoked ?? []).includes(serial)) {
      certStatus = new asn1js.Constructed({
        idBlock: { tagClass: 3, tagNumber: 1 },
        value: [
          new asn1js.GeneralizedTime({ valueDate: new Date('2026-01-02T03:04:05Z') }),
          new asn1js.Constructed({
            idBlock: { tagClass: 3, tagNumber: 0 },
            value: [new asn1js.Enumerated({ value: 1 })],
          }),
        ],
      });
    } else {
      const tag = (serving.unknown ?? []).includes(serial) ? 2 : 0;
      certStatus = new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: tag } });
    }
    return new pkijs.SingleResponse({
      certID: entry.reqCert,
      certStatus,
      thisUpdate: new Date(now.getTime() - 60_000),
      nextUpdate: new Date(now.getTime() + 86_400_000),
    });
  });
  const by = serving.ocspSignedBy ?? 'responder';
  const signer = by === 'issuing' ? pki.issuing : pki.responder;
  const key = by === 'stranger' ? (await generateKeyPair('ec-p256')).privateKey : signer.keys.privateKey;
  const signerCert = pkijs.Certificate.fromBER(signer.der);
  const basic = new pkijs.BasicOCSPResponse({
    tbsResponseData: new pkijs.ResponseData({ responderID: signerCert.subject, producedAt: now, responses }),
    ...(by === 'issuing' ? {} : { certs: [signerCert] }),
  });
  await basic.sign(key, 'SHA-256');
  const response = new pkijs.OCSPResponse({
    responseStatus: new asn1js.Enumerated({ value: 0 }),
    responseBytes: new pkijs.ResponseBytes({
      responseType: ID_PKIX_OCSP_BASIC,
      response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER() }),
    }),
  });
  return response.toSchema().toBER();
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
