/**
 * API keys and sign-up (front door of src/api/auth): the D1 account store, key authentication with
 * its bounded per-isolate cache, and e-mail verification codes.
 */
export { AccountStore, type KeyRecord } from './account-store';
export { EmailAddressSchema } from './email-address';
export { authenticateApiKey } from './key-authentication';
export { KeyRecordCache } from './key-record-cache';
export { CODE_TTL_SECONDS, type RegistrationDeps, requestVerificationCode, verifyCode } from './registration';
export { CODE_PATTERN } from './verification-code';
