#!/usr/bin/env node
// `npm run bench [-- DIR]`: runs the worker in process on workerd (local bindings, no network).
// Without DIR: the request-pipeline scenarios of bench-scenarios.mjs, with p50/p95 and req/s.
// With DIR: converts every DOCX under DIR (docx → pdf) and prints a row per file (ms, pages) and
// the line `N documents, P pages, T ms, X pages/s`, then the workerd peak resident memory.
// Timing is taken outside the isolate: workerd freezes its clocks while JavaScript runs.
import { existsSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { scenarios } from './bench-scenarios.mjs';
import { convertFile, docxFiles, startQuire, workerdRssMiB } from './worker-harness.mjs';

const arg = process.argv[2];
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
  // One warm-up conversion loads fonts and compiles code paths, as a warm isolate would have.
  if (files[0]) await convertFile(quire, files[0]);
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
  if (failures) console.log(`${failures} document(s) failed`);
  console.log(
    `${files.length} documents, ${pages} pages, ${total.toFixed(0)} ms, ${((pages / total) * 1000).toFixed(1)} pages/s`,
  );
}

try {
  if (arg && existsSync(arg) && statSync(arg).isDirectory()) await benchDirectory(resolve(arg));
  else await benchScenarios();
  console.log(`workerd peak RSS ${peakRss ? `${peakRss.toFixed(0)} MiB` : 'n/a'} (the whole runtime, not one isolate)`);
} finally {
  await quire.dispose();
}
