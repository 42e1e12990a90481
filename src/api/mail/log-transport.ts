import type { MailMessage, MailTransport } from './mail';

/**
 * For local development (`npm start` writes MAIL_TRANSPORT=log into .dev.vars): the message's log
 * line goes to the worker log (wrangler dev prints it), so a developer can register without a mail
 * provider. Never use it in production: codes in logs are readable by anyone with log access, and
 * so is every account. It is never a default: an unset MAIL_TRANSPORT sends nothing.
 */
export class LogTransport implements MailTransport {
  async send(message: MailMessage): Promise<void> {
    console.log(message.logLine);
  }
}
