import { ApiError } from '../../errors';
import type { SignatureLevel } from './sign-types';

/** The levels that carry a timestamp from the TSA (ETSI EN 319 142-1 §6.3: B-T and every level above it). */
export function levelNeedsTsa(level: SignatureLevel): boolean {
  return level !== 'B-B';
}

/** The levels whose validation data is added in a /DSS after the signature (§5.4, B-LT and B-LTA). */
export function levelAddsValidationData(level: SignatureLevel): boolean {
  return level === 'B-LT' || level === 'B-LTA';
}

/**
 * The level a request gets: the one it names, else B-T when the deployment has a TSA, else B-B
 * (docs/api.md "POST /v1/sign"). A level that needs a TSA on a deployment without TSA_URL is the
 * request's problem to fix (400 on `level`), not a silently weaker signature: the caller may
 * depend on the level it asked for.
 */
export function resolveSignatureLevel(requested: SignatureLevel | undefined, tsaConfigured: boolean): SignatureLevel {
  if (requested === undefined) return tsaConfigured ? 'B-T' : 'B-B';
  if (levelNeedsTsa(requested) && !tsaConfigured) {
    const issue = `${requested} needs a time-stamping authority, and TSA_URL is not set on this deployment; ask for B-B, or have the operator set TSA_URL`;
    throw new ApiError('VALIDATION_ERROR', `level: ${issue}`, { details: [{ field: 'level', issue }] });
  }
  return requested;
}
