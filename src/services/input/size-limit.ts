import { ApiError } from '../../errors';

/** `26,214,400`: byte counts in messages are easier to compare with digit grouping. */
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `25 MiB (26,214,400 bytes)`, `1.5 KiB (1,536 bytes)`, or just `900 bytes`. */
export function formatBytes(bytes: number): string {
  const exact = `${groupDigits(bytes)} bytes`;
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB (${exact})`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB (${exact})`;
  return exact;
}

/**
 * The one PAYLOAD_TOO_LARGE of the input module. `finding` is a whole sentence about what was seen
 * ("document.base64 decodes to 30 MiB …, more than the limit."); the limit and where it is set follow:
 * the deployment's MAX_DOCUMENT_BYTES unless `setBy` names another (a fixed limit of src/limits.ts).
 */
export function documentTooLarge(finding: string, maxBytes: number, setBy = 'set by MAX_DOCUMENT_BYTES'): ApiError {
  return new ApiError(
    'PAYLOAD_TOO_LARGE',
    `${finding} The limit is ${formatBytes(maxBytes)}, ${setBy}; send a smaller document.`,
  );
}
