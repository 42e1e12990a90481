import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../src/api/auth/api-key';
import { register, uniqueIdentity, verify, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';
import { openMailbox } from '../../helpers/mailbox';

const REGISTERED = { message: 'Check your email for a verification code.', expiresInSeconds: 900 };

async function registerAndReadCode(email: string, ip: string, mailbox: ReturnType<typeof openMailbox>) {
  const res = await register(email, ip);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual(REGISTERED);
  return mailbox.codeFor(email);
}

describe('register and verify', () => {
  it('mails a code, exchanges it for a qk_ key, and the key opens a protected route', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity();
    const res0 = await register(`  ${email.toUpperCase()} `, ip);
    expect(res0.status).toBe(200);
    expect(await res0.json()).toEqual(REGISTERED);
    const code = mailbox.codeFor(email);

    const mail = mailbox.sent.at(-1);
    expect(mail?.to).toEqual([email]); // trimmed and lower-cased
    expect(mail?.authorization).toBe('Bearer re_test_key');
    expect(mail?.subject).toContain(code);
    expect(mail?.text).toMatch(/Quire API key/);
    expect(mail?.text).toMatch(/expires in 15 minutes \(at \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/);

    const res = await verify(email, code, ip);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { apiKey: string; email: string; createdAt: string };
    expect(body.apiKey).toMatch(/^qk_[0-9A-Za-z]{43}$/);
    expect(body.email).toBe(email);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);

    const merge = await call('/v1/merge', withKey(body.apiKey, { method: 'POST' }));
    await expectError(merge, 501, 'NOT_IMPLEMENTED');
  });

  it('keeps keys and codes out of the database in clear', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity();
    const code = await registerAndReadCode(email, ip, mailbox);
    const codeRow = await env.DB.prepare('SELECT * FROM verification_codes WHERE email = ?').bind(email).first();
    expect(JSON.stringify(codeRow)).not.toContain(code);
    expect(codeRow?.code_hmac).toMatch(/^[0-9a-f]{64}$/);

    const { apiKey } = (await (await verify(email, code, ip)).json()) as { apiKey: string };
    const keyRows = await env.DB.prepare(
      'SELECT k.* FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = ?',
    )
      .bind(email)
      .all();
    expect(keyRows.results).toHaveLength(1);
    expect(keyRows.results[0]?.key_hash).toBe(await hashApiKey(apiKey));
    const everything = await env.DB.batch([
      env.DB.prepare('SELECT * FROM accounts'),
      env.DB.prepare('SELECT * FROM api_keys'),
      env.DB.prepare('SELECT * FROM verification_codes'),
    ]);
    const dump = JSON.stringify(everything.map((r) => r.results));
    expect(dump).not.toContain(apiKey);
    expect(dump).not.toContain(apiKey.slice(3));
  });

  it('answers register the same for a new and a known email', async () => {
    const mailbox = openMailbox();
    const known = uniqueIdentity('known');
    const code = await registerAndReadCode(known.email, known.ip, mailbox);
    expect((await verify(known.email, code, known.ip)).status).toBe(200);

    const again = await register(known.email, known.ip);
    const fresh = uniqueIdentity('fresh');
    const first = await register(fresh.email, fresh.ip);
    expect(again.status).toBe(first.status);
    expect(await again.text()).toBe(await first.text());
    expect([...again.headers.keys()].sort()).toEqual([...first.headers.keys()].sort());
  });

  it('uses a code once', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity();
    const code = await registerAndReadCode(email, ip, mailbox);
    expect((await verify(email, code, ip)).status).toBe(200);
    const reused = await expectError(await verify(email, code, ip), 400, 'VALIDATION_ERROR');
    expect(reused.message).toMatch(/No verification code is pending/);
  });

  it('issues a new key on each registration and leaves older keys valid', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity();
    const first = (await (await verify(email, await registerAndReadCode(email, ip, mailbox), ip)).json()) as {
      apiKey: string;
    };
    const second = (await (await verify(email, await registerAndReadCode(email, ip, mailbox), ip)).json()) as {
      apiKey: string;
    };
    expect(second.apiKey).not.toBe(first.apiKey);
    for (const key of [first.apiKey, second.apiKey]) {
      expect((await call('/v1/merge', withKey(key, { method: 'POST' }))).status).toBe(501);
    }
    const accounts = await env.DB.prepare('SELECT COUNT(*) AS n FROM accounts WHERE email = ?').bind(email).first();
    expect(accounts?.n).toBe(1);
  });
});

describe('wrong, expired, replaced and killed codes', () => {
  it('says a wrong code is wrong and how many tries are left', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity();
    const code = await registerAndReadCode(email, ip, mailbox);
    const wrong = code === '000000' ? '111111' : '000000';
    const body = await expectError(await verify(email, wrong, ip), 400, 'VALIDATION_ERROR');
    expect(body.message).toBe('The code is wrong; 4 tries left.');
    expect(body.details).toEqual([{ field: 'code', issue: 'The code is wrong; 4 tries left.' }]);
    expect((await verify(email, code, ip)).status).toBe(200);
  });

  it('kills a code after 5 wrong tries: six wrong codes leave the right code dead', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity();
    const code = await registerAndReadCode(email, ip, mailbox);
    const wrong = code === '999999' ? '888888' : '999999';
    const messages: string[] = [];
    for (let i = 0; i < 6; i++)
      messages.push((await expectError(await verify(email, wrong, ip), 400, 'VALIDATION_ERROR')).message);
    expect(messages[3]).toBe('The code is wrong; 1 try left.');
    expect(messages[4]).toMatch(/^The code is wrong, and after 5 wrong tries it is dead/);
    expect(messages[5]).toMatch(/^This code is dead after 5 wrong tries/);
    const right = await expectError(await verify(email, code, ip), 400, 'VALIDATION_ERROR');
    expect(right.message).toMatch(/^This code is dead after 5 wrong tries; request a new one/);
  });

  it('refuses an expired code and says so', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity();
    const code = await registerAndReadCode(email, ip, mailbox);
    const row = await env.DB.prepare('SELECT expires_at FROM verification_codes WHERE email = ?').bind(email).first();
    expect(Number(row?.expires_at) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    expect(Number(row?.expires_at) - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);
    // Fifteen minutes pass.
    await env.DB.prepare('UPDATE verification_codes SET expires_at = ? WHERE email = ?')
      .bind(Date.now() - 1, email)
      .run();
    const body = await expectError(await verify(email, code, ip), 400, 'VALIDATION_ERROR');
    expect(body.message).toMatch(/^This code has expired/);
  });

  it('replaces the previous code when a new one is requested', async () => {
    const mailbox = openMailbox();
    const { email, ip } = uniqueIdentity();
    const first = await registerAndReadCode(email, ip, mailbox);
    let second = await registerAndReadCode(email, ip, mailbox);
    while (second === first) second = await registerAndReadCode(email, ip, mailbox);
    const old = await expectError(await verify(email, first, ip), 400, 'VALIDATION_ERROR');
    expect(old.message).toMatch(/wrong/);
    expect((await verify(email, second, ip)).status).toBe(200);
  });
});

describe('malformed input', () => {
  it.each([['not-an-email'], ['a@'], ['@example.com'], [''], [`${'x'.repeat(250)}@example.com`]])(
    'refuses the email %j with 400',
    async (email) => {
      const { ip } = uniqueIdentity();
      const body = await expectError(await register(email, ip), 400, 'VALIDATION_ERROR');
      expect(body.details?.[0]?.field).toBe('email');
    },
  );

  it('refuses a missing email with 400', async () => {
    const body = await expectError(await call('/v1/auth/register'), 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual([{ field: 'email', issue: 'Required (expected string)' }]);
  });

  it.each([['12345'], ['1234567'], ['abcdef'], ['12 456'], ['']])('refuses the code %j with 400', async (code) => {
    const { email, ip } = uniqueIdentity();
    const body = await expectError(await verify(email, code, ip), 400, 'VALIDATION_ERROR');
    expect(body.details?.[0]).toEqual({ field: 'code', issue: 'The code is the 6 digits from the email' });
  });

  it('says when no code was ever requested', async () => {
    const { email, ip } = uniqueIdentity();
    const body = await expectError(await verify(email, '123456', ip), 400, 'VALIDATION_ERROR');
    expect(body.message).toMatch(/No verification code is pending/);
  });
});
