/**
 * The faces of one conversion, loaded up front so that layout can ask for faces synchronously.
 * Resolution per request (docs/api.md "Bring your own fonts"): the family in the request's style
 * from the document's embedded fonts, then the caller's fonts of this request, then the account's
 * font library; then the family's regular style from the same three, in the same order; then the
 * bundled substitute in the request's style (font-substitution.ts). Glyph fallback walks the
 * bundled chain of the request's substitute family, in the same style.
 */
import { MAX_FONT_LIBRARY_LOOKUPS } from '../../limits';
import type { DeclaredFont, EmbeddedFont } from '../model';
import { type BundledFamily, bundledFileName, type FontStyle, styleOf } from './bundled-fonts';
import { bestSupplied, callerFamilyKey, type FontLibrary, type SuppliedFont, styleWords } from './caller-fonts';
import { embeddedFaceKey, embeddedIndex, embedsFamily } from './embedded-font-match';
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
  /** The caller's fonts of this request, read (caller-fonts.ts readFontFile), in the order sent. */
  supplied?: readonly SuppliedFont[];
  /** The account's font library, asked for the families the requests name that nothing above has. */
  library?: FontLibrary;
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
  /** The embedded face of `family` in exactly this style, parsed (undefined: none, or unreadable). */
  const embeddedFace = (family: string, bold: boolean, italic: boolean): FontkitFace | undefined => {
    const index = embeddedIndex(embedded, { family, bold, italic });
    if (index === undefined) return undefined;
    if (!parsedEmbedded.has(index)) {
      const font = embedded[index];
      parsedEmbedded.set(index, font && parseTrueTypeFace(embeddedFaceKey(index), font.bytes));
    }
    return parsedEmbedded.get(index); // An embedded font fontkit cannot read is skipped.
  };
  for (const request of unique) {
    if (!embeddedFace(request.family, request.bold, request.italic)) embeddedFace(request.family, false, false);
  }

  const warnings: string[] = [];
  const supplied = options.supplied ?? [];
  const library = options.library
    ? await askLibrary(options.library, unique, supplied, embeddedFace, warnings)
    : new Map<string, SuppliedFont>();

  const files = new Set(unique.flatMap((request) => bundledFilesFor(request, substitute)));
  if (unique.length === 0) files.add(bundledFileName(LAST_RESORT.family, LAST_RESORT.style));
  const loaded = await Promise.all([...files].map((file) => loadBundledFace(file, assets, cache)));
  const bundled = new Map([...files].map((file, i) => [file, loaded[i] as FontkitFace]));

  // Fallback faces: those the characters need, by the coverage index; without it, the face of
  // each character's script. A file that cannot be read leaves its characters as .notdef, with a
  // warning.
  const coverage = options.fallbackCharacters ? await loadFallbackCoverage(assets) : undefined;
  const drawnElsewhere = (cp: number): boolean => {
    for (const face of bundled.values()) if (face.hasGlyph(cp)) return true;
    for (const face of parsedEmbedded.values()) if (face?.hasGlyph(cp)) return true;
    for (const font of supplied) if (font.face.hasGlyph(cp)) return true;
    for (const font of library.values()) if (font.face.hasGlyph(cp)) return true;
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
  /** Where the caller's fonts come from, in warnings. */
  const callerPlaces = options.library ? 'among the fonts sent or in the font library' : 'among the fonts sent';
  /** The caller's fonts some request was drawn with (the rest are named in a warning). */
  const usedSupplied = new Set<SuppliedFont>();
  /** Warnings of caller fonts drawn in another style than asked, or not at all, by family and style. */
  const callerNotes = new Map<string, string>();
  /**
   * The document's own font for a request: embedded, the request's, the library's; in the
   * request's style, then in the family's regular.
   */
  const ownFace = (request: FontRequest): FontFace | undefined => {
    const family = callerFamilyKey(request.family);
    const styles = request.bold || request.italic ? [request, { bold: false, italic: false }] : [request];
    for (const { bold, italic } of styles) {
      const embeddedOwn = embeddedFace(request.family, bold, italic);
      if (embeddedOwn) return embeddedOwn;
      const font =
        bestSupplied(supplied, family, bold, italic) ?? library.get(libraryKey(family, styleOf({ bold, italic })));
      if (!font) continue;
      usedSupplied.add(font);
      if (bold !== request.bold || italic !== request.italic) {
        callerNotes.set(
          `${family}|${styleOf(request)}`,
          `Font "${request.family.trim()}" has no ${styleWords(request)} face ${callerPlaces}: its ${styleWords(request)} text is drawn with ${font.name} (${font.source}).`,
        );
      }
      return font.face;
    }
    return undefined;
  };
  /** The styles of a family the caller brought, in words, when it brought some. */
  const callerStyles = (family: string): string[] => {
    const styles = new Set<string>();
    for (const font of supplied) {
      for (const claim of font.claims) if (claim.family === family) styles.add(styleWords(claim));
    }
    for (const [key, font] of library) {
      if (key.startsWith(`${family}|`)) {
        for (const claim of font.claims) styles.add(styleWords(claim));
      }
    }
    return [...styles];
  };
  const resolveFace = (request: FontRequest): FontFace => {
    const own = ownFace(request);
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
    const family = callerFamilyKey(request.family);
    const brought = callerStyles(family);
    if (brought.length > 0) {
      // The caller brought the family, but not this style nor its regular.
      callerNotes.set(
        `${family}|${styleOf(request)}`,
        `Font "${request.family.trim()}" has no ${styleWords(request)}${request.bold || request.italic ? ' or Regular' : ''} face ${callerPlaces} (it has ${brought.join(', ')}): its ${styleWords(request)} text is drawn with ${substitution.family}.`,
      );
    } else if (!substituted.has(name) && changesMetrics(request.family, substitution)) {
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
      const all = [...warnings, ...callerNotes.values()];
      all.push(...unusedWarnings(supplied, usedSupplied, unique, embedded));
      for (const { name, substitution } of substituted.values()) all.push(substitutionWarning(name, substitution));
      if (notDrawn.size > 0) all.push(notDrawnWarning(notDrawn));
      return all;
    },
  };
}

/** A style as bold and italic. */
function styleClaimOf(style: FontStyle): { bold: boolean; italic: boolean } {
  return { bold: style.startsWith('Bold'), italic: style.endsWith('Italic') };
}

/** The library's faces of a conversion are kept by family (callerFamilyKey) and style. */
function libraryKey(family: string, style: FontStyle): string {
  return `${family}|${style}`;
}

/**
 * Asks the font library for the faces the requests may be drawn with that neither the document's
 * embedded fonts nor the request's fonts have: each family in each style asked for, and in its
 * regular when the style is not there either (ownFace's order). At most MAX_FONT_LIBRARY_LOOKUPS
 * reads, all at once; an object the library has that cannot be used is a warning.
 */
async function askLibrary(
  library: FontLibrary,
  requests: readonly FontRequest[],
  supplied: readonly SuppliedFont[],
  embeddedFace: (family: string, bold: boolean, italic: boolean) => FontkitFace | undefined,
  warnings: string[],
): Promise<Map<string, SuppliedFont>> {
  const wanted = new Map<string, { family: string; style: FontStyle }>();
  const have = (request: FontRequest, bold: boolean, italic: boolean) =>
    embeddedFace(request.family, bold, italic) !== undefined ||
    bestSupplied(supplied, callerFamilyKey(request.family), bold, italic) !== undefined;
  for (const request of requests) {
    const family = callerFamilyKey(request.family);
    if (family === '' || have(request, request.bold, request.italic)) continue;
    const style = styleOf(request);
    wanted.set(libraryKey(family, style), { family: request.family, style });
    if (style !== 'Regular' && !have(request, false, false)) {
      wanted.set(libraryKey(family, 'Regular'), { family: request.family, style: 'Regular' });
    }
  }
  const lookups = [...wanted.values()];
  const asked = lookups.slice(0, MAX_FONT_LIBRARY_LOOKUPS);
  if (asked.length < lookups.length) {
    warnings.push(
      `The document asks for ${lookups.length} fonts; only the first ${asked.length} were looked up in the font library (the most one conversion may ask it for).`,
    );
  }
  const found = await Promise.all(
    asked.map(({ family, style }) =>
      library.find(family, style).catch(() => ({ source: `${family} ${style}`, problem: 'could not be read' })),
    ),
  );
  const faces = new Map<string, SuppliedFont>();
  asked.forEach(({ family, style }, i) => {
    const result = found[i];
    if (result === undefined) return;
    if ('font' in result) faces.set(libraryKey(callerFamilyKey(family), style), result.font);
    else {
      warnings.push(
        `Font "${family.trim()}" ${styleWords(styleClaimOf(style))} in the font library (${result.source}) cannot be used: it ${result.problem}.`,
      );
    }
  });
  return faces;
}

/** Families named in the warning of an unused font; the rest are counted. */
const NAMES_SHOWN = 8;

/**
 * Warnings for the request's fonts no text was drawn with, when that is likely a mistake: the
 * document names no font of the family (the name differs from what its name table says), or it
 * embeds the family, which comes first. A face of a family the document uses, in a style it does
 * not, is not worth a warning.
 */
function unusedWarnings(
  supplied: readonly SuppliedFont[],
  used: ReadonlySet<SuppliedFont>,
  requests: readonly FontRequest[],
  embedded: readonly EmbeddedFont[],
): string[] {
  if (supplied.every((font) => used.has(font))) return [];
  const named = new Map<string, string>();
  for (const request of requests) {
    const family = callerFamilyKey(request.family);
    if (family !== '' && !named.has(family)) named.set(family, request.family.trim());
  }
  const usedFamilies = new Set([...used].flatMap((font) => font.claims.map((claim) => claim.family)));
  const warnings: string[] = [];
  for (const font of supplied) {
    if (used.has(font)) continue;
    const families = [...new Set(font.claims.map((claim) => claim.family))];
    const asked = families.filter((family) => named.has(family));
    if (asked.length === 0) {
      const names = [...named.values()];
      const shown = names.slice(0, NAMES_SHOWN).map((name) => `"${name}"`);
      const more = names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : '';
      warnings.push(
        `${font.source} (${font.name}) was not used: the document names no font "${font.family}", the family in its name table${names.length > 0 ? `; it names ${shown.join(', ')}${more}` : ''}.`,
      );
    } else if (!asked.some((family) => usedFamilies.has(family))) {
      const family = named.get(asked[0] as string) as string;
      if (embedsFamily(embedded, family)) {
        warnings.push(
          `${font.source} (${font.name}) was not used: the document embeds its own "${family}", which comes first.`,
        );
      }
    }
  }
  return warnings;
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
