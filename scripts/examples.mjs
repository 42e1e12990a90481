#!/usr/bin/env node
// `npm run examples`: every command of the README's "Endpoints by example", run as written against
// a real `npm start` (wrangler dev on workerd, local D1, log mail), from the repository's root,
// in one bash session so that variables carry from one command to the next. Two values are the
// reader's to fill in, and are filled in here: EMAIL (a new address each run, since one address
// may ask for five codes an hour) and CODE (read from the worker log, where a reader reads it).
// A curl command passes when its HTTP status is the one in the comment under it ("# 404 …",
// "# HTTP/1.1 204 …"), or 2xx when the comment names none; any other command when it exits 0.
// Prints one line per command and "examples: N passed, N failed"; exits non-zero on a failure.
// Outputs go to out/ (git-ignored). .ci/run runs it after the smoke test.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalServer } from './local-server.mjs';
import { root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';

helpIfAsked(import.meta.url);

const README_PORT = 8787;
const port = Number(process.env.EXAMPLES_PORT ?? README_PORT);

/** The README's example commands, each with the status its comment promises (if any). */
function exampleCommands() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Endpoints by example'));
  const body = section.slice(0, section.indexOf('\n## ', 3));
  const commands = [];
  for (const block of body.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = block[1].split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i];
      if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
      let command = line;
      while (command.endsWith('\\') || (command.split("'").length - 1) % 2 === 1) {
        i++;
        if (i >= lines.length) break;
        command += `\n${lines[i]}`;
      }
      line = lines[i + 1] ?? '';
      const promised = /^#\s*(?:HTTP\/[\d.]+\s+)?(\d{3})\b/.exec(line)?.[1];
      commands.push({ command, status: promised ? Number(promised) : undefined });
    }
  }
  return commands;
}

const commands = exampleCommands();
mkdirSync(join(root, 'out'), { recursive: true });
let passed = 0;
let failed = 0;
const email = `examples.${Date.now()}@example.com`;

let server;
try {
  server = await startLocalServer(port, 'EXAMPLES_PORT');
  // The session: each command as written (the port swapped only when EXAMPLES_PORT asks), its
  // curl status written after it by a wrapper, so the command line itself stays the README's.
  const state = join(root, 'out', '.examples-env');
  for (const { command, status } of commands) {
    let text = command.replaceAll(`127.0.0.1:${README_PORT}`, `127.0.0.1:${port}`);
    if (/^EMAIL=/.test(text)) text = `EMAIL=${email}`;
    if (/^CODE=/.test(text)) text = `CODE=${(await server.codeFromLog(email)) ?? '000000'}`;
    const script = [
      'set -o pipefail',
      `[ -f '${state}' ] && . '${state}'`,
      `curl() { command curl -w '\\n__status__ %{http_code}\\n' "$@"; }`,
      text,
      'code=$?',
      `declare -p EMAIL CODE KEY 2>/dev/null > '${state}'`,
      'exit $code',
    ].join('\n');
    const run = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
    const statuses = [...(run.stdout ?? '').matchAll(/__status__ (\d{3})/g)].map((m) => Number(m[1]));
    const first = command.split('\n')[0].slice(0, 110);
    let ok = run.status === 0;
    let detail = ok ? '' : `exit ${run.status}: ${(run.stderr ?? '').trim().slice(0, 300)}`;
    if (ok && /^\s*curl\b/.test(command)) {
      const got = statuses.at(-1);
      ok = status !== undefined ? got === status : got !== undefined && got >= 200 && got < 300;
      if (!ok) detail = `HTTP ${got}${status ? `, README says ${status}` : ''}: ${(run.stdout ?? '').slice(0, 300)}`;
    }
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${first}${command.includes('\n') ? ' …' : ''}${detail ? ` — ${detail}` : ''}`);
  }
} catch (error) {
  failed++;
  console.log(`FAIL examples run — ${String(error instanceof Error ? error.message : error)}`);
} finally {
  server?.stop();
}
console.log(`examples: ${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
