/**
 * Verifying signed PDFs (front door of src/services/verify): the report for /v1/verify, the
 * inventory of signatures sign checks before adding one, and the X.509 signature check sign's
 * B-LT collection checks OCSP responses and CRLs with, so that it stores what verify accepts.
 */
export { checkX509Signature } from './long-term';
export { signatureInventory } from './signature-inventory';
export { verifyPdf } from './verify-document';
