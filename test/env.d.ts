// The bindings tests see through `env` from cloudflare:test: the worker's own, plus the
// migrations vitest.config.ts passes in.
import type { D1Migration } from '@cloudflare/vitest-plugin';
import type { Env as WorkerEnv } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {
      TEST_MIGRATIONS: D1Migration[];
      /** The CA of the test signing identity (vitest.config.ts), PEM. */
      TEST_SIGNING_CA: string;
    }
  }
}
