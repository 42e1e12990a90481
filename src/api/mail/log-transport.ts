import type { MailMessage, MailTransport } from './mail';

/**
 * The local default: the message's log line goes to the worker log (wrangler dev prints it), so a
 * developer can register without a mail provider. Never use it in production: codes in logs are
 * readable by anyone with log access.
 */
export class LogTransport implements MailTransport {
  async send(message: MailMessage): Promise<void> {
    console.log(message.logLine);
  }
}
