import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createFontCache } from '../../../src/engine/fonts/font-cache';
import { loadBundledFace } from '../../../src/engine/fonts/font-loader';
import { standInLineMetrics } from '../../../src/engine/fonts/word-line-metrics';
import { bundledBytes, request, testFontSet } from './helpers';

describe('loadFontSet: resolution', () => {
  it('resolves families through substitution, picking the file of each style', async () => {
    const fonts = await testFontSet([
      request('Calibri'),
      request('Calibri', true),
      request('Calibri', false, true),
      request('Calibri', true, true),
      request('Times New Roman', true, true),
      request('Courier New', false, true),
      request('Cambria', true),
    ]);
    expect(fonts.face(request('Calibri')).key).toBe('Carlito-Regular');
    expect(fonts.face(request('Calibri', true)).key).toBe('Carlito-Bold');
    expect(fonts.face(request('Calibri', false, true)).key).toBe('Carlito-Italic');
    expect(fonts.face(request('Calibri', true, true)).key).toBe('Carlito-BoldItalic');
    expect(fonts.face(request('Times New Roman', true, true)).key).toBe('LiberationSerif-BoldItalic');
    expect(fonts.face(request('Courier New', false, true)).key).toBe('LiberationMono-Italic');
    expect(fonts.face(request('cambria', true)).key).toBe('Caladea-Bold');
  });

  it('never fails for a request it was not given', async () => {
    const fonts = await testFontSet([request('Cambria')]);
    // Not loaded: Calibri Bold. The answer is some loaded face, not an exception.
    expect(fonts.face(request('Calibri', true)).key).toBeTruthy();
    const none = await testFontSet([]);
    expect(none.face(request('Anything')).key).toBe('LiberationSans-Regular');
  });

  it("reproduces Word's single line height from win metrics: Calibri 11 pt → 13.43 pt", async () => {
    const face = (await testFontSet([request('Calibri')])).face(request('Calibri'));
    expect((face.ascent + face.descent) * 11).toBeCloseTo(13.43, 2);
    expect(face.ascent).toBeCloseTo(1950 / 2048, 10);
    expect(face.descent).toBeCloseTo(550 / 2048, 10);
    expect(face.underlinePosition).toBeLessThan(0);
    expect(face.underlineThickness).toBeGreaterThan(0);
  });

  it("adds GDI's external leading as Word does: Times New Roman and Arial 12 pt → 13.8 pt", async () => {
    const fonts = await testFontSet([request('Times New Roman'), request('Arial'), request('Calibri')]);
    for (const family of ['Times New Roman', 'Arial']) {
      const face = fonts.face(request(family));
      expect((face.ascent + face.descent + face.lineGap) * 12).toBeCloseTo(13.8, 2);
    }
    // Calibri's win extent already covers its hhea lineGap.
    expect(fonts.face(request('Calibri')).lineGap).toBe(0);
  });

  it('knows the line metrics of Word fonts whose stand-ins are shorter or taller (Cambria 14 pt → 16.41 pt)', () => {
    const cambria = standInLineMetrics('Cambria');
    expect(cambria?.ascent).toBeCloseTo(1946 / 2048, 10);
    expect(((cambria?.ascent ?? 0) + (cambria?.descent ?? 0)) * 14).toBeCloseTo(16.41, 2);
    expect(standInLineMetrics(' verdana ')?.descent).toBeCloseTo(430 / 2048, 10);
    const comic = standInLineMetrics('Comic  Sans MS');
    expect(((comic?.ascent ?? 0) + (comic?.descent ?? 0)) * 12).toBeCloseTo(16.72, 2);
    expect(standInLineMetrics('Calibri')).toBeUndefined();
  });

  it('makes a line of Lucida Console one em tall, as Word does (10 pt code → 10 pt lines)', () => {
    const lucida = standInLineMetrics('Lucida Console');
    expect(((lucida?.ascent ?? 0) + (lucida?.descent ?? 0) + (lucida?.lineGap ?? 0)) * 10).toBeCloseTo(10, 6);
    // Consolas (1884 + 514 units) is not: 11 pt → 12.88 pt.
    const consolas = standInLineMetrics('Consolas');
    expect(((consolas?.ascent ?? 0) + (consolas?.descent ?? 0)) * 11).toBeCloseTo(12.88, 2);
  });

  it('measures advance widths at 1 pt, without ligatures or kerning', async () => {
    const face = (await testFontSet([request('Calibri')])).face(request('Calibri'));
    // Carlito's space is 463 units of 2048.
    expect(face.measure(' ')).toBeCloseTo(463 / 2048, 12);
    // "ffi" stays three glyphs (Word sets no ligatures by default), so it sums f + f + i.
    expect(face.measure('ffi')).toBeCloseTo(face.measure('f') * 2 + face.measure('i'), 12);
    // No kerning: "AV" is A + V.
    expect(face.measure('AV')).toBeCloseTo(face.measure('A') + face.measure('V'), 12);
    expect(face.measure('')).toBe(0);
  });

  it('draws invisible characters as nothing and stands in for a missing no-break space', async () => {
    const face = (await testFontSet([request('Calibri')])).face(request('Calibri'));
    expect(face.measure('co\u00adop\u200b')).toBe(face.measure('coop'));
    // Carlito has no U+00A0; Calibri draws it with the space glyph, and so does the face.
    expect(face.hasGlyph(0xa0)).toBe(true);
    expect(face.measure('a\u00a0b')).toBe(face.measure('a b'));
    expect(face.measure('x\u2011y')).toBe(face.measure('x-y'));
  });

  it('measures composed text: a base letter and a combining accent are one glyph', async () => {
    const face = (await testFontSet([request('Arial')])).face(request('Arial'));
    expect(face.measure('cafe\u0301')).toBe(face.measure('caf\u00e9'));
  });
});

describe('loadFontSet: glyph fallback', () => {
  it('finds a glyph the preferred face lacks in the next bundled face of the same style', async () => {
    const fonts = await testFontSet([request('Calibri'), request('Arial', true)]);
    const calibri = request('Calibri');
    // Hebrew alef: Carlito has none, Liberation Sans has it.
    expect(fonts.face(calibri).hasGlyph(0x05d0)).toBe(false);
    expect(fonts.fallback(0x05d0, calibri)?.key).toBe('LiberationSans-Regular');
    // The other way round: Liberation Sans has no Thai baht sign, Carlito has.
    const arialBold = request('Arial', true);
    expect(fonts.face(arialBold).hasGlyph(0x0e3f)).toBe(false);
    expect(fonts.fallback(0x0e3f, arialBold)?.key).toBe('Carlito-Bold');
  });

  it('answers the preferred face itself when it has the glyph, and undefined for CJK', async () => {
    const fonts = await testFontSet([request('Calibri')]);
    expect(fonts.fallback(0x41, request('Calibri'))?.key).toBe('Carlito-Regular');
    expect(fonts.fallback(0x4e00, request('Calibri'))).toBeUndefined();
    expect(fonts.fallback(0x0627, request('Calibri'))).toBeUndefined(); // Arabic: Noto, later
  });
});

describe('loadFontSet: embedded fonts', () => {
  it('prefers a font embedded in the document over the bundled substitute', async () => {
    const serif = await bundledBytes('LiberationSerif-Regular.ttf');
    const fonts = await testFontSet(
      [request('Calibri'), request('Calibri', true)],
      [{ family: 'Calibri', bold: false, italic: false, bytes: serif }],
    );
    const face = fonts.face(request('Calibri'));
    expect(face.key).toBe('embedded-0');
    expect(face.bytes).toBe(serif);
    expect(face.ascent).toBeCloseTo(1825 / 2048, 10); // Liberation Serif's, not Carlito's
    // No embedded bold: the embedded family's regular serves it.
    expect(fonts.face(request('Calibri', true)).key).toBe('embedded-0');
    // Fallback still walks the bundled chain of the family's substitute.
    expect(fonts.fallback(0x0e3f, request('Calibri'))?.key).toBe('Carlito-Regular');
  });

  it('matches the embedded style exactly when there is one', async () => {
    const regular = await bundledBytes('LiberationSans-Regular.ttf');
    const bold = await bundledBytes('LiberationSans-Bold.ttf');
    const fonts = await testFontSet(
      [request('Brand Sans'), request('Brand Sans', true)],
      [
        { family: 'Brand Sans', bold: false, italic: false, bytes: regular },
        { family: 'Brand Sans', bold: true, italic: false, bytes: bold },
      ],
    );
    expect(fonts.face(request('Brand Sans')).key).toBe('embedded-0');
    expect(fonts.face(request('Brand Sans', true)).key).toBe('embedded-1');
  });

  it('skips an embedded font that fontkit cannot parse or that is not TrueType', async () => {
    const garbage = new Uint8Array(4096).fill(7);
    const truncated = (await bundledBytes('LiberationSans-Regular.ttf')).slice(0, 2000);
    const cff = new Uint8Array(64);
    cff.set([0x4f, 0x54, 0x54, 0x4f]); // 'OTTO'
    const fonts = await testFontSet(
      [request('Calibri'), request('Cambria'), request('Arial')],
      [
        { family: 'Calibri', bold: false, italic: false, bytes: garbage },
        { family: 'Cambria', bold: false, italic: false, bytes: truncated },
        { family: 'Arial', bold: false, italic: false, bytes: cff },
      ],
    );
    expect(fonts.face(request('Calibri')).key).toBe('Carlito-Regular');
    expect(fonts.face(request('Cambria')).key).toBe('Caladea-Regular');
    expect(fonts.face(request('Arial')).key).toBe('LiberationSans-Regular');
  });
});

describe('font cache', () => {
  it('keeps at most its capacity of parsed faces, least recently used out first', async () => {
    const cache = createFontCache(2);
    await loadBundledFace('Carlito-Regular.ttf', env.ASSETS, cache);
    await loadBundledFace('Caladea-Regular.ttf', env.ASSETS, cache);
    await loadBundledFace('Carlito-Regular.ttf', env.ASSETS, cache);
    await loadBundledFace('LiberationMono-Regular.ttf', env.ASSETS, cache);
    expect(cache.size).toBe(2);
    expect(cache.keys()).toEqual(['Carlito-Regular.ttf', 'LiberationMono-Regular.ttf']);
  });

  it('shares one load between concurrent requests and reuses parsed faces across font sets', async () => {
    const cache = createFontCache();
    const a = loadBundledFace('Carlito-Bold.ttf', env.ASSETS, cache);
    const b = loadBundledFace('Carlito-Bold.ttf', env.ASSETS, cache);
    expect(a).toBe(b);
    const first = await testFontSet([request('Calibri', true)], [], cache);
    const second = await testFontSet([request('Calibri', true)], [], cache);
    expect(second.face(request('Calibri', true))).toBe(first.face(request('Calibri', true)));
    expect(first.face(request('Calibri', true))).toBe(await a);
  });

  it('does not keep a failed load', async () => {
    const cache = createFontCache();
    await expect(loadBundledFace('NoSuchFont-Regular.ttf', env.ASSETS, cache)).rejects.toThrow(/missing/);
    expect(cache.has('NoSuchFont-Regular.ttf')).toBe(false);
  });

  it('bounds the width cache of each face', async () => {
    const { MEASURE_CACHE_CAPACITY, FontkitFace } = await import('../../../src/engine/fonts/fontkit-face');
    const face = (await testFontSet([request('Calibri')])).face(request('Calibri'));
    if (!(face instanceof FontkitFace)) throw new Error('expected a FontkitFace');
    // Plain text is summed from cmap advances and never cached; text that needs preparing is.
    for (let i = 0; i < 100; i++) face.measure(`w${i}`);
    expect(face.measuredCount).toBe(0);
    for (let i = 0; i < MEASURE_CACHE_CAPACITY + 500; i++) face.measure(`we\u0301${i}`);
    expect(face.measuredCount).toBe(MEASURE_CACHE_CAPACITY);
  });

  it('bounds the cache of shaped words of each face, and shapes the same whatever came before', async () => {
    const { SHAPE_CACHE_CAPACITY, FontkitFace } = await import('../../../src/engine/fonts/fontkit-face');
    const face = (await testFontSet([request('Calibri')])).face(request('Calibri'));
    if (!(face instanceof FontkitFace)) throw new Error('expected a FontkitFace');
    // "j" + U+0301 has no precomposed form, so it is shaped; the run is shared with the painter.
    const first = face.shape('j\u0301');
    expect(first.glyphIds.length).toBeGreaterThan(0);
    expect(first.texts.join('')).toBe('j\u0301');
    for (let i = 0; i < SHAPE_CACHE_CAPACITY + 500; i++) face.measure(`j\u0301${i}`);
    expect(face.shapedCount).toBe(SHAPE_CACHE_CAPACITY);
    expect(face.shape('j\u0301')).toEqual(first);
  });

  it('reports first-load and cached timings', async () => {
    const cache = createFontCache();
    const requests = [request('Calibri'), request('Calibri', true), request('Cambria')];
    let started = performance.now();
    const cold = await testFontSet(requests, [], cache);
    const coldLoad = performance.now() - started;
    const face = cold.face(request('Calibri'));
    started = performance.now();
    face.measure('Measuring');
    const firstMeasure = performance.now() - started;
    started = performance.now();
    await testFontSet(requests, [], cache);
    const warmLoad = performance.now() - started;
    const words = Array.from({ length: 2000 }, (_, i) => `word${i}`);
    started = performance.now();
    for (const word of words) face.measure(word);
    const uncached = performance.now() - started;
    started = performance.now();
    for (const word of words) face.measure(word);
    const cached = performance.now() - started;
    // workerd freezes the clock during synchronous work (Spectre mitigation), so these may read 0.
    console.log(
      `font timings (ms): cold set of 6 faces ${coldLoad.toFixed(1)}, first measure ${firstMeasure.toFixed(1)}, ` +
        `warm set ${warmLoad.toFixed(1)}, 2000 words uncached ${uncached.toFixed(1)}, cached ${cached.toFixed(1)}`,
    );
    expect(warmLoad).toBeLessThanOrEqual(coldLoad);
  });
});

describe('loadFontSet: stand-ins for Word fonts without an open metric twin', () => {
  it("draws Verdana with DejaVu Sans, measured with Verdana's own widths, and Word's Verdana line height", async () => {
    const fonts = await testFontSet([request('Verdana'), request('DejaVu Sans'), request('Verdana', true)]);
    const verdana = fonts.face(request('Verdana'));
    const dejavu = fonts.face(request('DejaVu Sans'));
    expect(dejavu.key).toBe('DejaVuSans-Regular');
    // Its own PDF font: the W array carries Verdana's widths.
    expect(verdana.key).toBe('DejaVuSans-Regular-verdana');
    expect(verdana.bytes).toBe(dejavu.bytes);
    // Verdana's a, space and W (600, 351 and 988 thousandths of an em), not DejaVu's (613, 318, 989).
    expect(verdana.measure('a')).toBeCloseTo(0.6, 10);
    expect(verdana.measure(' ')).toBeCloseTo(0.351, 10);
    expect(verdana.measure('aW a')).toBeCloseTo(0.6 + 0.988 + 0.351 + 0.6, 10);
    expect(fonts.face(request('Verdana', true)).measure('a')).toBeCloseTo(0.667, 10);
    // A character Verdana's table does not list takes DejaVu's advance, scaled to Verdana's average.
    expect(verdana.measure('\u0531')).toBeCloseTo(dejavu.measure('\u0531') * 1.0075, 10);
    const text = 'The quick brown fox jumps over the lazy dog.';
    const head = new Float64Array(2);
    verdana.measureWithHead(`${text} `, text.length, head);
    expect(head[1]).toBeCloseTo(verdana.measure(text), 10);
    expect(standInLineMetrics('Verdana')).toEqual({ ascent: 2059 / 2048, descent: 430 / 2048, lineGap: 0 });
  });

  it('shares one scaled face per conversion between the styles asked the same way', async () => {
    const fonts = await testFontSet([request('Tahoma'), request('tahoma')]);
    expect(fonts.face(request('Tahoma'))).toBe(fonts.face(request(' TAHOMA ')));
    expect(fonts.face(request('Tahoma')).key).toMatch(/^DejaVuSansCondensed-Regular-w9790$/);
  });

  it("gives Georgia Gelasio's widths (the same) and Georgia's own line height, not Gelasio's 1.66 em", async () => {
    const fonts = await testFontSet([request('Georgia')]);
    expect(fonts.face(request('Georgia')).key).toBe('Gelasio-Regular');
    const metrics = standInLineMetrics('Georgia');
    expect(metrics && (metrics.ascent + metrics.descent) * 12).toBeCloseTo(13.63, 2);
  });

  it('names every substitution that changes metrics in a warning, and none of the metric-compatible ones', async () => {
    const fonts = await testFontSet([
      request('Calibri'),
      request('Georgia'),
      request('Verdana'),
      request('Aptos'),
      request('Symbol'),
      request('Liberation Sans'),
    ]);
    for (const family of ['Calibri', 'Georgia', 'Verdana', 'Aptos', 'Symbol', 'Liberation Sans']) {
      fonts.face(request(family));
    }
    // Asked twice, in another spelling and style: still one warning.
    fonts.face(request('VERDANA', true));
    expect(fonts.warnings).toEqual([
      'Font "Verdana" is not available: drawn with DejaVu Sans, measured with Verdana\'s own character widths; line and page breaks may differ from Word\'s.',
      'Font "Aptos" is not available: drawn with Carlito, measured with Aptos\'s average character width; line and page breaks may differ from Word\'s.',
    ]);
  });

  it('draws Arial Black, bold or italic, with its one heavy upright face', async () => {
    const fonts = await testFontSet([request('Arial Black'), request('Arial Black', true, true)]);
    expect(fonts.face(request('Arial Black')).key).toBe('ArchivoBlack-Regular');
    expect(fonts.face(request('Arial Black', true, true)).key).toBe('ArchivoBlack-Regular');
  });

  it('loads Open Sans 1.10, the version Word ships, with its win metrics (2189 + 600 of 2048)', async () => {
    const face = (await testFontSet([request('Open Sans')])).face(request('Open Sans'));
    expect(face.key).toBe('OpenSans-Regular');
    expect(face.ascent).toBeCloseTo(2189 / 2048, 10);
    expect(face.descent).toBeCloseTo(600 / 2048, 10);
  });
});
