/**
 * The faces of one conversion, loaded up front so that layout can ask for faces synchronously.
 * Resolution per request: the document's embedded font (same style, else its regular), then the
 * bundled substitute in the same style (font-substitution.ts). Glyph fallback walks the bundled
 * chain of the request's substitute family, in the same style.
 */
import type { EmbeddedFont } from '../model/document';
import { type BundledFamily, bundledFileName, type FontStyle, styleOf } from './bundled-fonts';
import { embeddedCandidates, embeddedFaceKey } from './embedded-font-match';
import {
  type EastAsianVariant,
  type FallbackScript,
  fallbackFileName,
  fallbackFontUrlPath,
  fallbackScriptOf,
  isLargeFallback,
  scriptName,
} from './fallback-faces';
import type { FontCache } from './font-cache';
import type { FontFace, FontRequest, FontSet } from './font-face';
import { loadBundledFace } from './font-loader';
import { fallbackFamilies, normalizeFamilyName, substituteFamily } from './font-substitution';
import { type FontkitFace, parseTrueTypeFace } from './fontkit-face';

export interface FontSetOptions {
  /** The ASSETS binding (env.ASSETS). */
  assets: Fetcher;
  /** The document's embedded fonts, de-obfuscated (DocumentModel.embeddedFonts). */
  embedded: readonly EmbeddedFont[];
  /** The isolate's parsed-face cache (createFontCache). */
  cache: FontCache;
  /** Noto faces the document's text needs (collectFallbackFaces), loaded before layout. */
  fallbackFaces?: readonly FallbackFaceRequest[];
  /** Where those are kept: a smaller cache than `cache`, a CJK face being 5–10 MB. */
  fallbackCache?: FontCache;
}

export interface FallbackFaceRequest {
  script: FallbackScript;
  bold: boolean;
}

/** The face every unresolvable request ends at when nothing was requested at all. */
const LAST_RESORT: { family: BundledFamily; style: FontStyle } = { family: 'Liberation Sans', style: 'Regular' };

function requestKey(request: FontRequest): string {
  return `${normalizeFamilyName(request.family)}\u0000${styleOf(request)}`;
}

/** Bundled files a request needs: its substitute, then the rest of its fallback chain. */
function bundledFilesFor(request: FontRequest): string[] {
  const style = styleOf(request);
  return fallbackFamilies(substituteFamily(request.family).family).map((family) => bundledFileName(family, style));
}

export async function loadFontSet(requests: readonly FontRequest[], options: FontSetOptions): Promise<FontSet> {
  const { assets, embedded, cache } = options;
  const unique = [...new Map(requests.map((request) => [requestKey(request), request])).values()];

  // Embedded fonts are parsed once per conversion, and only those some request can use.
  const parsedEmbedded = new Map<number, FontkitFace | undefined>();
  const embeddedFace = (request: FontRequest): FontkitFace | undefined => {
    for (const index of embeddedCandidates(embedded, request)) {
      if (!parsedEmbedded.has(index)) {
        const font = embedded[index];
        parsedEmbedded.set(index, font && parseTrueTypeFace(embeddedFaceKey(index), font.bytes));
      }
      const face = parsedEmbedded.get(index);
      if (face) return face; // An embedded font fontkit cannot read is skipped.
    }
    return undefined;
  };
  for (const request of unique) embeddedFace(request);

  const files = new Set(unique.flatMap(bundledFilesFor));
  if (unique.length === 0) files.add(bundledFileName(LAST_RESORT.family, LAST_RESORT.style));
  const loaded = await Promise.all([...files].map((file) => loadBundledFace(file, assets, cache)));
  const bundled = new Map([...files].map((file, i) => [file, loaded[i] as FontkitFace]));

  // Fallback faces: a file that cannot be read leaves its characters as .notdef, with a warning.
  const warnings: string[] = [];
  // The small faces (Arabic, Hebrew, Thai, Devanagari: 25–220 kB each) stay with the bundled ones,
  // so that the large CJK faces do not push them, and the words they have shaped, out.
  const fallbackCaches = new Map(
    (options.fallbackFaces ?? []).map((face) => [
      fallbackFileName(face.script, face.bold),
      isLargeFallback(face.script) ? (options.fallbackCache ?? cache) : cache,
    ]),
  );
  const fallbackFiles = [...fallbackCaches.keys()];
  const fallbackLoaded = await Promise.all(
    [...fallbackCaches].map(([file, fileCache]) =>
      loadBundledFace(fallbackFontUrlPath(file), assets, fileCache).catch(() => undefined),
    ),
  );
  const fallbackByFile = new Map<string, FontkitFace>();
  fallbackFiles.forEach((file, i) => {
    const loaded = fallbackLoaded[i];
    if (loaded) fallbackByFile.set(file, loaded);
  });
  const missingScripts = new Set<FallbackScript>();
  for (const face of options.fallbackFaces ?? []) {
    if (!fallbackByFile.has(fallbackFileName(face.script, face.bold))) missingScripts.add(face.script);
  }
  for (const script of missingScripts) {
    warnings.push(`No font for ${scriptName(script)} text is installed: its characters print as missing glyphs.`);
  }
  // Asked once per character a face lacks: the file names are made once per script and weight.
  const scriptFaces = new Map<string, FontkitFace | undefined>();
  const scriptFace = (script: FallbackScript, bold: boolean): FontkitFace | undefined => {
    const key = bold ? `${script}:bold` : script;
    if (scriptFaces.has(key)) return scriptFaces.get(key);
    const found =
      fallbackByFile.get(fallbackFileName(script, bold)) ?? fallbackByFile.get(fallbackFileName(script, !bold));
    scriptFaces.set(key, found);
    return found;
  };

  const firstRequest = unique[0];
  const bundledFace = (family: BundledFamily, style: FontStyle) => bundled.get(bundledFileName(family, style));
  const resolveFace = (request: FontRequest): FontFace => {
    const substitute = substituteFamily(request.family).family;
    return (
      embeddedFace(request) ??
      bundledFace(substitute, styleOf(request)) ??
      // Below: only for requests that were not passed to loadFontSet.
      bundledFace(substitute, 'Regular') ??
      (firstRequest ? resolveFace(firstRequest) : undefined) ??
      (bundledFace(LAST_RESORT.family, LAST_RESORT.style) as FontkitFace)
    );
  };

  const faces = new Map<string, FontFace>();
  const resolve = (request: FontRequest): FontFace => {
    const key = requestKey(request);
    let known = faces.get(key);
    if (!known) {
      known = resolveFace(request);
      faces.set(key, known);
    }
    return known;
  };

  // Layout asks for a face per run and a fallback per character its face lacks: both are
  // remembered per family name as given and style, so that the name is normalised once.
  interface Resolved {
    face: FontFace;
    /** Bundled faces to try for a missing glyph, in order (fallbackFamilies). */
    chain: readonly FontFace[];
    /**
     * fallback's answers for this request, by variant and code point (null: none). Bounded by the
     * characters of one document, and it lives only as long as the conversion's FontSet.
     */
    fallbacks: Map<EastAsianVariant, Map<number, FontFace | null>>;
  }
  const byName = new Map<string, (Resolved | undefined)[]>();
  const resolved = (request: FontRequest): Resolved => {
    let styles = byName.get(request.family);
    if (!styles) {
      styles = [];
      byName.set(request.family, styles);
    }
    const index = (request.bold ? 2 : 0) + (request.italic ? 1 : 0);
    let entry = styles[index];
    if (!entry) {
      const style = styleOf(request);
      const chain: FontFace[] = [];
      for (const family of fallbackFamilies(substituteFamily(request.family).family)) {
        const candidate = bundledFace(family, style);
        if (candidate) chain.push(candidate);
      }
      entry = { face: resolve(request), chain, fallbacks: new Map() };
      styles[index] = entry;
    }
    return entry;
  };

  const face = (request: FontRequest): FontFace => resolved(request).face;

  const fallback = (
    codePoint: number,
    preferred: FontRequest,
    variant: EastAsianVariant = 'sc',
  ): FontFace | undefined => {
    const entry = resolved(preferred);
    let known = entry.fallbacks.get(variant);
    if (!known) {
      known = new Map();
      entry.fallbacks.set(variant, known);
    }
    let found = known.get(codePoint);
    if (found === undefined) {
      found = findFallback(codePoint, entry, preferred.bold, variant) ?? null;
      known.set(codePoint, found);
    }
    return found ?? undefined;
  };

  const findFallback = (
    codePoint: number,
    { face: own, chain }: Resolved,
    bold: boolean,
    variant: EastAsianVariant,
  ): FontFace | undefined => {
    if (own.hasGlyph(codePoint)) return own;
    for (const candidate of chain) if (candidate.hasGlyph(codePoint)) return candidate;
    // CJK, Arabic, Devanagari, Thai…: the Noto face of the character's script (fallback-faces.ts).
    const script = fallbackScriptOf(codePoint, variant);
    if (script === undefined) return undefined;
    const noto = scriptFace(script, bold);
    if (noto?.hasGlyph(codePoint)) return noto;
    // A CJK character one variant lacks (a traditional form in SC…): any CJK face loaded.
    for (const other of ['sc', 'tc', 'jp', 'kr'] as const) {
      const candidate = other === script ? undefined : scriptFace(other, bold);
      if (candidate?.hasGlyph(codePoint)) return candidate;
    }
    return undefined;
  };

  return { face, fallback, warnings };
}
