import { describe, expect, it } from 'vitest';
import { fallbackFamilies, substituteDeclared, substituteFamily } from '../../../src/engine/fonts/font-substitution';

describe('substituteFamily', () => {
  it.each([
    ['Calibri', 'Carlito'],
    ['Cambria', 'Caladea'],
    ['Arial', 'Liberation Sans'],
    ['Helvetica', 'Liberation Sans'],
    ['Times New Roman', 'Liberation Serif'],
    ['Courier New', 'Liberation Mono'],
    // Gelasio has Georgia's advance widths; the open families are themselves.
    ['Georgia', 'Gelasio'],
    ['Open Sans', 'Open Sans'],
    ['Roboto', 'Roboto'],
    ['Lato', 'Lato'],
    ['Montserrat', 'Montserrat'],
    ['Poppins', 'Poppins'],
    ['Inter', 'Inter'],
    ['Raleway', 'Raleway'],
    ['Merriweather', 'Merriweather'],
    ['PT Sans', 'PT Sans'],
    ['Noto Sans', 'Noto Sans'],
    ['Noto Serif', 'Noto Serif'],
    ['Source Code Pro', 'Source Code Pro'],
  ])('maps %s to its metric-compatible face %s', (name, family) => {
    expect(substituteFamily(name)).toEqual({ family, match: 'metric' });
  });

  it('ignores case, spacing and quotes', () => {
    expect(substituteFamily('  times   NEW roman ').family).toBe('Liberation Serif');
    expect(substituteFamily('"Calibri"').family).toBe('Carlito');
  });

  it.each([
    ['Verdana', 'DejaVu Sans', 1.0075],
    ['Tahoma', 'DejaVu Sans Condensed', 0.979],
    ['Segoe UI', 'PT Sans', 1.028],
    ['Trebuchet MS', 'Open Sans', 0.972],
    ['Consolas', 'Source Code Pro', 0.9163],
    ['Calibri Light', 'Carlito', 0.98],
    ['Arial Narrow', 'Liberation Sans', 0.82],
    ['Aptos', 'Carlito', 1.055],
  ])("draws %s with %s, its advances scaled by %f to the named font's average width", (name, family, widthScale) => {
    expect(substituteFamily(name)).toEqual({ family, match: 'similar', widthScale });
  });

  it.each([
    ['Aptos Display', 'Carlito'],
    ['Cambria Math', 'Caladea'],
    ['Arial Black', 'Archivo Black'],
    ['Garamond', 'Liberation Serif'],
    ['Book Antiqua', 'Liberation Serif'],
    ['Palatino Linotype', 'Liberation Serif'],
    ['Menlo', 'Liberation Mono'],
    ['Symbol', 'Liberation Serif'],
    ['Wingdings', 'Liberation Sans'],
  ])('maps %s to the look-alike %s', (name, family) => {
    expect(substituteFamily(name)).toEqual({ family, match: 'similar' });
  });

  it.each([
    ['DejaVu Sans Mono', 'Liberation Mono'],
    ['Brand Sans Serif', 'Liberation Sans'],
    ['MS Gothic', 'Liberation Sans'],
    ['Noto Serif Display', 'Liberation Serif'],
    ['Bookman', 'Liberation Serif'],
    ['Zapfino', 'Liberation Sans'],
    ['', 'Liberation Sans'],
  ])('guesses %s from its name: %s', (name, family) => {
    expect(substituteFamily(name)).toEqual({ family, match: 'guess' });
  });
});

describe('fallbackFamilies', () => {
  it('ends the chain of a copied family with the Liberation face of its class and Carlito', () => {
    expect(fallbackFamilies('Open Sans')).toEqual(['Open Sans', 'Liberation Sans', 'Carlito']);
    expect(fallbackFamilies('Gelasio')).toEqual(['Gelasio', 'Liberation Serif', 'Carlito']);
    expect(fallbackFamilies('Source Code Pro')).toEqual(['Source Code Pro', 'Liberation Mono', 'Carlito']);
  });

  it('tries the family, the Liberation face of its class, then Carlito', () => {
    expect(fallbackFamilies('Carlito')).toEqual(['Carlito', 'Liberation Sans']);
    expect(fallbackFamilies('Liberation Sans')).toEqual(['Liberation Sans', 'Carlito']);
    expect(fallbackFamilies('Caladea')).toEqual(['Caladea', 'Liberation Serif', 'Carlito']);
    expect(fallbackFamilies('Liberation Mono')).toEqual(['Liberation Mono', 'Carlito']);
  });
});

describe("substituteDeclared: the font table's hints for a font that is not installed", () => {
  it('takes the w:altName Word tries first ("inherit" from a pasted web page names Times New Roman)', () => {
    expect(substituteDeclared('inherit', { altName: 'Times New Roman', family: 'roman' })).toEqual({
      family: 'Liberation Serif',
      match: 'metric',
    });
  });

  it("falls back to the w:family's class when the alternate is unknown too", () => {
    expect(substituteDeclared('Brand Face', { altName: 'Other Brand', family: 'roman' }).family).toBe(
      'Liberation Serif',
    );
    expect(substituteDeclared('Brand Face', { family: 'modern' }).family).toBe('Liberation Mono');
    // "modern" with a proportional pitch (DIN as some applications declare it) is not a monospace.
    expect(substituteDeclared('DINOT-Regular', { family: 'modern', pitch: 'variable' }).family).toBe('Liberation Sans');
    expect(substituteDeclared('Brand Face', { family: 'decorative', pitch: 'fixed' }).family).toBe('Liberation Mono');
    expect(substituteDeclared('Brand Face', { family: 'swiss' }).family).toBe('Liberation Sans');
  });

  it("does not take an alternate of another class than the table's own family and pitch", () => {
    expect(
      substituteDeclared('Bremen Bd BT', { altName: 'Courier New', family: 'decorative', pitch: 'variable' }),
    ).toEqual({
      family: 'Liberation Sans',
      match: 'guess',
    });
    expect(
      substituteDeclared('inherit', { altName: 'Times New Roman', family: 'roman', pitch: 'variable' }).family,
    ).toBe('Liberation Serif');
  });

  it('never overrides a name the tables know', () => {
    expect(substituteDeclared('Calibri', { altName: 'Times New Roman' })).toEqual({
      family: 'Carlito',
      match: 'metric',
    });
    expect(substituteDeclared('Verdana', { family: 'roman' }).family).toBe('DejaVu Sans');
  });
});
