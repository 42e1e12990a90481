// A local RFC 3161 time-stamping authority for the scripts (verify-own): an HTTP server on
// 127.0.0.1 whose answers OpenSSL makes (`openssl ts -reply`), with a throw-away self-signed TSA
// certificate (P-256, id-kp-timeStamping critical, RFC 3161 §2.3) in a temporary folder. An
// independent TSA, so Quire's timestamp client is held to another implementation, and
// `openssl ts -verify` (verifyTimestampToken below) can judge the tokens Quire embeds.
// TSA_URL is the operator's setting and is fetched without the document-URL guard, so a worker
// under `wrangler dev` reaches it on loopback. Never for production.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function openssl(args, options = {}) {
  const result = spawnSync('openssl', args, { encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`openssl ${args[0]} ${args[1] ?? ''} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

/** @returns {Promise<{ url: string, certificatePath: string, requests: () => number, close: () => Promise<void> }>} */
export async function startLocalTsa() {
  const dir = mkdtempSync(join(tmpdir(), 'quire-local-tsa-'));
  const key = join(dir, 'tsa.key');
  const certificatePath = join(dir, 'tsa.pem');
  openssl([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    key,
    '-out',
    certificatePath,
    '-days',
    '30',
    '-subj',
    '/CN=Quire Local TSA/O=Quire (development only)',
    '-addext',
    'keyUsage=critical,digitalSignature',
    '-addext',
    'extendedKeyUsage=critical,timeStamping',
  ]);
  writeFileSync(join(dir, 'serial'), '01\n');
  const config = join(dir, 'ts.cnf');
  writeFileSync(
    config,
    [
      '[ tsa ]',
      'default_tsa = local_tsa',
      '[ local_tsa ]',
      `serial = ${join(dir, 'serial')}`,
      `signer_cert = ${certificatePath}`,
      `signer_key = ${key}`,
      'signer_digest = sha256',
      'default_policy = 1.3.6.1.4.1.99999.2',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = no',
      'tsa_name = no',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  let count = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const n = ++count;
      const query = join(dir, `q${n}.tsq`);
      const reply = join(dir, `r${n}.tsr`);
      try {
        writeFileSync(query, Buffer.concat(chunks));
        openssl(['ts', '-reply', '-config', config, '-queryfile', query, '-out', reply]);
        res.writeHead(200, { 'Content-Type': 'application/timestamp-reply' });
        res.end(readFileSync(reply));
      } catch (error) {
        res.writeHead(400, { 'Content-Type': 'text/plain' });
        res.end(error.message);
      }
    });
  });
  await new Promise((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    certificatePath,
    requests: () => count,
    close: async () => {
      await new Promise((resolveClose) => server.close(() => resolveClose()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `openssl ts -verify` of a TimeStampToken over `data`, with `caFile` as the trust anchor: the
 * imprint, the TSA's signature, its ESS signing certificate and its id-kp-timeStamping (RFC 3161
 * §2.3, §2.4.2). Returns OpenSSL's verdict line ("Verification: OK") or its error.
 */
export function verifyTimestampToken(token, data, caFile) {
  const dir = mkdtempSync(join(tmpdir(), 'quire-ts-verify-'));
  try {
    writeFileSync(join(dir, 'token.der'), token);
    writeFileSync(join(dir, 'data.bin'), data);
    const result = spawnSync(
      'openssl',
      ['ts', '-verify', '-in', join(dir, 'token.der'), '-token_in', '-data', join(dir, 'data.bin'), '-CAfile', caFile],
      { encoding: 'utf8' },
    );
    const text = `${result.stdout}${result.stderr}`.trim();
    return { ok: result.status === 0 && /Verification: OK/.test(text), text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
