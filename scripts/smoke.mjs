#!/usr/bin/env node
// `npm run smoke`: the README's flow against a real `npm start` (wrangler dev on workerd, local
// D1, log mail transport), as a user would walk it. Prints one line per check and a closing
// "N passed, N failed" line; exits non-zero on any failure. .ci/run runs it after the tests.
//
// `npm run smoke -- --base https://quire.example.com [--key qk_…]`: the same for a deployed
// worker (docs/deploy.md), which it does not start and whose mail it cannot read, so it takes an
// API key instead (--key, else the QUIRE_API_KEY environment variable; `npm run key -- EMAIL
// --remote` mints one). It checks health, /openapi.json and /docs; a convert of a small Markdown
// document made here to PDF; a sign of that PDF and a verify of the signed one (valid, intact,
// cryptographically valid); GET /v1/verify/key; and that errors (no key, a wrong key, an unknown
// path, a convert without a file) have the contract's body (docs/api.md "Errors"). Each request
// counts against the key's rate limit: about ten.
import { spawnSync } from 'node:child_process';
import { errorBodyProblem } from './error-contract.mjs';
import { startLocalServer } from './local-server.mjs';
import { root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';

helpIfAsked(import.meta.url);

const cli = process.argv.slice(2);
const optionValue = (name) => {
  const at = cli.indexOf(name);
  return at >= 0 ? cli[at + 1] : undefined;
};
if (cli.includes('--base')) {
  process.exitCode = await smokeDeployed(optionValue('--base'), optionValue('--key') ?? process.env.QUIRE_API_KEY);
} else {
  await smokeLocal();
}

/** --base: checks the worker at `baseUrl` with `key`; returns the exit code. */
async function smokeDeployed(baseUrl, key) {
  const usage = 'Usage: npm run smoke -- --base https://your-worker.example [--key qk_… | QUIRE_API_KEY=qk_…]';
  if (!baseUrl || !/^https?:\/\//.test(baseUrl)) {
    console.error(`--base needs the worker's URL.\n${usage}`);
    return 2;
  }
  if (!key) {
    console.error(`--base needs an API key: --key qk_… or QUIRE_API_KEY (npm run key -- EMAIL --remote).\n${usage}`);
    return 2;
  }
  const base = baseUrl.replace(/\/+$/, '');
  const auth = { Authorization: `Bearer ${key}` };
  let passed = 0;
  let failed = 0;
  /** Runs one check: `body` returns a problem (a string), or nothing or { note }; a throw is a failure too. */
  const check = async (name, body) => {
    let problem;
    let note;
    try {
      const result = await body();
      if (typeof result === 'string') problem = result;
      else note = result?.note;
    } catch (error) {
      problem = String(error instanceof Error ? (error.cause ?? error.message) : error);
    }
    if (problem) failed++;
    else passed++;
    console.log(`${problem ? 'FAIL' : 'ok  '} ${name}${problem ? ` — ${problem}` : ''}${note ? ` (${note})` : ''}`);
  };
  const text = async (res) => res.text();
  const status = (res, want, body) => `status ${res.status}, expected ${want}: ${String(body).slice(0, 300)}`;
  /** A problem when `res` is not the contract's error with `statusWanted` and `code`. */
  const contractError = async (res, statusWanted, code) => {
    const body = await text(res);
    if (res.status !== statusWanted) return status(res, statusWanted, body);
    const problem = errorBodyProblem(res, body);
    if (problem) return `${problem}: ${body.slice(0, 300)}`;
    if (JSON.parse(body).code !== code) return `code ${JSON.parse(body).code}, expected ${code}`;
  };

  console.log(`smoke: ${base}`);
  await check('GET /v1/health answers healthy', async () => {
    const res = await fetch(`${base}/v1/health`);
    const body = await text(res);
    if (res.status !== 200 || JSON.parse(body).status !== 'healthy') return status(res, 200, body);
    return { note: `version ${JSON.parse(body).version}` };
  });
  await check('GET /openapi.json is an OpenAPI 3.1 document with /v1/convert', async () => {
    const res = await fetch(`${base}/openapi.json`);
    const body = await text(res);
    if (res.status !== 200) return status(res, 200, body);
    const doc = JSON.parse(body);
    if (!String(doc.openapi).startsWith('3.1') || !doc.paths?.['/v1/convert']) return 'not the expected document';
  });
  await check('GET /docs is an HTML page', async () => {
    const res = await fetch(`${base}/docs`);
    const body = await text(res);
    if (res.status !== 200 || !/text\/html/.test(res.headers.get('Content-Type') ?? '')) return status(res, 200, body);
  });

  let pdf;
  await check('POST /v1/convert of a Markdown document made here gives a PDF', async () => {
    const markdown = `# Quire smoke test\n\nMade by scripts/smoke.mjs at ${new Date().toISOString()}.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`;
    const form = new FormData();
    form.append('file', new Blob([markdown], { type: 'text/markdown' }), 'smoke.md');
    const res = await fetch(`${base}/v1/convert?from=md&to=pdf`, { method: 'POST', headers: auth, body: form });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) return status(res, 200, new TextDecoder().decode(bytes));
    if (new TextDecoder().decode(bytes.subarray(0, 5)) !== '%PDF-') return 'the body is not a PDF';
    pdf = bytes;
    return { note: `${bytes.length} bytes, ${res.headers.get('X-Quire-Pages')} page(s)` };
  });

  let signed;
  await check('POST /v1/sign of that PDF gives a signed PDF', async () => {
    if (!pdf) return 'no PDF to sign (the convert failed)';
    const res = await fetch(`${base}/v1/sign`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        document: { base64: Buffer.from(pdf).toString('base64') },
        signer: { name: 'Quire Smoke', email: 'smoke@example.com' },
        auditTrail: [
          { type: 'view', timestamp: new Date(Date.now() - 60_000).toISOString() },
          { type: 'submit', timestamp: new Date().toISOString() },
        ],
      }),
    });
    const body = await text(res);
    if (res.status !== 200) return status(res, 200, body);
    signed = Buffer.from(JSON.parse(body).document.base64, 'base64');
    if (signed.subarray(0, 5).toString('latin1') !== '%PDF-') return 'the signed document is not a PDF';
  });
  await check('POST /v1/verify of the signed PDF: valid, intact, cryptographically valid', async () => {
    if (!signed) return 'no signed PDF (the sign failed)';
    const form = new FormData();
    form.append('file', new Blob([signed], { type: 'application/pdf' }), 'signed.pdf');
    const res = await fetch(`${base}/v1/verify`, { method: 'POST', headers: auth, body: form });
    const body = await text(res);
    if (res.status !== 200) return status(res, 200, body);
    const report = JSON.parse(body);
    const [signature] = report.signatures ?? [];
    if (!report.valid || !signature?.intact || !signature?.cryptographicallyValid) {
      return `not valid: ${body.slice(0, 400)}`;
    }
    return { note: `level ${signature.level}, trusted ${signature.trusted}, revocation ${signature.revocation}` };
  });
  await check('GET /v1/verify/key gives the signing certificate', async () => {
    const res = await fetch(`${base}/v1/verify/key`, { headers: auth });
    const body = await text(res);
    if (res.status !== 200 || !body.includes('CERTIFICATE')) return status(res, 200, body);
  });

  await check('no key: 401 AUTHENTICATION_ERROR with the error body', async () =>
    contractError(await fetch(`${base}/v1/merge`, { method: 'POST' }), 401, 'AUTHENTICATION_ERROR'),
  );
  await check('a wrong key: 401 AUTHENTICATION_ERROR with the error body', async () =>
    contractError(
      await fetch(`${base}/v1/merge`, { method: 'POST', headers: { Authorization: `Bearer qk_${'x'.repeat(43)}` } }),
      401,
      'AUTHENTICATION_ERROR',
    ),
  );
  await check('an unknown path: 404 NOT_FOUND with the error body', async () =>
    contractError(await fetch(`${base}/v1/no-such-path`), 404, 'NOT_FOUND'),
  );
  await check('a convert without a document: 4xx with the error body', async () => {
    const res = await fetch(`${base}/v1/convert?to=pdf`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{}',
    });
    const body = await text(res);
    if (res.status < 400 || res.status >= 500) return status(res, '4xx', body);
    const problem = errorBodyProblem(res, body);
    if (problem) return `${problem}: ${body.slice(0, 300)}`;
  });

  console.log(`smoke: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/** Without --base: starts `npm start` and walks the sign-up flow, reading codes from its log. */
async function smokeLocal() {
  let passed = 0;
  let failed = 0;

  function check(name, ok, detail = '') {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? ` — ${detail}` : ''}`);
  }

  async function json(res) {
    try {
      return await res.json();
    } catch {
      return undefined;
    }
  }

  let server;
  try {
    server = await startLocalServer(Number(process.env.SMOKE_PORT ?? 8795), 'SMOKE_PORT');
    const { base, codeFromLog } = server;

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
    server?.stop();
  }
  console.log(`smoke: ${passed} passed, ${failed} failed`);
  process.exitCode = failed === 0 ? 0 : 1;
}
