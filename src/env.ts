/** Bindings and variables the worker receives (see wrangler.toml and README "Configuration"). */
export interface Env {
  /** Largest document accepted, in bytes, after base64 decoding or fetching. Default 25 MiB. */
  MAX_DOCUMENT_BYTES?: string;
  /** Per-request budgets (src/limits.ts, README "Configuration"); each defaults to DEFAULT_LIMITS. */
  MAX_INFLATED_BYTES?: string;
  MAX_INFLATED_XML_BYTES?: string;
  MAX_PAGES?: string;
  MAX_LAYOUT_SECONDS?: string;
  MAX_DECODED_PDF_BYTES?: string;
  /** "true" lets `document.url` use plain http: (local development only). */
  ALLOW_HTTP_URLS?: string;

  /** Accounts, API key hashes and verification codes. */
  DB: D1Database;
  /** Secret for the HMAC of verification codes. `npm start` writes one into .dev.vars. */
  AUTH_SECRET?: string;

  /** log | cloudflare | resend; unset, no mail is sent (register answers 500, logged). `npm start` sets log in .dev.vars. */
  MAIL_TRANSPORT?: string;
  /** Sender of verification emails. */
  MAIL_FROM?: string;
  /** send_email binding, for MAIL_TRANSPORT=cloudflare. */
  EMAIL?: SendEmail;
  /** API key of Resend, for MAIL_TRANSPORT=resend. */
  RESEND_API_KEY?: string;

  /** Requests per minute per API key; the KEY_RATE_LIMITER binding enforces it. */
  RATE_LIMIT_PER_MINUTE?: string;
  KEY_RATE_LIMITER: RateLimit;
  AUTH_IP_RATE_LIMITER: RateLimit;
  AUTH_EMAIL_RATE_LIMITER: RateLimit;

  /** The signing key of POST /v1/sign, PKCS#8 PEM (RSA ≥ 2048 or ECDSA P-256). A secret; `npm start` writes a development one. */
  SIGNING_KEY?: string;
  /** The signing certificate and its issuers, PEM, leaf first. A secret beside SIGNING_KEY. */
  SIGNING_CERT_CHAIN?: string;
  /** An RFC 3161 time-stamping authority's URL: when set, signatures are PAdES B-T. */
  TSA_URL?: string;
  /** Extra trusted roots for POST /v1/verify, a PEM bundle (the service's own certificate is always trusted). */
  TRUSTED_ROOTS?: string;
  /** offline (default) | online: POST /v1/verify may ask a signer's OCSP responder or CRL distribution point. */
  REVOCATION_CHECK?: string;

  /** Static assets (assets/): the bundled fonts, read only by the font stage, never served publicly. */
  ASSETS: Fetcher;
  /**
   * The account's font library (optional R2 bucket): `<family>/<Style>.ttf` objects, tried after the
   * document's embedded fonts and the request's own (src/services/fonts/font-library.ts).
   */
  FONTS?: R2Bucket;
}
