// Signed-PDF inputs the verify scripts (verify-fuzz, verify-own) make through the worker itself:
// markdown converted to PDF, then signed by POST /v1/sign. Built at run time, never from the corpus.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertFile, signWithQuire } from './worker-harness.mjs';

export const signer = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  ip: '203.0.113.7',
  userAgent: 'QuireScripts/1.0',
};
export const auditTrail = [
  { type: 'view', timestamp: '2026-11-22T10:00:05Z', data: { page: 1 } },
  { type: 'submit', timestamp: '2026-11-22T10:02:10Z', data: { fields: 3 } },
];

/** POST /v1/sign with the scripts' signer and audit trail, plus `extra` (eventId, certificate). */
export function signed(quire, bytes, extra = {}) {
  return signWithQuire(quire, bytes, { signer, auditTrail, ...extra });
}

/** `markdown` written to WORK/NAME.md and converted to PDF by POST /v1/convert. */
export async function markdownPdf(quire, work, name, markdown) {
  const path = join(work, `${name}.md`);
  writeFileSync(path, markdown);
  const converted = await convertFile(quire, { path, name, extension: 'md' }, 'pdf');
  if (converted.status !== 200) throw new Error(`/v1/convert answered ${converted.status} for ${name}.md`);
  return converted.body;
}

export const SHORT_MD =
  '# Service agreement\n\nThe parties agree to the terms below.\n\n- Term: 12 months\n- Fee: 100 EUR\n';
export const LONG_MD = [
  '# Master agreement',
  ...Array.from(
    { length: 40 },
    (_, i) =>
      `## Clause ${i + 1}\n\n${'The supplier shall deliver the services with due care and skill, and the customer shall pay the fees when due. '.repeat(4)}\n\n| item | amount |\n|---|---|\n| ${i} | ${i * 10} |`,
  ),
].join('\n\n');
