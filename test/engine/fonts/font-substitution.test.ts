import { describe, expect, it } from 'vitest';
import { fallbackFamilies, substituteFamily } from '../../../src/engine/fonts/font-substitution';

describe('substituteFamily', () => {
  it.each([
    ['Calibri', 'Carlito'],
    ['Cambria', 'Caladea'],
    ['Arial', 'Liberation Sans'],
    ['Helvetica', 'Liberation Sans'],
    ['Times New Roman', 'Liberation Serif'],
    ['Courier New', 'Liberation Mono'],
  ])('maps %s to its metric-compatible face %s', (name, family) => {
    expect(substituteFamily(name)).toEqual({ family, match: 'metric' });
  });

  it('ignores case, spacing and quotes', () => {
    expect(substituteFamily('  times   NEW roman ').family).toBe('Liberation Serif');
    expect(substituteFamily('"Calibri"').family).toBe('Carlito');
  });

  it.each([
    ['Calibri Light', 'Carlito'],
    ['Aptos', 'Carlito'],
    ['Cambria Math', 'Caladea'],
    ['Segoe UI', 'Liberation Sans'],
    ['Tahoma', 'Liberation Sans'],
    ['Verdana', 'Liberation Sans'],
    ['Arial Narrow', 'Liberation Sans'],
    ['Georgia', 'Liberation Serif'],
    ['Garamond', 'Liberation Serif'],
    ['Book Antiqua', 'Liberation Serif'],
    ['Palatino Linotype', 'Liberation Serif'],
    ['Consolas', 'Liberation Mono'],
    ['Menlo', 'Liberation Mono'],
    ['Symbol', 'Liberation Serif'],
    ['Wingdings', 'Liberation Sans'],
  ])('maps %s to the look-alike %s', (name, family) => {
    expect(substituteFamily(name)).toEqual({ family, match: 'similar' });
  });

  it.each([
    ['Source Code Pro', 'Liberation Mono'],
    ['DejaVu Sans Mono', 'Liberation Mono'],
    ['Open Sans', 'Liberation Sans'],
    ['Brand Sans Serif', 'Liberation Sans'],
    ['MS Gothic', 'Liberation Sans'],
    ['Noto Serif', 'Liberation Serif'],
    ['Bookman', 'Liberation Serif'],
    ['Zapfino', 'Liberation Sans'],
    ['', 'Liberation Sans'],
  ])('guesses %s from its name: %s', (name, family) => {
    expect(substituteFamily(name)).toEqual({ family, match: 'guess' });
  });
});

describe('fallbackFamilies', () => {
  it('tries the family, the Liberation face of its class, then Carlito', () => {
    expect(fallbackFamilies('Carlito')).toEqual(['Carlito', 'Liberation Sans']);
    expect(fallbackFamilies('Liberation Sans')).toEqual(['Liberation Sans', 'Carlito']);
    expect(fallbackFamilies('Caladea')).toEqual(['Caladea', 'Liberation Serif', 'Carlito']);
    expect(fallbackFamilies('Liberation Mono')).toEqual(['Liberation Mono', 'Carlito']);
  });
});
