import { HttpResponse, http } from 'msw';
import { network } from '../setup/network';

export interface SentMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  authorization: string | null;
}

/**
 * Answers the mail API (Resend, as configured for tests) and keeps what was sent, so a test reads
 * the code the way a user would: from the email.
 */
export function openMailbox() {
  const sent: SentMail[] = [];
  network.use(
    http.post('https://api.resend.com/emails', async ({ request }) => {
      const body = (await request.json()) as Omit<SentMail, 'authorization'>;
      sent.push({ ...body, authorization: request.headers.get('Authorization') });
      return HttpResponse.json({ id: `email-${sent.length}` });
    }),
  );
  return {
    sent,
    /** The code of the latest email to `email`. */
    codeFor(email: string): string {
      const mail = sent.filter((m) => m.to.includes(email)).at(-1);
      const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no code was mailed to ${email}`);
      return code;
    },
  };
}
