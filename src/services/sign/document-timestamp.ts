import type { Limits } from '../../limits';
import { CONTENTS_MARGIN, openUpdate, writeSignedUpdate } from './pdf-update';
import { TIMESTAMP_ALLOWANCE } from './sign-pdf';
import type { TimestampAuthority } from './sign-types';
import { addSignatureField } from './signature-field';
import { requestTimestampToken } from './timestamp-client';

/**
 * PAdES B-LTA (ETSI EN 319 142-1 §5.5): one more incremental update with a document timestamp
 * (ISO 32000-2 §12.8.5): a new invisible signature field whose dictionary is /Type /DocTimeStamp,
 * /SubFilter /ETSI.RFC3161, and whose /Contents is an RFC 3161 TimeStampToken whose
 * messageImprint is the SHA-256 of the ByteRange bytes — the whole file as it stands, the /DSS of
 * B-LT included, but the token's own hole. It proves the signature and its validation data existed
 * at that time, which is what lets them be checked after the certificates expire.
 */
export async function addDocumentTimestamp(
  pdf: Uint8Array,
  options: { tsa: TimestampAuthority; limits: Pick<Limits, 'decodedPdfStreamBytes'> },
): Promise<Uint8Array> {
  const update = await openUpdate(pdf, options.limits);
  const contentsBytes = TIMESTAMP_ALLOWANCE + CONTENTS_MARGIN;
  const placeholder = addSignatureField(update.doc, { type: 'document-timestamp' }, contentsBytes);
  const { file } = await writeSignedUpdate(pdf, update, placeholder, contentsBytes, (digest) =>
    requestTimestampToken(options.tsa, digest),
  );
  return file;
}
