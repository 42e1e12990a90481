// The benchmark's scenarios: each one a request and the status it must get. Later issues add the
// document scenarios (convert, annotate, sign, verify) with fixtures built here, never the corpus.

const oneMiB = new Uint8Array(1024 * 1024);

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
];
