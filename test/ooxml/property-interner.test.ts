import { describe, expect, it } from 'vitest';
import { PropertyInterner } from '../../src/ooxml/property-interner';
import { paragraph } from './docx-fixture';
import { paragraphs, readParts, textInline } from './model-queries';

describe('property interning', () => {
  it('shares equal properties and freezes them', () => {
    const interner = new PropertyInterner();
    const first = interner.intern({ size: 11, spacing: { before: 0 }, tabs: [{ position: 36 }] });
    const second = interner.intern({ size: 11, spacing: { before: 0 }, tabs: [{ position: 36 }] });
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.spacing)).toBe(true);
    expect(Object.isFrozen(first.tabs[0])).toBe(true);
    expect(() => {
      (first as { size: number }).size = 12;
    }).toThrow(TypeError);
  });

  it('keeps apart values JSON would confuse', () => {
    const interner = new PropertyInterner();
    const values = [{ a: undefined }, {}, { a: 0 }, { a: -0 }, { a: Number.NaN }, { a: null }, { a: '0' }];
    const shared = new Set(values.map((value) => interner.intern(value)));
    expect(shared.size).toBe(values.length);
  });

  it('gives runs and paragraphs formatted alike one shared object', () => {
    const model = readParts({
      document: `<w:body>${paragraph('one', { rPr: '<w:b/>' })}${paragraph('two', { rPr: '<w:b/>' })}${paragraph('three')}</w:body>`,
    });
    expect(textInline(model, 'two').props).toBe(textInline(model, 'one').props);
    expect(textInline(model, 'three').props).not.toBe(textInline(model, 'one').props);
    const [a, b] = paragraphs(model);
    expect(b?.props).toBe(a?.props);
    expect(Object.isFrozen(a?.props)).toBe(true);
  });
});
