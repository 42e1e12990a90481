#!/usr/bin/env node
// `npm run verify-own`: a must-show check of POST /v1/verify, through the worker on workerd.
//   - Every PDF Quire's own /v1/sign makes verifies valid:true with its Quire signature(s)
//     trusted:true (the service's own certificate is a root): markdown converted by /v1/convert
//     (short, multi-page, without the audit certificate), a DOCX input, a reference PDF, a PDF
//     Quire signed once already, and make-signed-pdfs.sh's signed.pdf re-signed by Quire.
//   - make-signed-pdfs.sh's signed.pdf (poppler's pdfsig, its own test CA) verifies valid:true,
//     trusted:false with the default configuration, and trusted:true when a second worker is
//     started with its ca.crt in TRUSTED_ROOTS (where the re-signed one must be trusted throughout).
// One line per case, every failing response in full, then the summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { root } from './local-setup.mjs';
import { LONG_MD, markdownPdf, SHORT_MD, signed } from './signed-inputs.mjs';
import { fetchRetrying, startQuire } from './worker-harness.mjs';

const corpus = resolve(root, '..', 'shared', 'corpus');
const work = mkdtempSync(join(tmpdir(), 'quire-verify-own-'));

async function verify(quire, bytes) {
  const res = await fetchRetrying(quire, '/v1/verify', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ document: { base64: Buffer.from(bytes).toString('base64') } }),
  });
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

const fingerprint = (value) =>
  String(value ?? '')
    .replace(/:/g, '')
    .toLowerCase();

// make-signed-pdfs.sh: signed.pdf and its CA, made now.
const fixtures = join(work, 'fixtures');
const made = spawnSync('bash', [resolve(corpus, '..', 'tools', 'make-signed-pdfs.sh'), fixtures], { encoding: 'utf8' });
const madeOk = made.status === 0 && existsSync(join(fixtures, 'signed.pdf')) && existsSync(join(fixtures, 'ca.crt'));
if (!madeOk) console.log(`make-signed-pdfs.sh failed: ${made.stderr.slice(-400)}`);
const madeSigned = madeOk ? new Uint8Array(readFileSync(join(fixtures, 'signed.pdf'))) : undefined;
const madeCa = madeOk ? readFileSync(join(fixtures, 'ca.crt'), 'utf8') : undefined;

const lines = [];
const failures = [];
let ownPassed = 0;
let ownTotal = 0;
/** Results of the make-signed-pdfs checks, by name; undefined when not run. */
const made3 = { valid: undefined, untrustedWithout: undefined, trustedWith: undefined, resignedTrustedWith: undefined };

function report(name, ok, detail, response) {
  const line = `${ok ? 'ok  ' : 'FAIL'}  ${name.padEnd(44)} ${detail}`;
  console.log(line);
  lines.push(line);
  if (!ok) failures.push({ name, response });
}

function describe({ status, body }) {
  if (status !== 200) return `HTTP ${status} ${body.code ?? ''}: ${body.message ?? ''}`;
  const sigs = (body.signatures ?? []).map(
    (s) => `[${s.field} ${s.signer?.name ?? '?'}: ${s.intact ? 'intact' : 'NOT intact'}, ${s.trust}]`,
  );
  return `valid:${body.valid} ${sigs.join(' ')}  (${body.reason})`;
}

// 1. The default configuration: the service's certificate is the only root.
let quire = await startQuire();
let resignedMade;
try {
  const keyRes = await fetchRetrying(quire, '/v1/verify/key', {});
  const serviceSha256 = fingerprint((await keyRes.json()).sha256);
  const isOurs = (signature) => fingerprint(signature.signer?.certificate?.sha256) === serviceSha256;

  const short = await markdownPdf(quire, work, 'short', SHORT_MD);
  const long = await markdownPdf(quire, work, 'long', LONG_MD);
  const shortSigned = await signed(quire, short, { eventId: 'own-short' });
  const cases = [
    ['markdown (short) → convert → sign', shortSigned],
    ['markdown (multi-page) → convert → sign', await signed(quire, long, { eventId: 'own-long' })],
    ['markdown → sign, certificate disabled', await signed(quire, short, { certificate: { enabled: false } })],
    ['PDF signed by Quire, signed again', await signed(quire, shortSigned, { eventId: 'own-twice' })],
    [
      'PDF signed by Quire, signed again, no cert.',
      await signed(quire, shortSigned, { eventId: 'own-twice-nc', certificate: { enabled: false } }),
    ],
  ];
  const docx = join(corpus, 'docx', 'general', 'oxsdk-msdn-eula-contract.docx');
  if (existsSync(docx)) cases.push(['DOCX input → sign', await signed(quire, readFileSync(docx))]);
  const reference = join(corpus, 'reference-pdf', 'general', 'docx4j-word-addin-walkthrough.pdf');
  if (existsSync(reference))
    cases.push(['reference PDF (corpus) → sign', await signed(quire, readFileSync(reference))]);
  if (madeSigned) {
    resignedMade = await signed(quire, madeSigned, { eventId: 'own-over-pdfsig' });
    cases.push(['make-signed-pdfs signed.pdf → sign', resignedMade]);
    cases.push([
      'make-signed-pdfs signed.pdf → sign, no cert.',
      await signed(quire, madeSigned, { eventId: 'own-over-pdfsig-nc', certificate: { enabled: false } }),
    ]);
  }

  for (const [name, pdf] of cases) {
    ownTotal++;
    const result = await verify(quire, pdf);
    const ours = (result.body.signatures ?? []).filter(isOurs);
    const expectedOurs = name.includes('signed again') ? 2 : 1;
    const expectedAll = name.includes('make-signed-pdfs') ? 2 : expectedOurs;
    const ok =
      result.status === 200 &&
      result.body.valid === true &&
      ours.length === expectedOurs &&
      result.body.signatures.length === expectedAll &&
      ours.every((s) => s.trusted === true && s.trust === 'trusted');
    if (ok) ownPassed++;
    report(name, ok, `${describe(result)}  Quire signatures ${ours.length}/${expectedOurs}`, result);
  }

  if (madeSigned) {
    const result = await verify(quire, madeSigned);
    const signatures = result.body.signatures ?? [];
    made3.valid = result.status === 200 && result.body.valid === true && signatures.length === 1;
    made3.untrustedWithout = made3.valid && signatures.every((s) => s.trusted === false);
    report(
      'make-signed-pdfs signed.pdf (no extra roots)',
      made3.valid && made3.untrustedWithout,
      describe(result),
      result,
    );
  }
} finally {
  await quire.dispose();
}

// 2. A worker with make-signed-pdfs.sh's CA in TRUSTED_ROOTS.
if (madeSigned) {
  quire = await startQuire({ vars: { TRUSTED_ROOTS: madeCa } });
  try {
    const result = await verify(quire, madeSigned);
    const signatures = result.body.signatures ?? [];
    made3.trustedWith =
      result.status === 200 && result.body.valid === true && signatures.length === 1 && signatures[0].trusted === true;
    report('make-signed-pdfs signed.pdf (TRUSTED_ROOTS=ca.crt)', made3.trustedWith, describe(result), result);
    const resigned = await verify(quire, resignedMade);
    const all = resigned.body.signatures ?? [];
    made3.resignedTrustedWith =
      resigned.status === 200 &&
      resigned.body.valid === true &&
      all.length === 2 &&
      all.every((s) => s.trusted === true);
    report('re-signed signed.pdf (TRUSTED_ROOTS=ca.crt)', made3.resignedTrustedWith, describe(resigned), resigned);
  } finally {
    await quire.dispose();
  }
}
rmSync(work, { recursive: true, force: true });

for (const { name, response } of failures) {
  console.log(`\n${name}: HTTP ${response?.status}\n${JSON.stringify(response?.body, null, 2)}`);
}
const yesNo = (value) => (value === undefined ? 'not run' : value ? 'yes' : 'NO');
console.log(
  `\nown-signed ${ownPassed}/${ownTotal} valid+trusted  make-signed-pdfs valid ${yesNo(made3.valid)}  untrusted-without-root ${yesNo(made3.untrustedWithout)}  trusted-with-root ${yesNo(made3.trustedWith)}  re-signed-trusted-with-root ${yesNo(made3.resignedTrustedWith)}`,
);
process.exitCode = failures.length || !madeOk ? 1 : 0;
