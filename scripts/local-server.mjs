// `npm start` as a child process, for the scripts that walk the API as a user would (smoke,
// examples, playground-check): the worker on a port of its own, its log kept so that a
// verification code the log mail transport prints can be read, and the worker stopped with the
// script however it ends.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { root } from './local-setup.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether something already answers GET /v1/health at `base`. */
async function answers(base) {
  return fetch(`${base}/v1/health`).then(
    (res) => res.ok,
    () => false,
  );
}

/**
 * Starts `npm start -- --port PORT` and waits until it answers (at most a minute). A worker
 * already on the port would answer in place of this one, and its log (the codes) would not be
 * read: that is refused (`portVariable` names the setting that picks another port).
 */
export async function startLocalServer(port, portVariable) {
  const base = `http://127.0.0.1:${port}`;
  if (await answers(base)) {
    throw new Error(`port ${port} is in use: stop what serves ${base}, or set ${portVariable}`);
  }
  let log = '';
  const server = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), '--port', String(port)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.on('data', (chunk) => {
    log += chunk;
  });
  server.stderr.on('data', (chunk) => {
    log += chunk;
  });
  // The worker goes with the script, however it ends (a failure, Ctrl-C, its output's pipe closed).
  const stop = () => server.kill('SIGINT');
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => process.exit(1));
  process.stdout.on('error', () => process.exit(1));
  let up = false;
  for (let i = 0; i < 120 && !up; i++) {
    up = await answers(base);
    if (!up) await sleep(500);
  }
  if (!up) {
    stop();
    throw new Error(`npm start did not answer on ${base}:\n${log}`);
  }
  return {
    base,
    get log() {
      return log;
    },
    /** The last code `verification code for EMAIL: NNNNNN` the log transport printed for `email`. */
    async codeFromLog(email) {
      const pattern = new RegExp(`verification code for ${email.replace(/[.+]/g, '\\$&')}: (\\d{6})`, 'g');
      for (let i = 0; i < 50; i++) {
        const found = [...log.matchAll(pattern)].at(-1);
        if (found) return found[1];
        await sleep(100);
      }
      return undefined;
    },
    stop,
  };
}
