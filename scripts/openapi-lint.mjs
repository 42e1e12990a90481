#!/usr/bin/env node
// `npm run openapi-lint` (part of `npm run check`): lints the OpenAPI document the worker serves
// with redocly's own engine (@redocly/openapi-core) and the rules of redocly.yaml. The document
// is not a copy: the worker is started on workerd (scripts/worker-harness.mjs, no key and no
// database needed) and GET /openapi.json is what is linted, so it is what the routes' zod schemas
// generate. Prints redocly's problems (codeframe) and a summary line; exits 1 on any error or
// warning, since the document promises generators a clean 3.1 (docs/api.md "Discovery").
import { join } from 'node:path';
import { formatProblems, getTotals, lintFromString, loadConfig } from '@redocly/openapi-core';
import { root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';
import { servedOpenApi } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const started = performance.now();
// Pretty-printed, so redocly's codeframes point at a line of its own.
const source = JSON.stringify(JSON.parse(await servedOpenApi()), null, 2);

const config = await loadConfig({ configPath: join(root, 'redocly.yaml') });
const problems = await lintFromString({ source, absoluteRef: join(root, 'openapi.json'), config });
const totals = getTotals(problems);
formatProblems(problems, { format: 'codeframe', totals, cwd: root, color: process.stdout.isTTY });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `openapi-lint: GET /openapi.json (${source.length} bytes): ${totals.errors} errors, ${totals.warnings} warnings, ${totals.ignored} ignored (${seconds} s)`,
);
process.exitCode = totals.errors + totals.warnings > 0 ? 1 : 0;
