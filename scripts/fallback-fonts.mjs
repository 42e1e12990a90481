#!/usr/bin/env node
// Copies the Noto faces of glyph fallback (docs/engine.md "Glyph fallback") from their npm packages
// into assets/fonts/fallback/, a git-ignored folder the ASSETS binding serves like the bundled
// faces. They are too large for git (a CJK face is about 10 MB), but Workers static assets take
// files up to 25 MiB outside the worker bundle, and every way the worker runs reads them the same:
// `npm start` (wrangler dev), `npm test` (vitest.config.ts), the bench and convert-dir harness,
// and `npm run deploy`, which uploads the folder. Each of those calls this first, as does
// `postinstall`; a copy already in place (same size) is left alone. The list of files is
// src/engine/fonts/fallback-faces.ts's; a face missing at run time degrades to .notdef and a warning.
// Beside them goes coverage.json, the characters each face has (src/engine/fonts/fallback-coverage.ts),
// so that a conversion loads only the faces its characters need without opening the others.
// The same way, into assets/fonts/families/, go the open text families documents name or that stand
// in for Word fonts with no open metric-compatible face (src/engine/fonts/bundled-fonts.ts, the
// substitution table in docs/fonts.md): each family's four styles and its licence.
// Run alone: `node scripts/fallback-fonts.mjs` (what `npm run postinstall` ends with).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fontkit from '@pdf-lib/fontkit';
import { helpIfAsked } from './script-help.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FALLBACK_DIR = join(root, 'assets', 'fonts', 'fallback');
export const FAMILIES_DIR = join(root, 'assets', 'fonts', 'families');

/** The four styles' file suffixes, as src/engine/fonts/bundled-fonts.ts names them. */
const STYLES = ['Regular', 'Bold', 'Italic', 'BoldItalic'];
/** @expo-google-fonts folder and file infix per style. */
const EXPO_STYLES = {
  Regular: '400Regular',
  Bold: '700Bold',
  Italic: '400Regular_Italic',
  BoldItalic: '700Bold_Italic',
};

/**
 * [asset stem, package, file of a style under the package, licence file]. Google Fonts families
 * come from @expo-google-fonts (OFL 1.1: LICENSE_FONT; the package's LICENSE is its code's MIT).
 * Open Sans is version 1.10, the one Windows and Office ship (npm-font-open-sans, Apache 2.0): the
 * current Google Fonts Open Sans (3.x) has other advance widths and a 6% taller line, so documents
 * set in Word's Open Sans would break lines and pages elsewhere. DejaVu (Bitstream Vera licence)
 * stands in for Verdana and Tahoma, which Vera's design follows.
 */
const expo = (stem, pkg, prefix, styles = STYLES) =>
  styles.map((style) => [
    `${stem}-${style}.ttf`,
    join('@expo-google-fonts', pkg, EXPO_STYLES[style], `${prefix}_${EXPO_STYLES[style]}.ttf`),
  ]);
const dejavu = (stem, names) =>
  STYLES.map((style, i) => [`${stem}-${style}.ttf`, join('dejavu-fonts-ttf', 'ttf', `${names[i]}.ttf`)]);
const FAMILY_FILES = [
  ...STYLES.map((style) => [
    `OpenSans-${style}.ttf`,
    join('npm-font-open-sans', 'fonts', style, `OpenSans-${style}.ttf`),
  ]),
  ['OpenSans-LICENSE.txt', join('npm-font-open-sans', 'LICENSE')],
  ...[
    ['Roboto', 'roboto', 'Roboto'],
    ['Lato', 'lato', 'Lato'],
    ['Montserrat', 'montserrat', 'Montserrat'],
    ['Poppins', 'poppins', 'Poppins'],
    ['Inter', 'inter', 'Inter'],
    ['Raleway', 'raleway', 'Raleway'],
    ['Merriweather', 'merriweather', 'Merriweather'],
    ['PTSans', 'pt-sans', 'PTSans'],
    ['PTSerif', 'pt-serif', 'PTSerif'],
    ['NotoSans', 'noto-sans', 'NotoSans'],
    ['NotoSerif', 'noto-serif', 'NotoSerif'],
    ['Gelasio', 'gelasio', 'Gelasio'],
    ['SourceCodePro', 'source-code-pro', 'SourceCodePro'],
  ].flatMap(([stem, pkg, prefix]) => [
    ...expo(stem, pkg, prefix),
    [`${stem}-LICENSE.txt`, join('@expo-google-fonts', pkg, 'LICENSE_FONT')],
  ]),
  // Archivo Black has one style, like Arial Black, which it stands in for.
  ...expo('ArchivoBlack', 'archivo-black', 'ArchivoBlack', ['Regular']),
  ['ArchivoBlack-LICENSE.txt', join('@expo-google-fonts', 'archivo-black', 'LICENSE_FONT')],
  ...dejavu('DejaVuSans', ['DejaVuSans', 'DejaVuSans-Bold', 'DejaVuSans-Oblique', 'DejaVuSans-BoldOblique']),
  ...dejavu('DejaVuSansCondensed', [
    'DejaVuSansCondensed',
    'DejaVuSansCondensed-Bold',
    'DejaVuSansCondensed-Oblique',
    'DejaVuSansCondensed-BoldOblique',
  ]),
  ['DejaVu-LICENSE.txt', join('dejavu-fonts-ttf', 'LICENSE')],
];

/** [asset file, path under node_modules]; OFL 1.1 each, its licence copied beside it. */
const FACES = [
  ['NotoSansArabic', '@expo-google-fonts/noto-sans-arabic', 'NotoSansArabic'],
  ['NotoSansSC', '@expo-google-fonts/noto-sans-sc', 'NotoSansSC'],
  ['NotoSansTC', '@expo-google-fonts/noto-sans-tc', 'NotoSansTC'],
  ['NotoSansJP', '@expo-google-fonts/noto-sans-jp', 'NotoSansJP'],
  ['NotoSansKR', '@expo-google-fonts/noto-sans-kr', 'NotoSansKR'],
  ['NotoSansThai', '@expo-google-fonts/noto-sans-thai', 'NotoSansThai'],
  ['NotoSansDevanagari', '@expo-google-fonts/noto-sans-devanagari', 'NotoSansDevanagari'],
  // Monochrome emoji and symbols: TrueType glyf outlines (the colour Noto Color Emoji is CBDT).
  ['NotoEmoji', '@expo-google-fonts/noto-emoji', 'NotoEmoji'],
  // Not glyph fallback: the handwriting face of text signatures (src/engine/fonts/bundled-fonts.ts).
  ['DancingScript', '@expo-google-fonts/dancing-script', 'DancingScript'],
];
/** Faces with a Regular weight only: Noto Sans Math has no Bold. */
const REGULAR_ONLY_FACES = [['NotoSansMath', '@expo-google-fonts/noto-sans-math', 'NotoSansMath']];

function sources() {
  const files = [];
  for (const [stem, pkg, prefix] of FACES) {
    const dir = join(root, 'node_modules', pkg);
    files.push([`${stem}-Regular.ttf`, join(dir, '400Regular', `${prefix}_400Regular.ttf`)]);
    files.push([`${stem}-Bold.ttf`, join(dir, '700Bold', `${prefix}_700Bold.ttf`)]);
    files.push([`${stem}-LICENSE.txt`, join(dir, 'LICENSE_FONT')]);
  }
  for (const [stem, pkg, prefix] of REGULAR_ONLY_FACES) {
    const dir = join(root, 'node_modules', pkg);
    files.push([`${stem}-Regular.ttf`, join(dir, '400Regular', `${prefix}_400Regular.ttf`)]);
    files.push([`${stem}-LICENSE.txt`, join(dir, 'LICENSE_FONT')]);
  }
  // Google Fonts' Noto Sans Hebrew has no @expo-google-fonts package; EmbedPDF ships its TTFs.
  const hebrew = join(root, 'node_modules', '@embedpdf', 'fonts-hebrew');
  files.push(['NotoSansHebrew-Regular.ttf', join(hebrew, 'fonts', 'NotoSansHebrew-Regular.ttf')]);
  files.push(['NotoSansHebrew-Bold.ttf', join(hebrew, 'fonts', 'NotoSansHebrew-Bold.ttf')]);
  files.push(['NotoSansHebrew-LICENSE.txt', join(hebrew, 'LICENSE')]);
  return files;
}

/**
 * Copies what is missing or changed, the fallback faces and the text families; returns the names of
 * files whose package is not installed.
 */
export function prepareFallbackFonts() {
  const missing = [
    ...copyAll(FALLBACK_DIR, sources()),
    ...copyAll(
      FAMILIES_DIR,
      FAMILY_FILES.map(([name, source]) => [name, join(root, 'node_modules', source)]),
    ),
  ];
  writeCoverage();
  return missing;
}

function copyAll(dir, files) {
  mkdirSync(dir, { recursive: true });
  const missing = [];
  for (const [name, source] of files) {
    if (!existsSync(source)) {
      missing.push(name);
      continue;
    }
    const target = join(dir, name);
    if (existsSync(target) && statSync(target).size === statSync(source).size) continue;
    copyFileSync(source, target);
  }
  return missing;
}

/**
 * Writes coverage.json: per font file its size and the code points its cmap maps, as ranges
 * delta-coded [gap from the previous range's end, length − 1, …] (about 110 kB for the lot, where
 * the faces are 60 MB). A face whose coverage equals an earlier one's (Bold beside Regular) names
 * that one. Rewritten only when the files (names and sizes) change.
 */
export function writeCoverage() {
  const target = join(FALLBACK_DIR, 'coverage.json');
  const fonts = readdirSync(FALLBACK_DIR)
    .filter((name) => name.endsWith('.ttf'))
    .sort();
  const stamp = fonts.map((name) => `${name}:${statSync(join(FALLBACK_DIR, name)).size}`).join(',');
  if (existsSync(target)) {
    try {
      if (JSON.parse(readFileSync(target, 'utf8')).stamp === stamp) return;
    } catch {
      // Unreadable: written again below.
    }
  }
  const files = {};
  const byRanges = new Map();
  for (const name of fonts) {
    const bytes = readFileSync(join(FALLBACK_DIR, name));
    const codePoints = [...new Set(fontkit.create(bytes).characterSet)].sort((a, b) => a - b);
    const ranges = [];
    let end = -1;
    for (let i = 0; i < codePoints.length; ) {
      let j = i;
      while (j + 1 < codePoints.length && codePoints[j + 1] === codePoints[j] + 1) j++;
      ranges.push(codePoints[i] - end - 1, j - i);
      end = codePoints[j];
      i = j + 1;
    }
    const key = ranges.join(',');
    const same = byRanges.get(key);
    files[name] = same ? { bytes: bytes.length, sameAs: same } : { bytes: bytes.length, ranges };
    if (!same) byRanges.set(key, name);
  }
  writeFileSync(target, JSON.stringify({ version: 1, stamp, files }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  helpIfAsked(import.meta.url);
  const missing = prepareFallbackFonts();
  if (missing.length > 0) {
    console.warn(
      `fonts not installed (their text falls back to other faces or prints as missing glyphs): ${missing.join(', ')}`,
    );
  }
}
