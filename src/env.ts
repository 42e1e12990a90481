/** Bindings and variables the worker receives (see wrangler.toml and README "Configuration"). */
export interface Env {
  /** Largest document accepted, in bytes, after base64 decoding or fetching. Default 25 MiB. */
  MAX_DOCUMENT_BYTES?: string;
  /** "true" lets `document.url` use plain http: (local development only). */
  ALLOW_HTTP_URLS?: string;
}
