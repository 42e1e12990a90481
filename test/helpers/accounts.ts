import { env } from 'cloudflare:test';
import { AccountStore } from '../../src/api/auth/account-store';
import { generateApiKey, hashApiKey } from '../../src/api/auth/api-key';
import { call } from './api';

let counter = 0;

/** A fresh email and client address per call, so rate limits of one test never touch another. */
export function uniqueIdentity(label = 'user') {
  counter++;
  const nonce = `${Date.now().toString(36)}${counter}`;
  return { email: `${label}.${nonce}@example.com`, ip: `203.0.113.${counter % 250}`, nonce };
}

/** Issues a key the way `npm run key` does: the project's own key code, written to the real D1. */
export async function mintKey(email = uniqueIdentity('minted').email): Promise<string> {
  const key = generateApiKey();
  await new AccountStore(env.DB).issueKey(email, await hashApiKey(key), 'cli', new Date().toISOString());
  return key;
}

export function register(email: string, ip: string) {
  return call(`/v1/auth/register?email=${encodeURIComponent(email)}`, { headers: { 'CF-Connecting-IP': ip } });
}

export function verify(email: string, code: string, ip: string) {
  return call(`/v1/auth/verify?email=${encodeURIComponent(email)}&code=${encodeURIComponent(code)}`, {
    headers: { 'CF-Connecting-IP': ip },
  });
}

export function withKey(key: string, init: RequestInit = {}): RequestInit {
  return { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${key}` } };
}

/** A JSON POST with a freshly minted key. */
export async function postJson(path: string, body: unknown): Promise<Response> {
  return call(
    path,
    withKey(await mintKey(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}
