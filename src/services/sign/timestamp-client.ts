import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { ApiError } from '../../errors';
import { bytesEqual, OID } from '../../kit';
import type { TimestampAuthority } from './sign-types';

/**
 * An RFC 3161 time-stamp client. What is stamped is the caller's: the SHA-256 `imprint` of
 *
 * - the SignerInfo's signature value, for the signatureTimeStampToken of PAdES B-T (ETSI EN 319
 *   142-1 §6.3, RFC 3161 Appendix A), or
 * - the ByteRange bytes, for a document timestamp (ISO 32000-2 §12.8.5, PAdES B-LTA).
 *
 * certReq is true so the token carries the TSA certificate, and a random nonce ties the response
 * to this request.
 *
 * A TSA that cannot be reached or answers badly is not the caller's fault and not a document
 * problem, so it is INTERNAL_ERROR (logged with the message; the API contract has no upstream code).
 */
export async function requestTimestampToken(tsa: TimestampAuthority, imprint: Uint8Array): Promise<Uint8Array> {
  if (imprint.length !== 32) throw new Error('The message imprint must be a SHA-256 digest (32 bytes)');
  const nonce = crypto.getRandomValues(new Uint8Array(8));
  nonce[0] = (nonce[0] ?? 0) & 0x7f; // a positive INTEGER without a leading zero byte
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });

  const doFetch = tsa.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(tsa.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/timestamp-query', Accept: 'application/timestamp-reply' },
      body: request.toSchema().toBER(),
    });
  } catch (error) {
    throw tsaError(`the time-stamping authority could not be reached: ${(error as Error).message}`, error);
  }
  if (!response.ok) throw tsaError(`the time-stamping authority answered HTTP ${response.status}`);
  const body = new Uint8Array(await response.arrayBuffer());
  return parseTimestampResponse(body, imprint, nonce);
}

/**
 * Checks the TimeStampResp (RFC 3161 §2.4.2): granted, a token whose imprint and nonce are ours.
 * Returns the token's bytes exactly as the TSA sent them: re-encoding it through pkijs would turn
 * the eContent OCTET STRING into a constructed one, and the token must stay the TSA's DER.
 */
export function parseTimestampResponse(body: Uint8Array, imprint: Uint8Array, nonce: Uint8Array): Uint8Array {
  let resp: pkijs.TimeStampResp;
  try {
    resp = pkijs.TimeStampResp.fromBER(body);
  } catch (error) {
    throw tsaError('the time-stamping authority sent a response that is not a TimeStampResp', error);
  }
  const status = resp.status.status;
  // PKIStatus granted (0) or grantedWithMods (1) carry a token; anything else is a refusal.
  if ((status !== 0 && status !== 1) || !resp.timeStampToken) {
    const text = resp.status.statusStrings?.map((s) => s.valueBlock.value).join('; ');
    throw tsaError(`the time-stamping authority refused the request (status ${status}${text ? `: ${text}` : ''})`);
  }
  const token = resp.timeStampToken;
  let info: pkijs.TSTInfo;
  try {
    const signedData = new pkijs.SignedData({ schema: token.content });
    const eContent = signedData.encapContentInfo.eContent;
    if (!eContent) throw new Error('no TSTInfo');
    info = pkijs.TSTInfo.fromBER(eContent.getValue());
  } catch (error) {
    throw tsaError('the time-stamping authority sent a token without a readable TSTInfo', error);
  }
  const tokenImprint = new Uint8Array(info.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (!bytesEqual(tokenImprint, imprint)) throw tsaError('the timestamp token is for a different message imprint');
  const tokenNonce = info.nonce ? new Uint8Array(info.nonce.valueBlock.valueHexView) : undefined;
  if (!tokenNonce || !bytesEqual(stripLeadingZeros(tokenNonce), stripLeadingZeros(nonce))) {
    throw tsaError('the timestamp token does not carry the nonce of the request');
  }
  const raw = (asn1js.fromBER(body).result as asn1js.Sequence).valueBlock.value[1]?.valueBeforeDecodeView;
  if (!raw) throw tsaError('the timestamp token could not be located in the response');
  return new Uint8Array(raw);
}

function tsaError(message: string, cause?: unknown): ApiError {
  return new ApiError('INTERNAL_ERROR', `Timestamping failed: ${message}`, cause === undefined ? {} : { cause });
}

function stripLeadingZeros(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return bytes.subarray(start);
}
