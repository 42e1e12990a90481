#!/usr/bin/env node
// `npm run profile-workerd -- FILE.docx|DIR [--iterations N] [--top N] [--save FILE.cpuprofile]`
//   CPU profile of the worker itself on workerd (not Node): starts it in process with wrangler's
//   startWorker and an inspector, converts the documents once to warm up, then N times under the
//   DevTools protocol's Profiler (over the inspector's WebSocket), and prints self time by function
//   (the bundle's names and lines; "(garbage collector)" is V8's GC) and the isolate's JS heap
//   (Runtime.getHeapUsage) after each pass. --save writes the profile for DevTools. Compare with
//   `npm run profile` (the same engine under Node, whose webstreams and zlib differ from workerd's).
import { statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { unstable_startWorker } from 'wrangler';
import WebSocket from 'ws';
import { prepareFallbackFonts } from './fallback-fonts.mjs';
import { applyLocalMigrations, ensureDevVars, root } from './local-setup.mjs';
import { convertFile, docxFiles, mintLocalKey } from './worker-harness.mjs';

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
const files = args.flatMap((path) =>
  statSync(path).isDirectory()
    ? docxFiles(resolve(path))
    : [{ path: resolve(path), category: '', name: basename(path, '.docx') }],
);

ensureDevVars();
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

  for (const file of files) await convertFile(quire, file);
  key = mintLocalKey('profile@quire.local');
  const heap = async () => {
    const { usedSize, totalSize } = await post('Runtime.getHeapUsage');
    return `${(usedSize / 2 ** 20).toFixed(1)}/${(totalSize / 2 ** 20).toFixed(1)} MiB`;
  };
  console.log(`after warm-up: heap ${await heap()}`);
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  let wall = 0;
  let refused = 0;
  for (let i = 0; i < iterations; i++) {
    // A fresh key per pass: one key's rate limit (120 requests a minute) would otherwise answer
    // part of a corpus pass with 429s, and the profile would show the error path instead.
    if (i > 0) key = mintLocalKey('profile@quire.local');
    for (const file of files) {
      const result = await convertFile(quire, file);
      if (result.status !== 200) refused++;
      wall += result.ms;
      if (files.length <= 5)
        console.log(`${result.ms.toFixed(0)} ms ${result.pages} pages ${file.name} (${result.status})`);
    }
    console.log(`pass ${i + 1}: heap ${await heap()}`);
  }
  const { profile } = await post('Profiler.stop');
  if (refused) console.log(`${refused} request(s) were not answered 200: their error path is in the profile`);
  if (save) writeFileSync(save, JSON.stringify(profile));
  ws.close();

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    self.set(node, (self.get(node) ?? 0) + (dt[i] ?? 0) / 1000);
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
  console.log('\nself time by function');
  print(
    group(
      (n) =>
        `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-1)[0]}:${n.callFrame.lineNumber + 1}`,
    ),
  );
} finally {
  await worker.dispose();
}
