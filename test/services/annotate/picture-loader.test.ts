import { GifWriter } from 'omggif';
import { describe, expect, it } from 'vitest';
import { isPng } from '../../../src/engine/read/images/png-info';
import type { PreparedPicture } from '../../../src/services/annotate/annotate-types';
import { createPictureLoader, isImageValue } from '../../../src/services/annotate/picture-loader';
import { BASE, SOLID } from '../../engine/read/images/fixtures';
import {
  buildTiff,
  concat,
  fromBase64,
  ihdr,
  long,
  PNG_SIGNATURE,
  pixelsAsPdfLibSees,
  pngChunk,
  short,
} from '../../engine/read/images/helpers';
import { rejection } from '../../helpers/api';
import { tinyPng } from '../../helpers/docx-fixture';

const MB = 1024 * 1024;
const load = createPictureLoader({ allowHttp: false, maxBytes: 64 * MB });

function dataUri(type: string, bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${type};base64,${btoa(binary)}`;
}

function svgUri(svg: string): string {
  return dataUri('image/svg+xml', new TextEncoder().encode(svg));
}

/** A 24-bit bottom-up BMP (BITMAPINFOHEADER), every pixel one colour. */
function tinyBmp(width: number, height: number): Uint8Array {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const bytes = new Uint8Array(54 + stride * height);
  const view = new DataView(bytes.buffer);
  bytes.set([0x42, 0x4d]);
  view.setUint32(2, bytes.length, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  view.setUint32(34, stride * height, true);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) bytes.set([255, 0, 0], 54 + y * stride + x * 3);
  return bytes;
}

function tinyGif(width: number, height: number): Uint8Array {
  const buffer = new Uint8Array(4096);
  const writer = new GifWriter(buffer, width, height, { palette: [0xff0000, 0x0000ff] });
  writer.addFrame(0, 0, width, height, new Array(width * height).fill(1));
  return buffer.slice(0, writer.end());
}

function expectPicture(picture: PreparedPicture, extension: string, width: number, height: number): void {
  expect(picture.media.extension).toBe(extension);
  expect(picture.media.contentType).toBe(`image/${extension}`);
  expect([picture.width, picture.height]).toEqual([width, height]);
}

describe('isImageValue', () => {
  it('knows data:image URIs and web URLs from a signer’s name', () => {
    expect(isImageValue('data:image/png;base64,iVBORw0KGgo=')).toBe(true);
    expect(isImageValue('DATA:image/svg+xml;base64,PHN2Zz4=')).toBe(true);
    expect(isImageValue('https://example.com/sig.png')).toBe(true);
    // http: is an image value too: the guard then says why it is refused.
    expect(isImageValue('http://example.com/sig.png')).toBe(true);
    expect(isImageValue('Jane Q. Public')).toBe(false);
    expect(isImageValue('https://')).toBe(false);
    expect(isImageValue('data:text/plain;base64,SmFuZQ==')).toBe(false);
  });
});

describe('picture loader: formats', () => {
  it('keeps PNG, JPEG, GIF and BMP as they are, sized in pixels (1 px = 1 CSS px)', async () => {
    const png = tinyPng(30, 20);
    const picture = await load(dataUri('image/png', png), 'id "logo"');
    expectPicture(picture, 'png', 30, 20);
    expect(picture.media.bytes).toEqual(png);
    expect(picture.svg).toBeUndefined();

    const jpeg = fromBase64(BASE);
    const jpg = await load(dataUri('image/jpeg', jpeg), 'id "photo"');
    expectPicture(jpg, 'jpeg', 4, 4);
    expect(jpg.media.bytes).toEqual(jpeg);

    const gif = tinyGif(7, 5);
    const g = await load(dataUri('image/gif', gif), 'id "g"');
    expectPicture(g, 'gif', 7, 5);
    expect(g.media.bytes).toEqual(gif);

    const bmp = tinyBmp(6, 3);
    const b = await load(dataUri('image/bmp', bmp), 'id "b"');
    expectPicture(b, 'bmp', 6, 3);
    expect(b.media.bytes).toEqual(bmp);
  });

  it('sniffs the bytes, not the declared media type', async () => {
    const picture = await load(dataUri('image/gif', tinyPng(3, 2)), 'id "x"');
    expectPicture(picture, 'png', 3, 2);
  });

  it('turns WebP into PNG with the same pixels', async () => {
    const picture = await load(dataUri('image/webp', fromBase64(SOLID)), 'id "w"');
    expectPicture(picture, 'png', 16, 16);
    expect(isPng(picture.media.bytes)).toBe(true);
    const { rgba } = pixelsAsPdfLibSees(picture.media.bytes);
    // cwebp -q 80 of rgb(200, 100, 50): lossy, so close rather than equal.
    expect(Math.abs((rgba[0] as number) - 200)).toBeLessThan(8);
    expect(Math.abs((rgba[1] as number) - 100)).toBeLessThan(8);
  });

  it('turns TIFF into PNG too (Word reads TIFF, but not every DOCX reader does)', async () => {
    // 2×2 uncompressed RGB: width, height, bits, compression, photometric, samples, rows per strip.
    const tiff = buildTiff({
      entries: [
        long(256, 2),
        long(257, 2),
        short(258, 8, 8, 8),
        short(259, 1),
        short(262, 2),
        short(277, 3),
        long(278, 2),
      ],
      chunks: [Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])],
    });
    const picture = await load(dataUri('image/tiff', tiff), 'id "t"');
    expectPicture(picture, 'png', 2, 2);
    expect(pixelsAsPdfLibSees(picture.media.bytes).rgba.slice(0, 8)).toEqual([255, 0, 0, 255, 0, 255, 0, 255]);
  });

  it('keeps an SVG and renders a PNG fallback that is not blank', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#c00"/></svg>';
    const picture = await load(svgUri(svg), 'id "sig"');
    expectPicture(picture, 'png', 120, 40);
    expect(new TextDecoder().decode(picture.svg)).toBe(svg);
    const { width, height, rgba } = pixelsAsPdfLibSees(picture.media.bytes);
    // Twice the natural size, for a sharp fallback.
    expect([width, height]).toEqual([240, 80]);
    expect(rgba.slice(0, 4)).toEqual([204, 0, 0, 255]);
  });

  it('sizes an SVG by its viewBox when it has no width and height, after a prolog', async () => {
    const svg =
      '\uFEFF<?xml version="1.0"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 150"><path d="M10 140 C 80 10, 150 10, 290 140" stroke="black" stroke-width="6" fill="none"/></svg>';
    const picture = await load(svgUri(svg), 'id "sig"');
    expect([picture.width, picture.height]).toEqual([300, 150]);
    const { rgba } = pixelsAsPdfLibSees(picture.media.bytes);
    expect(rgba.some((v, i) => i % 4 === 3 && v > 0)).toBe(true);
  });

  it('caps the rendering of a large SVG at 2000 px a side', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="8000" height="1000"><rect width="8000" height="1000"/></svg>';
    const picture = await load(svgUri(svg), 'id "big"');
    expect([picture.width, picture.height]).toEqual([8000, 1000]);
    const { width, height } = pixelsAsPdfLibSees(picture.media.bytes);
    expect([width, height]).toEqual([2000, 250]);
  });

  it('fetches a URL through the guarded fetcher', async () => {
    const png = tinyPng(9, 4);
    const requested: string[] = [];
    const loader = createPictureLoader({
      allowHttp: false,
      maxBytes: MB,
      fetch: (async (input: RequestInfo | URL) => {
        requested.push(String(input));
        return new Response(png, { headers: { 'Content-Type': 'image/png' } });
      }) as typeof fetch,
    });
    expectPicture(await loader('https://example.com/sig.png', 'id "sig"'), 'png', 9, 4);
    expect(requested).toEqual(['https://example.com/sig.png']);
  });
});

describe('picture loader: hostile values', () => {
  it('refuses bytes that are no image, naming the field', async () => {
    const error = await rejection(load(dataUri('image/png', new TextEncoder().encode('hello, world')), 'id "sig"'));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toContain('field id "sig"');
  });

  it('refuses a truncated PNG', async () => {
    const png = tinyPng(40, 40);
    const error = await rejection(load(dataUri('image/png', png.subarray(0, png.length - 30)), 'group "logos"'));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toContain('field group "logos"');
  });

  it('refuses a pixel bomb by its header, before decoding', async () => {
    const bomb = concat(
      PNG_SIGNATURE,
      pngChunk('IHDR', ihdr(100_000, 100_000, 8, 6)),
      pngChunk('IDAT', [0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]),
      pngChunk('IEND', []),
    );
    const error = await rejection(load(dataUri('image/png', bomb), 'id "bomb"'));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/field id "bomb".*megapixels/);
  });

  it('refuses an SVG with a huge width', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="100000000" height="10"><rect width="10" height="10"/></svg>';
    const error = await rejection(load(svgUri(svg), 'id "svg"'));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/field id "svg".*px a side/);
  });

  it('refuses an SVG of 50 MB without parsing it', async () => {
    const head = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><!--');
    const big = new Uint8Array(50 * MB).fill(0x20);
    big.set(head);
    const loader = createPictureLoader({
      allowHttp: false,
      maxBytes: 64 * MB,
      fetch: (async () => new Response(big)) as typeof fetch,
    });
    const error = await rejection(loader('https://example.com/huge.svg', 'id "svg"'));
    expect(error.code).toBe('INVALID_DOCUMENT');
    expect(error.message).toMatch(/field id "svg": the SVG is 52428800 bytes/);
  });

  it('refuses an SVG that is not well-formed', async () => {
    const error = await rejection(load(svgUri('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'), 'id "svg"'));
    expect(error.code).toBe('INVALID_DOCUMENT');
  });

  it('leaves a private address to the guard, which refuses it before any request', async () => {
    let fetched = false;
    const loader = createPictureLoader({
      allowHttp: false,
      maxBytes: MB,
      fetch: (async () => {
        fetched = true;
        return new Response('');
      }) as typeof fetch,
    });
    const error = await rejection(loader('https://10.0.0.7/sig.png', 'id "sig"'));
    expect(error.code).toBe('DOCUMENT_FETCH_FAILED');
    expect(error.message).toContain('field id "sig"');
    expect(fetched).toBe(false);
    const http = await rejection(loader('http://example.com/sig.png', 'id "sig"'));
    expect(http.code).toBe('DOCUMENT_FETCH_FAILED');
  });

  it('says a data URI over the size limit is too large', async () => {
    const small = createPictureLoader({ allowHttp: false, maxBytes: 100 });
    const error = await rejection(small(dataUri('image/png', tinyPng(40, 40)), 'id "sig"'));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
