import { type MailMessage, type MailTransport, mailNotSent } from './mail';

/**
 * Cloudflare Email Service through a `send_email` binding: the binding takes a composed message
 * (from, to, subject, text, html), so no MIME is built here.
 */
export class CloudflareTransport implements MailTransport {
  private readonly binding: SendEmail;

  constructor(binding: SendEmail) {
    this.binding = binding;
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.binding.send({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    } catch (error) {
      throw mailNotSent(error);
    }
  }
}
