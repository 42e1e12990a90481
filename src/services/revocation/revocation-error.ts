/**
 * Why one piece of revocation data could not be had, in plain words that follow "OCSP <url>:" or
 * "CRL <url>:" in a warning. Never an ApiError: missing validation data is reported, not fatal.
 */
export class RevocationDataError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RevocationDataError';
  }
}
