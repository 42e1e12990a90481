#!/usr/bin/env node
// `npm run bench [-- DIR [--passes N]]`: runs the worker in process on workerd (local bindings, no network).
// Without DIR: the request-pipeline scenarios of bench-scenarios.mjs, with p50/p95 and req/s.
// With DIR: converts every DOCX under DIR (docx → pdf) once to warm up (reported apart), then again,
// printing a row per file (ms, pages), the line `N documents, P pages, T ms, X pages/s`, the
// harness's round trip and the total without it, the CPU time workerd used during the pass (robust on a
// loaded machine, unlike wall time), then the workerd peak resident memory. `--passes N` adds N − 1
// passes and prints the best and median of all N and the median CPU of workerd's main thread.
// Timing is taken outside the isolate: workerd freezes its clocks while JavaScript runs.
import { existsSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { scenarios } from './bench-scenarios.mjs';
import { helpIfAsked } from './script-help.mjs';
import {
  convertFile,
  docxFiles,
  emptyRoundTripMs,
  startQuire,
  workerdCpuSeconds,
  workerdMainThreadCpuSeconds,
  workerdRssMiB,
} from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const passesAt = args.indexOf('--passes');
const passes = passesAt >= 0 ? Math.max(1, Number(args.splice(passesAt, 2)[1]) || 1) : 1;
const arg = args[0];
const quire = await startQuire();
let peakRss = workerdRssMiB() ?? 0;
const sampleRss = () => {
  peakRss = Math.max(peakRss, workerdRssMiB() ?? 0);
};

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function benchScenarios() {
  console.log('scenario'.padEnd(44), 'n'.padStart(5), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'req/s'.padStart(8));
  for (const scenario of scenarios) {
    const { name, request, iterations = 200, warmup = 20 } = scenario;
    if (scenario.freshKey) quire.renewKey();
    // Inputs that need the worker itself (a PDF it signed) are made before timing.
    if (scenario.prepare) await scenario.prepare(quire);
    const send = async () => {
      const res = await quire.fetch(request.path, request.init?.() ?? {});
      await res.arrayBuffer();
      if (res.status !== scenario.expectStatus)
        throw new Error(`${name}: expected ${scenario.expectStatus}, got ${res.status}`);
    };
    for (let i = 0; i < warmup; i++) await send();
    const times = [];
    const started = performance.now();
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      await send();
      times.push(performance.now() - t0);
    }
    const elapsed = performance.now() - started;
    times.sort((a, b) => a - b);
    sampleRss();
    console.log(
      name.padEnd(44),
      String(iterations).padStart(5),
      percentile(times, 50).toFixed(2).padStart(8),
      percentile(times, 95).toFixed(2).padStart(8),
      ((iterations / elapsed) * 1000).toFixed(0).padStart(8),
    );
  }
}

async function benchDirectory(dir) {
  const files = docxFiles(dir);
  // A warm-up pass over every file, reported apart: the first requests compile code paths and load
  // and parse the fonts the corpus needs (bundled and fallback faces), as a warm isolate has done.
  // The measured pass then shows the steady state; requests go one at a time.
  const warmStart = performance.now();
  let warmPages = 0;
  for (const file of files) warmPages += (await convertFile(quire, file)).pages;
  console.log(
    `warm-up pass (not counted): ${files.length} documents, ${warmPages} pages, ${(performance.now() - warmStart).toFixed(0)} ms`,
  );
  quire.renewKey();
  const cpuBefore = workerdCpuSeconds();
  const mainBefore = workerdMainThreadCpuSeconds();
  let pages = 0;
  let total = 0;
  let failures = 0;
  for (const file of files) {
    const result = await convertFile(quire, file);
    sampleRss();
    total += result.ms;
    if (result.status === 200) pages += result.pages;
    else failures++;
    console.log(
      `${result.ms.toFixed(1).padStart(8)} ms ${String(result.pages).padStart(4)} pages  ${result.status === 200 ? '' : `[${result.status}] `}${relative(dir, file.path)}`,
    );
  }
  const cpuAfter = workerdCpuSeconds();
  const mainAfter = workerdMainThreadCpuSeconds();
  if (failures) console.log(`${failures} document(s) failed`);
  console.log(
    `${files.length} documents, ${pages} pages, ${total.toFixed(0)} ms, ${((pages / total) * 1000).toFixed(1)} pages/s`,
  );
  // CPU time does not grow when other processes compete for the cores, as wall time does.
  if (cpuBefore !== null && cpuAfter !== null) {
    const cpu = cpuAfter - cpuBefore;
    console.log(
      `workerd CPU time during the pass ${cpu.toFixed(2)} s (all its threads, harness requests included): ${(pages / cpu).toFixed(1)} pages per CPU second`,
    );
  }
  if (passes > 1) await morePasses(files, { ms: total, main: cpuSpan(mainBefore, mainAfter) }, pages);
  // Each row includes the harness's own round trip (Node → wrangler's proxy → the worker → back).
  const overhead = await emptyRoundTripMs(quire);
  const engine = total - overhead * files.length;
  console.log(
    `round trip of an empty request ${overhead.toFixed(2)} ms (GET /v1/health p50), included in every row; without it: ${engine.toFixed(0)} ms, ${((pages / engine) * 1000).toFixed(1)} pages/s`,
  );
}

/** Seconds between two CPU readings; NaN where /proc cannot be read. */
const cpuSpan = (before, after) => (before === null || after === null ? Number.NaN : after - before);

/**
 * `--passes N`: N − 1 more passes like the first (a fresh key each), then the best and median
 * throughput and the median CPU of workerd's main thread: on a machine shared with other work a
 * single pass moves by several percent, and the median of a few does not.
 */
async function morePasses(files, first, pages) {
  const walls = [first.ms];
  const mains = [first.main];
  for (let pass = 1; pass < passes; pass++) {
    quire.renewKey();
    const mainBefore = workerdMainThreadCpuSeconds();
    let ms = 0;
    for (const file of files) ms += (await convertFile(quire, file)).ms;
    walls.push(ms);
    mains.push(cpuSpan(mainBefore, workerdMainThreadCpuSeconds()));
    console.log(`pass ${pass + 1}: ${ms.toFixed(0)} ms, ${((pages / ms) * 1000).toFixed(1)} pages/s`);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const best = Math.min(...walls);
  console.log(
    `${passes} passes: best ${best.toFixed(0)} ms, ${((pages / best) * 1000).toFixed(1)} pages/s; median ${median(walls).toFixed(0)} ms, ${((pages / median(walls)) * 1000).toFixed(1)} pages/s; workerd main thread CPU median ${Number.isNaN(median(mains)) ? 'n/a' : `${median(mains).toFixed(2)} s`}`,
  );
}

try {
  if (arg && existsSync(arg) && statSync(arg).isDirectory()) await benchDirectory(resolve(arg));
  else await benchScenarios();
  console.log(`workerd peak RSS ${peakRss ? `${peakRss.toFixed(0)} MiB` : 'n/a'} (the whole runtime, not one isolate)`);
} finally {
  await quire.dispose();
}
