import { child, type XmlElement } from './xml-tree';

/**
 * The theme's font scheme (ECMA-376 Part 1, §20.1.4.1.16 majorFont / §20.1.4.1.25 minorFont): the
 * faces that w:rFonts theme references (w:asciiTheme="minorHAnsi", §17.3.2.26) stand for.
 */
export interface ThemeFonts {
  major: ThemeFontSet;
  minor: ThemeFontSet;
}

export interface ThemeFontSet {
  latin?: string;
  eastAsia?: string;
  complex?: string;
  /** Per-script faces (a:font script="Jpan" typeface="…"), used when the ea/cs face is empty. */
  scripts: Record<string, string>;
}

/** Office's default theme ("Office Theme" 2013–2022), for documents without a theme part. */
export const DEFAULT_THEME_FONTS: ThemeFonts = {
  major: { latin: 'Calibri Light', scripts: {} },
  minor: { latin: 'Calibri', scripts: {} },
};

export function readThemeFonts(theme: XmlElement | undefined): ThemeFonts {
  const scheme = child(child(theme, 'a:themeElements'), 'a:fontScheme');
  if (scheme === undefined) return DEFAULT_THEME_FONTS;
  return { major: readFontSet(child(scheme, 'a:majorFont')), minor: readFontSet(child(scheme, 'a:minorFont')) };
}

function readFontSet(element: XmlElement | undefined): ThemeFontSet {
  const face = (name: string) => nonEmpty(child(element, name)?.attributes.typeface);
  const scripts: Record<string, string> = {};
  for (const font of element?.children ?? []) {
    const script = font.attributes.script;
    const typeface = nonEmpty(font.attributes.typeface);
    if (font.name === 'a:font' && script !== undefined && typeface !== undefined) scripts[script] = typeface;
  }
  return { latin: face('a:latin'), eastAsia: face('a:ea'), complex: face('a:cs'), scripts };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The face a theme font reference names (ST_Theme, §17.18.96): major/minor × Ascii/HAnsi (the
 * Latin face), EastAsia and Bidi (complex script). An empty East Asian or complex face falls back
 * to the script-specific face for the document's language, when the theme lists one.
 */
export function themeFont(fonts: ThemeFonts, reference: string, scriptHint?: string): string | undefined {
  const set = reference.startsWith('major') ? fonts.major : reference.startsWith('minor') ? fonts.minor : undefined;
  if (set === undefined) return undefined;
  const slot = reference.slice(5);
  if (slot === 'Ascii' || slot === 'HAnsi') return set.latin;
  if (slot === 'EastAsia') return set.eastAsia ?? (scriptHint ? set.scripts[scriptHint] : undefined);
  if (slot === 'Bidi') return set.complex ?? (scriptHint ? set.scripts[scriptHint] : undefined);
  return undefined;
}
