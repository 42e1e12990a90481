/**
 * What sending mail means, apart from how (mail-transport.ts picks the transport): the message,
 * the interface every transport implements, and the error they throw when the provider fails.
 */
import { ApiError } from '../../errors';

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

/** What every transport throws when the provider refuses or fails: the caller may simply retry. */
export function mailNotSent(cause: unknown): ApiError {
  return new ApiError('INTERNAL_ERROR', 'The verification email could not be sent; try again in a few minutes.', {
    cause,
  });
}
