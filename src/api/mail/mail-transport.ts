import type { MailTransportName } from '../../config';
import { ApiError } from '../../errors';
import { CloudflareTransport } from './cloudflare-transport';
import { LogTransport } from './log-transport';
import type { MailTransport } from './mail';
import { ResendTransport } from './resend-transport';

export interface MailSettings {
  /** Undefined when MAIL_TRANSPORT is not set: no transport is assumed, least of all `log`. */
  transport: MailTransportName | undefined;
  resendApiKey: string | undefined;
}

export function createMailTransport(settings: MailSettings, emailBinding: SendEmail | undefined): MailTransport {
  switch (settings.transport) {
    case undefined:
      // A deployment from wrangler.toml as committed lands here: its [vars] name no transport, so
      // that codes never go to the log of a deployed worker unless its operator writes `log`.
      throw misconfigured(
        'MAIL_TRANSPORT is not set: set it to cloudflare or resend (docs/deploy.md); log, which writes codes to the worker log, is for local development',
      );
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
