#!/usr/bin/env node
// `node scripts/verify-levels.mjs FILE.pdf… [--online]`: POST /v1/verify, through the worker on
// workerd, for each signed PDF named, and print per signature its field, level, revocation and
// source, trust, and the problems about revocation, timestamps and levels. --online sets
// REVOCATION_CHECK=online (the worker then fetches OCSP responses and CRLs itself).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { startQuire } from './worker-harness.mjs';

const args = process.argv.slice(2);
const files = args.filter((arg) => !arg.startsWith('--'));
if (files.length === 0) {
  console.error('usage: node scripts/verify-levels.mjs FILE.pdf… [--online]');
  process.exit(2);
}
const quire = await startQuire({ vars: args.includes('--online') ? { REVOCATION_CHECK: 'online' } : {} });
try {
  for (const file of files) {
    const res = await quire.fetch('/v1/verify', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ document: { base64: readFileSync(file).toString('base64') } }),
    });
    const body = await res.json();
    console.log(`${basename(file)}: HTTP ${res.status} valid=${body.valid}`);
    for (const s of body.signatures ?? []) {
      console.log(
        `  ${s.field.padEnd(24)} ${String(s.subFilter).padEnd(22)} level=${String(s.level).padEnd(6)} revocation=${s.revocation}${s.revocationSource ? ` (${s.revocationSource})` : ''} trust=${s.trust} signedAt=${s.signedAt} timestamp=${s.timestamp ? `${s.timestamp.time} verified=${s.timestamp.verified}` : 'none'}`,
      );
      for (const problem of s.problems) {
        if (/revocation|timestamp|PAdES|DSS|revoked/i.test(problem)) console.log(`      - ${problem}`);
      }
    }
  }
} finally {
  await quire.dispose();
}
