/**
 * Reads bundled faces from the static assets (assets/fonts) and parses them, through the cache.
 */
import { bundledFontUrl } from './bundled-fonts';
import type { FontCache } from './font-cache';
import { type FontkitFace, parseTrueTypeFace } from './fontkit-face';

/** The face key of a bundled file: its name without folder or ".ttf" ("Carlito-Bold"). */
function keyOfFile(fileName: string): string {
  return fileName.replace(/^.*\//, '').replace(/\.ttf$/, '');
}

export async function fetchBundledFace(fileName: string, assets: Fetcher): Promise<FontkitFace> {
  const response = await assets.fetch(bundledFontUrl(fileName));
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`Bundled font ${fileName} is missing from the static assets (HTTP ${response.status}).`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const face = parseTrueTypeFace(keyOfFile(fileName), bytes);
  if (!face) throw new Error(`Bundled font ${fileName} could not be parsed as TrueType.`);
  return face;
}

/** The parsed face of a bundled file, from the cache or loaded into it; a failure is not cached. */
export function loadBundledFace(fileName: string, assets: Fetcher, cache: FontCache): Promise<FontkitFace> {
  const cached = cache.get(fileName);
  if (cached) return cached;
  const loading = fetchBundledFace(fileName, assets);
  cache.set(fileName, loading);
  // Weighed by its bytes once they are known (a cache bounded by bytes evicts by them).
  loading.then(
    (face) => cache.weigh(fileName, face.bytes.byteLength),
    () => {
      if (cache.get(fileName) === loading) cache.delete(fileName);
    },
  );
  return loading;
}
