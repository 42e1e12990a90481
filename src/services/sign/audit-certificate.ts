/**
 * The audit-trail certificate pages of POST /v1/sign (docs/api.md "The audit-trail certificate"), as a
 * PDF of their own: the signer appends them to the document (append-pages.ts) before signing, in
 * the same incremental update, so the signature covers them.
 */

import type { Budget } from '../../limits';
import { type EngineResources, modelToPdf } from '../convert';
import { buildAuditModel, type PageSize } from './audit-model';
import type { AuditCertificateInfo } from './sign-types';

/**
 * @param size the page size: the document's last page's, so the certificate prints like the rest
 *   of it; Letter when not given or not a sensible page (certificatePageSize).
 */
export async function renderAuditCertificate(
  info: AuditCertificateInfo,
  engine: EngineResources,
  budget: Budget,
  size?: PageSize,
): Promise<Uint8Array> {
  const { pdf } = await modelToPdf(buildAuditModel(info, size), engine, budget);
  return pdf;
}
