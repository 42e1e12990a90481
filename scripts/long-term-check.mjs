#!/usr/bin/env node
// `npm run long-term-check -- [--out DIR]`: PAdES B-LT and B-LTA against independent servers.
// OpenSSL plays every party: a PKI made with `openssl req`/`x509`/`ca` (root CA, issuing CA, an
// RSA signer whose AIA names an OCSP responder and whose CRL distribution point names the
// issuing CA's CRL, a delegated OCSP responder), `openssl ocsp` as the responder, `openssl ca
// -gencrl` for the CRLs, `openssl ts -reply` as the TSA (local-tsa.mjs). Quire's signer
// (signDocument, bundled by esbuild and run under Node) gets a fetch that sends the certificates'
// host names (ocsp.quire.test, crl.quire.test) to those local servers, so the address guard
// still sees public names. Then:
//   - collectRevocationData on the chain: OpenSSL's OCSP answer (by GET) and the root's CRL,
//     no problems; with the signer revoked in OpenSSL's index: the problem says so;
//   - B-LT and B-LTA PDFs: pdfsig "Signature is Valid." for the signature, qpdf --check clean,
//     `openssl ocsp -respin` verifies every OCSP response the /DSS holds and `openssl crl
//     -CAfile` every CRL, `openssl ts -verify` the document timestamp over its ByteRange bytes.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PDFArray, PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { root } from './local-setup.mjs';
import { startLocalTsa, verifyTimestampToken } from './local-tsa.mjs';
import { helpIfAsked } from './script-help.mjs';
import { bundleWorkerCode } from './worker-bundle.mjs';

helpIfAsked(import.meta.url);

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(outAt >= 0 ? args[outAt + 1] : '/tmp/quire-long-term');
rmSync(out, { recursive: true, force: true });
const pki = join(out, 'pki');
mkdirSync(pki, { recursive: true });

function openssl(argv, options = {}) {
  const result = spawnSync('openssl', argv, { encoding: 'utf8', cwd: pki, ...options });
  if (result.status !== 0) throw new Error(`openssl ${argv.slice(0, 2).join(' ')} failed: ${result.stderr.trim()}`);
  return `${result.stdout}${result.stderr}`;
}

// --- The PKI --------------------------------------------------------------------------------
const ext = (name, lines) => writeFileSync(join(pki, `${name}.ext`), `${lines.join('\n')}\n`);
ext('issuing', [
  'basicConstraints=critical,CA:TRUE,pathlen:0',
  'keyUsage=critical,keyCertSign,cRLSign',
  'subjectKeyIdentifier=hash',
  'authorityKeyIdentifier=keyid',
  'crlDistributionPoints=URI:http://crl.quire.test/root.crl',
]);
ext('signer', [
  'basicConstraints=critical,CA:FALSE',
  'keyUsage=critical,digitalSignature,nonRepudiation',
  'subjectKeyIdentifier=hash',
  'authorityKeyIdentifier=keyid',
  'authorityInfoAccess=OCSP;URI:http://ocsp.quire.test/',
  'crlDistributionPoints=URI:http://crl.quire.test/issuing.crl',
]);
ext('responder', [
  'basicConstraints=critical,CA:FALSE',
  'keyUsage=critical,digitalSignature',
  'extendedKeyUsage=OCSPSigning',
  'subjectKeyIdentifier=hash',
  'authorityKeyIdentifier=keyid',
]);
const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
openssl([
  'req',
  '-x509',
  ...ec,
  '-keyout',
  'root.key',
  '-out',
  'root.pem',
  '-days',
  '3650',
  '-subj',
  '/CN=Long-Term Check Root/O=Quire (development only)',
  '-addext',
  'basicConstraints=critical,CA:TRUE',
  '-addext',
  'keyUsage=critical,keyCertSign,cRLSign',
]);
function issue(name, subject, issuer, key = ec) {
  openssl(['req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  openssl([
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${issuer}.pem`,
    '-CAkey',
    `${issuer}.key`,
    '-CAcreateserial',
    '-days',
    '365',
    '-sha256',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.pem`,
  ]);
}
issue('issuing', '/CN=Long-Term Check Issuing CA/O=Quire (development only)', 'root');
issue('signer', '/CN=Long-Term Check Signer/O=Quire (development only)', 'issuing', ['-newkey', 'rsa:2048', '-nodes']);
issue('responder', '/CN=Long-Term Check OCSP Responder/O=Quire (development only)', 'issuing');
writeFileSync(
  join(pki, 'chain.pem'),
  ['signer', 'issuing', 'root'].map((n) => readFileSync(join(pki, `${n}.pem`))).join(''),
);
writeFileSync(join(pki, 'cas.pem'), ['issuing', 'root'].map((n) => readFileSync(join(pki, `${n}.pem`))).join(''));

/** An `openssl ca` database for `name` listing `issued` (cert files) valid, or revoked when asked. */
function caDatabase(name, issued, revoked = []) {
  const dir = join(pki, `${name}-db`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'crlnumber'), '01\n');
  const config = join(dir, 'ca.cnf');
  writeFileSync(
    config,
    [
      '[ ca ]',
      'default_ca = this',
      '[ this ]',
      `database = ${join(dir, 'index.txt')}`,
      `crlnumber = ${join(dir, 'crlnumber')}`,
      `certificate = ${join(pki, `${name}.pem`)}`,
      `private_key = ${join(pki, `${name}.key`)}`,
      'default_md = sha256',
      'default_crl_days = 7',
      '',
    ].join('\n'),
  );
  for (const cert of issued) openssl(['ca', '-config', config, '-valid', `${cert}.pem`]);
  for (const cert of revoked)
    openssl(['ca', '-config', config, '-revoke', `${cert}.pem`, '-crl_reason', 'keyCompromise']);
  openssl(['ca', '-config', config, '-gencrl', '-out', join(dir, `${name}.crl.pem`)]);
  openssl(['crl', '-in', join(dir, `${name}.crl.pem`), '-outform', 'DER', '-out', join(dir, `${name}.crl`)]);
  return { index: join(dir, 'index.txt'), crl: join(dir, `${name}.crl`) };
}

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * `openssl ocsp` as the responder for the issuing CA's database, until stopped. Ready once it says
 * it waits for clients: a probe would be a request to it (a bad one stops it; with -ignore_err,
 * OpenSSL 3.0 spins on a connection closed unanswered).
 */
async function startResponder(index) {
  const port = await freePort();
  const child = spawn(
    'openssl',
    [
      'ocsp',
      '-index',
      index,
      '-port',
      String(port),
      '-rsigner',
      'responder.pem',
      '-rkey',
      'responder.key',
      '-CA',
      'issuing.pem',
      '-ndays',
      '1',
    ],
    { cwd: pki, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`openssl ocsp did not start: ${output}`)), 10_000);
    const listen = (chunk) => {
      output += chunk;
      if (/waiting for OCSP client connections/.test(output)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout.on('data', listen);
    child.stderr.on('data', listen);
    child.on('exit', () => fail(new Error(`openssl ocsp exited: ${output}`)));
  });
  return { port, stop: () => child.kill() };
}

/** The CRLs over HTTP, by path. */
async function startCrlServer(files) {
  const server = createHttpServer((req, res) => {
    const file = files[req.url];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/pkix-crl' }).end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { port: server.address().port, stop: () => new Promise((r) => server.close(r)) };
}

/** A fetch that sends the certificates' host names to the local servers (the guard checked the names). */
function localFetch(ports) {
  return (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input.url);
    const port = ports[url.hostname];
    if (!port) return Promise.reject(new TypeError(`no local server for ${url.hostname}`));
    return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, init);
  };
}

// --- Quire's code, bundled for Node -----------------------------------------------------------
async function bundleQuire() {
  const outfile = join(out, 'long-term-entry.mjs');
  await bundleWorkerCode(join(root, 'scripts', 'long-term-entry.ts'), outfile, {
    // The engine is in the bundle (the audit certificate), never run here: its wasm stays out.
    plugins: [
      {
        name: 'no-wasm',
        setup(builder) {
          builder.onResolve({ filter: /\.wasm$/ }, (a) => ({ path: a.path, namespace: 'no-wasm' }));
          builder.onLoad({ filter: /.*/, namespace: 'no-wasm' }, () => ({
            contents: 'export default undefined;',
            loader: 'js',
          }));
        },
      },
    ],
  });
  return import(pathToFileURL(outfile).href);
}

const lines = [];
let failed = 0;
function report(name, ok, detail) {
  if (!ok) failed++;
  const line = `${ok ? 'ok  ' : 'FAIL'}  ${name.padEnd(48)} ${detail}`;
  console.log(line);
  lines.push(line);
}

const quire = await bundleQuire();
const chainDer = ['signer', 'issuing', 'root'].map((name) => {
  openssl(['x509', '-in', `${name}.pem`, '-outform', 'DER', '-out', `${name}.der`]);
  return new Uint8Array(readFileSync(join(pki, `${name}.der`)));
});
const rootDb = caDatabase('root', ['issuing']);
const tsa = await startLocalTsa();
const stops = [() => tsa.close()];
try {
  for (const revoked of [false, true]) {
    const issuingDb = caDatabase(
      'issuing',
      revoked ? ['responder'] : ['signer', 'responder'],
      revoked ? ['signer'] : [],
    );
    const responder = await startResponder(issuingDb.index);
    const crls = await startCrlServer({ '/root.crl': rootDb.crl, '/issuing.crl': issuingDb.crl });
    try {
      const fetch = localFetch({ 'ocsp.quire.test': responder.port, 'crl.quire.test': crls.port });
      const data = await quire.collectRevocationData(chainDer, quire.checkX509Signature, { fetch });
      if (!revoked) {
        report(
          'collectRevocationData: OpenSSL responder and CRL',
          data.ocsps.length === 1 && data.crls.length === 1 && data.problems.length === 0,
          `${data.ocsps.length} OCSP, ${data.crls.length} CRL, problems: ${data.problems.join('; ') || 'none'}`,
        );
      } else {
        const said = data.problems.some((p) =>
          /"Long-Term Check Signer" is revoked according to OCSP responder .*reason keyCompromise/.test(p),
        );
        report(
          'collectRevocationData: signer revoked in OpenSSL',
          said && data.ocsps.length === 1,
          data.problems.join('; '),
        );
        continue;
      }

      const identity = await quire.loadSigningIdentity(
        readFileSync(join(pki, 'signer.key'), 'utf8'),
        readFileSync(join(pki, 'chain.pem'), 'utf8'),
      );
      const unsigned = await PDFDocument.create();
      unsigned.addPage([300, 300]);
      const pdf = await unsigned.save();
      for (const level of ['B-LT', 'B-LTA']) {
        const signed = await quire.signDocument(
          pdf,
          {
            signer: { name: 'Long-Term Check', email: 'check@example.com' },
            auditTrail: [],
            certificate: { enabled: false },
          },
          {
            identity,
            engine: {},
            limits: quire.DEFAULT_LIMITS,
            now: new Date(),
            newEventId: () => 'long-term-check',
            tsa: { url: tsa.url },
            level,
            revocation: { fetch },
          },
        );
        const path = join(out, `${level}.pdf`);
        writeFileSync(path, signed.pdf);
        await checkPdf(level, path, signed);
      }
    } finally {
      responder.stop();
      await crls.stop();
    }
  }
} finally {
  for (const stop of stops) await stop();
}

async function checkPdf(level, path, signed) {
  const problems = [...signed.warnings.map((w) => `warning: ${w}`)];
  const pdfsig = spawnSync('pdfsig', [path], { encoding: 'utf8' }).stdout;
  const valid = (pdfsig.match(/Signature Validation: Signature is Valid\./g) ?? []).length;
  if (valid !== 1) problems.push(`pdfsig: ${valid} valid signatures`);
  const qpdf = spawnSync('qpdf', ['--check', path], { encoding: 'utf8' });
  if (qpdf.status !== 0 || !/No syntax or stream encoding errors found/.test(qpdf.stdout))
    problems.push(`qpdf: ${qpdf.stdout.trim()}`);
  const doc = await PDFDocument.load(readFileSync(path));
  const dss = doc.catalog.lookup(PDFName.of('DSS'), PDFDict);
  const streams = (key) => {
    const array = dss.lookup(PDFName.of(key));
    return array instanceof PDFArray ? array.asArray().map((ref) => doc.context.lookup(ref).contents) : [];
  };
  const ocsps = streams('OCSPs');
  const crls = streams('CRLs');
  for (const [i, der] of ocsps.entries()) {
    const file = join(out, `${level}-ocsp${i}.der`);
    writeFileSync(file, der);
    const text = openssl(['ocsp', '-respin', file, '-issuer', 'issuing.pem', '-CAfile', 'cas.pem', '-resp_text']);
    if (!/Response verify OK/.test(text) || !/Cert Status: good/.test(text))
      problems.push(`openssl ocsp -respin: ${text.slice(-200)}`);
  }
  for (const [i, der] of crls.entries()) {
    const file = join(out, `${level}-crl${i}.der`);
    writeFileSync(file, der);
    const text = openssl(['crl', '-inform', 'DER', '-in', file, '-CAfile', 'root.pem', '-noout']);
    if (!/verify OK/.test(text)) problems.push(`openssl crl: ${text}`);
  }
  if (ocsps.length !== 1 || crls.length !== 1) problems.push(`DSS: ${ocsps.length} OCSP, ${crls.length} CRL`);
  let stamps = 0;
  if (level === 'B-LTA') {
    const text = Buffer.from(readFileSync(path)).toString('latin1');
    const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
    const [, a, b, c, d] = ranges.at(-1).map(Number);
    const bytes = readFileSync(path);
    const token = Buffer.from(text.slice(a + b + 1, c - 1).replace(/(00)+$/, ''), 'hex');
    const verdict = verifyTimestampToken(
      token,
      Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]),
      tsa.certificatePath,
    );
    stamps++;
    if (!verdict.ok) problems.push(`openssl ts -verify: ${verdict.text}`);
  }
  report(
    `${level}: pdfsig, qpdf, openssl on the DSS${stamps ? ' and the DocTimeStamp' : ''}`,
    problems.length === 0,
    problems.length === 0
      ? `${ocsps.length} OCSP and ${crls.length} CRL verified by openssl; ${path}`
      : problems.join(' | '),
  );
}

console.log(`\nlong-term-check: ${lines.length - failed}/${lines.length} ok (outputs in ${out})`);
process.exitCode = failed ? 1 : 0;
