/**
 * The Document Security Store (ISO 32000-2 §12.8.4.3, ETSI EN 319 142-1 §5.4.2): the catalog's
 * /DSS, whose /Certs, /OCSPs and /CRLs are arrays of streams holding one DER certificate,
 * OCSPResponse (RFC 6960 §4.2.1) or CRL (RFC 5280 §5.1) each, and whose /VRI maps signature hashes
 * to dictionaries with /Cert, /OCSP and /CRL arrays of such streams. It is read as it stood at
 * every revision (so a signature's level can say whether validation data was added after it), and
 * each stream once, as the newest revision has it. Bounded: 64 OCSP responses, 64 CRLs, 256
 * certificates, 256 VRI entries, 32 MiB decoded in all; what is over is a problem. Never throws.
 */
import { decodeStreamData, type ObjectReader, type PdfValue, type RevisionScan } from '../pdf-read';
import { MAX_CRL_BYTES, MAX_OCSP_BYTES, type RevocationDatum } from '../revocation';

const MAX_OCSPS = 64;
const MAX_CRLS = 64;
const MAX_CERTS = 256;
const MAX_VRI = 256;
const MAX_CERT_BYTES = 64 * 1024;
const DECODE_BUDGET = 32 * 1024 * 1024;

export interface DssState {
  /** The revision (index, oldest first) the DSS is read at. */
  revision: number;
  /** This revision changed what the DSS lists: validation data was added (or removed) here. */
  written: boolean;
  certs: number[];
  ocsps: number[];
  crls: number[];
}

export interface DssRead {
  /** Per revision, oldest first; undefined where the catalog has no /DSS. */
  states: (DssState | undefined)[];
  /** Decoded streams by object number. */
  certificates: Map<number, Uint8Array>;
  revocation: Map<number, RevocationDatum>;
  problems: string[];
}

type Kind = 'certs' | 'ocsps' | 'crls';
const KEYS: Record<Kind, { dss: string; vri: string }> = {
  certs: { dss: 'Certs', vri: 'Cert' },
  ocsps: { dss: 'OCSPs', vri: 'OCSP' },
  crls: { dss: 'CRLs', vri: 'CRL' },
};
const LIMITS: Record<Kind, number> = { certs: MAX_CERTS, ocsps: MAX_OCSPS, crls: MAX_CRLS };

export function readDss(reader: ObjectReader, scan: RevisionScan): DssRead {
  const result: DssRead = { states: [], certificates: new Map(), revocation: new Map(), problems: [] };
  const seen: Record<Kind, Set<number>> = { certs: new Set(), ocsps: new Set(), crls: new Set() };
  const over = new Set<Kind>();
  let previous = '';
  for (let index = 0; index < scan.revisions.length; index++) {
    const dss = reader.dictAt(reader.catalog(index)?.get('DSS'), index);
    if (!dss) {
      result.states.push(undefined);
      previous = '';
      continue;
    }
    const state: DssState = { revision: index, written: false, certs: [], ocsps: [], crls: [] };
    for (const kind of ['certs', 'ocsps', 'crls'] as const) {
      const refs = new Set(arrayRefs(reader, dss.entries.get(KEYS[kind].dss), index));
      const vri = reader.dictAt(dss.entries.get('VRI'), index);
      for (const entry of [...(vri?.entries.values() ?? [])].slice(0, MAX_VRI)) {
        const dict = reader.dictAt(entry, index);
        for (const num of arrayRefs(reader, dict?.entries.get(KEYS[kind].vri), index)) refs.add(num);
      }
      for (const num of refs) {
        if (!seen[kind].has(num) && seen[kind].size >= LIMITS[kind]) {
          over.add(kind);
          continue;
        }
        seen[kind].add(num);
        state[kind].push(num);
      }
    }
    const key = `${state.certs.sort().join(',')}|${state.ocsps.sort().join(',')}|${state.crls.sort().join(',')}`;
    state.written = key !== previous;
    previous = key;
    result.states.push(state);
  }
  for (const kind of over) {
    result.problems.push(`the DSS lists more than ${LIMITS[kind]} ${KEYS[kind].dss}; the rest were not read`);
  }
  if (seen.certs.size + seen.ocsps.size + seen.crls.size === 0) return result;
  if (scan.revisions.at(-1)?.encrypted) {
    result.problems.push('the DSS of an encrypted file is not read');
    return result;
  }
  const budget = { remaining: DECODE_BUDGET };
  const last = scan.revisions.length - 1;
  for (const num of seen.certs) {
    const der = streamBytes(reader, num, last, MAX_CERT_BYTES, budget, result.problems);
    if (der) result.certificates.set(num, der);
  }
  for (const [kind, limit, datum] of [
    ['ocsps', MAX_OCSP_BYTES, 'ocsp'],
    ['crls', MAX_CRL_BYTES, 'crl'],
  ] as const) {
    for (const num of seen[kind]) {
      const der = streamBytes(reader, num, last, limit, budget, result.problems);
      if (der) result.revocation.set(num, { kind: datum, der, source: 'dss' });
    }
  }
  return result;
}

/** The object numbers an array (direct, or through one reference) refers to. */
function arrayRefs(reader: ObjectReader, value: PdfValue | undefined, index: number): number[] {
  let array = value;
  if (array?.kind === 'ref') {
    const state = reader.read(array.num, index);
    array = state.kind === 'object' ? state.value : undefined;
  }
  if (array?.kind !== 'array') return [];
  return array.items.flatMap((item) => (item.kind === 'ref' ? [item.num] : []));
}

/** A stream's decoded data (FlateDecode or none), or undefined with a problem. */
function streamBytes(
  reader: ObjectReader,
  num: number,
  index: number,
  limit: number,
  budget: { remaining: number },
  problems: string[],
): Uint8Array | undefined {
  const state = reader.read(num, index);
  if (state.kind !== 'object' || state.value.kind !== 'dict' || !state.streamData) {
    problems.push(`the DSS names object ${num}, which is not a stream`);
    return undefined;
  }
  if (state.streamData.length > limit) {
    problems.push(`the DSS stream ${num} is larger than ${limit} bytes and was not read`);
    return undefined;
  }
  const decoded = decodeStreamData(state.value, state.streamData, budget);
  if ('problem' in decoded) {
    problems.push(`the DSS stream ${num} cannot be decoded (${decoded.problem.replace('xref stream', 'stream')})`);
    return undefined;
  }
  if (decoded.bytes.length > limit) {
    problems.push(`the DSS stream ${num} is larger than ${limit} bytes and was not read`);
    return undefined;
  }
  return decoded.bytes;
}

/** The DSS's certificates and revocation data as one state lists them. */
export function dssContent(
  dss: DssRead,
  state: DssState | undefined,
): { certificates: Uint8Array[]; revocation: RevocationDatum[] } {
  if (!state) return { certificates: [], revocation: [] };
  return {
    certificates: state.certs.flatMap((num) => dss.certificates.get(num) ?? []),
    revocation: [...state.ocsps, ...state.crls].flatMap((num) => dss.revocation.get(num) ?? []),
  };
}

/** Everything any revision's DSS lists. */
export function allDssContent(dss: DssRead): { certificates: Uint8Array[]; revocation: RevocationDatum[] } {
  return { certificates: [...dss.certificates.values()], revocation: [...dss.revocation.values()] };
}
