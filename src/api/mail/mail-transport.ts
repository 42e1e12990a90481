import type { MailTransportName } from '../../config';
import { ApiError } from '../../errors';
import { CloudflareTransport } from './cloudflare-transport';
import { LogTransport } from './log-transport';
import { ResendTransport } from './resend-transport';

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** One line for the log transport, e.g. "verification code for a@b.co: 123456". */
  logLine: string;
}

/** One interface for every way of sending mail; MAIL_TRANSPORT picks the implementation. */
export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

export interface MailSettings {
  transport: MailTransportName;
  resendApiKey: string | undefined;
}

export function createMailTransport(settings: MailSettings, emailBinding: SendEmail | undefined): MailTransport {
  switch (settings.transport) {
    case 'log':
      return new LogTransport();
    case 'cloudflare':
      if (!emailBinding) throw misconfigured('MAIL_TRANSPORT=cloudflare needs a send_email binding named EMAIL');
      return new CloudflareTransport(emailBinding);
    case 'resend':
      if (!settings.resendApiKey) throw misconfigured('MAIL_TRANSPORT=resend needs the RESEND_API_KEY secret');
      return new ResendTransport(settings.resendApiKey);
  }
}

function misconfigured(detail: string): ApiError {
  return new ApiError('INTERNAL_ERROR', 'Verification emails cannot be sent: the service is misconfigured.', {
    cause: new Error(detail),
  });
}

/** What every transport throws when the provider refuses or fails: the caller may simply retry. */
export function mailNotSent(cause: unknown): ApiError {
  return new ApiError('INTERNAL_ERROR', 'The verification email could not be sent; try again in a few minutes.', {
    cause,
  });
}
