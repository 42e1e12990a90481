/**
 * The faces of one conversion, loaded up front so that layout can ask for faces synchronously.
 * Resolution per request: the document's embedded font (same style, else its regular), then the
 * bundled substitute in the same style (font-substitution.ts). Glyph fallback walks the bundled
 * chain of the request's substitute family, in the same style.
 */
import type { DeclaredFont, EmbeddedFont } from '../model';
import { type BundledFamily, bundledFileName, type FontStyle, styleOf } from './bundled-fonts';
import { embeddedCandidates, embeddedFaceKey } from './embedded-font-match';
import { type FallbackCharacters, loadFallbackCoverage, planFallbackFiles } from './fallback-coverage';
import {
  type EastAsianVariant,
  type FallbackFaceRequest,
  type FallbackScript,
  fallbackCandidates,
  fallbackFileName,
  fallbackFontUrlPath,
  isLargeFallback,
  scriptName,
} from './fallback-faces';
import { FALLBACK_FONT_BYTES_PER_CONVERSION, type FontCache } from './font-cache';
import type { FontFace, FontRequest, FontSet } from './font-face';
import { loadBundledFace } from './font-loader';
import { fallbackFamilies, normalizeFamilyName, type Substitution, substituteDeclared } from './font-substitution';
import { type FontkitFace, parseTrueTypeFace } from './fontkit-face';
import { wordFontWidths } from './word-widths';

export interface FontSetOptions {
  /** The ASSETS binding (env.ASSETS). */
  assets: Fetcher;
  /** The document's embedded fonts, de-obfuscated (DocumentModel.embeddedFonts). */
  embedded: readonly EmbeddedFont[];
  /** The font table's substitution hints by font name (DocumentModel.declaredFonts). */
  declared?: Readonly<Record<string, DeclaredFont>>;
  /** The isolate's parsed-face cache (createFontCache). */
  cache: FontCache;
  /**
   * Noto faces the document's text needs (collectFallbackFaces), loaded before layout: each
   * character's script's face, the first choice. Superseded by `fallbackCharacters` when the
   * faces' coverage index can be read.
   */
  fallbackFaces?: readonly FallbackFaceRequest[];
  /**
   * The document's characters from U+0590 up, by East Asian variant and weight (collectFontNeeds):
   * the faces loaded are then those that have them, character by character (planFallbackFiles).
   */
  fallbackCharacters?: readonly FallbackCharacters[];
  /** Where the CJK faces are kept: a cache bounded by bytes (createFallbackFontCache). */
  fallbackCache?: FontCache;
  /** Bytes of Noto faces the conversion may load (FALLBACK_FONT_BYTES_PER_CONVERSION). */
  fallbackBudget?: number;
}

/** The face every unresolvable request ends at when nothing was requested at all. */
const LAST_RESORT: { family: BundledFamily; style: FontStyle } = { family: 'Liberation Sans', style: 'Regular' };

function requestKey(request: FontRequest): string {
  return `${normalizeFamilyName(request.family)}\u0000${styleOf(request)}`;
}

/** Bundled files a request needs: its substitute, then the rest of its fallback chain. */
function bundledFilesFor(request: FontRequest, substitute: (family: string) => Substitution): string[] {
  const style = styleOf(request);
  return fallbackFamilies(substitute(request.family).family).map((family) => bundledFileName(family, style));
}

export async function loadFontSet(requests: readonly FontRequest[], options: FontSetOptions): Promise<FontSet> {
  const { assets, embedded, cache } = options;
  // The font table's hints, by name as the font table and the runs spell it (both are the name).
  const declared = options.declared;
  const substitute = (family: string): Substitution =>
    substituteDeclared(family, declared && Object.hasOwn(declared, family) ? declared[family] : undefined);
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

  const files = new Set(unique.flatMap((request) => bundledFilesFor(request, substitute)));
  if (unique.length === 0) files.add(bundledFileName(LAST_RESORT.family, LAST_RESORT.style));
  const loaded = await Promise.all([...files].map((file) => loadBundledFace(file, assets, cache)));
  const bundled = new Map([...files].map((file, i) => [file, loaded[i] as FontkitFace]));

  // Fallback faces: those the characters need, by the coverage index; without it, the face of
  // each character's script. A file that cannot be read leaves its characters as .notdef, with a
  // warning.
  const warnings: string[] = [];
  const coverage = options.fallbackCharacters ? await loadFallbackCoverage(assets) : undefined;
  const drawnElsewhere = (cp: number): boolean => {
    for (const face of bundled.values()) if (face.hasGlyph(cp)) return true;
    for (const face of parsedEmbedded.values()) if (face?.hasGlyph(cp)) return true;
    return false;
  };
  const fallbackFaces =
    options.fallbackCharacters && coverage
      ? planFallbackFiles(
          options.fallbackCharacters,
          coverage,
          drawnElsewhere,
          options.fallbackBudget ?? FALLBACK_FONT_BYTES_PER_CONVERSION,
        )
      : (options.fallbackFaces ?? []);
  // The small faces (Arabic, Hebrew, Thai, Devanagari: 25–220 kB each) stay with the bundled ones,
  // so that the large CJK faces do not push them, and the words they have shaped, out.
  const fallbackCaches = new Map(
    fallbackFaces.map((face) => [
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
  for (const face of fallbackFaces) {
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
  /**
   * A stand-in measured as the Word font it draws: with that font's own widths where they are known
   * (word-widths.ts), else scaled to its average width. FontkitFace keeps the derived faces.
   */
  const measuredAs = (face: FontkitFace, request: FontRequest, substitution: Substitution): FontkitFace => {
    const scale = substitution.widthScale ?? 1;
    if (substitution.match === 'metric') return face;
    const widths = wordFontWidths(request.family, styleOf(request));
    if (widths) return face.withWidths(normalizeFamilyName(request.family).replace(/ /g, '-'), widths, scale);
    return scale === 1 ? face : face.widthScaled(scale);
  };
  /** Families drawn with a face of other widths, for the warning (substitutionWarning). */
  const substituted = new Map<string, { name: string; substitution: Substitution }>();
  const resolveFace = (request: FontRequest): FontFace => {
    const own = embeddedFace(request);
    if (own) return own;
    const substitution = substitute(request.family);
    const face =
      bundledFace(substitution.family, styleOf(request)) ??
      // Below: only for requests that were not passed to loadFontSet.
      bundledFace(substitution.family, 'Regular');
    if (!face) {
      return (
        (firstRequest ? resolveFace(firstRequest) : undefined) ??
        (bundledFace(LAST_RESORT.family, LAST_RESORT.style) as FontkitFace)
      );
    }
    const name = normalizeFamilyName(request.family);
    if (!substituted.has(name) && changesMetrics(request.family, substitution)) {
      substituted.set(name, { name: request.family.trim(), substitution });
    }
    return measuredAs(face, request, substitution);
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
      for (const family of fallbackFamilies(substitute(request.family).family)) {
        const candidate = bundledFace(family, style);
        if (candidate) chain.push(candidate);
      }
      entry = { face: resolve(request), chain, fallbacks: new Map() };
      styles[index] = entry;
    }
    return entry;
  };

  const face = (request: FontRequest): FontFace => resolved(request).face;

  /** Characters no face draws, which print as .notdef: named in one warning at the end. */
  const notDrawn = new Set<number>();

  const fallback = (
    codePoint: number,
    preferred: FontRequest,
    variant: EastAsianVariant = 'sc',
    probe = false,
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
    if (found === null && !probe) notDrawn.add(codePoint);
    return found ?? undefined;
  };

  /**
   * Per character (docs/engine.md "Glyph fallback"): the run's face, its bundled chain, then every Noto
   * face loaded, the character's script's first and the rest in fallbackCandidates' order.
   */
  const findFallback = (
    codePoint: number,
    { face: own, chain }: Resolved,
    bold: boolean,
    variant: EastAsianVariant,
  ): FontFace | undefined => {
    if (own.hasGlyph(codePoint)) return own;
    for (const candidate of chain) if (candidate.hasGlyph(codePoint)) return candidate;
    for (const script of fallbackCandidates(codePoint, variant)) {
      const noto = scriptFace(script, bold);
      if (noto?.hasGlyph(codePoint)) return noto;
    }
    return undefined;
  };

  return {
    face,
    fallback,
    get warnings(): readonly string[] {
      const all = [...warnings];
      for (const { name, substitution } of substituted.values()) all.push(substitutionWarning(name, substitution));
      if (notDrawn.size > 0) all.push(notDrawnWarning(notDrawn));
      return all;
    },
  };
}

/**
 * Symbol fonts are not substituted for their look: readers map their private-use characters to
 * Unicode (docs/engine.md "Symbol fonts"), drawn in whatever face has them.
 */
const SYMBOL_FONT = /^(symbol|wingdings( [23])?|webdings)$/;

/**
 * True when the face drawing `family` has other widths than the font the document names: every
 * substitution but a metric-compatible one (and symbol fonts, see SYMBOL_FONT). Names the bundled
 * family carries itself ("Liberation Sans") are not substitutions.
 */
function changesMetrics(family: string, substitution: Substitution): boolean {
  if (substitution.match === 'metric') return false;
  const name = normalizeFamilyName(family);
  return !SYMBOL_FONT.test(name) && name !== normalizeFamilyName(substitution.family);
}

/** The warning for a family drawn with a face of other metrics, for X-Quire-Warnings. */
export function substitutionWarning(name: string, substitution: Substitution): string {
  const how = wordFontWidths(name, 'Regular')
    ? `measured with ${name}'s own character widths`
    : substitution.widthScale !== undefined && substitution.widthScale !== 1
      ? `measured with ${name}'s average character width`
      : 'with its own widths';
  return `Font "${name}" is not available: drawn with ${substitution.family}, ${how}; line and page breaks may differ from Word's.`;
}

/** Characters shown in the warning of those no face draws; the rest are counted. */
const NOT_DRAWN_SHOWN = 20;

/** The warning naming the characters no face draws: each as itself and as U+XXXX. */
export function notDrawnWarning(codePoints: ReadonlySet<number>): string {
  const sorted = [...codePoints].sort((a, b) => a - b);
  const named = sorted
    .slice(0, NOT_DRAWN_SHOWN)
    .map((cp) => `${String.fromCodePoint(cp)} (U+${cp.toString(16).toUpperCase().padStart(4, '0')})`);
  const more = sorted.length > NOT_DRAWN_SHOWN ? ` and ${sorted.length - NOT_DRAWN_SHOWN} more` : '';
  const count = sorted.length === 1 ? 'One character' : `${sorted.length} characters`;
  return `${count} that no available font draws print as empty boxes (.notdef): ${named.join(', ')}${more}.`;
}
