#!/usr/bin/env node
// `npm run bench`: starts the worker on workerd (as `npm start` does), drives it over loopback and
// prints latency, throughput and workerd's resident memory per scenario. Figures, not assertions:
// quote them in issue notes before and after a change.
//
// Timing is taken outside the isolate on purpose: workerd freezes its clocks while JavaScript runs
// (a Spectre mitigation), so in-isolate timers cannot measure CPU-bound work.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarios } from './bench-scenarios.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.BENCH_PORT ?? 8790);
const base = `http://127.0.0.1:${port}`;
const only = process.argv[2];

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitUntilUp(deadlineMs) {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    try {
      const res = await fetch(`${base}/v1/health`);
      if (res.ok) return;
    } catch {}
    await sleep(200);
  }
  throw new Error(`the worker did not answer on ${base} within ${deadlineMs} ms`);
}

/** Resident memory of the workerd processes under `pid` (Linux /proc; null elsewhere). */
function workerdRssMiB(pid) {
  try {
    const children = new Map();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        children.set(Number(entry), { ppid, name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
      } catch {}
    }
    const descendants = [];
    const queue = [pid];
    while (queue.length) {
      const parent = queue.shift();
      for (const [child, info] of children) {
        if (info.ppid !== parent) continue;
        descendants.push(child);
        queue.push(child);
      }
    }
    let kib = 0;
    for (const child of descendants) {
      if (!children.get(child).name.startsWith('workerd')) continue;
      const status = readFileSync(`/proc/${child}/status`, 'utf8');
      kib += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    }
    return kib ? kib / 1024 : null;
  } catch {
    return null;
  }
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function run(scenario) {
  const { name, request, iterations = 200, warmup = 20 } = scenario;
  const send = async () => {
    const res = await fetch(`${base}${request.path}`, request.init?.());
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== scenario.expectStatus)
      throw new Error(`${name}: expected ${scenario.expectStatus}, got ${res.status}`);
    return body.length;
  };
  for (let i = 0; i < warmup; i++) await send();
  const times = [];
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    bytes += await send();
    times.push(performance.now() - t0);
  }
  const elapsed = performance.now() - started;
  times.sort((a, b) => a - b);
  return {
    name,
    iterations,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    perSecond: (iterations / elapsed) * 1000,
    bytesOut: bytes / iterations,
  };
}

const server = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), '--port', String(port)], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, WRANGLER_LOG: 'error' },
});
let exitCode = 0;
try {
  await waitUntilUp(60_000);
  console.log(`quire bench on workerd (${base}), node ${process.version}`);
  console.log(
    'scenario'.padEnd(44),
    'n'.padStart(5),
    'p50 ms'.padStart(8),
    'p95 ms'.padStart(8),
    'req/s'.padStart(8),
    'rss MiB'.padStart(8),
  );
  for (const scenario of scenarios) {
    if (only && !scenario.name.includes(only)) continue;
    const r = await run(scenario);
    const rss = workerdRssMiB(server.pid);
    console.log(
      r.name.padEnd(44),
      String(r.iterations).padStart(5),
      r.p50.toFixed(2).padStart(8),
      r.p95.toFixed(2).padStart(8),
      r.perSecond.toFixed(0).padStart(8),
      (rss === null ? 'n/a' : rss.toFixed(0)).padStart(8),
    );
  }
} catch (error) {
  console.error(String(error));
  exitCode = 1;
} finally {
  server.kill('SIGINT');
}
process.exitCode = exitCode;
