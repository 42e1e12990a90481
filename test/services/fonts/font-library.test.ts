import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { LibraryLookup } from '../../../src/engine/fonts/caller-fonts';
import { MAX_FONT_BYTES } from '../../../src/limits';
import {
  FONT_LIBRARY_TTL_MS,
  FontLibraryCache,
  fontLibrary,
  libraryObjectKey,
} from '../../../src/services/fonts/font-library';
import { brandFont } from '../../helpers/font-fixture';

const bucket = () => env.FONTS as R2Bucket;

const postscriptOf = (lookup: LibraryLookup) =>
  lookup && 'font' in lookup ? lookup.font.face.postscriptName : lookup && `problem: ${lookup.problem}`;

describe('the font library over R2', () => {
  it('keys a family by its name without case or white space, and a style by its word', () => {
    expect(libraryObjectKey('Acme Brand', 'BoldItalic')).toBe('acmebrand/BoldItalic.ttf');
    expect(libraryObjectKey(' "ACME  brand" ', 'Regular')).toBe('acmebrand/Regular.ttf');
    expect(libraryObjectKey('a/b', 'Regular')).toBeUndefined();
    expect(libraryObjectKey('   ', 'Regular')).toBeUndefined();
  });

  it('reads the face for a family and style, claims what the key says, and keeps it for the isolate', async () => {
    await bucket().put(
      'keptbrand/Bold.ttf',
      await brandFont('Caladea-Bold.ttf', { family: 'Name Table Family', postscriptName: 'Kept-1' }),
    );
    const cache = new FontLibraryCache();
    const found = await fontLibrary(bucket(), cache).find('Kept Brand', 'Bold');
    expect(found && 'font' in found && found.font.claims).toEqual([{ family: 'keptbrand', bold: true, italic: false }]);
    expect(found && 'font' in found && found.font.source).toBe('font library object "keptbrand/Bold.ttf"');
    expect(await fontLibrary(bucket(), cache).find('Kept Brand', 'Italic')).toBeUndefined();
    expect(cache.entries.keys()).toEqual(['keptbrand/Bold.ttf', 'keptbrand/Italic.ttf']);
    expect(cache.entries.weight).toBeGreaterThan(50_000);
  });

  it('trusts an answer for FONT_LIBRARY_TTL_MS, then reads the object again only if it changed', async () => {
    let time = 1_000_000;
    const now = () => time;
    const cache = new FontLibraryCache();
    const find = () => fontLibrary(bucket(), cache, now).find('Fresh Brand', 'Regular');
    const put = async (name: string) =>
      bucket().put(
        'freshbrand/Regular.ttf',
        await brandFont('Caladea-Regular.ttf', { family: 'F', postscriptName: name }),
      );

    expect(await find()).toBeUndefined();
    await put('Fresh-1');
    expect(await find()).toBeUndefined(); // the answer "none" is still fresh
    time += FONT_LIBRARY_TTL_MS;
    expect(postscriptOf(await find())).toBe('Fresh-1');
    const first = await find();
    time += FONT_LIBRARY_TTL_MS;
    // Unchanged (the conditional read answers without a body): the same parsed face.
    const again = await find();
    expect(again && 'font' in again && first && 'font' in first && again.font.face).toBe(
      first && 'font' in first && first.font.face,
    );
    await put('Fresh-2');
    time += FONT_LIBRARY_TTL_MS;
    expect(postscriptOf(await find())).toBe('Fresh-2');
    await bucket().delete('freshbrand/Regular.ttf');
    time += FONT_LIBRARY_TTL_MS;
    expect(await find()).toBeUndefined();
  });

  it('names an object that is too large or not a font as a problem, without reading a large one', async () => {
    await bucket().put('hugebrand/Regular.ttf', new Uint8Array(MAX_FONT_BYTES + 1));
    await bucket().put('textbrand/Regular.ttf', 'not a font at all');
    const library = fontLibrary(bucket(), new FontLibraryCache());
    expect(postscriptOf(await library.find('Huge Brand', 'Regular'))).toMatch(
      /^problem: is 8 MiB .*, more than the 8 MiB/,
    );
    expect(postscriptOf(await library.find('Text Brand', 'Regular'))).toBe(
      'problem: is not a TrueType or OpenType font (it does not start with an sfnt header)',
    );
  });
});
