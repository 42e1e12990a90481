import type { Env } from './env';
import { DEFAULT_LIMITS, type Limits } from './limits';

export type MailTransportName = 'log' | 'cloudflare' | 'resend';

/** Typed settings read from the environment once per request: plain data handed to the core. */
export interface Config {
  maxDocumentBytes: number;
  /**
   * Largest request body. A document sent as base64 in JSON is 4/3 of its size, plus the
   * envelope (signer, audit trail, metadata up to 16 KiB), so the body may exceed the
   * document limit by that much; the decoded document is held to `maxDocumentBytes`.
   */
  maxRequestBytes: number;
  /** What one request may cost (src/limits.ts): inflated bytes, pages, layout time, decoded PDF streams. */
  limits: Limits;
  allowHttpUrls: boolean;
  /** Undefined when not configured: only the auth routes need it, and they say so. */
  authSecret: string | undefined;
  /**
   * transport: undefined when MAIL_TRANSPORT is not set, which sends no mail (register says the
   * service is misconfigured): `log` must be chosen, as `npm start`'s .dev.vars does, never fallen into.
   */
  mail: { transport: MailTransportName | undefined; from: string; resendApiKey: string | undefined };
  rateLimitPerMinute: number;
  /**
   * POST /v1/sign's identity and timestamping (docs/api.md "The signing identity"). Undefined when not
   * configured: the sign route says so; nothing else needs them.
   */
  signing: { keyPem: string | undefined; chainPem: string | undefined; tsaUrl: string | undefined };
  /** TRUSTED_ROOTS: roots POST /v1/verify trusts beside the service's own certificate, PEM bundle. */
  trustedRootsPem: string | undefined;
  /**
   * REVOCATION_CHECK: 'online' lets POST /v1/verify ask a signer's OCSP responder (else its CRL
   * distribution point) when the PDF carries no usable revocation data; 'offline' (default) never fetches.
   */
  revocationCheck: RevocationCheck;
}

export type RevocationCheck = 'offline' | 'online';
const REVOCATION_CHECKS: readonly RevocationCheck[] = ['offline', 'online'];

export const DEFAULT_MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;
const ENVELOPE_BYTES = 1024 * 1024;
const MAIL_TRANSPORTS: readonly MailTransportName[] = ['log', 'cloudflare', 'resend'];

export function readConfig(env: Env): Config {
  const maxDocumentBytes = positiveInteger(env.MAX_DOCUMENT_BYTES, DEFAULT_MAX_DOCUMENT_BYTES, 'MAX_DOCUMENT_BYTES');
  return {
    maxDocumentBytes,
    maxRequestBytes: Math.ceil(maxDocumentBytes / 3) * 4 + ENVELOPE_BYTES,
    limits: readLimits(env),
    allowHttpUrls: env.ALLOW_HTTP_URLS?.trim().toLowerCase() === 'true',
    authSecret: nonEmpty(env.AUTH_SECRET),
    mail: {
      transport: mailTransport(env.MAIL_TRANSPORT),
      from: nonEmpty(env.MAIL_FROM) ?? 'Quire <no-reply@quire.dev>',
      resendApiKey: nonEmpty(env.RESEND_API_KEY),
    },
    rateLimitPerMinute: positiveInteger(env.RATE_LIMIT_PER_MINUTE, 120, 'RATE_LIMIT_PER_MINUTE'),
    signing: {
      keyPem: nonEmpty(env.SIGNING_KEY),
      chainPem: nonEmpty(env.SIGNING_CERT_CHAIN),
      tsaUrl: nonEmpty(env.TSA_URL),
    },
    trustedRootsPem: nonEmpty(env.TRUSTED_ROOTS),
    revocationCheck: revocationCheck(env.REVOCATION_CHECK),
  };
}

function readLimits(env: Env): Limits {
  const inflatedBytes = positiveInteger(env.MAX_INFLATED_BYTES, DEFAULT_LIMITS.inflatedBytes, 'MAX_INFLATED_BYTES');
  return {
    inflatedBytes,
    // The XML parts are among all parts: their budget never exceeds the whole one.
    inflatedXmlBytes: Math.min(
      inflatedBytes,
      positiveInteger(env.MAX_INFLATED_XML_BYTES, DEFAULT_LIMITS.inflatedXmlBytes, 'MAX_INFLATED_XML_BYTES'),
    ),
    pages: positiveInteger(env.MAX_PAGES, DEFAULT_LIMITS.pages, 'MAX_PAGES'),
    layoutMs: positiveInteger(env.MAX_LAYOUT_SECONDS, DEFAULT_LIMITS.layoutMs / 1000, 'MAX_LAYOUT_SECONDS') * 1000,
    decodedPdfStreamBytes: positiveInteger(
      env.MAX_DECODED_PDF_BYTES,
      DEFAULT_LIMITS.decodedPdfStreamBytes,
      'MAX_DECODED_PDF_BYTES',
    ),
  };
}

function nonEmpty(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  return value ? value : undefined;
}

function mailTransport(raw: string | undefined): MailTransportName | undefined {
  const value = nonEmpty(raw)?.toLowerCase();
  if (value === undefined) return undefined;
  if (!(MAIL_TRANSPORTS as readonly string[]).includes(value)) {
    throw new Error(`MAIL_TRANSPORT must be one of ${MAIL_TRANSPORTS.join(', ')}, got "${raw}"`);
  }
  return value as MailTransportName;
}

function revocationCheck(raw: string | undefined): RevocationCheck {
  const value = nonEmpty(raw)?.toLowerCase() ?? 'offline';
  if (!(REVOCATION_CHECKS as readonly string[]).includes(value)) {
    throw new Error(`REVOCATION_CHECK must be one of ${REVOCATION_CHECKS.join(', ')}, got "${raw}"`);
  }
  return value as RevocationCheck;
}

function positiveInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    // A misconfigured deployment must fail loudly, not run with a surprising limit.
    throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}
