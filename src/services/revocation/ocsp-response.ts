/**
 * OCSP responses (RFC 6960 §4.2), read and checked once for every use: verify's status at a time
 * (revocation-status.ts) and signing's collection for a DSS (revocation-fetch.ts).
 *
 * An OCSPResponse whose status is successful and whose responseBytes are an id-pkix-ocsp-basic
 * BasicOCSPResponse (§4.2.1), or a bare BasicOCSPResponse as CAdES revocation-values carries it
 * (ETSI EN 319 122-1 §5.3.5.2, RFC 5126 §6.3.4). Which SingleResponse is about a certificate is
 * decided by its CertID (§4.1.1: the hashes of the issuer's name and key, and the serial number);
 * who may sign the response is §4.2.2.2: the issuing CA itself, or a responder the CA issued a
 * certificate with id-kp-OCSPSigning to, valid when the response was produced. (A responder
 * trusted locally, the third case, is not configured here.) Signatures are checked by the
 * caller's SignatureCheck. What the times say is the caller's question: whether the answer is
 * current now (to be stored) or speaks for a signing time (to judge a signature).
 * Nothing here throws: damage is a plain-words reason.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { bytesEqual } from '../../kit';
import {
  extensionValue,
  hasExtendedKeyUsage,
  issuedBy,
  nameDer,
  type SignatureCheck,
  sameName,
  serialHex,
  validAt,
} from './certificate-links';

/** id-pkix-ocsp-basic (RFC 6960 §4.2.1). */
const OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
/** id-pkix-ocsp-archive-cutoff (RFC 6960 §4.4.4). */
const ARCHIVE_CUTOFF = '1.3.6.1.5.5.7.48.1.6';
/** id-kp-OCSPSigning (RFC 6960 §4.2.2.2, RFC 5280 §4.2.1.12). */
const OCSP_SIGNING = '1.3.6.1.5.5.7.3.9';

/** OCSPResponseStatus (RFC 6960 §4.2.1), for messages. */
const RESPONSE_STATUS: Record<number, string> = {
  1: 'malformedRequest',
  2: 'internalError',
  3: 'tryLater',
  5: 'sigRequired',
  6: 'unauthorized',
};

/** The CertID hash algorithms WebCrypto computes (RFC 6960 §4.1.1 names SHA-1; responders also use SHA-2). */
const CERT_ID_HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'SHA-1',
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
};

export type CertStatus =
  | { kind: 'good' }
  /** revocationReason is the CRLReason code (RFC 5280 §5.3.1), when given. */
  | { kind: 'revoked'; time: Date; reason: number | undefined }
  | { kind: 'unknown' };

export interface OcspSingle {
  hashAlgorithm: string;
  issuerNameHash: Uint8Array;
  issuerKeyHash: Uint8Array;
  serial: string;
  status: CertStatus;
  thisUpdate: Date;
  nextUpdate: Date | undefined;
}

export interface ParsedOcsp {
  kind: 'ocsp';
  /** ResponseData as sent: what the responder signed. */
  tbs: Uint8Array;
  signatureAlgorithm: pkijs.AlgorithmIdentifier;
  signature: Uint8Array;
  producedAt: Date;
  responder: { name: pkijs.RelativeDistinguishedNames } | { keyHash: Uint8Array };
  certs: pkijs.Certificate[];
  responses: OcspSingle[];
  /** id-pkix-ocsp-archive-cutoff (RFC 6960 §4.4.4): statuses are kept for certificates expired since then. */
  archiveCutoff: Date | undefined;
}

/** An OCSPResponse (or, with `basic`, a BasicOCSPResponse); a string says why it is not usable. */
export function parseOcsp(der: Uint8Array, basic: boolean): ParsedOcsp | string {
  try {
    const bytes = basic ? der : basicBytes(der);
    if (typeof bytes === 'string') return bytes;
    const parsed = asn1js.fromBER(bytes);
    if (parsed.offset === -1) return 'it is not DER';
    const response = new pkijs.BasicOCSPResponse({ schema: parsed.result });
    const data = response.tbsResponseData;
    const id = data.responderID as unknown;
    const responder =
      id instanceof pkijs.RelativeDistinguishedNames
        ? { name: id }
        : id instanceof asn1js.OctetString
          ? { keyHash: new Uint8Array(id.valueBlock.valueHexView) }
          : undefined;
    if (!responder) return 'its responder is not named';
    const cutoff = extensionValue(data.responseExtensions, ARCHIVE_CUTOFF);
    return {
      kind: 'ocsp',
      tbs: new Uint8Array(data.tbsView),
      signatureAlgorithm: response.signatureAlgorithm,
      signature: new Uint8Array(response.signature.valueBlock.valueHexView),
      producedAt: data.producedAt,
      responder,
      certs: response.certs ?? [],
      responses: data.responses.map(single),
      archiveCutoff: cutoff instanceof asn1js.GeneralizedTime ? cutoff.toDate() : undefined,
    };
  } catch (error) {
    return `it is not an OCSP response (${(error as Error).message || 'malformed'})`;
  }
}

/** OCSPResponse → the BasicOCSPResponse's DER (RFC 6960 §4.2.1). */
function basicBytes(der: Uint8Array): Uint8Array | string {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) return 'it is not DER';
  const response = new pkijs.OCSPResponse({ schema: parsed.result });
  const status = response.responseStatus.valueBlock.valueDec;
  if (status !== 0)
    return `the responder answered ${RESPONSE_STATUS[status] ?? `status ${status}`} instead of a certificate status`;
  if (!response.responseBytes) return 'it holds no response';
  if (response.responseBytes.responseType !== OCSP_BASIC) {
    return `its response type ${response.responseBytes.responseType} is not id-pkix-ocsp-basic`;
  }
  return new Uint8Array(response.responseBytes.response.valueBlock.valueHexView);
}

function single(response: pkijs.SingleResponse): OcspSingle {
  const id = response.certID;
  return {
    hashAlgorithm: id.hashAlgorithm.algorithmId,
    issuerNameHash: new Uint8Array(id.issuerNameHash.valueBlock.valueHexView),
    issuerKeyHash: new Uint8Array(id.issuerKeyHash.valueBlock.valueHexView),
    serial: serialHex(id.serialNumber),
    status: certStatus(response.certStatus as asn1js.BaseBlock),
    thisUpdate: response.thisUpdate,
    nextUpdate: response.nextUpdate,
  };
}

/** CertStatus ::= CHOICE { good [0] NULL, revoked [1] RevokedInfo, unknown [2] UnknownInfo } (RFC 6960 §4.2.1). */
function certStatus(block: asn1js.BaseBlock): CertStatus {
  const tag = block.idBlock.tagNumber;
  if (tag === 0) return { kind: 'good' };
  if (tag !== 1) return { kind: 'unknown' };
  const parts = (block.valueBlock as { value?: asn1js.BaseBlock[] }).value ?? [];
  const time = parts[0];
  if (!(time instanceof asn1js.GeneralizedTime)) return { kind: 'unknown' };
  const reasonHolder = parts[1] as { valueBlock?: { value?: asn1js.BaseBlock[] } } | undefined;
  const reason = reasonHolder?.valueBlock?.value?.[0];
  return {
    kind: 'revoked',
    time: time.toDate(),
    reason: reason instanceof asn1js.Enumerated ? reason.valueBlock.valueDec : undefined,
  };
}

async function digest(oid: string, data: Uint8Array): Promise<Uint8Array | undefined> {
  const name = CERT_ID_HASHES[oid];
  return name ? new Uint8Array(await crypto.subtle.digest(name, data)) : undefined;
}

/** The hash of a key as CertID and ResponderID byKey take it: the BIT STRING's value (RFC 6960 §4.1.1, §4.2.1). */
function keyBytes(certificate: pkijs.Certificate): Uint8Array {
  return new Uint8Array(certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
}

/**
 * The SingleResponses about `target` (RFC 6960 §4.1.1 CertID: serial number, and the hash of
 * the issuer's name as `target` writes it), each with the issuer of `issuers` whose key hash it
 * names, or undefined when none of them (the issuer certificate is missing).
 */
export async function responsesFor(
  parsed: ParsedOcsp,
  target: pkijs.Certificate,
  issuers: readonly pkijs.Certificate[],
): Promise<{ single: OcspSingle; issuer: pkijs.Certificate | undefined }[]> {
  const serial = serialHex(target.serialNumber);
  const found: { single: OcspSingle; issuer: pkijs.Certificate | undefined }[] = [];
  for (const response of parsed.responses) {
    if (response.serial !== serial) continue;
    const nameHash = await digest(response.hashAlgorithm, nameDer(target.issuer));
    if (!nameHash || !bytesEqual(nameHash, response.issuerNameHash)) continue;
    let issuer: pkijs.Certificate | undefined;
    for (const candidate of issuers) {
      const keyHash = await digest(response.hashAlgorithm, keyBytes(candidate));
      if (keyHash && bytesEqual(keyHash, response.issuerKeyHash)) {
        issuer = candidate;
        break;
      }
    }
    found.push({ single: response, issuer });
  }
  return found;
}

async function responderIs(parsed: ParsedOcsp, certificate: pkijs.Certificate): Promise<boolean> {
  if ('name' in parsed.responder) return sameName(parsed.responder.name, certificate.subject);
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-1', keyBytes(certificate)));
  return bytesEqual(hash, parsed.responder.keyHash);
}

/**
 * Whether the response was signed by the CA `issuer` or by a responder `issuer` authorized
 * (RFC 6960 §4.2.2.2: issued directly by the CA, id-kp-OCSPSigning, and valid when the response
 * was produced), and the signature verifies. undefined when it was; else why not.
 */
async function checkOcspSigner(
  parsed: ParsedOcsp,
  issuer: pkijs.Certificate,
  others: readonly pkijs.Certificate[],
  verify: SignatureCheck,
): Promise<string | undefined> {
  const signedBy = (signer: pkijs.Certificate) =>
    verify(parsed.signatureAlgorithm, signer, parsed.signature, parsed.tbs).catch(() => false);
  if (await responderIs(parsed, issuer)) {
    return (await signedBy(issuer)) ? undefined : 'its signature does not verify with the issuing CA’s key';
  }
  const candidates = [...parsed.certs, ...others];
  let why =
    'it is signed by a responder that is neither the issuing CA nor a responder it authorized (RFC 6960 §4.2.2.2)';
  for (const candidate of candidates.slice(0, 64)) {
    if (!(await responderIs(parsed, candidate))) continue;
    if (!(await issuedBy(candidate, issuer, verify))) {
      why = 'its responder certificate was not issued by the issuing CA (RFC 6960 §4.2.2.2)';
      continue;
    }
    if (!hasExtendedKeyUsage(candidate, OCSP_SIGNING)) {
      why = 'its responder certificate lacks id-kp-OCSPSigning (RFC 6960 §4.2.2.2)';
      continue;
    }
    if (!validAt(candidate, parsed.producedAt)) {
      why = 'its responder certificate was not valid when the response was produced';
      continue;
    }
    if (await signedBy(candidate)) return undefined;
    why = 'its signature does not verify with the responder’s key';
  }
  return why;
}

/** A SingleResponse about a certificate, and whether the response may speak for it. */
export interface OcspAnswer {
  single: OcspSingle;
  /** The certificate of `issuers` whose key hash the CertID names; undefined when none is (its issuer is missing). */
  issuer: pkijs.Certificate | undefined;
  /** Why the response's signer is not one §4.2.2.2 allows for that issuer; undefined when it is, or when there is no issuer. */
  signerProblem: string | undefined;
}

/**
 * The SingleResponses of `parsed` about `target`, each checked against its issuer: signed by it,
 * or by a responder it authorized, found in the response's certs or in `others`.
 */
export async function ocspAnswers(
  parsed: ParsedOcsp,
  target: pkijs.Certificate,
  issuers: readonly pkijs.Certificate[],
  others: readonly pkijs.Certificate[],
  verify: SignatureCheck,
): Promise<OcspAnswer[]> {
  const answers: OcspAnswer[] = [];
  for (const { single, issuer } of await responsesFor(parsed, target, issuers)) {
    const signerProblem = issuer
      ? await once(parsed, issuer, () => checkOcspSigner(parsed, issuer, others, verify))
      : undefined;
    answers.push({ single, issuer, signerProblem });
  }
  return answers;
}

/** The signer check of one response against one issuer, once per pair (a DSS serves every signature of a file). */
const signerChecks = new WeakMap<ParsedOcsp, WeakMap<pkijs.Certificate, Promise<string | undefined>>>();

function once(
  parsed: ParsedOcsp,
  issuer: pkijs.Certificate,
  check: () => Promise<string | undefined>,
): Promise<string | undefined> {
  let byIssuer = signerChecks.get(parsed);
  if (!byIssuer) {
    byIssuer = new WeakMap();
    signerChecks.set(parsed, byIssuer);
  }
  let result = byIssuer.get(issuer);
  if (!result) {
    result = check();
    byIssuer.set(issuer, result);
  }
  return result;
}
