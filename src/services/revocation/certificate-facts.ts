/** Small facts about certificates that revocation messages and checks need (RFC 5280 §4.1.2). */
import type * as asn1js from 'asn1js';
import type * as pkijs from 'pkijs';
import { bytesEqual, OID } from '../../kit';

/** How a certificate is named in a message: its subject's common name, else its whole subject. */
export function certificateLabel(certificate: pkijs.Certificate): string {
  const values = certificate.subject.typesAndValues;
  const commonName = values.find((value) => value.type === OID.commonName)?.value.valueBlock.value;
  if (typeof commonName === 'string' && commonName.trim() !== '') return `"${commonName.trim()}"`;
  const subject = values.map((value) => `${value.type}=${String(value.value.valueBlock.value)}`).join(', ');
  return subject ? `"${subject}"` : 'a certificate without a subject';
}

/** Whether `certificate` names `issuer`'s subject as its issuer (§4.1.2.4, compared as Names). */
export function issuedBy(certificate: pkijs.Certificate, issuer: pkijs.Certificate): boolean {
  return certificate.issuer.isEqual(issuer.subject);
}

/** Whether the certificate is self-issued (§3.3.1: subject and issuer the same): a root, whose status no one publishes. */
export function selfIssued(certificate: pkijs.Certificate): boolean {
  return certificate.issuer.isEqual(certificate.subject);
}

/** Serial numbers compared as the INTEGERs they are: a leading zero octet (DER's sign padding) aside. */
export function sameSerial(a: asn1js.Integer, b: asn1js.Integer): boolean {
  return bytesEqual(withoutLeadingZeros(a.valueBlock.valueHexView), withoutLeadingZeros(b.valueBlock.valueHexView));
}

function withoutLeadingZeros(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return bytes.subarray(start);
}
