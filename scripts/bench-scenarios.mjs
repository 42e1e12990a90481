// The benchmark's scenarios: each one a request and the status it must get. Document scenarios
// use fixtures built here, never the corpus.
import { PDFDocument, StandardFonts } from 'pdf-lib';

const oneMiB = new Uint8Array(1024 * 1024);

/** A text PDF of `pages` Letter pages, made with pdf-lib. */
async function textPdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 40; line++) {
      page.drawText(`Page ${i + 1}, line ${line + 1}: the quick brown fox jumps over the lazy dog.`, {
        x: 72,
        y: 720 - line * 16,
        size: 11,
        font,
      });
    }
  }
  return Buffer.from(await doc.save()).toString('base64');
}

/** POST /v1/sign with the audit certificate, as docs/api.md's example: latency of one signing. */
function signScenario(name, base64) {
  const body = JSON.stringify({
    document: { base64 },
    signer: { name: 'Ada Lovelace', email: 'ada@example.com', ip: '203.0.113.7', userAgent: 'bench' },
    auditTrail: [
      { type: 'view', timestamp: '2026-11-22T10:00:00Z' },
      { type: 'submit', timestamp: '2026-11-22T10:02:00Z', data: { fields: 3 } },
    ],
  });
  return {
    name,
    request: {
      path: '/v1/sign',
      init: () => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body }),
    },
    expectStatus: 200,
    iterations: 30,
    warmup: 5,
    // A key of its own: the per-key limit (120/min) would refuse the later requests.
    freshKey: true,
  };
}

/** POST /v1/verify of a PDF the worker signs first (prepare): latency of one verification. */
function verifyScenario(name, base64, signings) {
  let body;
  return {
    name,
    async prepare(quire) {
      let document = base64;
      for (let i = 0; i < signings; i++) {
        quire.renewKey();
        const res = await quire.fetch('/v1/sign', signScenario(name, document).request.init());
        if (res.status !== 200) throw new Error(`${name}: signing for the benchmark answered ${res.status}`);
        document = (await res.json()).document.base64;
      }
      body = JSON.stringify({ document: { base64: document } });
      quire.renewKey();
    },
    request: {
      path: '/v1/verify',
      init: () => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body }),
    },
    expectStatus: 200,
    iterations: 30,
    warmup: 5,
  };
}

const [onePage, fiftyPages] = await Promise.all([textPdf(1), textPdf(50)]);

export const scenarios = [
  { name: 'GET /v1/health (middleware stack)', request: { path: '/v1/health' }, expectStatus: 200 },
  { name: 'GET /nope (404 error path)', request: { path: '/nope' }, expectStatus: 404 },
  {
    name: 'POST /v1/merge 1 MiB streamed (body limit)',
    request: {
      path: '/v1/merge',
      init: () => ({
        method: 'POST',
        duplex: 'half',
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < 16; i++) controller.enqueue(oneMiB.subarray(i * 65536, (i + 1) * 65536));
            controller.close();
          },
        }),
      }),
    },
    expectStatus: 501,
    iterations: 50,
  },
  { name: 'GET /openapi.json', request: { path: '/openapi.json' }, expectStatus: 200 },
  signScenario('POST /v1/sign 1-page PDF (certificate, B-B)', onePage),
  signScenario('POST /v1/sign 50-page PDF (certificate, B-B)', fiftyPages),
  verifyScenario('POST /v1/verify 1-page PDF, 1 signature', onePage, 1),
  verifyScenario('POST /v1/verify 50-page PDF, 2 signatures', fiftyPages, 2),
];
