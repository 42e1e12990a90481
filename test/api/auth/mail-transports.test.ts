import { env } from 'cloudflare:test';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { verificationEmail } from '../../../src/api/auth/verification-email';
import { createMailTransport } from '../../../src/api/mail/mail-transport';
import { readConfig } from '../../../src/config';
import type { Env } from '../../../src/env';
import { ApiError } from '../../../src/errors';
import wranglerToml from '../../../wrangler.toml?raw';
import { register, uniqueIdentity } from '../../helpers/accounts';
import { expectError } from '../../helpers/api';
import { network } from '../../setup/network';

const message = verificationEmail(
  'Quire <no-reply@quire.dev>',
  'ada@example.com',
  '042917',
  new Date('2026-11-22T10:15:00Z'),
  15,
);

describe('verification email', () => {
  it('says what the code is for and when it expires', () => {
    expect(message.subject).toBe('Your Quire verification code: 042917');
    expect(message.text).toContain('Your Quire verification code is 042917.');
    expect(message.text).toContain('receive a Quire API key');
    expect(message.text).toContain('expires in 15 minutes (at 2026-11-22 10:15 UTC)');
    expect(message.html).toContain('<strong');
    expect(message.logLine).toBe('verification code for ada@example.com: 042917');
  });
});

describe('mail transports', () => {
  it('log: writes "verification code for <email>: <code>" to the worker log', async () => {
    const log = vi.spyOn(console, 'log');
    try {
      await createMailTransport({ transport: 'log', resendApiKey: undefined }, undefined).send(message);
      expect(log).toHaveBeenCalledWith('verification code for ada@example.com: 042917');
    } finally {
      log.mockRestore();
    }
  });

  it('unset: no transport is assumed, not even log; the service says it is misconfigured', () => {
    const settings = readConfig({ ...env, MAIL_TRANSPORT: undefined } as unknown as Env).mail;
    expect(settings.transport).toBeUndefined();
    let thrown: unknown;
    try {
      createMailTransport(settings, env.EMAIL);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).code).toBe('INTERNAL_ERROR');
    // The log names the setting to fix; the caller's answer stays generic.
    expect(String((thrown as Error).cause)).toContain('MAIL_TRANSPORT is not set');
    expect((thrown as Error).message).not.toContain('MAIL_TRANSPORT');
  });

  it('wrangler.toml names no transport, so a deployment from it never writes codes to its log', () => {
    expect(wranglerToml).not.toMatch(/^\s*MAIL_TRANSPORT\s*=/m);
  });

  it('cloudflare: sends through the send_email binding', async () => {
    const transport = createMailTransport({ transport: 'cloudflare', resendApiKey: undefined }, env.EMAIL);
    await expect(transport.send(message)).resolves.toBeUndefined();
  });

  it('cloudflare: without a binding the service says it is misconfigured', () => {
    expect(() => createMailTransport({ transport: 'cloudflare', resendApiKey: undefined }, undefined)).toThrow(
      ApiError,
    );
  });

  it('resend: posts the message with the API key', async () => {
    let seen: { auth: string | null; body: unknown } | undefined;
    network.use(
      http.post('https://api.resend.com/emails', async ({ request }) => {
        seen = { auth: request.headers.get('Authorization'), body: await request.json() };
        return HttpResponse.json({ id: 'x' });
      }),
    );
    await createMailTransport({ transport: 'resend', resendApiKey: 're_abc' }, undefined).send(message);
    expect(seen?.auth).toBe('Bearer re_abc');
    expect(seen?.body).toMatchObject({ from: message.from, to: ['ada@example.com'], subject: message.subject });
  });

  it('resend: a refusal from the provider becomes a 500 that says to retry, without provider details', async () => {
    network.use(
      http.post('https://api.resend.com/emails', () =>
        HttpResponse.json({ message: 'domain not verified: internal-detail' }, { status: 403 }),
      ),
    );
    const { email, ip } = uniqueIdentity();
    const body = await expectError(await register(email, ip), 500, 'INTERNAL_ERROR');
    expect(body.message).toBe('The verification email could not be sent; try again in a few minutes.');
    expect(JSON.stringify(body)).not.toContain('internal-detail');
  });
});
