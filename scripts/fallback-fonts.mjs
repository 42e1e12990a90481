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
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fontkit from '@pdf-lib/fontkit';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FALLBACK_DIR = join(root, 'assets', 'fonts', 'fallback');

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

/** Copies what is missing or changed; returns the names of files whose package is not installed. */
export function prepareFallbackFonts() {
  mkdirSync(FALLBACK_DIR, { recursive: true });
  const missing = [];
  for (const [name, source] of sources()) {
    if (!existsSync(source)) {
      missing.push(name);
      continue;
    }
    const target = join(FALLBACK_DIR, name);
    if (existsSync(target) && statSync(target).size === statSync(source).size) continue;
    copyFileSync(source, target);
  }
  writeCoverage();
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
  const missing = prepareFallbackFonts();
  if (missing.length > 0) {
    console.warn(`fallback fonts not installed (they will print as missing glyphs): ${missing.join(', ')}`);
  }
}
