/**
 * What a signature proves over time, once every signature and document timestamp of the file has
 * been checked: the revocation status of its signer certificate (src/services/revocation, from
 * the signature's own data, the DSS, and with REVOCATION_CHECK=online a live OCSP or CRL request)
 * at its best signature time (ETSI EN 319 102-1 §5.6.2.4: the earliest time a trusted timestamp
 * proves it existed — its signature timestamp, or a document timestamp over a later revision —
 * else the time the signer claims), and the PAdES baseline level it reaches (ETSI EN 319 142-1
 * §6): B-B, B-T with a signature timestamp or a document timestamp covering it, B-LT with
 * validation data for its chain in a DSS written after it (§5.4.2), B-LTA with a document
 * timestamp over that DSS (§5.4.3). Never throws.
 */
import * as pkijs from 'pkijs';
import {
  fetchRevocationData,
  hasRevocationData,
  type OnlineBudget,
  type RevocationDatum,
  type RevocationSource,
  type RevocationStatus,
  revocationStatus,
  type SignatureCheck,
} from '../revocation';
import type { BaselineCheck } from './baseline-attributes';
import { type DssRead, dssContent } from './dss-read';
import { signatureScheme, verifySignature } from './signature-algorithms';

export type PadesLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

/** What verifyOne learnt about one signature or document timestamp, for the checks across them. */
export interface SignatureEvidence {
  kind: 'signature' | 'document-timestamp';
  subFilter: string | undefined;
  /** The signature dictionary has /M (ISO 32000-1 §12.8.1 Table 252). */
  hasM: boolean;
  /** The revision whose end the signed bytes reach (oldest first). */
  revision: number | undefined;
  /** Intact and cryptographically valid. */
  verified: boolean;
  signerDer: Uint8Array | undefined;
  certificates: Uint8Array[];
  revocationData: RevocationDatum[];
  baseline: BaselineCheck | undefined;
  /** The time the signer claims (/M or signingTime). */
  claimedTime: Date | undefined;
  /** The signature timestamp (RFC 3161 Appendix A), or for a document timestamp, itself. */
  timestamp: { time: Date; verified: boolean; tsaTrusted: boolean } | undefined;
}

export interface LongTermResult {
  revocation: RevocationStatus;
  revocationSource: RevocationSource | null;
  level: PadesLevel | null;
  problems: string[];
}

export interface LongTermOptions {
  dss: DssRead;
  /** Ask the signer's OCSP responder or CRL distribution point when the file's data says nothing. */
  online: OnlineBudget | undefined;
  now: Date;
}

/** X.509 signatures (certificates, OCSP responses, CRLs) with verify's algorithms (signature-algorithms.ts). */
export const checkX509Signature: SignatureCheck = async (algorithm, signer, signature, data) => {
  try {
    return await verifySignature(signatureScheme(algorithm, undefined), signer, signature, data);
  } catch {
    return false;
  }
};

export async function longTermChecks(
  evidence: readonly SignatureEvidence[],
  options: LongTermOptions,
): Promise<LongTermResult[]> {
  const results: LongTermResult[] = [];
  for (const item of evidence) {
    const problems: string[] = [];
    const revocation = await revocationOf(item, evidence, options, problems);
    const level = await levelOf(item, evidence, options.dss, problems);
    results.push({ revocation: revocation.status, revocationSource: revocation.source, level, problems });
  }
  return results;
}

/**
 * The best signature time (ETSI EN 319 102-1 §5.6.2.4): the earliest time a verified timestamp
 * from a trusted TSA proves, the signature's own or a document timestamp over a later revision;
 * else the claimed time; else now. Only a proven time lets a later revocation pass.
 */
export function bestSignatureTime(
  item: SignatureEvidence,
  all: readonly SignatureEvidence[],
  now: Date,
): { at: Date; proven: boolean } {
  const proofs: Date[] = [];
  if (item.timestamp?.verified && item.timestamp.tsaTrusted) proofs.push(item.timestamp.time);
  for (const other of all) {
    if (other === item || other.kind !== 'document-timestamp' || !other.timestamp) continue;
    if (!other.verified || !other.timestamp.tsaTrusted) continue;
    if (covers(other, item)) proofs.push(other.timestamp.time);
  }
  if (proofs.length > 0) return { at: new Date(Math.min(...proofs.map((time) => time.getTime()))), proven: true };
  return { at: item.claimedTime ?? now, proven: false };
}

/** A document timestamp covers a signature when it signs a later revision (ISO 32000-2 §12.8.5). */
function covers(timestamp: SignatureEvidence, item: SignatureEvidence): boolean {
  return timestamp.revision !== undefined && item.revision !== undefined && timestamp.revision > item.revision;
}

async function revocationOf(
  item: SignatureEvidence,
  all: readonly SignatureEvidence[],
  options: LongTermOptions,
  problems: string[],
): Promise<{ status: RevocationStatus; source: RevocationSource | null }> {
  if (!item.signerDer) return { status: 'unknown', source: null };
  const { at, proven } = bestSignatureTime(item, all, options.now);
  const certificates = [...item.certificates, ...options.dss.certificates.values()];
  const label = item.kind === 'signature' ? 'the signer certificate' : 'the TSA certificate';
  const query = {
    certificate: item.signerDer,
    certificates,
    at,
    atProven: proven,
    verify: checkX509Signature,
    label,
  };
  const offline = await revocationStatus({
    ...query,
    data: [...item.revocationData, ...options.dss.revocation.values()],
  });
  problems.push(...offline.problems.map((problem) => `revocation: ${problem}`));
  if (offline.status !== 'unknown' || !options.online) return offline;
  const fetched = await fetchRevocationData({
    certificate: item.signerDer,
    certificates,
    verify: checkX509Signature,
    budget: options.online,
  });
  problems.push(...fetched.problems.map((problem) => `revocation: ${problem}`));
  if (fetched.data.length === 0) return offline;
  const online = await revocationStatus({ ...query, data: fetched.data });
  problems.push(...online.problems.map((problem) => `revocation: ${problem}`));
  return online;
}

/**
 * ETSI EN 319 142-1 §6.3 (Table 1) and §6.2: each level needs the one below. B-B: SubFilter
 * ETSI.CAdES.detached, /M, and a CMS that is baseline (baseline-attributes.ts). B-T: a verified
 * signature timestamp, or a verified document timestamp over a later revision. B-LT: a revision
 * after the signature writes the DSS, and the DSS then (with the signature's own data) holds
 * revocation data for every certificate of the signer's chain but a self-issued one (what EU
 * DSS's LT check asks, for the signer's chain). B-LTA: a verified document timestamp over that
 * DSS's revision or a later one. A document timestamp itself, and adbe.* signatures (PKCS#7, not
 * PAdES baseline), have none: null.
 */
async function levelOf(
  item: SignatureEvidence,
  all: readonly SignatureEvidence[],
  dss: DssRead,
  problems: string[],
): Promise<PadesLevel | null> {
  if (item.kind !== 'signature' || item.subFilter !== 'ETSI.CAdES.detached') return null;
  const notBaseline = !item.baseline
    ? 'its CMS could not be read'
    : (item.baseline.notBaseline ?? (item.hasM ? undefined : 'the signature dictionary has no /M'));
  if (notBaseline) {
    problems.push(`not a PAdES baseline signature (ETSI EN 319 142-1 §6.3): ${notBaseline}`);
    return null;
  }
  const timestamps = all.filter(
    (other) => other.kind === 'document-timestamp' && other.verified && other.timestamp?.verified,
  );
  const stamped = item.timestamp?.verified || timestamps.some((timestamp) => covers(timestamp, item));
  if (!stamped || item.revision === undefined || !item.signerDer) return stamped ? 'B-T' : 'B-B';
  let touched = false;
  for (let index = item.revision + 1; index < dss.states.length; index++) {
    const state = dss.states[index];
    touched ||= state?.written === true;
    if (!state || !touched) continue;
    if (!(await chainCovered(item, dssContent(dss, state)))) continue;
    const archived = timestamps.some((timestamp) => timestamp.revision !== undefined && timestamp.revision >= index);
    return archived ? 'B-LTA' : 'B-LT';
  }
  return 'B-T';
}

/**
 * Every certificate of a chain from the signer (by issuer names, through the signature's and the
 * DSS's certificates) has revocation data, up to a self-issued certificate or the last issuer at
 * hand (a trust anchor needs none). A CA certified twice (self-signed and cross-certified) gives
 * two paths; one complete path is enough.
 */
async function chainCovered(
  item: SignatureEvidence,
  dss: { certificates: Uint8Array[]; revocation: RevocationDatum[] },
): Promise<boolean> {
  const pool = parse([...item.certificates, ...dss.certificates]);
  const data = [...item.revocationData, ...dss.revocation];
  const signer = parse([item.signerDer as Uint8Array])[0];
  if (!signer || data.length === 0) return false;
  const covered = async (certificate: pkijs.Certificate, depth: number): Promise<boolean> => {
    if (certificate.subject.isEqual(certificate.issuer)) return true;
    if (depth > 8 || !(await hasRevocationData(new Uint8Array(certificate.toSchema().toBER()), data))) return false;
    const issuers = pool.filter(
      (candidate) => candidate !== certificate && candidate.subject.isEqual(certificate.issuer),
    );
    if (issuers.length === 0) return true;
    for (const issuer of issuers.slice(0, 4)) if (await covered(issuer, depth + 1)) return true;
    return false;
  };
  return covered(signer, 0);
}

function parse(ders: readonly Uint8Array[]): pkijs.Certificate[] {
  return ders.flatMap((der) => {
    try {
      return [pkijs.Certificate.fromBER(der)];
    } catch {
      return [];
    }
  });
}
