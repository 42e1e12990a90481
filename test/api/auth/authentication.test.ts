import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES } from '../../../src/api/http/api-key-auth';
import { mintKey, uniqueIdentity, withKey } from '../../helpers/accounts';
import { call, expectError } from '../../helpers/api';

async function expectUnauthorized(res: Response, message: RegExp) {
  const body = await expectError(res, 401, 'AUTHENTICATION_ERROR');
  expect(body.error).toBe('Unauthorized');
  expect(body.message).toMatch(message);
  expect(res.headers.get('WWW-Authenticate')).toBe('Bearer realm="quire"');
}

const merge = (init: RequestInit = {}) => call('/v1/merge', { method: 'POST', ...init });

describe('Bearer authentication', () => {
  it('refuses a request without Authorization', async () => {
    await expectUnauthorized(await merge(), /needs an API key: send Authorization: Bearer/);
  });

  it.each([['Basic dXNlcjpwYXNz'], ['qk_abc'], ['Bearer'], ['Bearer  '], ['Token qk_x']])(
    'refuses the scheme of %j',
    async (header) => {
      await expectUnauthorized(await merge({ headers: { Authorization: header } }), /Bearer scheme/);
    },
  );

  it.each([['Bearer abc'], ['Bearer qk_short'], [`Bearer qk_${'a'.repeat(42)}!`], [`Bearer sk_${'a'.repeat(43)}`]])(
    'refuses the malformed key in %j',
    async (header) => {
      await expectUnauthorized(await merge({ headers: { Authorization: header } }), /malformed/);
    },
  );

  it('refuses a well-formed key nobody issued', async () => {
    await expectUnauthorized(await merge(withKey(`qk_${'A'.repeat(43)}`)), /not known/);
  });

  it('accepts an issued key, with the scheme in any case', async () => {
    const key = await mintKey();
    expect((await merge(withKey(key))).status).toBe(501);
    expect((await merge({ headers: { Authorization: `bearer ${key}` } })).status).toBe(501);
  });

  it('revokes the calling key with DELETE /v1/auth/key, after which it gets 401', async () => {
    const key = await mintKey();
    const other = await mintKey();
    const res = await call('/v1/auth/key', withKey(key, { method: 'DELETE' }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { message: string; revokedAt: string };
    expect(body.message).toMatch(/revoked/);
    expect(new Date(body.revokedAt).toISOString()).toBe(body.revokedAt);
    await expectUnauthorized(await merge(withKey(key)), /revoked at/);
    await expectUnauthorized(await call('/v1/auth/key', withKey(key, { method: 'DELETE' })), /revoked/);
    expect((await merge(withKey(other))).status).toBe(501);
  });

  it('needs a key to revoke a key', async () => {
    await expectUnauthorized(await call('/v1/auth/key', { method: 'DELETE' }), /needs an API key/);
  });

  it('leaves public routes, unknown paths, wrong methods and preflight open', async () => {
    expect((await call('/v1/health')).status).toBe(200);
    expect((await call('/openapi.json')).status).toBe(200);
    expect((await call('/docs')).status).toBe(200);
    await expectError(await call('/v1/unknown'), 404, 'NOT_FOUND');
    await expectError(await call('/v1/merge'), 405, 'METHOD_NOT_ALLOWED');
    expect((await call('/v1/merge', { method: 'OPTIONS' })).status).toBe(204);
  });

  it('protects every operation of the OpenAPI document that is not public', async () => {
    const doc = (await (await call('/openapi.json')).json()) as {
      security: unknown;
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    let protectedCount = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const isPublic = PUBLIC_ROUTES.has(path);
        expect(operation.security?.length === 0, `${method} ${path}`).toBe(isPublic);
        if (isPublic) continue;
        protectedCount++;
        const res = await call(path, { method: method.toUpperCase() });
        await expectError(res, 401, 'AUTHENTICATION_ERROR');
      }
    }
    expect(protectedCount).toBeGreaterThanOrEqual(2);
  });
});

describe('key rows', () => {
  it('record how the key was issued and when it was revoked', async () => {
    const { email } = uniqueIdentity('rows');
    const key = await mintKey(email);
    await call('/v1/auth/key', withKey(key, { method: 'DELETE' }));
    const row = await env.DB.prepare(
      'SELECT k.issued_via, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = ?',
    )
      .bind(email)
      .first();
    expect(row?.issued_via).toBe('cli');
    expect(row?.revoked_at).toEqual(expect.any(String));
  });
});
