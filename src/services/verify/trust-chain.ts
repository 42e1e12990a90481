/**
 * Whether a signer certificate chains to a configured root (RFC 5280 §6 path validation, done by
 * pkijs): the path is built from the signer through the certificates embedded in the signature
 * (RFC 5652 §5.1 SignedData.certificates, and a DSS's) and checked for validity at the signing
 * time. Revocation is judged apart (long-term.ts), which then withdraws trust. Never throws.
 */
import * as x509 from '@peculiar/x509';
import * as pkijs from 'pkijs';
import { sameBytes } from '../pdf-read';
import { verifyingEngine } from './pkijs-engine';

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
    // The service's own certificate is itself a configured root (docs/api.md); otherwise a path is built.
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
    const result = await engine.verify({}, verifyingEngine);
    if (result.result) return { trust: 'trusted', problems: [] };
    const gap = missingLink(signer, intermediates, roots);
    return {
      trust: 'untrusted',
      problems: [
        `the signer certificate does not chain to a trusted root: ${gap ?? result.resultMessage ?? 'no path'}`,
      ],
    };
  } catch (error) {
    const message =
      error instanceof Error ? error.message : String((error as { resultMessage?: string })?.resultMessage ?? error);
    return { trust: 'unknown', problems: [`trust cannot be checked: ${message}`] };
  }
}

function nameOf(name: pkijs.RelativeDistinguishedNames): string {
  try {
    return new x509.Name(name.toSchema().toBER()).toString();
  } catch {
    return 'an unreadable name';
  }
}

/**
 * Where the path from the signer breaks, in words naming the certificate that is missing or
 * untrusted (RFC 5280 §6.1 needs each issuer): undefined when every issuer is present, and the
 * path failed for another reason (validity, signatures), which the engine's message then gives.
 */
function missingLink(
  signer: pkijs.Certificate,
  intermediates: pkijs.Certificate[],
  roots: pkijs.Certificate[],
): string | undefined {
  let current = signer;
  for (let depth = 0; depth < 16; depth++) {
    if (roots.some((root) => root.subject.isEqual(current.issuer))) return undefined;
    if (current.issuer.isEqual(current.subject)) {
      return `the chain ends at the self-signed ${nameOf(current.subject)}, which is not a trusted root`;
    }
    const issuer = intermediates.find((candidate) => candidate.subject.isEqual(current.issuer));
    if (!issuer) {
      return `the issuer ${nameOf(current.issuer)} of ${nameOf(current.subject)} is neither in the signature nor a trusted root`;
    }
    current = issuer;
  }
  return undefined;
}
