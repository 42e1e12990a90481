#!/usr/bin/env node
// `npm run client [-- --check]`: generates the TypeScript client's types,
// clients/typescript/src/schema.ts, from the OpenAPI document of the real app: starts the worker
// on workerd (in process, scripts/worker-harness.mjs, no key needed), GETs /openapi.json, runs
// openapi-typescript 6 over it (binary strings typed as Blob) and formats the result with biome.
// Run it after any change to a route's schemas, and commit the file.
//
// --check   writes nothing; exits 1 when the committed file differs from what would be
//           generated (npm run check runs it), 0 when it is current.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import openapiTS from 'openapi-typescript';
import { root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';
import { servedOpenApi } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const check = process.argv.includes('--check');
const target = join(root, 'clients', 'typescript', 'src', 'schema.ts');
const biome = join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

const HEADER = `/**
 * Generated from Quire's OpenAPI document (GET /openapi.json of the worker) by openapi-typescript 6:
 * \`npm run client\` (scripts/generate-client.mjs). Do not edit by hand; regenerate and commit.
 */

`;

/** TypeScript for `document`: openapi-typescript's output in the project's format (biome). */
async function generate(document) {
  const types = await openapiTS(document, {
    commentHeader: HEADER,
    // A file part (`format: binary`) is sent as a Blob or File, and a binary answer read as one.
    transform: (schema) => (schema.format === 'binary' ? 'Blob' : undefined),
  });
  const formatted = spawnSync(process.execPath, [biome, 'format', `--stdin-file-path=${target}`], {
    cwd: root,
    input: types,
    encoding: 'utf8',
  });
  if (formatted.status !== 0) throw new Error(`biome format failed: ${formatted.stderr}`);
  return formatted.stdout;
}

const generated = await generate(JSON.parse(await servedOpenApi()));
const name = relative(root, target);
if (check) {
  const committed = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (committed !== generated) {
    const [was, now] = [committed.split('\n'), generated.split('\n')];
    const line = now.findIndex((text, i) => text !== was[i]);
    const at = line < 0 ? now.length : line;
    console.error(`${name} is stale: the OpenAPI document has changed. Run \`npm run client\` and commit it.`);
    console.error(
      `first difference, line ${at + 1}:\n  committed: ${was[at] ?? '(end)'}\n  generated: ${now[at] ?? '(end)'}`,
    );
    process.exitCode = 1;
  } else console.log(`${name} is current.`);
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${name}`);
}
