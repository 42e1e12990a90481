import type { MailMessage } from '../mail';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The email that carries a verification code: what it is for, and until when it works. */
export function verificationEmail(
  from: string,
  to: string,
  code: string,
  expiresAt: Date,
  minutes: number,
): MailMessage {
  const until = `${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const text = [
    `Your Quire verification code is ${code}.`,
    '',
    `Enter it to confirm ${to} and receive a Quire API key. It works once and expires in ${minutes} minutes (at ${until}).`,
    '',
    'If you did not ask for a Quire API key, ignore this email: nothing happens without the code.',
  ].join('\n');
  const html = `<p>Your Quire verification code is <strong style="font-size:1.4em;letter-spacing:.1em">${code}</strong>.</p>
<p>Enter it to confirm ${escapeHtml(to)} and receive a Quire API key. It works once and expires in ${minutes} minutes (at ${until}).</p>
<p>If you did not ask for a Quire API key, ignore this email: nothing happens without the code.</p>`;
  return {
    from,
    to,
    subject: `Your Quire verification code: ${code}`,
    text,
    html,
    logLine: `verification code for ${to}: ${code}`,
  };
}
