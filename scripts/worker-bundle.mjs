// Bundles a TypeScript entry of Quire for Node as the worker is bundled (wrangler.toml's
// conditions and its pako → fflate alias), for the scripts that run Quire's code outside workerd
// (profile, long-term-check). Each caller says what a `.wasm` import becomes.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** esbuild's build of `entry` into `outfile`; `extra` adds or overrides options (plugins, external). */
export async function bundleWorkerCode(entry, outfile, extra = {}) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    outfile,
    alias: { pako: join(root, 'src', 'engine', 'write', 'pdf', 'pako-on-fflate.ts') },
    logLevel: 'warning',
    ...extra,
  });
  return outfile;
}
