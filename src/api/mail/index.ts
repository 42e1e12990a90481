/**
 * Outbound mail (front door of src/api/mail): the transport interface and the factory that picks the
 * log transport, Cloudflare Email or Resend from the configuration.
 */
export type { MailMessage, MailTransport } from './mail';
export { createMailTransport } from './mail-transport';
