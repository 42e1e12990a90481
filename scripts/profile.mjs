#!/usr/bin/env node
// `npm run profile -- [DIR|FILE.docx ...] [--iterations N] [--top N] [--save FILE.cpuprofile]`
//   Bundles the engine (convertDocxToPdf, no HTTP) with esbuild, runs it under Node over the
//   documents (one warm-up pass, not profiled, then N profiled passes) and prints the engine-only
//   throughput and the CPU profile's self time by function, by source file and by folder.
// `npm run profile -- --stages [--stage read|fonts|layout|paint] …`
//   The same, running the pipeline stage by stage: CPU time per stage, and the profile of one stage
//   (the samples taken while it ran; work it leaves to promises settling later is not counted).
// `npm run profile -- --memory FILE.docx`
//   Peak memory of one conversion in a warm isolate (fonts already parsed): V8 heap seen at every
//   GC (--trace-gc) and the ArrayBuffers alive at each stage, relative to the warm baseline.
// Node 22's V8 is close to workerd's but not the same: compare profiles with profiles.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { helpIfAsked } from './script-help.mjs';
import { bundleWorkerCode } from './worker-bundle.mjs';

helpIfAsked(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const requireHere = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const flag = (name) => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const iterations = Number(option('--iterations', '3'));
const top = Number(option('--top', '40'));
const save = option('--save', undefined);
const memoryFile = option('--memory', undefined);
const bundleArg = option('--bundle', undefined);
const memoryChild = flag('--memory-child');
const stagesMode = flag('--stages');
const onlyStage = option('--stage', undefined);

/** Every .docx under the given paths (default: the shared corpus), sorted. */
function docxFiles(paths) {
  const out = [];
  const walk = (path) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    else if (path.toLowerCase().endsWith('.docx')) out.push(path);
  };
  for (const path of paths) walk(resolve(path));
  return out.sort();
}

/** Bundles scripts/profile-entry.ts as the worker would be (pako → fflate), with a line → source map. */
async function bundle() {
  const outfile = join(tmpdir(), `quire-profile-${process.pid}.mjs`);
  return bundleWorkerCode(join(root, 'scripts', 'profile-entry.ts'), outfile, {
    external: ['node:fs'],
    // workerd hands a `.wasm` import over as a compiled WebAssembly.Module; so does this stand-in.
    plugins: [
      {
        name: 'wasm-module',
        setup(builder) {
          // A relative path from its importer; a package's file ('@resvg/resvg-wasm/index_bg.wasm') from node_modules.
          builder.onResolve({ filter: /\.wasm$/ }, (a) => ({
            path: a.path.startsWith('.') ? resolve(a.resolveDir, a.path) : requireHere.resolve(a.path),
            namespace: 'wasm',
          }));
          builder.onLoad({ filter: /.*/, namespace: 'wasm' }, (a) => ({
            contents: `import { readFileSync } from 'node:fs'; export default new WebAssembly.Module(readFileSync(${JSON.stringify(a.path)}));`,
            loader: 'js',
          }));
        },
      },
    ],
  });
}

/** esbuild starts each module with a `// path` comment: generated line → source file. */
function lineToSource(bundlePath) {
  const starts = [];
  readFileSync(bundlePath, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const match = /^\/\/ ((?:src|node_modules|scripts)\/\S+)$/.exec(line);
      if (match) starts.push([index, match[1]]);
    });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = '(bundle)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid][0] <= line) {
        found = starts[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

const assetsFetcher = {
  async fetch(url) {
    const path = join(root, 'assets', decodeURIComponent(new URL(url).pathname));
    try {
      return new Response(readFileSync(path));
    } catch {
      return new Response('not found', { status: 404 });
    }
  },
};

/** The worker's own options: markup revisions, the default budgets (src/limits.ts). */
const options = (engine) => ({ revisions: 'markup', limits: engine.DEFAULT_LIMITS });
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Converts every file; `stages` (for --stages) runs the stages one by one, adding each one's CPU
 * time to stages.times and profiling only stages.only when a profiler session is given.
 */
async function convertAll(engine, files, fontCache, stages) {
  let pages = 0;
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file));
    try {
      if (!stages) {
        pages += (await engine.convertDocxToPdf(bytes, options(engine), { assets: assetsFetcher, fontCache })).pages;
        continue;
      }
      const stage = async (name, run) => {
        const started = cpuMs();
        // V8 stamps samples with the monotonic clock hrtime reads, in microseconds.
        const from = process.hrtime.bigint() / 1000n;
        const result = await run();
        if (stages.only === name) stages.intervals.push([Number(from), Number(process.hrtime.bigint() / 1000n)]);
        stages.times[name] = (stages.times[name] ?? 0) + cpuMs() - started;
        return result;
      };
      const model = await stage('read', () => engine.readDocx(bytes, options(engine)));
      const fonts = await stage('fonts', () =>
        engine.loadFontSet(engine.collectFontRequests(model), {
          assets: assetsFetcher,
          embedded: model.embeddedFonts,
          cache: fontCache,
        }),
      );
      const laidOut = await stage('layout', () => engine.layoutDocument(model, fonts, { markup: true }));
      await stage('paint', () => engine.paintPdf(laidOut));
      pages += laidOut.pages.length;
    } catch (error) {
      console.error(`${relative(root, file)}: ${error?.message ?? error}`);
    }
  }
  return pages;
}

/** Self time by call frame; with `intervals`, only of the samples taken inside them. */
function aggregate(profile, sourceOf, intervals) {
  const selfUs = new Map();
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  let time = profile.startTime;
  let interval = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (intervals) {
      while (interval < intervals.length && intervals[interval][1] < time) interval++;
      if (interval === intervals.length || intervals[interval][0] > time) continue;
    }
    const frame = byNode.get(profile.samples[i]).callFrame;
    selfUs.set(frame, (selfUs.get(frame) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const byFunction = new Map();
  const byFile = new Map();
  const byFolder = new Map();
  let total = 0;
  for (const [callFrame, us] of selfUs) {
    const inBundle = callFrame.url.includes('quire-profile-');
    const file = inBundle ? sourceOf(callFrame.lineNumber) : callFrame.url || `(${callFrame.functionName || 'native'})`;
    const name = `${callFrame.functionName || '(anonymous)'}  ${file}:${callFrame.lineNumber + 1}`;
    const folder = file.startsWith('src/')
      ? file.split('/').slice(0, 2).join('/')
      : file.startsWith('node_modules/')
        ? file
            .split('/')
            .slice(0, file.startsWith('node_modules/@') ? 3 : 2)
            .join('/')
        : file;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + us);
    total += us;
  }
  const print = (title, map, count) => {
    console.log(`\n${title}`);
    for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
    }
  };
  print('self time by folder', byFolder, 30);
  print('self time by file', byFile, top);
  print('self time by function', byFunction, top);
  console.log(`\nprofile total ${(total / 1000).toFixed(0)} ms`);
}

async function profileCpu(files) {
  const bundlePath = await bundle();
  const engine = await import(pathToFileURL(bundlePath).href);
  const fontCache = engine.createFontCache();
  let started = performance.now();
  const pages = await convertAll(engine, files, fontCache);
  console.log(`warm-up: ${files.length} documents, ${pages} pages, ${(performance.now() - started).toFixed(0)} ms`);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  const intervals = [];
  await session.post('Profiler.start');
  for (let i = 0; i < iterations; i++) {
    const stages = stagesMode ? { times: {}, only: onlyStage, intervals } : undefined;
    started = performance.now();
    const cpu = cpuMs();
    await convertAll(engine, files, fontCache, stages);
    const ms = performance.now() - started;
    // CPU time (all threads: GC helpers too) varies less than wall time on a shared machine.
    const split = stages
      ? ` (${Object.entries(stages.times)
          .map(([name, time]) => `${name} ${time.toFixed(0)}`)
          .join(', ')})`
      : '';
    console.log(
      `pass ${i + 1}: ${ms.toFixed(0)} ms, ${((pages / ms) * 1000).toFixed(1)} pages/s; CPU ${(cpuMs() - cpu).toFixed(0)} ms${split}`,
    );
  }
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  if (save) writeFileSync(save, JSON.stringify(profile));
  aggregate(profile, lineToSource(bundlePath), onlyStage ? intervals : undefined);
}

const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;

/** Runs in a child with --expose-gc --trace-gc: the GC lines go to stdout between two markers. */
async function memoryRun(file) {
  const engine = await import(pathToFileURL(bundleArg).href);
  const fontCache = engine.createFontCache();
  const bytes = new Uint8Array(readFileSync(file));
  const convert = () => engine.convertDocxToPdf(bytes, options(engine), { assets: assetsFetcher, fontCache });
  await convert();
  globalThis.gc();
  const base = process.memoryUsage();
  console.log(`BASE ${base.heapUsed} ${base.arrayBuffers}`);
  console.log('MEMORY-START');
  const result = await convert();
  const held = process.memoryUsage();
  console.log('MEMORY-END');
  console.log(`HELD ${held.heapUsed} ${held.arrayBuffers} ${result.pages} ${result.pdf.length}`);
}

/** Whether the conversion completes when V8's heap may not grow past `mib` (young generation kept small). */
function fitsInHeap(bundlePath, file, mib) {
  const child = spawnSync(
    process.execPath,
    [
      `--max-old-space-size=${mib}`,
      '--max-semi-space-size=1',
      '--expose-gc',
      fileURLToPath(import.meta.url),
      '--memory-child',
      '--bundle',
      bundlePath,
      file,
    ],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  return child.status === 0;
}

async function profileMemory(file) {
  const bundlePath = await bundle();
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--trace-gc', fileURLToPath(import.meta.url), '--memory-child', '--bundle', bundlePath, file],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  if (child.status !== 0) throw new Error(child.stderr);
  const lines = child.stdout.split('\n');
  const [, baseHeap, baseBuffers] = lines
    .find((l) => l.startsWith('BASE '))
    .split(' ')
    .map(Number);
  const [, heldHeap, heldBuffers, pages, pdfBytes] = lines
    .find((l) => l.startsWith('HELD '))
    .split(' ')
    .map(Number);
  const during = lines.slice(lines.indexOf('MEMORY-START'), lines.indexOf('MEMORY-END'));
  let peakBefore = 0;
  let peakLive = 0;
  let gcs = 0;
  for (const line of during) {
    // "… ms: Mark-Compact 61.2 (75.0) -> 40.1 (70.3) MB, …": heap used before (committed) -> after.
    const match = /: (Scavenge|Mark-Compact|Minor Mark-Sweep)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \(/.exec(line);
    if (!match) continue;
    gcs++;
    peakBefore = Math.max(peakBefore, Number(match[2]));
    if (match[1] === 'Mark-Compact') peakLive = Math.max(peakLive, Number(match[3]));
  }
  const baseMiB = baseHeap / 1048576;
  console.log(`${relative(process.cwd(), file)}: ${pages} pages, PDF ${mib(pdfBytes)}`);
  console.log(`warm isolate after GC: heap ${mib(baseHeap)}, ArrayBuffers ${mib(baseBuffers)} (parsed fonts, code)`);
  console.log(
    `during the conversion (${gcs} GCs): heap peak ${peakBefore.toFixed(1)} MiB (+${(peakBefore - baseMiB).toFixed(1)}), ` +
      `largest live set after a full GC ${peakLive ? `${peakLive.toFixed(1)} MiB (+${(peakLive - baseMiB).toFixed(1)})` : 'n/a (no full GC)'}`,
  );
  console.log(
    `at the end, before GC: heap ${mib(heldHeap)}, ArrayBuffers ${mib(heldBuffers)} (+${mib(heldBuffers - baseBuffers)})`,
  );
  // The smallest V8 heap limit it completes in (the warm-up conversion and fonts included), to 4 MiB.
  let low = 8;
  let high = 512;
  if (!fitsInHeap(bundlePath, file, high)) throw new Error(`does not complete within ${high} MiB`);
  while (high - low > 4) {
    const middle = Math.round((low + high) / 2);
    if (fitsInHeap(bundlePath, file, middle)) high = middle;
    else low = middle;
  }
  console.log(
    `completes with a V8 heap limit of ${high} MiB, not with ${low} MiB (ArrayBuffers are outside that limit)`,
  );
}

if (memoryChild) await memoryRun(args[0]);
else if (memoryFile) await profileMemory(resolve(memoryFile));
else {
  const files = docxFiles(args.length ? args : [join(root, '..', 'shared', 'corpus', 'docx')]);
  await profileCpu(files);
}
