#!/usr/bin/env node
// `npm run sign-check -- [--out DIR]`: the sign figures, with poppler, NSS, qpdf and OpenSSL as
// external judges (apt-get install poppler-utils libnss3-tools qpdf openssl ghostscript).
// Signs, through the worker on workerd, every unsigned PDF of the shared corpus
// (reference-pdf/**, pdf-signed/*unsigned*), three DOCX files, and a PDF already signed by
// ../shared/tools/make-signed-pdfs.sh; then for each output:
//   - pdfsig with an NSS database trusting the development CA: every signature "Signature is
//     Valid.", Quire's "Total document signed" and "Certificate is Trusted.";
//   - qpdf --check clean;
//   - the CMS of Quire's signature: `openssl cms -verify` over the ByteRange bytes, and
//     `openssl cms -cmsout -print` shows signingCertificateV2 and no signingTime;
//   - pdftotext of the certificate pages names the signer, email, IP, user agent, every event's
//     time, the event id and the document hash.
import { spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ensureDevVars, root } from './local-setup.mjs';
import { helpIfAsked } from './script-help.mjs';
import { startQuire } from './worker-harness.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(outAt >= 0 ? args.splice(outAt, 2)[1] : '/tmp/quire-sign');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const corpus = resolve(root, '..', 'shared', 'corpus');

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
const inputs = [
  ...walk(join(corpus, 'reference-pdf')).filter((path) => path.endsWith('.pdf')),
  ...readdirSync(join(corpus, 'pdf-signed'))
    .filter((name) => /unsigned.*\.pdf$/.test(name))
    .map((name) => join(corpus, 'pdf-signed', name)),
  join(corpus, 'docx', 'general', 'aspose-big-document-13pp.docx'),
  join(corpus, 'docx', 'general', 'oxsdk-msdn-eula-contract.docx'),
  join(corpus, 'docx', 'tables-multipage', 'poi-bug59058-cancer-statistics.docx'),
];

// A PDF signed by an independent signer (poppler's pdfsig, its own test PKI).
const fixtures = join(out, 'fixtures');
const made = spawnSync('bash', [resolve(corpus, '..', 'tools', 'make-signed-pdfs.sh'), fixtures], {
  encoding: 'utf8',
});
if (made.status === 0 && existsSync(join(fixtures, 'signed.pdf'))) inputs.push(join(fixtures, 'signed.pdf'));
else console.log(`make-signed-pdfs.sh failed: ${made.stderr.slice(-400)}`);

// The development CA: the last certificate of SIGNING_CERT_CHAIN in .dev.vars (made now if missing).
await ensureDevVars();
const devVars = readFileSync(join(root, '.dev.vars'), 'utf8');
const chainLine = /^SIGNING_CERT_CHAIN=(.*)$/m.exec(devVars)?.[1] ?? '';
const chainPem = chainLine.replace(/^"|"$/g, '').replace(/\\n/g, '\n');
const pems = chainPem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
const caPem = pems.at(-1);
const nss = join(out, 'nssdb');
mkdirSync(nss, { recursive: true });
spawnSync('certutil', ['-N', '-d', `sql:${nss}`, '--empty-password']);
if (caPem) {
  writeFileSync(join(out, 'dev-ca.pem'), `${caPem}\n`);
  spawnSync('certutil', [
    '-A',
    '-d',
    `sql:${nss}`,
    '-n',
    'Quire Dev CA',
    '-t',
    'CT,C,C',
    '-i',
    join(out, 'dev-ca.pem'),
  ]);
  if (existsSync(join(fixtures, 'ca.crt'))) {
    spawnSync('certutil', [
      '-A',
      '-d',
      `sql:${nss}`,
      '-n',
      'Test Root CA',
      '-t',
      'CT,C,C',
      '-i',
      join(fixtures, 'ca.crt'),
    ]);
  }
} else console.log('no SIGNING_CERT_CHAIN in .dev.vars: trust cannot be checked');

const signer = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  ip: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (QuireCheck) Gecko/20100101',
};
const auditTrail = [
  { type: 'ready', timestamp: '2026-11-22T09:58:00Z' },
  { type: 'view', timestamp: '2026-11-22T10:00:05+01:00', data: { page: 1 } },
  { type: 'field_change', timestamp: '2026-11-22T09:01:30Z', data: { field: 'name', value: 'Ada' } },
  { type: 'submit', timestamp: '2026-11-22T09:02:10Z', data: { fields: 3 } },
];

const quire = await startQuire();
const rows = [];
try {
  for (const path of inputs) {
    const eventId = `check-${rows.length + 1}-${basename(path).slice(0, 20)}`;
    const started = performance.now();
    const res = await quire.fetch('/v1/sign', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        document: { base64: readFileSync(path).toString('base64') },
        signer,
        auditTrail,
        eventId,
      }),
    });
    const body = await res.json();
    const ms = performance.now() - started;
    const row = {
      path,
      status: res.status,
      ms,
      eventId,
      error: res.status === 200 ? undefined : body,
      // An already signed input is signed without certificate pages (docs/design.md "Sign").
      omitted: res.headers.get('X-Quire-Certificate-Omitted'),
    };
    if (res.status === 200) {
      row.signed = join(out, `${basename(path).replace(/\.(pdf|docx)$/, '')}.signed.pdf`);
      writeFileSync(row.signed, Buffer.from(body.document.base64, 'base64'));
      row.sourceSha256 = path.endsWith('.pdf')
        ? createHash('sha256').update(readFileSync(path)).digest('hex')
        : undefined;
    }
    rows.push(row);
  }
} finally {
  await quire.dispose();
}

/** The last signature's CMS and the bytes its ByteRange covers. */
function lastSignature(pdf) {
  const text = pdf.toString('latin1');
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges.at(-1);
  if (!last) return undefined;
  const [a, b, c, d] = last.slice(1).map(Number);
  const hex = text.slice(a + b + 1, c - 1).replace(/0+$/, '');
  const cms = Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
  const content = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  return { cms, content, coversAll: c + d === pdf.length && a === 0 };
}

let passed = 0;
console.log('status  pdfsig valid/trusted/total  qpdf  cms verify  attrs  certificate page  ms  file');
for (const row of rows) {
  const name = basename(row.path);
  if (row.status !== 200) {
    console.log(
      `${row.status}  -  -  -  -  -  ${row.ms.toFixed(0)}  ${name}  ${row.error?.code}: ${row.error?.message}`,
    );
    continue;
  }
  const sig = spawnSync('pdfsig', ['-nssdir', `sql:${nss}`, row.signed], { encoding: 'utf8' }).stdout ?? '';
  // Empty signature fields ("not signed") and placeholders without a signer are not signatures.
  const blocks = sig
    .split(/^Signature #\d+:/m)
    .slice(1)
    .filter((block) => /Signer Certificate Common Name: (?!\(null\))/.test(block));
  const validAll = blocks.length > 0 && blocks.every((block) => block.includes('Signature is Valid.'));
  const ours = blocks.at(-1) ?? '';
  const trusted = ours.includes('Certificate is Trusted.');
  const total = ours.includes('Total document signed');
  const qpdf = spawnSync('qpdf', ['--check', row.signed], { encoding: 'utf8' });
  const qpdfClean = qpdf.status === 0 && !/WARNING/i.test(`${qpdf.stdout}${qpdf.stderr}`);
  const pdf = readFileSync(row.signed);
  const signature = lastSignature(pdf);
  let cmsOk = false;
  let attrsOk = false;
  if (signature) {
    writeFileSync(join(out, 'sig.der'), signature.cms);
    writeFileSync(join(out, 'content.bin'), signature.content);
    const verify = spawnSync(
      'openssl',
      [
        'cms',
        '-verify',
        '-inform',
        'DER',
        '-in',
        join(out, 'sig.der'),
        '-content',
        join(out, 'content.bin'),
        '-binary',
        '-noverify',
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ],
      { encoding: 'utf8' },
    );
    cmsOk = verify.status === 0 && /Verification successful/.test(verify.stderr);
    const printed =
      spawnSync('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', join(out, 'sig.der')], {
        encoding: 'utf8',
      }).stdout ?? '';
    attrsOk = /signingCertificateV2|id-smime-aa-signingCertificateV2/.test(printed) && !/signingTime/.test(printed);
  }
  const pageText = spawnSync('pdftotext', ['-layout', row.signed, '-'], { encoding: 'utf8' }).stdout ?? '';
  const flat = pageText.replace(/\s+/g, ' ');
  const needles = [
    signer.name,
    signer.email,
    signer.ip,
    'QuireCheck',
    row.eventId,
    '09:01:30',
    '09:02:10',
    '09:58:00',
    '09:00:05',
  ];
  if (row.sourceSha256) needles.push(row.sourceSha256.slice(0, 16));
  const missing = row.omitted
    ? []
    : needles.filter((needle) => !flat.replace(/ /g, '').includes(needle.replace(/ /g, '')));
  const ok = validAll && trusted && total && qpdfClean && cmsOk && attrsOk && missing.length === 0;
  if (ok) passed++;
  console.log(
    `200  ${validAll ? 'valid' : 'INVALID'}(${blocks.length})/${trusted ? 'trusted' : 'UNTRUSTED'}/${total ? 'total' : 'PARTIAL'}  ${qpdfClean ? 'clean' : 'QPDF'}  ${cmsOk ? 'ok' : 'FAIL'}  ${attrsOk ? 'ok' : 'FAIL'}  ${missing.length ? `missing ${missing.join(',')}` : row.omitted ? 'omitted (already signed)' : 'ok'}  ${row.ms.toFixed(0)}  ${name}${ok ? '' : '  <-'}`,
  );
  if (!qpdfClean) console.log(`    qpdf: ${`${qpdf.stdout}${qpdf.stderr}`.trim().split('\n').slice(0, 3).join(' | ')}`);
}
console.log(
  `signed ${rows.filter((row) => row.status === 200).length}/${rows.length}  passing every check ${passed}/${rows.length}`,
);
if (caPem) {
  const ca = new X509Certificate(caPem);
  console.log(`development CA: ${ca.subject.replace(/\n/g, ', ')} (sha256 ${ca.fingerprint256})`);
}
