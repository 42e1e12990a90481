#!/usr/bin/env node
// `npm run convert-dir -- IN OUT`: converts IN/<category>/<name>.docx to OUT/<category>__<name>.pdf
// through the worker on workerd (in process), the naming ../shared/tools expect.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { convertFile, docxFiles, startQuire } from './worker-harness.mjs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('Usage: npm run convert-dir -- IN OUT');
  process.exit(2);
}
mkdirSync(output, { recursive: true });
const quire = await startQuire();
let failed = 0;
try {
  for (const file of docxFiles(resolve(input))) {
    const result = await convertFile(quire, file);
    const target = join(output, `${file.category ? `${file.category}__` : ''}${file.name}.pdf`);
    if (result.status === 200) writeFileSync(target, result.body);
    else {
      failed++;
      console.error(
        `${file.category}/${file.name}: ${result.status} ${new TextDecoder().decode(result.body).slice(0, 300)}`,
      );
    }
    console.log(
      `${result.status} ${result.ms.toFixed(0).padStart(6)} ms ${String(result.pages).padStart(4)} p  ${file.category}/${file.name}`,
    );
  }
} finally {
  await quire.dispose();
}
process.exitCode = failed ? 1 : 0;
