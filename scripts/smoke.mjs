#!/usr/bin/env node
// `npm run smoke`: the README's flow against a real `npm start` (wrangler dev on workerd, local
// D1, log mail transport), as a user would walk it. Prints one line per check and a closing
// "N passed, N failed" line; exits non-zero on any failure. .ci/run runs it after the tests.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';

helpIfAsked(import.meta.url);

const port = Number(process.env.SMOKE_PORT ?? 8795);
const base = `http://127.0.0.1:${port}`;
let log = '';
let passed = 0;
let failed = 0;

function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? ` — ${detail}` : ''}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function codeFromLog(email) {
  const pattern = new RegExp(`verification code for ${email.replace(/[.+]/g, '\\$&')}: (\\d{6})`, 'g');
  for (let i = 0; i < 50; i++) {
    const found = [...log.matchAll(pattern)].at(-1);
    if (found) return found[1];
    await sleep(100);
  }
  return undefined;
}

async function json(res) {
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

const server = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), '--port', String(port)], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stdout.on('data', (chunk) => {
  log += chunk;
});
server.stderr.on('data', (chunk) => {
  log += chunk;
});

try {
  let up = false;
  for (let i = 0; i < 120 && !up; i++) {
    up = await fetch(`${base}/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await sleep(500);
  }
  if (!up) throw new Error(`npm start did not answer on ${base}:\n${log}`);

  const health = await fetch(`${base}/v1/health`);
  const healthBody = await json(health);
  check('GET /v1/health answers healthy', health.status === 200 && healthBody?.status === 'healthy');

  const unknown = await fetch(`${base}/v1/nope`);
  const unknownBody = await json(unknown);
  check(
    'an unknown path is 404 with requestId = X-Request-Id',
    unknown.status === 404 && unknownBody?.requestId === unknown.headers.get('X-Request-Id'),
  );

  const preflight = await fetch(`${base}/v1/merge`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
  });
  check(
    'a preflight answers 204 with CORS headers',
    preflight.status === 204 && preflight.headers.get('Access-Control-Allow-Origin') === '*',
  );

  const email = `smoke.${Date.now()}@example.com`;
  const registered = await fetch(`${base}/v1/auth/register?email=${encodeURIComponent(email)}`);
  check('register answers 200', registered.status === 200, `${registered.status}`);
  const code = await codeFromLog(email);
  check('the code is in the worker log', code !== undefined);

  const verified = await fetch(`${base}/v1/auth/verify?email=${encodeURIComponent(email)}&code=${code}`);
  const key = (await json(verified))?.apiKey;
  check('verify returns a qk_ key', verified.status === 200 && /^qk_[0-9A-Za-z]{43}$/.test(key ?? ''));

  const opened = await fetch(`${base}/v1/merge`, { method: 'POST', headers: { Authorization: `Bearer ${key}` } });
  check('the key opens a protected route', opened.status === 501, `${opened.status}`);

  const wrongKey = await fetch(`${base}/v1/merge`, {
    method: 'POST',
    headers: { Authorization: `Bearer qk_${'x'.repeat(43)}` },
  });
  const wrongBody = await json(wrongKey);
  check(
    'a wrong key gets 401 with the error body',
    wrongKey.status === 401 &&
      wrongBody?.code === 'AUTHENTICATION_ERROR' &&
      typeof wrongBody?.message === 'string' &&
      wrongBody?.requestId === wrongKey.headers.get('X-Request-Id'),
  );

  const victim = `smoke.dead.${Date.now()}@example.com`;
  await fetch(`${base}/v1/auth/register?email=${encodeURIComponent(victim)}`);
  const right = await codeFromLog(victim);
  const wrong = right === '000000' ? '000001' : '000000';
  const wrongStatuses = [];
  for (let i = 0; i < 6; i++) {
    wrongStatuses.push(
      (await fetch(`${base}/v1/auth/verify?email=${encodeURIComponent(victim)}&code=${wrong}`)).status,
    );
  }
  check(
    'six wrong codes are each refused with 400',
    wrongStatuses.every((s) => s === 400),
    wrongStatuses.join(','),
  );
  const late = await fetch(`${base}/v1/auth/verify?email=${encodeURIComponent(victim)}&code=${right}`);
  const lateBody = await json(late);
  check(
    'after them the right code is dead',
    late.status === 400 && /dead/.test(lateBody?.message ?? ''),
    lateBody?.message,
  );

  const minted = spawnSync('npm', ['run', '-s', 'key', '--', `smoke.cli.${Date.now()}@example.com`], {
    cwd: root,
    encoding: 'utf8',
  });
  const mintedKey = minted.stdout.trim().split('\n').at(-1);
  const mintedUse = await fetch(`${base}/v1/merge`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${mintedKey}` },
  });
  check(
    'npm run key prints a working key on its last line',
    minted.status === 0 && mintedUse.status === 501,
    `${minted.status} ${mintedUse.status}`,
  );
} catch (error) {
  check('smoke run', false, String(error instanceof Error ? error.message : error));
} finally {
  server.kill('SIGINT');
}
console.log(`smoke: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
