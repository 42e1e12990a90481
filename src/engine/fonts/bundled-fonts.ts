/**
 * The faces shipped in assets/fonts (Workers static assets): five metric-compatible families in
 * four styles each. File names are Debian's (fonts-crosextra-carlito, fonts-crosextra-caladea,
 * fonts-liberation2); each family's licence file sits beside its TTFs. Besides them, one
 * handwriting face for script fonts (text signatures of POST /v1/annotate use "Segoe Script"):
 * Dancing Script (OFL 1.1), Regular and Bold, copied from its npm package into
 * assets/fonts/fallback/ by scripts/fallback-fonts.mjs like the Noto faces. A script face is
 * already slanted: its italics are its upright styles.
 */

export type BundledFamily =
  | 'Carlito'
  | 'Caladea'
  | 'Liberation Sans'
  | 'Liberation Serif'
  | 'Liberation Mono'
  | 'Dancing Script';

export type FontStyle = 'Regular' | 'Bold' | 'Italic' | 'BoldItalic';

/** Broad design class, for picking a substitute and a fallback chain. */
export type FontClass = 'sans' | 'serif' | 'mono';

export const BUNDLED_FAMILIES: readonly BundledFamily[] = [
  'Carlito',
  'Caladea',
  'Liberation Sans',
  'Liberation Serif',
  'Liberation Mono',
  'Dancing Script',
];

const FILE_STEMS: Record<BundledFamily, string> = {
  Carlito: 'Carlito',
  Caladea: 'Caladea',
  'Liberation Sans': 'LiberationSans',
  'Liberation Serif': 'LiberationSerif',
  'Liberation Mono': 'LiberationMono',
  'Dancing Script': 'DancingScript',
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

/** "Carlito-Bold.ttf", under assets/fonts ("fallback/DancingScript-Bold.ttf" for the copied face). */
export function bundledFileName(family: BundledFamily, style: FontStyle): string {
  if (family === 'Dancing Script') {
    return `fallback/${bundledFaceKey(family, style === 'Bold' || style === 'BoldItalic' ? 'Bold' : 'Regular')}.ttf`;
  }
  return `${bundledFaceKey(family, style)}.ttf`;
}

export function bundledFontUrl(fileName: string): string {
  return `${ASSETS_ORIGIN}/fonts/${fileName}`;
}
