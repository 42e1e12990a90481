import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { createDevIdentity } from './scripts/dev-identity.mjs';
import { prepareFallbackFonts } from './scripts/fallback-fonts.mjs';

// Tests run inside workerd with the bindings of wrangler.toml: a real local D1 (Miniflare's
// SQLite) with the migrations applied by test/setup/database.ts, and real rate limiters.
const migrations = await readD1Migrations('./migrations');
// The Noto fallback faces, copied from node_modules into the static assets (git-ignored).
prepareFallbackFonts();
// A signing identity made for this run (API.md "The signing identity"): a clean clone has no
// .dev.vars, and tests must not depend on one. TEST_SIGNING_CA lets tests check chains to it.
const identity = await createDevIdentity();

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          // A 2 MiB document limit keeps the size-limit tests fast.
          MAX_DOCUMENT_BYTES: String(2 * 1024 * 1024),
          AUTH_SECRET: 'test-only-auth-secret-0123456789abcdef',
          // Codes reach the tests as the mail API request, answered by MSW (test/helpers/mailbox.ts).
          MAIL_TRANSPORT: 'resend',
          RESEND_API_KEY: 're_test_key',
          TEST_MIGRATIONS: migrations,
          SIGNING_KEY: identity.keyPem,
          SIGNING_CERT_CHAIN: identity.chainPem,
          TEST_SIGNING_CA: identity.caPem,
        },
        // Miniflare's local send_email, for the cloudflare mail transport's tests.
        email: { send_email: [{ name: 'EMAIL' }] },
        // A local R2 bucket as the optional font library (FONTS), which wrangler.toml leaves out.
        r2Buckets: ['FONTS'],
      },
    }),
  ],
  // The same module alias as wrangler.toml [alias]: pako → fflate.
  resolve: { alias: { pako: new URL('./src/engine/write/pdf/pako-on-fflate.ts', import.meta.url).pathname } },
  test: {
    include: ['test/**/*.test.ts'],
    // @peculiar/x509's ASN.1 schemas are some 450 small ES modules; pre-bundled into one each (as
    // wrangler bundles them for deployment), the runner's module messages stay within workerd's
    // WebSocket frame limit, which the unbundled graph overflowed ("Message is too large").
    deps: { optimizer: { ssr: { enabled: true, include: ['@peculiar/x509', 'pkijs', 'asn1js'] } } },
    setupFiles: ['./test/setup/network.ts', './test/setup/database.ts'],
    // Without the file-system module cache, a fresh workerd runner fetches modules one by one. With
    // it, the runner's first dependency fetch asks for a snapshot of every cached module of its
    // files' graphs (vitest's fetchWarmModules), and the pool inlines their code into ONE message
    // to workerd: once src/ outgrew workerd's WebSocket message limit, every run of two or more
    // files crashed the second ("WebSocket protocol error … Message is too large").
    fsModuleCache: false,
  },
});
