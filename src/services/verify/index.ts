/**
 * Verifying signed PDFs (front door of src/services/verify): the report for /v1/verify and the
 * inventory of signatures sign checks before adding one.
 */
export { signatureInventory } from './signature-inventory';
export { verifyPdf } from './verify-document';
