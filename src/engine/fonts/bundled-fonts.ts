/**
 * The faces shipped in assets/fonts (Workers static assets): five metric-compatible families in
 * four styles each. File names are Debian's (fonts-crosextra-carlito, fonts-crosextra-caladea,
 * fonts-liberation2); each family's licence file sits beside its TTFs. Besides them, one
 * handwriting face for script fonts (text signatures of POST /v1/annotate use "Segoe Script"):
 * Dancing Script (OFL 1.1), Regular and Bold, copied from its npm package into
 * assets/fonts/fallback/ by scripts/fallback-fonts.mjs like the Noto faces. A script face is
 * already slanted: its italics are its upright styles.
 *
 * The open text families documents name (Open Sans, Roboto, Lato …) and the faces that stand in for
 * Word fonts without an open metric-compatible one (DejaVu Sans for Verdana, Gelasio for Georgia …:
 * font-substitution.ts, docs/fonts.md) are copied the same way from their npm packages into
 * assets/fonts/families/, four styles each (Archivo Black has one), with their licences.
 */

export type BundledFamily =
  | 'Carlito'
  | 'Caladea'
  | 'Liberation Sans'
  | 'Liberation Serif'
  | 'Liberation Mono'
  | 'Dancing Script'
  | CopiedFamily;

/** Families copied from npm packages into assets/fonts/families/ (scripts/fallback-fonts.mjs). */
type CopiedFamily =
  | 'Open Sans'
  | 'Roboto'
  | 'Lato'
  | 'Montserrat'
  | 'Poppins'
  | 'Inter'
  | 'Raleway'
  | 'Merriweather'
  | 'PT Sans'
  | 'PT Serif'
  | 'Noto Sans'
  | 'Noto Serif'
  | 'Gelasio'
  | 'Source Code Pro'
  | 'Archivo Black'
  | 'DejaVu Sans'
  | 'DejaVu Sans Condensed';

export type FontStyle = 'Regular' | 'Bold' | 'Italic' | 'BoldItalic';

/** Broad design class, for picking a substitute and a fallback chain. */
export type FontClass = 'sans' | 'serif' | 'mono';

/** File stems of the copied families, as scripts/fallback-fonts.mjs writes them. */
const COPIED_STEMS: Record<CopiedFamily, string> = {
  'Open Sans': 'OpenSans',
  Roboto: 'Roboto',
  Lato: 'Lato',
  Montserrat: 'Montserrat',
  Poppins: 'Poppins',
  Inter: 'Inter',
  Raleway: 'Raleway',
  Merriweather: 'Merriweather',
  'PT Sans': 'PTSans',
  'PT Serif': 'PTSerif',
  'Noto Sans': 'NotoSans',
  'Noto Serif': 'NotoSerif',
  Gelasio: 'Gelasio',
  'Source Code Pro': 'SourceCodePro',
  'Archivo Black': 'ArchivoBlack',
  'DejaVu Sans': 'DejaVuSans',
  'DejaVu Sans Condensed': 'DejaVuSansCondensed',
};

export const BUNDLED_FAMILIES: readonly BundledFamily[] = [
  'Carlito',
  'Caladea',
  'Liberation Sans',
  'Liberation Serif',
  'Liberation Mono',
  'Dancing Script',
  ...(Object.keys(COPIED_STEMS) as CopiedFamily[]),
];

const FILE_STEMS: Record<BundledFamily, string> = {
  Carlito: 'Carlito',
  Caladea: 'Caladea',
  'Liberation Sans': 'LiberationSans',
  'Liberation Serif': 'LiberationSerif',
  'Liberation Mono': 'LiberationMono',
  'Dancing Script': 'DancingScript',
  ...COPIED_STEMS,
};

export const FAMILY_CLASS: Record<BundledFamily, FontClass> = {
  Carlito: 'sans',
  Caladea: 'serif',
  'Liberation Sans': 'sans',
  'Liberation Serif': 'serif',
  'Liberation Mono': 'mono',
  // For glyph fallback only (font-substitution.ts fallbackFamilies): what the face lacks comes
  // from Liberation Sans, then Carlito.
  'Dancing Script': 'sans',
  'Open Sans': 'sans',
  Roboto: 'sans',
  Lato: 'sans',
  Montserrat: 'sans',
  Poppins: 'sans',
  Inter: 'sans',
  Raleway: 'sans',
  Merriweather: 'serif',
  'PT Sans': 'sans',
  'PT Serif': 'serif',
  'Noto Sans': 'sans',
  'Noto Serif': 'serif',
  Gelasio: 'serif',
  'Source Code Pro': 'mono',
  'Archivo Black': 'sans',
  'DejaVu Sans': 'sans',
  'DejaVu Sans Condensed': 'sans',
};

/** Copied families with fewer than four styles: the styles they have, in order of preference. */
const ONLY_STYLES: Partial<Record<BundledFamily, (style: FontStyle) => FontStyle>> = {
  // A script face is already slanted: its italics are its upright styles.
  'Dancing Script': (style) => (style === 'Bold' || style === 'BoldItalic' ? 'Bold' : 'Regular'),
  // One heavy weight, upright: bold and italic are drawn with it, as Word draws Arial Black.
  'Archivo Black': () => 'Regular',
};

/** Where static assets are fetched from; the host is ignored by the ASSETS binding. */
export const ASSETS_ORIGIN = 'https://assets.local';

export function styleOf(request: { bold: boolean; italic: boolean }): FontStyle {
  if (request.bold) return request.italic ? 'BoldItalic' : 'Bold';
  return request.italic ? 'Italic' : 'Regular';
}

/** "Carlito-Bold": the file's stem, also the face key, unique among bundled faces. */
export function bundledFaceKey(family: BundledFamily, style: FontStyle): string {
  return `${FILE_STEMS[family]}-${style}`;
}

/**
 * "Carlito-Bold.ttf", under assets/fonts: "fallback/DancingScript-Bold.ttf" and
 * "families/OpenSans-Bold.ttf" for the faces copied from npm packages.
 */
export function bundledFileName(family: BundledFamily, style: FontStyle): string {
  const available = ONLY_STYLES[family]?.(style) ?? style;
  if (family === 'Dancing Script') return `fallback/${bundledFaceKey(family, available)}.ttf`;
  if (family in COPIED_STEMS) return `families/${bundledFaceKey(family, available)}.ttf`;
  return `${bundledFaceKey(family, available)}.ttf`;
}

export function bundledFontUrl(fileName: string): string {
  return `${ASSETS_ORIGIN}/fonts/${fileName}`;
}
