/**
 * Whether a signer certificate chains to a configured root (RFC 5280 §6 path validation, done by
 * pkijs): the path is built from the signer through the certificates embedded in the signature
 * (RFC 5652 §5.1 SignedData.certificates) and checked for validity at the signing time. Revocation
 * is not checked. Never throws.
 */
import * as pkijs from 'pkijs';

export type Trust = 'trusted' | 'untrusted' | 'unknown';

export interface TrustCheck {
  trust: Trust;
  problems: string[];
}

function parse(der: Uint8Array): pkijs.Certificate | undefined {
  try {
    return pkijs.Certificate.fromBER(der);
  } catch {
    return undefined;
  }
}

export async function checkTrust(
  signerDer: Uint8Array | undefined,
  embedded: readonly Uint8Array[],
  trustedRoots: readonly Uint8Array[],
  at: Date,
): Promise<TrustCheck> {
  if (!signerDer) return { trust: 'unknown', problems: ['trust cannot be checked: the signer certificate is missing'] };
  try {
    const signer = pkijs.Certificate.fromBER(signerDer);
    if (trustedRoots.length === 0) return { trust: 'untrusted', problems: ['no trusted roots are configured'] };
    // The service's own certificate is itself a configured root (API.md); otherwise a path is built.
    const root = trustedRoots.find((der) => sameBytes(der, signerDer));
    if (root) {
      const valid = signer.notBefore.value <= at && at <= signer.notAfter.value;
      return valid
        ? { trust: 'trusted', problems: [] }
        : { trust: 'untrusted', problems: ['the signer certificate was not valid at the signing time'] };
    }
    const roots = trustedRoots.map(parse).filter((cert): cert is pkijs.Certificate => cert !== undefined);
    // Each certificate once: pkijs builds a broken path ("Incorrect name chaining") from duplicates.
    const intermediates = embedded
      .filter((der) => !sameBytes(der, signerDer) && !trustedRoots.some((rootDer) => sameBytes(rootDer, der)))
      .map(parse)
      .filter((cert): cert is pkijs.Certificate => cert !== undefined);
    const certs = [signer, ...intermediates];
    const engine = new pkijs.CertificateChainValidationEngine({ trustedCerts: roots, certs, checkDate: at });
    const result = await engine.verify();
    if (result.result) return { trust: 'trusted', problems: [] };
    return {
      trust: 'untrusted',
      problems: [`the signer certificate does not chain to a trusted root: ${result.resultMessage || 'no path'}`],
    };
  } catch (error) {
    const message =
      error instanceof Error ? error.message : String((error as { resultMessage?: string })?.resultMessage ?? error);
    return { trust: 'unknown', problems: [`trust cannot be checked: ${message}`] };
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
