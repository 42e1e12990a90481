import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  CodePointSet,
  type FallbackCoverage,
  loadFallbackCoverage,
  parseFallbackCoverage,
  planFallbackFiles,
} from '../../../src/engine/fonts/fallback-coverage';

const cp = (char: string) => char.codePointAt(0) as number;

/** A coverage index over made-up files: name → [characters, bytes]. */
function coverageOf(files: Record<string, [string, number]>): FallbackCoverage {
  return {
    has: (file, codePoint) => [...(files[file]?.[0] ?? '')].some((char) => cp(char) === codePoint),
    bytes: (file) => files[file]?.[1],
  };
}

describe('fallback coverage', () => {
  it('reads the index the fallback-fonts script writes, delta-coded ranges and all', async () => {
    const parsed = parseFallbackCoverage({
      version: 1,
      files: {
        'A.ttf': { bytes: 10, ranges: [0x41, 2, 3, 0] }, // A–C, G
        'B.ttf': { bytes: 12, sameAs: 'A.ttf' },
      },
    });
    for (const char of 'ABCG') expect(parsed?.has('B.ttf', cp(char)), char).toBe(true);
    for (const char of '@DFH') expect(parsed?.has('A.ttf', cp(char)), char).toBe(false);
    expect(parsed?.bytes('B.ttf')).toBe(12);
    expect(parsed?.has('C.ttf', 0x41)).toBe(false);
    expect(parseFallbackCoverage({ version: 2 })).toBeUndefined();
    // The real one: Noto Sans TC lacks 们, which Noto Sans SC has; none has Ethiopic.
    const real = await loadFallbackCoverage(env.ASSETS);
    expect(real?.has('NotoSansSC-Regular.ttf', cp('们'))).toBe(true);
    expect(real?.has('NotoSansTC-Regular.ttf', cp('们'))).toBe(false);
    expect(real?.has('NotoSansTC-Bold.ttf', cp('國'))).toBe(true);
    expect(real?.bytes('NotoSansSC-Regular.ttf')).toBeGreaterThan(5_000_000);
  });

  it('keeps a set of code points as a bitmap, iterated in order', () => {
    const set = new CodePointSet();
    for (const codePoint of [0x1f600, 0x4e2d, 0x0627, 0x4e2d, 0x10ffff]) set.add(codePoint);
    expect([...set]).toEqual([0x0627, 0x4e2d, 0x1f600, 0x10ffff]);
    expect(set.has(0x4e2d)).toBe(true);
    expect(set.has(0x4e2e)).toBe(false);
  });

  it('plans the faces characters need: the script face first, others only for what it lacks', () => {
    const coverage = coverageOf({
      'NotoSansTC-Regular.ttf': ['中國', 7],
      'NotoSansSC-Regular.ttf': ['中们', 10],
      'NotoSansJP-Regular.ttf': ['中の', 5],
      'NotoSansMath-Regular.ttf': ['∇', 1],
      'NotoEmoji-Regular.ttf': ['○', 1],
    });
    const plan = (chars: string, variant: 'sc' | 'tc' | 'jp', budget = 100, elsewhere = '') =>
      planFallbackFiles(
        [{ variant, bold: false, codePoints: [...chars].map(cp) }],
        coverage,
        (codePoint) => [...elsewhere].some((char) => cp(char) === codePoint),
        budget,
      );
    expect(plan('中國们', 'tc')).toEqual([
      { script: 'tc', bold: false },
      { script: 'sc', bold: false },
    ]);
    // Nothing the first choice lacks: it alone.
    expect(plan('中國', 'tc')).toEqual([{ script: 'tc', bold: false }]);
    // A first choice that has none of them is not loaded.
    expect(plan('们', 'tc')).toEqual([{ script: 'sc', bold: false }]);
    // A character of no script: a small face before a CJK one; none if a bundled face has it.
    expect(plan('○', 'sc')).toEqual([{ script: 'emoji', bold: false }]);
    expect(plan('○', 'sc', 100, '○')).toEqual([]);
    // Nobody has it: nothing loaded for it.
    expect(plan('ሀ', 'sc')).toEqual([]);
    // Within the budget: Traditional (7) and Japanese (5) fit 12; Simplified (10) does not.
    expect(plan('國の们', 'tc', 12)).toEqual([
      { script: 'tc', bold: false },
      { script: 'jp', bold: false },
    ]);
  });
});
