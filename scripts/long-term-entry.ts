// Bundled by scripts/long-term-check.mjs (esbuild) and run under plain Node: the signer and the
// revocation collector without HTTP, so their fetches can be pointed at local OpenSSL servers.
// Not part of the worker.
export { DEFAULT_LIMITS } from '../src/limits';
export { collectRevocationData } from '../src/services/revocation';
export { signDocument } from '../src/services/sign/sign-document';
export { loadSigningIdentity } from '../src/services/sign/signing-identity';
export { checkX509Signature } from '../src/services/verify';
