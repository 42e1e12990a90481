// The worker started in process on workerd (wrangler's DevEnv, as `wrangler dev` and startWorker
// use it: Miniflare, local bindings, no network), with a local API key, for scripts that drive it:
// bench and convert-dir.

import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unstable_DevEnv } from 'wrangler';
import { prepareFallbackFonts } from './fallback-fonts.mjs';
import { applyLocalMigrations, ensureDevVars, root } from './local-setup.mjs';

/** A fresh API key in the local D1 (`npm run key`'s script), for `email`. */
export function mintLocalKey(email = 'bench@quire.local') {
  const minted = spawnSync(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', join(root, 'scripts', 'mint-key.mjs'), email],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  const key = minted.stdout.trim().split('\n').at(-1);
  if (minted.status !== 0 || !key?.startsWith('qk_')) throw new Error(`could not mint a local key: ${minted.stderr}`);
  return key;
}

/** Pids of the workerd processes below this Node process (Linux /proc). */
function workerdPids() {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), { ppid, name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
    } catch {}
  }
  const out = [];
  const queue = [process.pid];
  while (queue.length) {
    const parent = queue.shift();
    for (const [pid, info] of parents) {
      if (info.ppid !== parent) continue;
      queue.push(pid);
      if (info.name.startsWith('workerd')) out.push(pid);
    }
  }
  return out;
}

/**
 * CPU seconds (user + system) the workerd processes below this Node process have used (Linux
 * /proc; null elsewhere): unlike wall time, not inflated by other processes on a loaded machine.
 */
export function workerdCpuSeconds() {
  try {
    let ticks = 0;
    for (const pid of workerdPids()) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
    }
    return ticks / 100; // USER_HZ, 100 on Linux
  } catch {
    return null;
  }
}

/**
 * CPU seconds the main threads of the workerd processes below this Node process have used (Linux
 * /proc; null elsewhere): the thread JavaScript runs on, so what a conversion costs the isolate,
 * without V8's background compiler and garbage-collector threads, which run beside it on another core.
 */
export function workerdMainThreadCpuSeconds() {
  try {
    let ticks = 0;
    for (const pid of workerdPids()) {
      const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / 100;
  } catch {
    return null;
  }
}

/** Resident memory of the workerd processes below this Node process (Linux /proc; null elsewhere). */
export function workerdRssMiB() {
  try {
    let kib = 0;
    for (const pid of workerdPids()) {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    }
    return kib ? kib / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * `vars`: extra plain-text vars for this run only (e.g. { TRUSTED_ROOTS: pem }), over those of
 * wrangler.toml and .dev.vars; without it, the worker runs with its usual configuration.
 */
export async function startQuire({ vars = {} } = {}) {
  await ensureDevVars();
  prepareFallbackFonts();
  applyLocalMigrations();
  let key = mintLocalKey();
  const devEnv = new unstable_DevEnv();
  // Requests go straight to Miniflare's socket for the worker, not through wrangler's proxy
  // worker (a Durable Object that queues requests across hot reloads, which a script does not
  // need): the proxy added about 4 ms and one more hop for every body to each request, which
  // the bench would count as conversion time. The runtime's reload event says where that socket
  // is and which header Miniflare wants from a caller other than the proxy.
  const reloaded = once(devEnv, 'reloadComplete');
  const worker = await devEnv.startWorker({
    config: join(root, 'wrangler.toml'),
    bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: 'plain_text', value }])),
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, logLevel: 'error' },
  });
  await worker.ready;
  const [{ proxyData }] = await reloaded;
  const { protocol, hostname, port } = proxyData.userWorkerUrl;
  const origin = `${protocol}//${hostname}:${port}`;
  const proxyHeaders = proxyData.headers ?? {};
  return {
    get key() {
      return key;
    },
    /** Switches to a fresh key: the per-key rate limit (120/min) would refuse a second pass. */
    renewKey() {
      key = mintLocalKey();
    },
    fetch: (path, init = {}) =>
      fetch(`${origin}${path}`, {
        ...init,
        headers: { ...proxyHeaders, ...(init.headers ?? {}), Authorization: `Bearer ${key}` },
      }),
    dispose: () => worker.dispose(),
  };
}

/** Every .docx under `dir`, as { path, category, name }; category is the first folder level. */
export function docxFiles(dir) {
  return sourceFiles(dir, ['docx']);
}

/**
 * Every file under `dir` whose extension is one of `extensions`, as { path, category, name,
 * extension }; category is the first folder level.
 */
export function sourceFiles(dir, extensions) {
  const out = [];
  const walk = (current, category) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      const dot = entry.name.lastIndexOf('.');
      const extension = dot > 0 ? entry.name.slice(dot + 1).toLowerCase() : '';
      if (entry.isDirectory()) walk(path, category ?? entry.name);
      else if (extensions.includes(extension)) {
        out.push({ path, category: category ?? '', name: entry.name.slice(0, dot), extension });
      }
    }
  };
  walk(dir, undefined);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

export async function convertFile(quire, file, to = 'pdf') {
  const from = file.extension ?? 'docx';
  const form = new FormData();
  form.append('file', new Blob([readFileSync(file.path)]), `${file.name}.${from}`);
  // Encode the multipart body here: startWorker's fetch does not serialise FormData.
  const encoded = new Response(form);
  const body = await encoded.arrayBuffer();
  const headers = { 'Content-Type': encoded.headers.get('Content-Type') ?? '' };
  const started = performance.now();
  // A corpus of more than 120 documents passes the per-key rate limit within a minute.
  const res = await fetchRetrying(quire, `/v1/convert?from=${from}&to=${to}`, { method: 'POST', body, headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - started;
  return {
    status: res.status,
    ms,
    pages: Number(res.headers.get('X-Quire-Pages') ?? 0),
    warnings: Number(res.headers.get('X-Quire-Warning-Count') ?? 0),
    body: bytes,
  };
}

/** Median round trip of a request the worker answers at once: what the harness adds to every conversion. */
export async function emptyRoundTripMs(quire) {
  const times = [];
  for (let i = 0; i < 60; i++) {
    const t0 = performance.now();
    const res = await quire.fetch('/v1/health');
    await res.arrayBuffer();
    if (i >= 10) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

/** A request again with a fresh key when the per-key rate limit (429) answers, up to 3 times. */
export async function fetchRetrying(quire, path, init) {
  for (let attempt = 0; ; attempt++) {
    const res = await quire.fetch(path, init);
    if (res.status !== 429 || attempt >= 3) return res;
    await res.arrayBuffer();
    quire.renewKey();
  }
}

/** POST /v1/sign of `bytes` with `body` (signer, auditTrail, options); the signed PDF, or an error. */
export async function signWithQuire(quire, bytes, body) {
  const res = await fetchRetrying(quire, '/v1/sign', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ document: { base64: Buffer.from(bytes).toString('base64') }, ...body }),
  });
  const answer = await res.json();
  if (res.status !== 200) throw new Error(`/v1/sign answered ${res.status}: ${JSON.stringify(answer)}`);
  return new Uint8Array(Buffer.from(answer.document.base64, 'base64'));
}
