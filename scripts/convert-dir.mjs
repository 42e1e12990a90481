#!/usr/bin/env node
// `npm run convert-dir -- IN OUT [--to pdf|docx]`: converts every .docx, .md and .html under IN
// (IN/<category>/<name>.<ext>) to OUT/<category>__<name>.<to> through the worker on workerd (in
// process): the naming ../shared/tools expect. A DOCX only converts to PDF.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { helpIfAsked } from './script-help.mjs';
import { convertFile, sourceFiles, startQuire } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const toAt = args.indexOf('--to');
const to = toAt >= 0 ? args.splice(toAt, 2)[1] : 'pdf';
const [input, output] = args;
if (!input || !output || (to !== 'pdf' && to !== 'docx')) {
  console.error('Usage: npm run convert-dir -- IN OUT [--to pdf|docx]');
  process.exit(2);
}
mkdirSync(output, { recursive: true });
const quire = await startQuire();
let failed = 0;
try {
  const files = sourceFiles(resolve(input), to === 'pdf' ? ['docx', 'md', 'html'] : ['md', 'html']);
  for (const file of files) {
    const result = await convertFile(quire, file, to);
    const target = join(output, `${file.category ? `${file.category}__` : ''}${file.name}.${to}`);
    if (result.status === 200) writeFileSync(target, result.body);
    else {
      failed++;
      console.error(
        `${file.category}/${file.name}: ${result.status} ${new TextDecoder().decode(result.body).slice(0, 300)}`,
      );
    }
    const warnings = result.warnings ? `  (${result.warnings} warnings)` : '';
    console.log(
      `${result.status} ${result.ms.toFixed(0).padStart(6)} ms ${String(result.pages).padStart(4)} p  ${file.category}/${file.name}.${file.extension}${warnings}`,
    );
  }
} finally {
  await quire.dispose();
}
process.exitCode = failed ? 1 : 0;
