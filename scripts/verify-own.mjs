#!/usr/bin/env node
// `npm run verify-own`: a must-show check of POST /v1/verify, through the worker on workerd.
//   - Every PDF Quire's own /v1/sign makes verifies valid:true with its Quire signature(s)
//     trusted:true (the service's own certificate is a root): markdown converted by /v1/convert
//     (short, multi-page, without the audit certificate), a DOCX input, a reference PDF, a PDF
//     Quire signed once already, and make-signed-pdfs.sh's signed.pdf re-signed by Quire.
//   - make-signed-pdfs.sh's signed.pdf (poppler's pdfsig, its own test CA) verifies valid:true,
//     trusted:false with the default configuration, and trusted:true when a second worker is
//     started with its ca.crt in TRUSTED_ROOTS (where the re-signed one must be trusted throughout).
//   - Each PAdES level (B-B, B-T, B-LT, B-LTA, and a B-LTA PDF signed again at B-LTA), made by a
//     worker whose TSA_URL is a local OpenSSL TSA (local-tsa.mjs): valid:true with Quire's
//     signatures trusted; pdfsig "Signature is Valid." for every CAdES signature (poppler does
//     not implement /ETSI.RFC3161, so a document timestamp is judged by `openssl ts -verify`
//     over its ByteRange bytes, and each signature timestamp over its signature value); qpdf
//     --check clean; B-LT and above carry a /DSS, and X-Quire-Warnings says the development
//     identity names no OCSP responder or CRL distribution point.
// One line per case, every failing response in full, then the summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { root } from './local-setup.mjs';
import { startLocalTsa, verifyTimestampToken } from './local-tsa.mjs';
import { helpIfAsked } from './script-help.mjs';
import { auditTrail, LONG_MD, markdownPdf, SHORT_MD, signed, signer } from './signed-inputs.mjs';
import { fetchRetrying, startQuire } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

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

// 3. Each PAdES level, with a local OpenSSL TSA as TSA_URL.
const levels = { passed: 0, total: 0 };
const SIGNATURE_TIMESTAMP = '1.2.840.113549.1.9.16.2.14';
const latin1 = new TextDecoder('latin1');

/** POST /v1/sign at `level`, without the certificate pages; the PDF and the warnings header. */
async function signAt(quire, bytes, level) {
  const res = await fetchRetrying(quire, '/v1/sign', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      document: { base64: Buffer.from(bytes).toString('base64') },
      signer,
      auditTrail,
      level,
      certificate: { enabled: false },
    }),
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`/v1/sign ${level} answered ${res.status}: ${JSON.stringify(body)}`);
  return {
    pdf: new Uint8Array(Buffer.from(body.document.base64, 'base64')),
    warnings: res.headers.get('X-Quire-Warnings') ?? '',
  };
}

/** Every /ByteRange with its signed bytes and the DER of its /Contents (trimmed to its outer length). */
function signaturesOf(pdf) {
  const text = latin1.decode(pdf);
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((match) => {
    const [a, b, c, d] = match.slice(1, 5).map(Number);
    const der = Buffer.from(text.slice(a + b + 1, c - 1), 'hex');
    const outer = asn1js.fromBER(der);
    return {
      signedBytes: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]),
      der: der.subarray(0, outer.offset),
      coversAll: c + d === pdf.length,
    };
  });
}

/** pdfsig's blocks, one per signature: field name, type, validation line. */
function pdfsigBlocks(path) {
  const run = spawnSync('pdfsig', [path], { encoding: 'utf8' });
  return `${run.stdout}`
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      field: /Signature Field Name: (.*)/.exec(block)?.[1]?.trim(),
      type: /Signature Type: (.*)/.exec(block)?.[1]?.trim(),
      validation: /Signature Validation: (.*)/.exec(block)?.[1]?.trim(),
      total: /Total document signed/.test(block),
    }));
}

async function checkLevel(quire, name, pdf, warnings, expect, tsaCertificate, isOurs) {
  levels.total++;
  const path = join(work, `${name.replace(/[^A-Za-z0-9-]+/g, '_')}.pdf`);
  writeFileSync(path, pdf);
  const problems = [];
  const result = await verify(quire, pdf);
  const all = result.body.signatures ?? [];
  const ours = all.filter(isOurs);
  if (result.status !== 200 || result.body.valid !== true) problems.push(`verify: ${describe(result)}`);
  if (ours.length !== expect.signatures || !ours.every((s) => s.trusted === true)) {
    problems.push(
      `verify: ${ours.length}/${expect.signatures} Quire signatures, trusted ${ours.map((s) => s.trusted)}`,
    );
  }
  const blocks = pdfsigBlocks(path);
  const cades = blocks.filter((block) => block.type === 'ETSI.CAdES.detached');
  if (cades.length !== expect.signatures || !cades.every((block) => block.validation === 'Signature is Valid.')) {
    problems.push(`pdfsig: ${blocks.map((b) => `${b.field} ${b.type}: ${b.validation}`).join('; ')}`);
  }
  const signatures = signaturesOf(pdf);
  let stamps = 0;
  for (const signature of signatures) {
    const content = pkijs.ContentInfo.fromBER(signature.der);
    const signedData = new pkijs.SignedData({ schema: content.content });
    if (signedData.encapContentInfo.eContentType === '1.2.840.113549.1.9.16.1.4') {
      // A document timestamp (ISO 32000-2 §12.8.5): the token stamps the ByteRange bytes.
      const verdict = verifyTimestampToken(signature.der, signature.signedBytes, tsaCertificate);
      stamps++;
      if (!verdict.ok) problems.push(`openssl ts -verify (document timestamp): ${verdict.text}`);
      continue;
    }
    const signerInfo = signedData.signerInfos[0];
    const token = signerInfo?.unsignedAttrs?.attributes.find((a) => a.type === SIGNATURE_TIMESTAMP)?.values[0];
    if (token) {
      // RFC 3161 Appendix A: the signature timestamp stamps the signature value.
      const value = Buffer.from(signerInfo.signature.valueBlock.valueHexView);
      const verdict = verifyTimestampToken(Buffer.from(token.valueBeforeDecodeView), value, tsaCertificate);
      stamps++;
      if (!verdict.ok) problems.push(`openssl ts -verify (signature timestamp): ${verdict.text}`);
    }
  }
  if (stamps !== expect.timestamps) problems.push(`${stamps} timestamps checked, ${expect.timestamps} expected`);
  // B-LT ends with the DSS update after the signature, which covers its own revision; every other
  // level ends with a signature or document timestamp over the whole file.
  const endsWithDss = expect.last === 'dss';
  if (signatures.at(-1)?.coversAll !== !endsWithDss) {
    problems.push(
      endsWithDss
        ? 'the DSS update does not follow the signature'
        : 'the newest signature does not cover the whole file',
    );
  }
  const qpdf = spawnSync('qpdf', ['--check', path], { encoding: 'utf8' });
  const qpdfClean = qpdf.status === 0 && /No syntax or stream encoding errors found/.test(qpdf.stdout);
  if (!qpdfClean) problems.push(`qpdf --check: ${(qpdf.stdout + qpdf.stderr).trim().split('\n').slice(-3).join(' ')}`);
  const hasDss = latin1.decode(pdf).includes('/Type /DSS');
  if (hasDss !== expect.dss) problems.push(expect.dss ? 'no /DSS' : 'an unexpected /DSS');
  if (
    expect.dss &&
    !/Quire Development Signing.*names no OCSP responder and no CRL distribution point/.test(warnings)
  ) {
    problems.push(`X-Quire-Warnings: ${warnings || '(none)'}`);
  }
  const ok = problems.length === 0;
  if (ok) levels.passed++;
  const pdfsigSummary = blocks.map((b) => `${b.field}: ${b.validation}`).join(', ');
  report(
    name,
    ok,
    ok
      ? `valid:true, pdfsig [${pdfsigSummary}], ${stamps} timestamp(s) OK by openssl, qpdf clean`
      : problems.join(' | '),
    result,
  );
}

{
  const tsa = await startLocalTsa();
  quire = await startQuire({ vars: { TSA_URL: tsa.url } });
  try {
    const keyRes = await fetchRetrying(quire, '/v1/verify/key', {});
    const serviceSha256 = fingerprint((await keyRes.json()).sha256);
    const isOurs = (signature) => fingerprint(signature.signer?.certificate?.sha256) === serviceSha256;
    const short = await markdownPdf(quire, work, 'levels', SHORT_MD);
    const expected = {
      'B-B': { signatures: 1, timestamps: 0, dss: false, last: 'signature' },
      'B-T': { signatures: 1, timestamps: 1, dss: false, last: 'signature' },
      'B-LT': { signatures: 1, timestamps: 1, dss: true, last: 'dss' },
      'B-LTA': { signatures: 1, timestamps: 2, dss: true, last: 'document timestamp' },
    };
    let blta;
    for (const [level, expect] of Object.entries(expected)) {
      const { pdf, warnings } = await signAt(quire, short, level);
      if (level === 'B-LTA') blta = pdf;
      await checkLevel(quire, `level ${level}`, pdf, warnings, expect, tsa.certificatePath, isOurs);
    }
    const again = await signAt(quire, blta, 'B-LTA');
    await checkLevel(
      quire,
      'level B-LTA, signed again at B-LTA',
      again.pdf,
      again.warnings,
      { signatures: 2, timestamps: 4, dss: true, last: 'document timestamp' },
      tsa.certificatePath,
      isOurs,
    );
  } finally {
    await quire.dispose();
    await tsa.close();
  }
}
rmSync(work, { recursive: true, force: true });

for (const { name, response } of failures) {
  console.log(`\n${name}: HTTP ${response?.status}\n${JSON.stringify(response?.body, null, 2)}`);
}
const yesNo = (value) => (value === undefined ? 'not run' : value ? 'yes' : 'NO');
console.log(
  `\nown-signed ${ownPassed}/${ownTotal} valid+trusted  levels ${levels.passed}/${levels.total} (verify, pdfsig, openssl ts, qpdf)  make-signed-pdfs valid ${yesNo(made3.valid)}  untrusted-without-root ${yesNo(made3.untrustedWithout)}  trusted-with-root ${yesNo(made3.trustedWith)}  re-signed-trusted-with-root ${yesNo(made3.resignedTrustedWith)}`,
);
process.exitCode = failures.length || !madeOk ? 1 : 0;
