import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BUNDLED_FAMILIES, bundledFileName, type FontStyle } from '../../../src/engine/fonts/bundled-fonts';
import wranglerToml from '../../../wrangler.toml?raw';

const STYLES: FontStyle[] = ['Regular', 'Bold', 'Italic', 'BoldItalic'];

describe('bundled font assets', () => {
  it('are all readable through the ASSETS binding, as TrueType', async () => {
    for (const family of BUNDLED_FAMILIES) {
      for (const style of STYLES) {
        const file = bundledFileName(family, style);
        const res = await env.ASSETS.fetch(`https://assets.local/fonts/${file}`);
        expect(res.status, file).toBe(200);
        const bytes = new Uint8Array(await res.arrayBuffer());
        expect([...bytes.subarray(0, 4)], file).toEqual([0, 1, 0, 0]); // sfnt version 1.0: glyf outlines
      }
    }
  });

  it('have their licence files beside them', async () => {
    for (const licence of ['Carlito-LICENSE.txt', 'Caladea-LICENSE.txt', 'Liberation-LICENSE.txt']) {
      const res = await env.ASSETS.fetch(`https://assets.local/fonts/${licence}`);
      expect(res.status, licence).toBe(200);
      expect(await res.text(), licence).toContain('SIL OPEN FONT LICENSE Version 1.1');
    }
  });

  it('are not served publicly: the worker runs first for every path', async () => {
    // Under wrangler dev and in production, assets answer matching paths before the worker unless
    // run_worker_first is set (checked by hand: without it /fonts/Carlito-Regular.ttf is served).
    const assets = /\[assets\]([^[]*)/.exec(wranglerToml)?.[1] ?? '';
    expect(assets).toMatch(/^\s*binding\s*=\s*"ASSETS"\s*$/m);
    expect(assets).toMatch(/^\s*run_worker_first\s*=\s*true\s*$/m);
  });

  it('answer an asset path with the API JSON 404', async () => {
    // SELF reaches the worker directly (vitest does not route assets), so this pins the answer
    // the worker gives, which run_worker_first makes the public one.
    for (const path of ['/fonts/Carlito-Regular.ttf', '/fonts/Carlito-LICENSE.txt']) {
      const res = await SELF.fetch(`https://quire.test${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('Content-Type'), path).toMatch(/^application\/json/);
      expect(((await res.json()) as { code?: string }).code, path).toBe('NOT_FOUND');
    }
  });
});
