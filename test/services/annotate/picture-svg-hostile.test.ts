import { zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { renderSvg } from '../../../src/engine/read/images/svg-rasterizer';
import { ApiError } from '../../../src/errors';
import { createPictureLoader } from '../../../src/services/annotate/picture-loader';
import { concat, ihdr, PNG_SIGNATURE, pixelsAsPdfLibSees, pngChunk } from '../../engine/read/images/helpers';

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const encode = (svg: string) => new TextEncoder().encode(svg);
const SMALL = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';

describe('SVG rendering of hostile pictures', () => {
  it('skips a pixel bomb embedded as a data: image, and goes on working', async () => {
    // 30 000 × 30 000 RGBA claimed (3.6 GB), 4 KB of zeros deflated.
    const bomb = concat(
      PNG_SIGNATURE,
      pngChunk('IHDR', ihdr(30_000, 30_000, 8, 6)),
      pngChunk('IDAT', zlibSync(new Uint8Array(4 * 1024 * 1024), { level: 9 })),
      pngChunk('IEND', []),
    );
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><image width="100" height="100" href="data:image/png;base64,${base64(bomb)}"/></svg>`;
    const result = await renderSvg(encode(svg));
    expect('svg' in result && [result.svg.pngWidth, result.svg.pngHeight]).toEqual([200, 200]);
    const after = await renderSvg(encode(SMALL));
    expect('svg' in after && pixelsAsPdfLibSees(after.svg.png).rgba.slice(0, 4)).toEqual([0, 0, 0, 255]);
  });

  it('refuses a billion <use> elements by resvg’s node limit', async () => {
    let defs = '<rect id="l0" width="1" height="1"/>';
    for (let i = 1; i <= 9; i++) {
      defs += `<g id="l${i}">${Array.from({ length: 10 }, () => `<use href="#l${i - 1}"/>`).join('')}</g>`;
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs>${defs}</defs><use href="#l9"/></svg>`;
    const load = createPictureLoader({ allowHttp: false, maxBytes: 1024 * 1024 });
    const error = await load(`data:image/svg+xml;base64,${base64(encode(svg))}`, 'id "logo"').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('INVALID_DOCUMENT');
    expect((error as ApiError).message).toMatch(/^field id "logo": the SVG could not be read/);
  });

  it('fetches nothing an SVG links to', async () => {
    // resvg-wasm resolves no external href itself; the loader never resolves them either.
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image width="10" height="10" href="https://10.0.0.7/x.png"/></svg>';
    const result = await renderSvg(encode(svg));
    expect('svg' in result).toBe(true);
  });
});
