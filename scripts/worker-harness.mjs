// The worker started in process on workerd (wrangler's DevEnv, as `wrangler dev` and startWorker
// use it: Miniflare, local bindings, no network), with a local API key, for scripts that drive it:
// bench, convert-dir and the fuzz runs. Its per-key rate limit is lifted (startQuire): a script
// over a folder of a thousand documents is one caller, not a flood.

import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { unstable_DevEnv } from 'wrangler';
import { errorBodyProblem } from './error-contract.mjs';
import { prepareFallbackFonts } from './fallback-fonts.mjs';
import { applyLocalMigrations, ensureDevVars, root, useLocalWranglerEnv } from './local-setup.mjs';

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
 * The OpenAPI document as the worker serves it (GET /openapi.json, text), from a worker started
 * for this alone without the database or a key: what the lint checks and the client is made from.
 */
export async function servedOpenApi() {
  const quire = await startQuire({ withKey: false });
  try {
    const res = await quire.fetch('/openapi.json');
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}: ${text.slice(0, 300)}`);
    return text;
  } finally {
    await quire.dispose();
  }
}

/**
 * The per-key limit of the scripts' worker: wrangler.toml's KEY_RATE_LIMITER (120 a minute, as in
 * production and under `npm start`) made so large that no local run reaches it. The binding is
 * still asked on every request, as in production, so a timing includes it.
 */
export const UNTHROTTLED_PER_MINUTE = 1_000_000_000;

/** wrangler.toml's [[ratelimits]] entry `name`, as a startWorker binding with `limit`. */
function rateLimitBinding(name, limit) {
  const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
  const block = toml.split('[[ratelimits]]').find((part) => part.includes(`name = "${name}"`));
  const namespace = block && /namespace_id\s*=\s*"([^"]+)"/.exec(block)?.[1];
  const period = Number((block && /period\s*=\s*(\d+)/.exec(block)?.[1]) ?? 60);
  if (!namespace) throw new Error(`wrangler.toml has no [[ratelimits]] named ${name}`);
  return { type: 'ratelimit', namespace_id: namespace, simple: { limit, period } };
}

/**
 * `vars`: extra plain-text vars for this run only (e.g. { TRUSTED_ROOTS: pem }), over those of
 * wrangler.toml and .dev.vars; without it, the worker runs with its usual configuration, except
 * that the per-key rate limit is lifted (UNTHROTTLED_PER_MINUTE) unless `productionRateLimits`:
 * a run of the scripts is one local caller. The auth endpoints' limits (per address, per email)
 * stay as configured either way.
 * `withKey: false` skips the local D1's migrations and the key (two wrangler runs, seconds each),
 * for a script that asks only public routes (the OpenAPI lint and the client generator reading
 * /openapi.json); its requests then carry no Authorization.
 */
export async function startQuire({ vars = {}, productionRateLimits = false, withKey = true } = {}) {
  useLocalWranglerEnv();
  await ensureDevVars();
  prepareFallbackFonts();
  if (withKey) applyLocalMigrations();
  let key = withKey ? mintLocalKey() : undefined;
  const devEnv = new unstable_DevEnv();
  // Requests go straight to Miniflare's socket for the worker, not through wrangler's proxy
  // worker (a Durable Object that queues requests across hot reloads, which a script does not
  // need): the proxy added about 4 ms and one more hop for every body to each request, which
  // the bench would count as conversion time. The runtime's reload event says where that socket
  // is and which header Miniflare wants from a caller other than the proxy.
  const reloaded = once(devEnv, 'reloadComplete');
  const unthrottled = productionRateLimits
    ? {}
    : {
        KEY_RATE_LIMITER: rateLimitBinding('KEY_RATE_LIMITER', UNTHROTTLED_PER_MINUTE),
        // The error message's figure, which wrangler.toml keeps equal to the binding's limit.
        RATE_LIMIT_PER_MINUTE: { type: 'plain_text', value: String(UNTHROTTLED_PER_MINUTE) },
      };
  const worker = await devEnv.startWorker({
    config: join(root, 'wrangler.toml'),
    bindings: {
      ...unthrottled,
      ...Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: 'plain_text', value }])),
    },
    // No reload when a source file changes: a run measures the code it started with, and a
    // reload drops the requests in flight (seen as connection resets while others edit src/).
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, logLevel: 'error', watch: false },
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
    /** Switches to a fresh key: with `productionRateLimits`, the per-key limit (120/min) would refuse a second pass. */
    renewKey() {
      key = mintLocalKey();
    },
    // An Authorization the caller sets wins: the load run spreads its requests over a pool of keys.
    fetch: async (path, init = {}) => {
      const request = () =>
        fetch(`${origin}${path}`, {
          ...init,
          headers: { ...proxyHeaders, ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(init.headers ?? {}) },
        });
      try {
        return await request();
      } catch (error) {
        // A kept-alive connection the local server closed while idle (undici reuses it and reads
        // "other side closed") is the connection's fault, not the request's: once more, on a new one.
        // A worker that really fails fails the second time too.
        if (error?.cause?.code !== 'UND_ERR_SOCKET' || init.signal?.aborted) throw error;
        return request();
      }
    },
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

/** A multipart/form-data body whose part `file` holds `bytes`, as /v1/convert takes it. */
export async function multipartFile(bytes, name) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  // Encoded here: startWorker's fetch does not serialise FormData.
  const encoded = new Response(form);
  return { body: await encoded.arrayBuffer(), headers: { 'Content-Type': encoded.headers.get('Content-Type') ?? '' } };
}

export async function convertFile(quire, file, to = 'pdf') {
  const from = file.extension ?? 'docx';
  const { body, headers } = await multipartFile(readFileSync(file.path), `${file.name}.${from}`);
  const started = performance.now();
  // With productionRateLimits, a corpus of more than 120 documents passes the per-key limit in a minute.
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

// ---------------------------------------------------------------------------------------------
// The fuzz runs (verify-fuzz, convert-fuzz): the options they share, one request per variant,
// the worker restarted after a hang, and the summary they print.

/** `--name value` from the command line, or `fallback`. */
export function commandOption(args, name, fallback) {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
}

/**
 * The options every fuzz takes: --seed (random and printed when absent), --count, --only I[,J…],
 * --timeout ms (a hang), and where variants are saved (`saveFlag`, default a folder under the
 * system's temp; never inside the repository, which holds no corpus-derived bytes).
 */
export function fuzzOptions(args, { label, saveFlag }) {
  const seed = Number(commandOption(args, '--seed', String(Math.floor(Math.random() * 2 ** 31)))) >>> 0;
  const only = commandOption(args, '--only', undefined)
    ?.split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 0);
  const save = resolve(commandOption(args, saveFlag, join(tmpdir(), `quire-${label}`)));
  if (`${save}/`.startsWith(`${root}/`))
    throw new Error(`${saveFlag} ${save}: variants are saved outside the repository`);
  return {
    seed,
    count: Number(commandOption(args, '--count', '2000')),
    only,
    timeoutMs: Number(commandOption(args, '--timeout', '20000')),
    save,
  };
}

/**
 * One request of a fuzz: its status (or 'hang' past `timeoutMs`, 'fetch-error' when the
 * connection failed), time, body (as text unless it is the 200's document) and a contract problem:
 * a status outside `expect` (when given), an error body unlike docs/api.md's or one `checkError`
 * finds wrong, or what `check` finds in a 200 (both may be async, and may ask the worker more).
 * A 429 from the per-key rate limit is sent again with a fresh key.
 */
async function fuzzRequest(quire, request, timeoutMs, { check, checkError, expect }) {
  for (let attempt = 0; ; attempt++) {
    const started = performance.now();
    try {
      const res = await quire.fetch(request.path, { ...request.init, signal: AbortSignal.timeout(timeoutMs) });
      const bytes = new Uint8Array(await res.arrayBuffer());
      const ms = performance.now() - started;
      if (res.status === 429 && attempt < 3) {
        quire.renewKey();
        continue;
      }
      const text = res.status === 200 ? '' : new TextDecoder().decode(bytes);
      const problem =
        expect && !expect.includes(res.status)
          ? `status ${res.status}, expected ${expect.join(' or ')}`
          : res.status >= 400
            ? (errorBodyProblem(res, text) ?? (await checkError?.(res, JSON.parse(text))))
            : await check?.(res, bytes);
      return { status: res.status, ms, text, problem };
    } catch (error) {
      const ms = performance.now() - started;
      if (error?.name === 'TimeoutError' || error?.name === 'AbortError') return { status: 'hang', ms, text: '' };
      return { status: 'fetch-error', ms, text: String(error?.cause ?? error) };
    }
  }
}

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0;

/**
 * Runs a fuzz against a worker started here: `makeVariant(index)` gives { bytes, base, mutation },
 * and optionally `expect`, the statuses the contract allows for it; `requestFor(variant)` the
 * { path, init } to send (or a promise of it); `check(res, bytes, { variant, quire })` a problem
 * with a 200, or undefined (or a promise of either); `checkError(res, body, { variant, quire })`
 * the same for a 4xx or 5xx whose body (parsed) has the contract's shape. A 5xx, a hang, a failed
 * connection or an answer outside the contract is a failure: printed with its index and
 * mutation, and its variant saved to `options.save` (with --only, every variant is). After a hang or a failed connection the worker is started again, so one
 * wedged isolate does not fail the rest. Prints the summary line; returns the failures' count.
 */
export async function runFuzz({
  label,
  options,
  extension,
  prepare,
  makeVariant,
  requestFor,
  check,
  checkError,
  startOptions,
}) {
  const { seed, count, only, timeoutMs, save } = options;
  console.log(`${label} seed ${seed} (repeat with --seed ${seed}${only ? ` --only ${only.join(',')}` : ''})`);
  let quire = await startQuire(startOptions);
  const counts = new Map();
  const timed = [];
  const failures = [];
  let rssPeak = 0;
  const saveVariant = (variant) => {
    mkdirSync(save, { recursive: true });
    const file = join(save, `seed-${seed}-variant-${variant.index}.${extension}`);
    writeFileSync(file, variant.bytes);
    return file;
  };
  try {
    await prepare?.(quire);
    const indices = only ?? Array.from({ length: count }, (_, i) => i);
    for (const index of indices) {
      const variant = makeVariant(index);
      const result = await fuzzRequest(quire, await requestFor(variant), timeoutMs, {
        check: check && ((res, bytes) => check(res, bytes, { variant, quire })),
        checkError: checkError && ((res, body) => checkError(res, body, { variant, quire })),
        expect: variant.expect,
      });
      rssPeak = Math.max(rssPeak, workerdRssMiB() ?? 0);
      counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
      timed.push({ ms: result.ms, index, status: result.status, base: variant.base, mutation: variant.mutation });
      const bad =
        result.status === 'hang' || result.status === 'fetch-error' || result.status >= 500 || Boolean(result.problem);
      if (only || bad) {
        console.log(
          `variant ${index}  base ${variant.base}  ${variant.bytes.length} B  ${result.status}  ${result.ms.toFixed(0)} ms  ${variant.mutation}`,
        );
        console.log(`  body: ${result.text.slice(0, 600)}${result.problem ? `\n  contract: ${result.problem}` : ''}`);
        const file = saveVariant(variant);
        console.log(`  saved ${file}`);
        if (bad) failures.push({ ...variant, ...result, file });
      }
      if (typeof result.status !== 'number') {
        // The isolate may still be busy with it: a fresh worker for the rest.
        await quire.dispose().catch(() => {});
        quire = await startQuire(startOptions);
      }
      if (!only && timed.length % 250 === 0) console.log(`… ${timed.length}/${indices.length}`);
    }
  } finally {
    await quire.dispose();
  }

  const sorted = timed.map((t) => t.ms).sort((a, b) => a - b);
  const numeric = [...counts.keys()].filter((k) => typeof k === 'number').sort((a, b) => a - b);
  const fiveXX = numeric.filter((s) => s >= 500).reduce((sum, s) => sum + counts.get(s), 0);
  const hangs = counts.get('hang') ?? 0;
  const fetchErrors = counts.get('fetch-error') ?? 0;
  const outsideContract = failures.filter((f) => typeof f.status === 'number' && f.status < 500).length;
  if (failures.length) {
    console.log(
      `\n5xx / hangs / answers outside the contract (${failures.length}), reproduce with --seed ${seed} --only N:`,
    );
    for (const f of failures) {
      console.log(
        `  --only ${f.index}  ${f.status}  base ${f.base}  ${f.mutation}\n    ${f.problem ?? f.text.slice(0, 300)}\n    ${f.file}`,
      );
    }
  }
  console.log('\nslowest:');
  for (const t of [...timed].sort((a, b) => b.ms - a.ms).slice(0, 5)) {
    console.log(`  ${t.ms.toFixed(0)} ms  --only ${t.index}  ${t.status}  base ${t.base}  ${t.mutation.slice(0, 200)}`);
  }
  console.log(
    `\nseed ${seed}  p50 ${percentile(sorted, 0.5).toFixed(0)} ms  p95 ${percentile(sorted, 0.95).toFixed(0)} ms  max ${(sorted.at(-1) ?? 0).toFixed(0)} ms  workerd RSS peak ${rssPeak.toFixed(0)} MiB`,
  );
  const statusText = numeric
    .filter((s) => s < 500)
    .map((s) => `${s}: ${counts.get(s)}`)
    .join('  ');
  console.log(
    `variants ${timed.length}  ${statusText}  5xx: ${fiveXX}  hangs: ${hangs}${fetchErrors ? `  fetch errors: ${fetchErrors}` : ''}${outsideContract ? `  outside the contract: ${outsideContract}` : ''}  max ${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
  );
  return failures.length;
}
