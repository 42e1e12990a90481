/**
 * PAdES signing (front door of src/services/sign): the request schema, the signing identity and its
 * cache, the certificate page and the incremental update (ETSI EN 319 142-1).
 */
export { IdentityCache } from './identity-cache';
export { walkPageTree } from './page-tree';
export { assertParseableStreams } from './pdf-parse-guard';
export { describeServiceCertificate } from './service-certificate';
export { signDocument } from './sign-document';
export { SignBodySchema } from './sign-request';
export { resolveSignatureLevel } from './signature-level';
