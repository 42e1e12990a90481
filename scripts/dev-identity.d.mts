/** A development signing identity (scripts/dev-identity.mjs): PEM strings. */
export interface DevIdentity {
  /** The leaf's private key, PKCS#8 PEM (SIGNING_KEY). */
  keyPem: string;
  /** Leaf then CA, PEM (SIGNING_CERT_CHAIN). */
  chainPem: string;
  caPem: string;
  leafPem: string;
}

export const DEV_CA_NAME: string;
export const DEV_SIGNER_NAME: string;
export function createDevIdentity(options?: { now?: Date }): Promise<DevIdentity>;
