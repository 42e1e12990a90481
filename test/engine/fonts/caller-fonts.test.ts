import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { FontStyle } from '../../../src/engine/fonts/bundled-fonts';
import {
  bestSupplied,
  callerFamilyKey,
  type FontLibrary,
  type LibraryLookup,
  readFontFile,
  type SuppliedFont,
  sniffFontFile,
} from '../../../src/engine/fonts/caller-fonts';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadFontSet } from '../../../src/engine/fonts/font-set';
import { verticalMetrics } from '../../../src/engine/layout/inline-boxes';
import { MAX_FONT_LIBRARY_LOOKUPS } from '../../../src/limits';
import { brandFont, fontHeader } from '../../helpers/font-fixture';
import { request } from './helpers';

/** A caller's font: a bundled face renamed, read as a request's font part. */
async function supplied(
  file: string,
  family: string,
  subfamily: string,
  postscriptName: string,
  index = 0,
): Promise<SuppliedFont> {
  const reading = readFontFile(await brandFont(file, { family, subfamily, postscriptName }), `request-${index}`);
  if ('problem' in reading) throw new Error(reading.problem);
  return { ...reading.font, source: `fonts[${index}]` };
}

/** A library that answers from a map by `family key/Style`, and records what it was asked. */
function memoryLibrary(faces: Record<string, LibraryLookup>): FontLibrary & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async find(family: string, style: FontStyle) {
      const key = `${callerFamilyKey(family)}/${style}`;
      asked.push(key);
      return faces[key];
    },
  };
}

describe('reading a caller font', () => {
  it('tells the formats apart by their first bytes', () => {
    expect(sniffFontFile(new Uint8Array([0, 1, 0, 0, 0, 9]))).toBe('truetype');
    expect(sniffFontFile(new TextEncoder().encode('true....'))).toBe('truetype');
    expect(sniffFontFile(fontHeader('OTTO'))).toBe('cff');
    expect(sniffFontFile(fontHeader('wOFF'))).toBe('woff');
    expect(sniffFontFile(fontHeader('wOF2'))).toBe('woff2');
    expect(sniffFontFile(fontHeader('ttcf'))).toBe('collection');
    expect(sniffFontFile(new TextEncoder().encode('%PDF-1.7'))).toBe('unknown');
  });

  it('refuses what the painter cannot embed, and says why', () => {
    const cff = readFontFile(fontHeader('OTTO'), 'request-0');
    expect(cff).toMatchObject({ unsupported: true });
    expect('problem' in cff && cff.problem).toMatch(/PostScript \(CFF\) outlines/);
    expect(readFontFile(fontHeader('wOF2'), 'request-0')).toMatchObject({ unsupported: true });
    expect(readFontFile(new Uint8Array(0), 'request-0')).toEqual({ problem: 'is empty', unsupported: false });
  });

  it('calls a cut-short TrueType font damaged', async () => {
    const whole = await brandFont('Caladea-Regular.ttf', { family: 'Acme Brand', postscriptName: 'AcmeBrand-Regular' });
    const reading = readFontFile(whole.slice(0, 4000), 'request-0');
    expect(reading).toMatchObject({ unsupported: false });
    expect('problem' in reading && reading.problem).toMatch(/^is a damaged TrueType font/);
  });

  it('reads the family and style from the name table and OS/2', async () => {
    const bold = await supplied('Caladea-Bold.ttf', 'Acme Brand', 'Bold', 'AcmeBrand-Bold');
    expect(bold.family).toBe('Acme Brand');
    expect(bold.name).toBe('Acme Brand Bold');
    expect(bold.weight).toBe(700);
    expect(bold.claims).toEqual([{ family: 'acmebrand', bold: true, italic: false }]);
    expect(bold.face.postscriptName).toBe('AcmeBrand-Bold');
  });

  it('answers to the family of nameID 1 and the typographic family of nameID 16', async () => {
    const reading = readFontFile(
      await brandFont('Caladea-Regular.ttf', {
        family: 'Acme Brand Light',
        typographicFamily: 'Acme Brand',
        postscriptName: 'AcmeBrand-Light',
      }),
      'request-0',
    );
    if ('problem' in reading) throw new Error(reading.problem);
    expect(reading.font.claims.map((claim) => claim.family)).toEqual(['acmebrandlight', 'acmebrand']);
  });

  it('matches case and white space away, and prefers the weight nearest the style', () => {
    expect(callerFamilyKey(' "Acme  Brand" ')).toBe('acmebrand');
    expect(callerFamilyKey('ACME brand')).toBe(callerFamilyKey('AcmeBrand'));
    const face = (weight: number, bold: boolean) =>
      ({ weight, claims: [{ family: 'acmebrand', bold, italic: false }] }) as unknown as SuppliedFont;
    const semibold = face(600, true);
    const boldFace = face(700, true);
    const light = face(300, false);
    const regular = face(400, false);
    expect(bestSupplied([semibold, boldFace], 'acmebrand', true, false)).toBe(boldFace);
    expect(bestSupplied([light, regular], 'acmebrand', false, false)).toBe(regular);
    expect(bestSupplied([light], 'acmebrand', false, true)).toBeUndefined();
  });
});

describe('the font set with caller fonts', () => {
  const options = { assets: env.ASSETS, embedded: [] };

  it("draws a request with the caller's face in its style, else its regular, with a warning", async () => {
    const regular = await supplied('Caladea-Regular.ttf', 'Acme Brand', 'Regular', 'AcmeBrand-Regular');
    const fonts = await loadFontSet([request('Acme Brand'), request('acme brand', true)], {
      ...options,
      cache: createFontCache(),
      supplied: [regular],
    });
    expect(fonts.face(request('Acme Brand'))).toBe(regular.face);
    expect(fonts.face(request('acme brand', true))).toBe(regular.face);
    expect(fonts.warnings.join('\n')).toContain(
      'Font "acme brand" has no Bold face among the fonts sent: its Bold text is drawn with Acme Brand Regular (fonts[0]).',
    );
  });

  it('says which style of a family the caller brought is missing when neither it nor the regular is there', async () => {
    const bold = await supplied('Caladea-Bold.ttf', 'Acme Brand', 'Bold', 'AcmeBrand-Bold');
    const fonts = await loadFontSet([request('Acme Brand'), request('Acme Brand', true)], {
      ...options,
      cache: createFontCache(),
      supplied: [bold],
    });
    expect(fonts.face(request('Acme Brand', true))).toBe(bold.face);
    expect(fonts.face(request('Acme Brand')).key).not.toMatch(/^request-/);
    expect(fonts.warnings.join('\n')).toMatch(
      /Font "Acme Brand" has no Regular face among the fonts sent \(it has Bold\): its Regular text is drawn with /,
    );
    expect(fonts.warnings.join('\n')).not.toContain('is not available');
  });

  it("takes a caller's Calibri before the bundled Carlito, with the font's own line metrics", async () => {
    const calibri = await supplied('Caladea-Regular.ttf', 'Calibri', 'Regular', 'Calibri');
    const fonts = await loadFontSet([request('Calibri')], {
      ...options,
      cache: createFontCache(),
      supplied: [calibri],
    });
    const face = fonts.face(request('Calibri'));
    expect(face).toBe(calibri.face);
    // Not Calibri's own metrics (word-line-metrics.ts): those of the face that draws it.
    expect(verticalMetrics(face, 'Calibri')).toEqual({ ascent: face.ascent, descent: face.descent + face.lineGap });
  });

  it('names a font that no request asks for, with the names the document uses', async () => {
    const other = await supplied('Caladea-Regular.ttf', 'Other Brand', 'Regular', 'OtherBrand-Regular');
    const fonts = await loadFontSet([request('Calibri'), request('Cambria')], {
      ...options,
      cache: createFontCache(),
      supplied: [other],
    });
    fonts.face(request('Calibri'));
    expect(fonts.warnings).toContain(
      'fonts[0] (Other Brand Regular) was not used: the document names no font "Other Brand", the family in its name table; it names "Calibri", "Cambria".',
    );
  });

  it('asks the library only for what the embedded and request fonts lack, and at most so many times', async () => {
    const regular = await supplied('Caladea-Regular.ttf', 'Acme Brand', 'Regular', 'AcmeBrand-Regular');
    const libraryBold = await supplied('Caladea-Bold.ttf', 'Lib Face', 'Bold', 'LibFace-Bold', 1);
    const library = memoryLibrary({ 'acmebrand/Bold': { font: { ...libraryBold, source: 'acmebrand/Bold.ttf' } } });
    const zed = await supplied('Caladea-Regular.ttf', 'Zed', 'Regular', 'Zed', 2);
    const fonts = await loadFontSet(
      [request('Acme Brand'), request('Acme Brand', true), request('Calibri', false, true)],
      { ...options, cache: createFontCache(), supplied: [regular, zed], library },
    );
    // Acme Brand Regular was sent; its Bold is asked for (the regular is there), Calibri Italic and
    // its Regular both.
    expect(library.asked.sort()).toEqual(['acmebrand/Bold', 'calibri/Italic', 'calibri/Regular']);
    expect(fonts.face(request('Acme Brand', true))).toBe(libraryBold.face);
    expect(fonts.face(request('Acme Brand'))).toBe(regular.face);
    expect(fonts.warnings.join('\n')).toContain('fonts[2] (Zed Regular) was not used');
    expect(fonts.warnings.join('\n')).toContain('fonts[2] (Zed Regular) was not used');

    const many = memoryLibrary({});
    const requests = Array.from({ length: MAX_FONT_LIBRARY_LOOKUPS + 5 }, (_, i) => request(`Brand ${i}`));
    const set = await loadFontSet(requests, { ...options, cache: createFontCache(), library: many });
    expect(many.asked).toHaveLength(MAX_FONT_LIBRARY_LOOKUPS);
    expect(set.warnings.join('\n')).toContain(`only the first ${MAX_FONT_LIBRARY_LOOKUPS} were looked up`);
  });

  it('warns of a library object that cannot be used, and draws with the next choice', async () => {
    const library = memoryLibrary({
      'badbrand/Regular': { source: 'badbrand/Regular.ttf', problem: 'is a WOFF2 web font' },
    });
    const fonts = await loadFontSet([request('Bad Brand')], { ...options, cache: createFontCache(), library });
    expect(fonts.face(request('Bad Brand')).key).not.toMatch(/^library-/);
    expect(fonts.warnings).toContain(
      'Font "Bad Brand" Regular in the font library (badbrand/Regular.ttf) cannot be used: it is a WOFF2 web font.',
    );
  });
});
