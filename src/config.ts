import type { Env } from './env';

/** Typed settings read from the environment once per request: plain data handed to the core. */
export interface Config {
  maxDocumentBytes: number;
  /**
   * Largest request body. A document sent as base64 in JSON is 4/3 of its size, plus the
   * envelope (signer, audit trail, metadata up to 16 KiB), so the body may exceed the
   * document limit by that much; the decoded document is held to `maxDocumentBytes`.
   */
  maxRequestBytes: number;
  allowHttpUrls: boolean;
}

export const DEFAULT_MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;
const ENVELOPE_BYTES = 1024 * 1024;

export function readConfig(env: Env): Config {
  const maxDocumentBytes = positiveInteger(env.MAX_DOCUMENT_BYTES, DEFAULT_MAX_DOCUMENT_BYTES, 'MAX_DOCUMENT_BYTES');
  return {
    maxDocumentBytes,
    maxRequestBytes: Math.ceil(maxDocumentBytes / 3) * 4 + ENVELOPE_BYTES,
    allowHttpUrls: env.ALLOW_HTTP_URLS?.trim().toLowerCase() === 'true',
  };
}

function positiveInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    // A misconfigured deployment must fail loudly, not run with a surprising limit.
    throw new Error(`${name} must be a positive whole number of bytes, got "${raw}"`);
  }
  return value;
}
