import type { SigningIdentity } from './sign-types';
import { loadSigningIdentity } from './signing-identity';

/**
 * The signing identity parsed once per isolate and reused while the secrets are the same: one
 * entry, replaced when SIGNING_KEY or SIGNING_CERT_CHAIN change (a redeploy with new secrets).
 * A key that fails to load is not kept, so a fixed secret is picked up on the next request.
 */
export class IdentityCache {
  #entry: { keyPem: string; chainPem: string; identity: Promise<SigningIdentity> } | undefined;

  get(keyPem: string, chainPem: string): Promise<SigningIdentity> {
    const entry = this.#entry;
    if (entry && entry.keyPem === keyPem && entry.chainPem === chainPem) return entry.identity;
    const identity = loadSigningIdentity(keyPem, chainPem);
    this.#entry = { keyPem, chainPem, identity };
    identity.catch(() => {
      if (this.#entry?.identity === identity) this.#entry = undefined;
    });
    return identity;
  }
}
