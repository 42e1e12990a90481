import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { encodePng, pngChunk } from '../../../src/engine/read/images/png-encoder';
import { concatBytes } from '../../../src/kit/bytes';
import { createImageLoader, IMAGE_LOADER_DEFAULTS, type LoadedImage } from '../../../src/services/convert/image-loader';
import { network } from '../../setup/network';

const options = { ...IMAGE_LOADER_DEFAULTS, allowHttp: false };

/** A w×h opaque red PNG. */
function png(width = 2, height = 2): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([255, 0, 0, 255], i);
  return encodePng({ width, height, data });
}

/** A PNG whose IHDR claims 100 000 × 100 000 pixels, with a few bytes of data: never to be decoded. */
function hugePngHeader(): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, 100_000);
  view.setUint32(4, 100_000);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return concatBytes([
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Uint8Array.of(0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01)),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function serve(url: string, bytes: Uint8Array, headers: Record<string, string> = { 'Content-Type': 'image/png' }) {
  return http.get(url, () => HttpResponse.arrayBuffer(bytes.slice().buffer, { headers }));
}

function problemOf(result: LoadedImage | undefined): string {
  if (!result || !('problem' in result)) throw new Error(`expected a problem, got ${JSON.stringify(result)}`);
  return result.problem;
}

function imageOf(result: LoadedImage | undefined) {
  if (!result || !('image' in result)) throw new Error(`expected an image, got ${JSON.stringify(result)}`);
  return result.image;
}

describe('image loader: data URIs (RFC 2397)', () => {
  it('decodes a base64 PNG', async () => {
    const source = `data:image/png;base64,${base64(png(3, 2))}`;
    const image = imageOf((await createImageLoader(options)([source])).get(source));
    expect(image).toMatchObject({ pixelWidth: 3, pixelHeight: 2 });
  });

  it('turns bad base64 into a problem', async () => {
    const source = 'data:image/png;base64,iVBO*w0KGgo';
    expect(problemOf((await createImageLoader(options)([source])).get(source))).toContain('not valid base64');
  });

  it('draws SVG, base64 or percent-encoded or raw, with its natural size or only its ratio', async () => {
    const sized = '<svg xmlns="http://www.w3.org/2000/svg" width="30" height="10"><rect width="30" height="10"/></svg>';
    const sources = [
      // Raw, as pages write it inline: only a viewBox, so only a ratio (CSS Images 3 §5.2).
      "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 12'><path d='M0 0h24v12H0z'/></svg>",
      `data:image/svg+xml;base64,${btoa(sized)}`,
      `data:image/svg+xml,${encodeURIComponent(sized)}`,
    ];
    const results = await createImageLoader(options)(sources);
    const [ratio, base64Sized, percentSized] = sources.map((source) => results.get(source));
    expect(ratio).toMatchObject({ natural: { width: 24, height: 12, ratioOnly: true } });
    // Rendered for a container's width, not at 48 px.
    expect(imageOf(ratio).pixelWidth).toBeGreaterThanOrEqual(1000);
    for (const result of [base64Sized, percentSized]) {
      expect(result).toMatchObject({ natural: { width: 30, height: 10 } });
      expect(result && 'natural' in result ? result.natural?.ratioOnly : 'none').toBeUndefined();
      expect(imageOf(result)).toMatchObject({ pixelWidth: 60, pixelHeight: 20 });
    }
  });

  it('says an SVG that cannot be read is a problem', async () => {
    const source = 'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg"><rect';
    expect(problemOf((await createImageLoader(options)([source])).get(source))).toContain('SVG');
  });

  it('says bytes that are no image format are not an image', async () => {
    const source = `data:image/png;base64,${btoa('hello, this is text')}`;
    expect(problemOf((await createImageLoader(options)([source])).get(source))).toContain('not an image format');
  });

  it('refuses a header claiming 10 gigapixels without decoding it', async () => {
    const source = `data:image/png;base64,${base64(hugePngHeader())}`;
    expect(problemOf((await createImageLoader(options)([source])).get(source))).toContain('megapixels');
  });

  it('refuses a data URI over the per-image limit', async () => {
    const source = `data:image/png;base64,${base64(png(40, 40))}`;
    const results = await createImageLoader({ ...options, maxImageBytes: 20 })([source]);
    expect(problemOf(results.get(source))).toContain('the most one image may have');
  });
});

describe('image loader: URLs', () => {
  it('fetches an https PNG', async () => {
    network.use(serve('https://img.example.com/a.png', png(4, 5)));
    const results = await createImageLoader(options)(['https://img.example.com/a.png']);
    expect(imageOf(results.get('https://img.example.com/a.png'))).toMatchObject({ pixelWidth: 4, pixelHeight: 5 });
  });

  it('turns a 404 into a problem', async () => {
    network.use(http.get('https://img.example.com/gone.png', () => new HttpResponse('no', { status: 404 })));
    const results = await createImageLoader(options)(['https://img.example.com/gone.png']);
    const problem = problemOf(results.get('https://img.example.com/gone.png'));
    expect(problem).toContain('404');
    expect(problem).not.toContain('document.url');
  });

  it('refuses a redirect to a loopback address (SSRF guard)', async () => {
    network.use(
      http.get(
        'https://img.example.com/r.png',
        () => new HttpResponse(null, { status: 302, headers: { Location: 'https://127.0.0.1/secret.png' } }),
      ),
    );
    const results = await createImageLoader(options)(['https://img.example.com/r.png']);
    expect(problemOf(results.get('https://img.example.com/r.png'))).toContain('loopback');
  });

  it('refuses plain http unless allowHttp is set', async () => {
    network.use(serve('http://img.example.com/a.png', png()));
    const refused = await createImageLoader(options)(['http://img.example.com/a.png']);
    expect(problemOf(refused.get('http://img.example.com/a.png'))).toContain('http:');
    const allowed = await createImageLoader({ ...options, allowHttp: true })(['http://img.example.com/a.png']);
    imageOf(allowed.get('http://img.example.com/a.png'));
  });

  it('turns a body that is not an image into a problem', async () => {
    network.use(serve('https://img.example.com/page', new TextEncoder().encode('<!doctype html><p>hi'), {}));
    const results = await createImageLoader(options)(['https://img.example.com/page']);
    expect(problemOf(results.get('https://img.example.com/page'))).toMatch(/SVG|not an image/);
  });

  it('refuses a fetched huge-dimension PNG without decoding it', async () => {
    network.use(serve('https://img.example.com/huge.png', hugePngHeader()));
    const results = await createImageLoader(options)(['https://img.example.com/huge.png']);
    expect(problemOf(results.get('https://img.example.com/huge.png'))).toContain('megapixels');
  });

  it('refuses an image larger than maxImageBytes', async () => {
    network.use(serve('https://img.example.com/big.png', png(64, 64)));
    const results = await createImageLoader({ ...options, maxImageBytes: 50 })(['https://img.example.com/big.png']);
    expect(problemOf(results.get('https://img.example.com/big.png'))).toContain('the most one image may have');
  });

  it('does not fetch relative URLs or other schemes', async () => {
    const sources = ['images/a.png', '//cdn.example.com/a.png', 'file:///etc/passwd', 'javascript:alert(1)', ''];
    const results = await createImageLoader(options)(sources);
    expect(problemOf(results.get('images/a.png'))).toContain(
      'a relative image URL cannot be fetched without a base URL; send baseUrl',
    );
    expect(problemOf(results.get('//cdn.example.com/a.png'))).toContain('relative');
    expect(problemOf(results.get('file:///etc/passwd'))).toContain('file:');
    expect(problemOf(results.get('javascript:alert(1)'))).toContain('javascript:');
    expect(problemOf(results.get(''))).toContain('no source');
  });

  it('times out slow images within the shared deadline', async () => {
    network.use(
      http.get('https://img.example.com/slow.png', async () => {
        await delay(2000);
        return HttpResponse.arrayBuffer(png().slice().buffer);
      }),
    );
    const started = Date.now();
    const results = await createImageLoader({ ...options, timeoutMs: 200 })(['https://img.example.com/slow.png']);
    expect(problemOf(results.get('https://img.example.com/slow.png'))).toContain('timed out');
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('image loader: caps', () => {
  it('loads at most maxImages distinct sources; the rest get a problem', async () => {
    const sources = Array.from({ length: 5 }, (_, i) => `data:image/png;base64,${base64(png(i + 1, 1))}`);
    const results = await createImageLoader({ ...options, maxImages: 3 })([...sources, sources[0] as string]);
    expect([...results.keys()]).toEqual(sources);
    for (const source of sources.slice(0, 3)) imageOf(results.get(source));
    for (const source of sources.slice(3)) expect(problemOf(results.get(source))).toContain('more than 3 images');
  });

  it('caps the bytes of all images together', async () => {
    const one = png(8, 8);
    const urls = ['a', 'b', 'c'].map((name) => `https://img.example.com/${name}.png`);
    network.use(...urls.map((url) => serve(url, one)));
    const results = await createImageLoader({ ...options, maxTotalBytes: one.length * 2 + 10 })(urls);
    const loaded = urls.filter((url) => 'image' in (results.get(url) as LoadedImage));
    const refused = urls.filter((url) => 'problem' in (results.get(url) as LoadedImage));
    expect(loaded).toHaveLength(2);
    expect(refused).toHaveLength(1);
    expect(problemOf(results.get(refused[0] as string))).toContain('together are larger than');
  });

  it('fetches at most six at a time', async () => {
    let running = 0;
    let most = 0;
    const urls = Array.from({ length: 12 }, (_, i) => `https://img.example.com/c${i}.png`);
    network.use(
      http.get('https://img.example.com/:name', async () => {
        running++;
        most = Math.max(most, running);
        await delay(20);
        running--;
        return HttpResponse.arrayBuffer(png().slice().buffer);
      }),
    );
    const results = await createImageLoader(options)(urls);
    expect(most).toBe(6);
    for (const url of urls) imageOf(results.get(url));
  });
});
