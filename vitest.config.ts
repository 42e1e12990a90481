import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// Tests run inside workerd with the bindings of wrangler.toml (local D1, assets, rate limiters).
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      // A 2 MiB document limit keeps the size-limit tests fast; everything else is as deployed.
      miniflare: { bindings: { MAX_DOCUMENT_BYTES: String(2 * 1024 * 1024) } },
    }),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/setup/network.ts'],
  },
});
