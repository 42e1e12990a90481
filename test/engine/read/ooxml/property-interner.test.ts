import { describe, expect, it } from 'vitest';
import type { ParagraphProperties, RunProperties } from '../../../../src/engine/model/document';
import { PropertyInterner } from '../../../../src/engine/read/ooxml/property-interner';
import { paragraph } from '../../../helpers/docx-fixture';
import { paragraphProps, runProps } from '../../../helpers/model-builder';
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

  it('tells run and paragraph properties apart by every field', () => {
    const interner = new PropertyInterner();
    const run = runProps({ font: 'Arial' });
    const base = interner.run({ ...run });
    expect(interner.run({ ...run })).toBe(base);
    const variants: Partial<RunProperties>[] = [
      { font: 'Arial\u0002' },
      { size: 12 },
      { bold: true },
      { position: -0 },
      { fontEastAsia: 'SimSun' },
      { color: '000000' },
      { shading: 'FFFF00' },
      { fontHintEastAsia: true },
    ];
    for (const variant of variants) expect(interner.run({ ...run, ...variant })).not.toBe(base);
    const { size, ...rest } = run;
    const reordered = interner.run({ size, ...rest } as RunProperties);
    expect(reordered).not.toBe(base);
    expect(reordered).toEqual(base);
    expect(Object.keys(reordered)).toEqual(['size', ...Object.keys(base).filter((key) => key !== 'size')]);

    // A fresh object, nested ones included, on every call.
    const copy = (): ParagraphProperties => paragraphProps();
    const shared = interner.paragraph(copy());
    expect(interner.paragraph(copy())).toBe(shared);
    const changed: ((p: ParagraphProperties) => void)[] = [
      (p) => {
        p.indent.firstLine = -0;
      },
      (p) => {
        p.spacing.beforeAuto = true;
      },
      (p) => {
        p.tabs.push({ position: 36, align: 'left', leader: 'none' });
      },
      (p) => {
        p.borders.top = { style: 'single', width: 1, space: 0 };
      },
      (p) => {
        p.styleId = 'Heading1';
      },
      (p) => {
        p.outlineLevel = 0;
      },
      (p) => {
        p.snapToGrid = false;
      },
      (p) => {
        p.autoSpaceLatin = false;
      },
      (p) => {
        p.autoSpaceDigits = false;
      },
    ];
    for (const change of changed) {
      const value = copy();
      change(value);
      expect(interner.paragraph(value)).not.toBe(shared);
    }
    // Paragraphs with the same tab stops or borders share too (through their exact JSON).
    const tabbed = (): ParagraphProperties => {
      const value = copy();
      value.tabs.push({ position: 72, align: 'right', leader: 'dot' });
      return value;
    };
    expect(interner.paragraph(tabbed())).toBe(interner.paragraph(tabbed()));
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
