/**
 * Revocation and long-term fixtures for the verifier's tests, made with pkijs and @peculiar/x509:
 * a CA and a signer (with an OCSP responder URL when asked), OCSP responses (RFC 6960) and CRLs
 * (RFC 5280 §5) about the signer, RFC 3161 tokens, and PDFs signed with revocation data in the
 * CMS, a DSS added in a later revision, and document timestamps.
 */
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import { type PDFDict, PDFName, type PDFObject } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { OID } from '../../../src/kit';
import { DEFAULT_LIMITS as limits } from '../../../src/limits';
import {
  byteRangeFor,
  locatePlaceholders,
  patchByteRange,
  patchContents,
  signedBytes,
} from '../../../src/services/sign/byte-range';
import { p1363ToDer } from '../../../src/services/sign/ecdsa-der';
import { changedObjects, snapshotObjects, writeIncrementalUpdate } from '../../../src/services/sign/incremental-writer';
import { loadPdfForUpdate } from '../../../src/services/sign/pdf-source';
import type { SigningIdentity } from '../../../src/services/sign/sign-types';
import { addSignatureField } from '../../../src/services/sign/signature-field';
import { buildSignedAttributes } from '../../../src/services/sign/signed-attributes';
import { loadSigningIdentity, toPem } from '../../../src/services/sign/signing-identity';
import { derSetOf } from './cms-fixtures';
import { details } from './verify-fixtures';

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';
export const ADBE_REVOCATION_INFO_ARCHIVAL = '1.2.840.113583.1.1.8';
export const REVOCATION_VALUES = '1.2.840.113549.1.9.16.2.24';

export interface RevocationPki {
  caKey: CryptoKeyPair;
  ca: pkijs.Certificate;
  caDer: Uint8Array;
  leaf: pkijs.Certificate;
  leafDer: Uint8Array;
  identity: SigningIdentity;
  /** A delegated OCSP responder issued by the CA (id-kp-OCSPSigning). */
  responderKey: CryptoKeyPair;
  responder: pkijs.Certificate;
  /** A self-signed TSA no root trusts. */
  strayTsaKey: CryptoKeyPair;
  strayTsa: pkijs.Certificate;
}

async function keys(): Promise<CryptoKeyPair> {
  return (await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
}

const toPkijs = (cert: x509.X509Certificate) => pkijs.Certificate.fromBER(new Uint8Array(cert.rawData));

/** A CA, a signer it issued (with authorityInfoAccess naming `ocspUrl` when given), a delegated responder, a stray TSA. */
export async function makeRevocationPki(options: { ocspUrl?: string; crlUrl?: string } = {}): Promise<RevocationPki> {
  const caKey = await keys();
  const notBefore = new Date('2025-01-01T00:00:00Z');
  const notAfter = new Date('2035-01-01T00:00:00Z');
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Revocation Test CA, O=Quire Tests',
    notBefore,
    notAfter,
    keys: caKey,
    signingAlgorithm: EC,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const leafKey = await keys();
  const leafCert = await x509.X509CertificateGenerator.create({
    serialNumber: '0a1b2c3d',
    subject: 'CN=Revocable Signer, O=Quire Tests',
    issuer: caCert.subject,
    notBefore,
    notAfter,
    publicKey: leafKey.publicKey,
    signingKey: caKey.privateKey,
    signingAlgorithm: EC,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
      ...(options.ocspUrl ? [new x509.AuthorityInfoAccessExtension({ ocsp: options.ocspUrl })] : []),
      ...(options.crlUrl ? [new x509.CRLDistributionPointsExtension([options.crlUrl])] : []),
    ],
  });
  const responderKey = await keys();
  const responderCert = await x509.X509CertificateGenerator.create({
    serialNumber: '0b',
    subject: 'CN=Revocation Test OCSP Responder, O=Quire Tests',
    issuer: caCert.subject,
    notBefore,
    notAfter,
    publicKey: responderKey.publicKey,
    signingKey: caKey.privateKey,
    signingAlgorithm: EC,
    extensions: [new x509.ExtendedKeyUsageExtension([OCSP_SIGNING])],
  });
  const strayTsaKey = await keys();
  const strayTsa = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '0c',
    name: 'CN=Stray TSA, O=Elsewhere',
    notBefore,
    notAfter,
    keys: strayTsaKey,
    signingAlgorithm: EC,
  });
  const pkcs8 = new Uint8Array((await crypto.subtle.exportKey('pkcs8', leafKey.privateKey)) as ArrayBuffer);
  const identity = await loadSigningIdentity(
    toPem(pkcs8, 'PRIVATE KEY'),
    `${leafCert.toString('pem')}\n${caCert.toString('pem')}`,
  );
  return {
    caKey,
    ca: toPkijs(caCert),
    caDer: new Uint8Array(caCert.rawData),
    leaf: toPkijs(leafCert),
    leafDer: new Uint8Array(leafCert.rawData),
    identity,
    responderKey,
    responder: toPkijs(responderCert),
    strayTsaKey,
    strayTsa: toPkijs(strayTsa),
  };
}

export interface OcspOptions {
  status: 'good' | 'revoked' | 'unknown';
  revokedAt?: Date;
  thisUpdate: Date;
  nextUpdate?: Date;
  /** Signs with this key (default the CA's) and names this responder (default the CA). */
  signerKey?: CryptoKey;
  responder?: pkijs.Certificate;
  /** Certificates carried in the response (a delegated responder's). */
  certs?: pkijs.Certificate[];
  /** The certificate asked about (default the signer). */
  target?: pkijs.Certificate;
}

/** A CertID for `target` issued by `issuer`, SHA-1 (RFC 6960 §4.1.1). */
export async function certId(target: pkijs.Certificate, issuer: pkijs.Certificate): Promise<pkijs.CertID> {
  const sha1 = async (data: BufferSource) => new Uint8Array(await crypto.subtle.digest('SHA-1', data));
  return new pkijs.CertID({
    hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '1.3.14.3.2.26', algorithmParams: new asn1js.Null() }),
    issuerNameHash: new asn1js.OctetString({ valueHex: await sha1(target.issuer.toSchema().toBER()) }),
    issuerKeyHash: new asn1js.OctetString({
      valueHex: await sha1(issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
    }),
    serialNumber: target.serialNumber,
  });
}

/** A BasicOCSPResponse about the signer (RFC 6960 §4.2.1), DER. */
export async function basicOcsp(pki: RevocationPki, options: OcspOptions): Promise<Uint8Array> {
  const responder = options.responder ?? pki.ca;
  const status =
    options.status === 'good'
      ? new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } })
      : options.status === 'unknown'
        ? new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 2 } })
        : new asn1js.Constructed({
            idBlock: { tagClass: 3, tagNumber: 1 },
            value: [new asn1js.GeneralizedTime({ valueDate: options.revokedAt ?? new Date() })],
          });
  const response = new pkijs.BasicOCSPResponse({
    tbsResponseData: new pkijs.ResponseData({
      responderID: responder.subject,
      producedAt: options.thisUpdate,
      responses: [
        new pkijs.SingleResponse({
          certID: await certId(options.target ?? pki.leaf, pki.ca),
          certStatus: status,
          thisUpdate: options.thisUpdate,
          ...(options.nextUpdate ? { nextUpdate: options.nextUpdate } : {}),
        }),
      ],
    }),
    ...(options.certs ? { certs: options.certs } : {}),
  });
  await response.sign(options.signerKey ?? pki.caKey.privateKey, 'SHA-256');
  return new Uint8Array(response.toSchema().toBER());
}

/** An OCSPResponse (successful, id-pkix-ocsp-basic) around a BasicOCSPResponse. */
export async function ocspResponse(pki: RevocationPki, options: OcspOptions): Promise<Uint8Array> {
  const basic = await basicOcsp(pki, options);
  const response = new pkijs.OCSPResponse({
    responseStatus: new asn1js.Enumerated({ value: 0 }),
    responseBytes: new pkijs.ResponseBytes({
      responseType: '1.3.6.1.5.5.7.48.1.1',
      response: new asn1js.OctetString({ valueHex: basic }),
    }),
  });
  return new Uint8Array(response.toSchema().toBER());
}

export interface CrlOptions {
  thisUpdate: Date;
  nextUpdate?: Date;
  revoked?: { serial: asn1js.Integer; at: Date; reason?: number }[];
  signerKey?: CryptoKey;
  /** Extra entries for other serials (to make a large CRL). */
  padding?: number;
}

/** A CRL of the CA (RFC 5280 §5.1), DER. */
export async function crl(pki: RevocationPki, options: CrlOptions): Promise<Uint8Array> {
  const entries = (options.revoked ?? []).map(
    (entry) =>
      new pkijs.RevokedCertificate({
        userCertificate: entry.serial,
        revocationDate: new pkijs.Time({ type: 1, value: entry.at }),
        ...(entry.reason === undefined
          ? {}
          : {
              crlEntryExtensions: new pkijs.Extensions({
                extensions: [
                  new pkijs.Extension({
                    extnID: '2.5.29.21',
                    extnValue: new asn1js.Enumerated({ value: entry.reason }).toBER(),
                  }),
                ],
              }),
            }),
      }),
  );
  for (let i = 0; i < (options.padding ?? 0); i++) {
    entries.push(
      new pkijs.RevokedCertificate({
        userCertificate: new asn1js.Integer({ value: 1_000_000 + i }),
        revocationDate: new pkijs.Time({ type: 0, value: new Date('2025-06-01T00:00:00Z') }),
      }),
    );
  }
  const list = new pkijs.CertificateRevocationList({
    version: 1,
    issuer: pki.ca.subject,
    thisUpdate: new pkijs.Time({ type: 0, value: options.thisUpdate }),
    ...(options.nextUpdate ? { nextUpdate: new pkijs.Time({ type: 0, value: options.nextUpdate }) } : {}),
    ...(entries.length > 0 ? { revokedCertificates: entries } : {}),
  });
  await list.sign(options.signerKey ?? pki.caKey.privateKey, 'SHA-256');
  return new Uint8Array(list.toSchema(true).toBER());
}

/** RevocationInfoArchival / RevocationValues: SEQUENCE { [0] EXPLICIT SEQUENCE OF CRL, [1] EXPLICIT SEQUENCE OF OCSP }. */
export function revocationChoices(data: { crls?: Uint8Array[]; ocsps?: Uint8Array[] }): asn1js.Sequence {
  const list = (tag: number, items: Uint8Array[]) =>
    new asn1js.Constructed({
      idBlock: { tagClass: 3, tagNumber: tag },
      value: [new asn1js.Sequence({ value: items.map((item) => asn1js.fromBER(item).result) })],
    });
  return new asn1js.Sequence({
    value: [...(data.crls?.length ? [list(0, data.crls)] : []), ...(data.ocsps?.length ? [list(1, data.ocsps)] : [])],
  });
}

/** An RFC 3161 TimeStampToken (ContentInfo, DER) over `imprint` (SHA-256), signed by `tsa`. */
export async function timestampToken(
  tsa: { key: CryptoKey; certificate: pkijs.Certificate },
  imprint: Uint8Array,
  genTime: Date,
): Promise<Uint8Array> {
  const tstInfo = new pkijs.TSTInfo({
    version: 1,
    policy: '1.3.6.1.4.1.99999.1',
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    serialNumber: new asn1js.Integer({ value: 77 }),
    genTime,
  });
  const signedData = new pkijs.SignedData({
    version: 3,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: '1.2.840.113549.1.9.16.1.4',
      eContent: new asn1js.OctetString({ valueHex: tstInfo.toSchema().toBER() }),
    }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({
          issuer: tsa.certificate.issuer,
          serialNumber: tsa.certificate.serialNumber,
        }),
      }),
    ],
    certificates: [tsa.certificate],
  });
  await signedData.sign(tsa.key, 0, 'SHA-256');
  const token = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(token.toSchema().toBER());
}

async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data));
}

export interface CmsExtras {
  /** Signed attributes beside contentType, messageDigest and signingCertificateV2. */
  signed?: pkijs.Attribute[];
  /** Unsigned attributes, given the signature value (e.g. a signature timestamp over it). */
  unsigned?: (signatureValue: Uint8Array) => Promise<pkijs.Attribute[]>;
  /** SignedData.crls (RFC 5652 §10.2.1). */
  crls?: (pkijs.CertificateRevocationList | pkijs.OtherRevocationInfoFormat)[];
}

/** A PAdES CMS (as cms-builder.ts makes it) over `digest`, with extra attributes. */
async function buildCms(identity: SigningIdentity, digest: Uint8Array, extras: CmsExtras): Promise<Uint8Array> {
  const leafDer = identity.chain[0] as Uint8Array;
  const certificates = identity.chain.map((der) => pkijs.Certificate.fromBER(der));
  const leaf = certificates[0] as pkijs.Certificate;
  const { sorted, der } = derSetOf([...(await buildSignedAttributes(digest, leafDer)), ...(extras.signed ?? [])]);
  const p1363 = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, identity.privateKey, der));
  const signatureValue = p1363ToDer(p1363);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: leaf.issuer, serialNumber: leaf.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: sorted }),
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 }),
    signature: new asn1js.OctetString({ valueHex: signatureValue }),
  });
  const unsigned = extras.unsigned ? await extras.unsigned(signatureValue) : [];
  if (unsigned.length > 0)
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({ type: 1, attributes: unsigned });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    certificates,
    ...(extras.crls ? { crls: extras.crls } : {}),
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER());
}

/**
 * One incremental update adding a signature field whose /Contents `contents` fills from the signed
 * bytes: a CAdES signature, or with `documentTimestamp` a /DocTimeStamp ETSI.RFC3161 dictionary.
 */
async function addSigned(
  pdf: Uint8Array,
  contents: (signed: Uint8Array) => Promise<Uint8Array>,
  options: { documentTimestamp?: boolean; bytes?: number } = {},
): Promise<Uint8Array> {
  const { doc, xref } = await loadPdfForUpdate(pdf, limits);
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, xref.size - 1);
  const snapshot = snapshotObjects(doc.context);
  const kind = options.documentTimestamp
    ? ({ type: 'document-timestamp' } as const)
    : ({ type: 'signature', details } as const);
  const placeholder = addSignatureField(doc, kind, options.bytes ?? 16 * 1024);
  const { file, offsets } = writeIncrementalUpdate(pdf, doc.context, changedObjects(doc.context, snapshot), xref);
  const positions = locatePlaceholders(file, offsets.get(placeholder.signatureRef.tag) as number);
  const range = byteRangeFor(positions, file.length);
  patchByteRange(file, positions, range);
  patchContents(file, positions, await contents(signedBytes(file, range)));
  return file;
}

/** Signs `pdf` (PAdES, /M = details.signingTime) with a CMS carrying `extras`. */
export function signWith(pdf: Uint8Array, identity: SigningIdentity, extras: CmsExtras = {}): Promise<Uint8Array> {
  return addSigned(pdf, async (signed) => buildCms(identity, await sha256(signed), extras));
}

/** A signature-time-stamp unsigned attribute (RFC 3161 Appendix A) from `tsa` at `genTime`. */
export function signatureTimestamp(tsa: { key: CryptoKey; certificate: pkijs.Certificate }, genTime: Date) {
  return async (signatureValue: Uint8Array) => [
    new pkijs.Attribute({
      type: OID.signatureTimeStampToken,
      values: [asn1js.fromBER(await timestampToken(tsa, await sha256(signatureValue), genTime)).result],
    }),
  ];
}

/** Adds a document timestamp (ISO 32000-2 §12.8.5) by `tsa` at `genTime`. */
export function addDocumentTimestamp(
  pdf: Uint8Array,
  tsa: { key: CryptoKey; certificate: pkijs.Certificate },
  genTime: Date,
): Promise<Uint8Array> {
  return addSigned(pdf, async (signed) => timestampToken(tsa, await sha256(signed), genTime), {
    documentTimestamp: true,
    bytes: 8 * 1024,
  });
}

/** Adds (or replaces) the catalog's /DSS (ISO 32000-2 §12.8.4.3) in one incremental update. */
export async function addDss(
  pdf: Uint8Array,
  data: { certs?: Uint8Array[]; ocsps?: Uint8Array[]; crls?: Uint8Array[] },
): Promise<Uint8Array> {
  const { doc, xref } = await loadPdfForUpdate(pdf, limits);
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, xref.size - 1);
  const snapshot = snapshotObjects(doc.context);
  const streams = (items: Uint8Array[] | undefined, compress: boolean) =>
    doc.context.obj(
      (items ?? []).map((item) =>
        doc.context.register(compress ? doc.context.flateStream(item) : doc.context.stream(item)),
      ),
    );
  const dss = doc.context.obj({}) as PDFDict;
  dss.set(PDFName.of('Type'), PDFName.of('DSS'));
  if (data.certs) dss.set(PDFName.of('Certs'), streams(data.certs, true) as PDFObject);
  if (data.ocsps) dss.set(PDFName.of('OCSPs'), streams(data.ocsps, false) as PDFObject);
  if (data.crls) dss.set(PDFName.of('CRLs'), streams(data.crls, true) as PDFObject);
  doc.catalog.set(PDFName.of('DSS'), doc.context.register(dss));
  const { file } = writeIncrementalUpdate(pdf, doc.context, changedObjects(doc.context, snapshot), xref);
  return file;
}
