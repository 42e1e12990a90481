/**
 * What revocation checking needs to know about certificates (RFC 5280 §4): who issued a
 * certificate (the issuer's name and a signature that verifies with its key, §6.1.3 (a)(1)), its
 * serial number, validity, key usage, extended key usage, CA flag and extensions, and how a
 * message names it. Signatures are checked by the caller's SignatureCheck, so this folder needs no
 * algorithm table of its own. Never throws: an unreadable extension reads as absent.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from '../../kit';

/**
 * Verifies `signature` over `data` with `signer`'s public key, as X.509 objects are signed
 * (RFC 5280 §4.1.1.2–3, §5.1.1.2–3; RFC 6960 §4.2.1 BasicOCSPResponse): resolves false, never
 * rejects, when it does not verify or the algorithm is unknown.
 */
export type SignatureCheck = (
  algorithm: pkijs.AlgorithmIdentifier,
  signer: pkijs.Certificate,
  signature: Uint8Array,
  data: Uint8Array,
) => Promise<boolean>;

/** RFC 5280 §4.2.1.3 KeyUsage bits. */
export const KEY_USAGE = { keyCertSign: 5, cRLSign: 6 } as const;

const OID_KEY_USAGE = '2.5.29.15';
const OID_EXT_KEY_USAGE = '2.5.29.37';
const OID_BASIC_CONSTRAINTS = '2.5.29.19';

/** How a certificate is named in a message: its subject's common name, else its whole subject. */
export function certificateLabel(certificate: pkijs.Certificate): string {
  const values = certificate.subject.typesAndValues;
  const commonName = values.find((value) => value.type === OID.commonName)?.value.valueBlock.value;
  if (typeof commonName === 'string' && commonName.trim() !== '') return `"${commonName.trim()}"`;
  const subject = values.map((value) => `${value.type}=${String(value.value.valueBlock.value)}`).join(', ');
  return subject ? `"${subject}"` : 'a certificate without a subject';
}

/** The serial number as lower-case hex without leading zero octets (X.690 §8.3.2 allows one for the sign). */
export function serialHex(serial: asn1js.Integer | Uint8Array): string {
  let bytes = serial instanceof Uint8Array ? serial : new Uint8Array(serial.valueBlock.valueHexView);
  while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The DER of a certificate as it was read (pkijs keeps the TBSCertificate's bytes). */
export function certificateDer(certificate: pkijs.Certificate): Uint8Array {
  return new Uint8Array(certificate.toSchema().toBER());
}

/** The bytes of a Name as written (RFC 5280 §4.1.2.4), for hashing (RFC 6960 §4.1.1 issuerNameHash). */
export function nameDer(name: pkijs.RelativeDistinguishedNames): Uint8Array {
  const kept = new Uint8Array(name.valueBeforeDecode);
  return kept.length > 0 ? kept : new Uint8Array(name.toSchema().toBER());
}

export function sameName(a: pkijs.RelativeDistinguishedNames, b: pkijs.RelativeDistinguishedNames): boolean {
  try {
    return a.isEqual(b);
  } catch {
    return false;
  }
}

export function isSelfIssued(certificate: pkijs.Certificate): boolean {
  return sameName(certificate.subject, certificate.issuer);
}

export function validAt(certificate: pkijs.Certificate, at: Date): boolean {
  return certificate.notBefore.value <= at && at <= certificate.notAfter.value;
}

function extension(certificate: pkijs.Certificate, oid: string): pkijs.Extension | undefined {
  return certificate.extensions?.find((entry) => entry.extnID === oid);
}

/** The DER inside an extension's OCTET STRING, parsed; undefined when it does not parse. */
export function extensionValue(
  extensions: readonly pkijs.Extension[] | undefined,
  oid: string,
): asn1js.AsnType | undefined {
  const found = extensions?.find((entry) => entry.extnID === oid);
  if (!found) return undefined;
  const parsed = asn1js.fromBER(found.extnValue.valueBlock.valueHexView);
  return parsed.offset === -1 ? undefined : parsed.result;
}

/** RFC 5280 §4.2.1.3: true when the extension is absent (no restriction) or has the bit set. */
export function keyUsageAllows(certificate: pkijs.Certificate, bit: number): boolean {
  const found = extension(certificate, OID_KEY_USAGE);
  if (!found) return true;
  const value = extensionValue(certificate.extensions, OID_KEY_USAGE);
  if (!(value instanceof asn1js.BitString)) return false;
  const bytes = value.valueBlock.valueHexView;
  const byte = bytes[Math.floor(bit / 8)] ?? 0;
  return (byte & (0x80 >> (bit % 8))) !== 0;
}

/** RFC 5280 §4.2.1.12: the certificate's extended key usage names `purpose`. */
export function hasExtendedKeyUsage(certificate: pkijs.Certificate, purpose: string): boolean {
  const value = extensionValue(certificate.extensions, OID_EXT_KEY_USAGE);
  if (!(value instanceof asn1js.Sequence)) return false;
  return value.valueBlock.value.some(
    (item) => item instanceof asn1js.ObjectIdentifier && item.valueBlock.toString() === purpose,
  );
}

/** RFC 5280 §4.2.1.9: basicConstraints cA is TRUE. */
export function isCa(certificate: pkijs.Certificate): boolean {
  const value = extensionValue(certificate.extensions, OID_BASIC_CONSTRAINTS);
  if (!(value instanceof asn1js.Sequence)) return false;
  const first = value.valueBlock.value[0];
  return first instanceof asn1js.Boolean && first.getValue();
}

/** Whether `issuer` signed `certificate` (RFC 5280 §6.1.3 (a)(1)): its name is the issuer's, and the signature verifies. */
export async function issuedBy(
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
  verify: SignatureCheck,
): Promise<boolean> {
  if (!sameName(certificate.issuer, issuer.subject)) return false;
  const signature = new Uint8Array(certificate.signatureValue.valueBlock.valueHexView);
  return verify(certificate.signatureAlgorithm, issuer, signature, new Uint8Array(certificate.tbsView));
}

/** The certificates of `pool` that issued `certificate` (a CA may hold several keys under one name). */
export async function issuersOf(
  certificate: pkijs.Certificate,
  pool: readonly pkijs.Certificate[],
  verify: SignatureCheck,
): Promise<pkijs.Certificate[]> {
  const found: pkijs.Certificate[] = [];
  for (const candidate of pool) {
    if (candidate === certificate && !isSelfIssued(certificate)) continue;
    if (await issuedBy(certificate, candidate, verify)) found.push(candidate);
  }
  return found;
}

const latin1 = new TextDecoder('latin1');
/** Each certificate's bytes parsed once while they live (a DSS's certificates serve every signature). */
const parsed = new WeakMap<Uint8Array, pkijs.Certificate | null>();

/** A DER certificate, parsed once while its bytes live; undefined when it is not one. */
export function parseCertificate(der: Uint8Array): pkijs.Certificate | undefined {
  let certificate = parsed.get(der);
  if (certificate === undefined) {
    try {
      certificate = pkijs.Certificate.fromBER(der);
    } catch {
      // Not a certificate: nothing to build a chain with.
      certificate = null;
    }
    parsed.set(der, certificate);
  }
  return certificate ?? undefined;
}

/** Parses DER certificates, dropping what does not parse and repeats. */
export function parseCertificates(ders: readonly Uint8Array[]): pkijs.Certificate[] {
  const seen = new Set<string>();
  const out: pkijs.Certificate[] = [];
  for (const der of ders) {
    const key = latin1.decode(der);
    if (seen.has(key)) continue;
    seen.add(key);
    const certificate = parseCertificate(der);
    if (certificate) out.push(certificate);
  }
  return out;
}
