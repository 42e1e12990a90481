import { PDFArray, type PDFContext, PDFDict, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { toHex } from '../../crypto';
import type { Limits } from '../../limits';
import { latin1 } from '../input';
import { openUpdate, writeUpdate } from './pdf-update';
import type { ValidationData } from './sign-types';

export interface DssOptions {
  limits: Pick<Limits, 'decodedPdfStreamBytes'>;
  /**
   * The /Contents value of the signature the data validates (the whole string, padding included):
   * its SHA-1 keys a /VRI entry naming that data (ETSI EN 319 142-1 §5.4.2.2).
   */
  signatureContents?: Uint8Array;
}

/**
 * PAdES B-LT (ETSI EN 319 142-1 §5.4): one more incremental update (ISO 32000-1 §7.5.6) that
 * adds the Document Security Store to the catalog (ISO 32000-2 §12.8.4.3, Table 261):
 *
 *   /DSS << /Type /DSS /Certs [...] /OCSPs [...] /CRLs [...] /VRI << /<SHA-1> << /Cert /OCSP /CRL >> >> >>
 *
 * each array holding indirect references to streams of DER (a certificate, an OCSPResponse of
 * RFC 6960, a CertificateList of RFC 5280). A /DSS already in the document is extended, never
 * replaced: another signature's validation data stays, and bytes already there are not added
 * twice. The signatures before the update keep their bytes, and a DSS added after a signature
 * is a change every validator permits (ISO 32000-2 §12.8.2.2; ETSI EN 319 142-1 §5.4.1).
 */
export async function addDss(pdf: Uint8Array, data: ValidationData, options: DssOptions): Promise<Uint8Array> {
  const update = await openUpdate(pdf, options.limits);
  const { doc } = update;
  const context = doc.context;
  const existing = doc.catalog.lookup(PDFName.of('DSS'));
  const dss = existing instanceof PDFDict ? existing : (context.obj({}) as PDFDict);
  if (!(existing instanceof PDFDict)) doc.catalog.set(PDFName.of('DSS'), context.register(dss));
  dss.set(PDFName.of('Type'), PDFName.of('DSS'));

  const certs = addStreams(context, arrayIn(context, dss, 'Certs'), data.certificates);
  const ocsps = addStreams(context, arrayIn(context, dss, 'OCSPs'), data.ocsps);
  const crls = addStreams(context, arrayIn(context, dss, 'CRLs'), data.crls);

  if (options.signatureContents) {
    // ETSI EN 319 142-1 §5.4.2.2 / ISO 32000-2 Table 262: the key is the upper-case hex SHA-1 of
    // the signature's /Contents value; the entry names the data that validates that signature.
    const sha1 = new Uint8Array(await crypto.subtle.digest('SHA-1', options.signatureContents));
    const entry = context.obj({}) as PDFDict;
    if (certs.length > 0) entry.set(PDFName.of('Cert'), context.obj(certs));
    if (ocsps.length > 0) entry.set(PDFName.of('OCSP'), context.obj(ocsps));
    if (crls.length > 0) entry.set(PDFName.of('CRL'), context.obj(crls));
    dictIn(context, dss, 'VRI').set(PDFName.of(toHex(sha1).toUpperCase()), entry);
  }
  return writeUpdate(pdf, update).file;
}

/**
 * Adds one stream per distinct DER value not already in `array` (an unfiltered stream holding the
 * same bytes), and returns the references for every value, old or new, in the order given.
 */
function addStreams(context: PDFContext, array: PDFArray, values: readonly Uint8Array[]): PDFRef[] {
  const known = new Map<string, PDFRef>();
  for (let i = 0; i < array.size(); i++) {
    const ref = array.get(i);
    const stream = array.lookup(i);
    if (stream instanceof PDFRawStream && !stream.dict.has(PDFName.of('Filter')) && ref instanceof PDFRef) {
      known.set(latin1(stream.contents), ref);
    }
  }
  const refs: PDFRef[] = [];
  for (const value of values) {
    const key = latin1(value);
    let ref = known.get(key);
    if (!ref) {
      ref = context.register(context.stream(value));
      array.push(ref);
      known.set(key, ref);
    }
    if (!refs.includes(ref)) refs.push(ref);
  }
  return refs;
}

/** The array under `key` (direct or indirect), a new direct one set there when there is none. */
function arrayIn(context: PDFContext, dict: PDFDict, key: string): PDFArray {
  const existing = dict.lookup(PDFName.of(key));
  if (existing instanceof PDFArray) return existing;
  const created = context.obj([]) as PDFArray;
  dict.set(PDFName.of(key), created);
  return created;
}

/** The dictionary under `key` (direct or indirect), a new direct one set there when there is none. */
function dictIn(context: PDFContext, dict: PDFDict, key: string): PDFDict {
  const existing = dict.lookup(PDFName.of(key));
  if (existing instanceof PDFDict) return existing;
  const created = context.obj({}) as PDFDict;
  dict.set(PDFName.of(key), created);
  return created;
}
