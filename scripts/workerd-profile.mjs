#!/usr/bin/env node
// `npm run profile-workerd -- FILE|DIR [--to pdf|docx] [--iterations N] [--top N] [--save FILE.cpuprofile]`
//   CPU profile of the worker itself on workerd (not Node): starts it in process with wrangler's
//   startWorker and an inspector, converts the documents (.docx, .md, .html: `from` is the file's
//   extension; a directory gives all three) to `--to` (pdf unless told) once to warm up, then N times under the
//   DevTools protocol's Profiler (over the inspector's WebSocket), and prints self time by function
//   (the bundle's names and lines; "(garbage collector)" is V8's GC) and the isolate's JS heap
//   (Runtime.getHeapUsage) after each pass. --save writes the profile for DevTools. Compare with
//   `npm run profile` (the same engine under Node, whose webstreams and zlib differ from workerd's).
import { statSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { unstable_startWorker } from 'wrangler';
import WebSocket from 'ws';
import { prepareFallbackFonts } from './fallback-fonts.mjs';
import { applyLocalMigrations, ensureDevVars, root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';
import { convertFile, mintLocalKey, sourceFiles } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const iterations = Number(option('--iterations', '1'));
const top = Number(option('--top', '40'));
const save = option('--save', undefined);
const to = option('--to', 'pdf');
const samplingMicros = 200;
const sourceExtensions = ['docx', 'md', 'html'];
const files = args.flatMap((path) => {
  if (statSync(path).isDirectory()) return sourceFiles(resolve(path), sourceExtensions);
  const extension = extname(path).slice(1).toLowerCase();
  if (!sourceExtensions.includes(extension)) throw new Error(`${path}: not a .docx, .md or .html file`);
  return [{ path: resolve(path), category: '', name: basename(path, `.${extension}`), extension }];
});

await ensureDevVars();
prepareFallbackFonts();
applyLocalMigrations();
let key = mintLocalKey('profile@quire.local');
const worker = await unstable_startWorker({
  config: join(root, 'wrangler.toml'),
  dev: {
    server: { hostname: '127.0.0.1', port: 0 },
    inspector: { hostname: '127.0.0.1' },
    logLevel: 'error',
  },
});
await worker.ready;
const quire = {
  fetch: (path, init = {}) =>
    worker.fetch(`http://quire.local${path}`, {
      ...init,
      headers: { ...(init.headers ?? {}), Authorization: `Bearer ${key}` },
    }),
};

try {
  const inspectorUrl = await worker.inspectorUrl;
  const targets = await (await fetch(new URL('/json', `http://${inspectorUrl.host}`))).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((ok, fail) => {
    ws.once('open', ok);
    ws.once('error', fail);
  });
  let nextId = 1;
  const pending = new Map();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  });
  const post = (method, params = {}) =>
    new Promise((ok, fail) => {
      const id = nextId++;
      pending.set(id, (m) => (m.error ? fail(new Error(`${method}: ${m.error.message}`)) : ok(m.result)));
      ws.send(JSON.stringify({ id, method, params }));
    });

  for (const file of files) await convertFile(quire, file, to);
  key = mintLocalKey('profile@quire.local');
  const heap = async () => {
    const { usedSize, totalSize } = await post('Runtime.getHeapUsage');
    return `${(usedSize / 2 ** 20).toFixed(1)}/${(totalSize / 2 ** 20).toFixed(1)} MiB`;
  };
  console.log(`after warm-up: heap ${await heap()}`);
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: samplingMicros });
  await post('Profiler.start');
  let wall = 0;
  let refused = 0;
  for (let i = 0; i < iterations; i++) {
    // A fresh key per pass: one key's rate limit (120 requests a minute) would otherwise answer
    // part of a corpus pass with 429s, and the profile would show the error path instead.
    if (i > 0) key = mintLocalKey('profile@quire.local');
    for (const file of files) {
      const result = await convertFile(quire, file, to);
      if (result.status !== 200) refused++;
      wall += result.ms;
      if (files.length <= 5)
        console.log(
          `${result.ms.toFixed(0)} ms ${to === 'pdf' ? `${result.pages} pages` : `${result.body.length} bytes`} ${file.name} (${result.status})`,
        );
    }
    console.log(`pass ${i + 1}: heap ${await heap()}`);
  }
  const { profile } = await post('Profiler.stop');
  if (refused) console.log(`${refused} request(s) were not answered 200: their error path is in the profile`);
  if (save) writeFileSync(save, JSON.stringify(profile));
  ws.close();

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  // A sample lasts until the next one (timeDeltas[i + 1], as DevTools counts it), but at most a
  // few sampling intervals: workerd takes no samples while the isolate waits between requests
  // (a key is minted between passes, which takes seconds), and that gap would otherwise be charged
  // to whatever function ran just before or after it.
  const dt = profile.timeDeltas;
  const longest = 5 * samplingMicros;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    self.set(node, (self.get(node) ?? 0) + Math.min(dt[i + 1] ?? 0, longest) / 1000);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self].filter(([n]) => n.callFrame.functionName === '(idle)').reduce((a, [, v]) => a + v, 0);
  console.log(
    `wall ${wall.toFixed(0)} ms; profile ${total.toFixed(0)} ms, idle ${idle.toFixed(0)} ms, busy ${(total - idle).toFixed(0)} ms`,
  );
  const group = (keyOf) => {
    const out = new Map();
    for (const [node, ms] of self) {
      const k = keyOf(node);
      out.set(k, (out.get(k) ?? 0) + ms);
    }
    return [...out].sort((a, b) => b[1] - a[1]);
  };
  const busy = total - idle;
  const print = (rows) => {
    for (const [k, ms] of rows.filter(([k]) => !k.startsWith('(idle)')).slice(0, top))
      console.log(`${ms.toFixed(1).padStart(9)} ms ${((ms / busy) * 100).toFixed(1).padStart(5)}%  ${k}`);
  };
  // Total (inclusive) time: a sample counts once for every distinct function on its stack, so
  // readHtml or writeDocx show what a whole stage costs.
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n);
  const label = (n) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-1)[0]}:${n.callFrame.lineNumber + 1}`;
  const inclusive = new Map();
  for (const [node, ms] of self) {
    const seen = new Set();
    for (let n = node; n; n = parent.get(n.id)) seen.add(label(n));
    for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
  }
  console.log('\ntotal time by function');
  print([...inclusive].filter(([k]) => !k.startsWith('(root)')).sort((a, b) => b[1] - a[1]));
  console.log('\nself time by function');
  print(group(label));
} finally {
  await worker.dispose();
}
