import { env } from 'cloudflare:test';
import { createFontCache, type FontCache } from '../../../src/engine/fonts/font-cache';
import type { FontRequest, FontSet } from '../../../src/engine/fonts/font-face';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { FontkitFace } from '../../../src/engine/fonts/fontkit-face';
import type { EmbeddedFont } from '../../../src/engine/model/document';

export function request(family: string, bold = false, italic = false): FontRequest {
  return { family, bold, italic };
}

/** A font set over the real bundled assets, with a cache of its own unless one is given. */
export function testFontSet(
  requests: FontRequest[],
  embedded: EmbeddedFont[] = [],
  cache: FontCache = createFontCache(),
): Promise<FontSet> {
  return loadFontSet(requests, { assets: env.ASSETS, embedded, cache });
}

/** The bytes of a bundled file, e.g. to pose as a document's embedded font. */
export async function bundledBytes(fileName: string): Promise<Uint8Array> {
  const res = await env.ASSETS.fetch(`https://assets.local/fonts/${fileName}`);
  if (!res.ok) throw new Error(`${fileName}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The Noto fallback face that draws `char` (Arabic, Hebrew…), loaded on its own. */
export async function fallbackFaceFor(script: 'arabic' | 'hebrew', char: string): Promise<FontkitFace> {
  const fonts = await loadFontSet([request('Calibri')], {
    assets: env.ASSETS,
    embedded: [],
    cache: createFontCache(),
    fallbackFaces: [{ script, bold: false }],
  });
  const face = fonts.fallback(char.codePointAt(0) as number, request('Calibri'));
  if (!(face instanceof FontkitFace)) throw new Error(`expected a fallback face for ${char}`);
  return face;
}
