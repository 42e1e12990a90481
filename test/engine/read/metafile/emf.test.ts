import { describe, expect, it } from 'vitest';
import type { MetafilePath, MetafileText } from '../../../../src/engine/model/document';
import { readEmf } from '../../../../src/engine/read/metafile/emf-reader';
import { readMetafile } from '../../../../src/engine/read/metafile/read-metafile';
import { emf, emr, emrFont, emrPoly16, emrText, emrTransform } from './metafile-fixture';

const STOCK_NULL_BRUSH = 0x80000005 | 0;

/** 1000 × 1000 logical units onto the 100 × 100 pixel frame (MM_ANISOTROPIC). */
const MAPPING = [emr(17, [8]), emr(9, [1000, 1000]), emr(11, [100, 100])];

function read(records: Uint8Array[]) {
  const warnings: string[] = [];
  const picture = readEmf(emf([100, 100], [...MAPPING, ...records]), (w) => warnings.push(w));
  return { picture, warnings };
}

describe('EMF', () => {
  it('maps the window onto the frame and fills and strokes with the selected pen and brush', () => {
    const { picture } = read([
      emr(38, [1, 0, 10, 0, 0x0000ff]), // red pen, 10 logical units wide
      emr(37, [1]),
      emr(39, [2, 0, 0x00ff00, 0]), // green brush
      emr(37, [2]),
      emr(43, [100, 100, 500, 300]),
    ]);
    expect(picture).toMatchObject({ format: 'emf', width: 100, height: 100 });
    const rect = picture?.items[0] as MetafilePath;
    expect(rect).toMatchObject({ kind: 'path', fill: '00ff00', stroke: 'ff0000' });
    expect(rect.strokeWidth).toBeCloseTo(1);
    expect(rect.commands).toEqual([
      { op: 'M', x: 10, y: 10 },
      { op: 'L', x: 50, y: 10 },
      { op: 'L', x: 50, y: 30 },
      { op: 'L', x: 10, y: 30 },
      { op: 'Z' },
    ]);
  });

  it('reads text with its font, colour, alignment and Dx advance', () => {
    const { picture } = read([
      emrFont(3, -200, 'Arial', 700),
      emr(37, [3]),
      emr(22, [24 | 6]), // TA_BASELINE | TA_CENTER
      emr(24, [0x0000ff]),
      emrText(500, 800, 'Hi', [100, 150]),
    ]);
    const text = picture?.items[0] as MetafileText;
    expect(text).toMatchObject({
      kind: 'text',
      text: 'Hi',
      font: { family: 'Arial', bold: true, italic: false },
      color: 'ff0000',
      align: 'center',
      valign: 'baseline',
      cellHeight: false,
    });
    expect(text.x).toBeCloseTo(50);
    expect(text.y).toBeCloseTo(80);
    expect(text.size).toBeCloseTo(20);
    expect(text.width).toBeCloseTo(25);
  });

  it('applies the world transform, and SaveDC/RestoreDC bring the old one back', () => {
    const { picture } = read([
      emr(33, []),
      emrTransform(35, [1, 0, 0, 1, 100, 0]),
      emrPoly16(87, [0, 0, 100, 0]),
      emr(34, [-1]),
      emrPoly16(87, [0, 0, 100, 0]),
    ]);
    const [moved, back] = (picture?.items ?? []) as MetafilePath[];
    expect(moved?.commands[0]).toEqual({ op: 'M', x: 10, y: 0 });
    expect(back?.commands[0]).toEqual({ op: 'M', x: 0, y: 0 });
    expect(moved?.fill).toBeUndefined();
  });

  it('strokes an ellipse with curves under the null brush, and paints path brackets', () => {
    const { picture } = read([
      emr(37, [STOCK_NULL_BRUSH]),
      emr(42, [0, 0, 1000, 500]),
      emr(37, [0x80000004 | 0]), // black brush
      emr(59, []),
      emr(27, [0, 0]),
      emr(54, [1000, 0]),
      emr(54, [1000, 1000]),
      emr(61, []),
      emr(60, []),
      emr(62, []),
    ]);
    const [ellipse, path] = (picture?.items ?? []) as MetafilePath[];
    expect(ellipse?.fill).toBeUndefined();
    expect(ellipse?.commands.filter((c) => c.op === 'C')).toHaveLength(4);
    expect(path).toMatchObject({ fill: '000000', evenOdd: true });
    expect(path?.stroke).toBeUndefined();
    expect(path?.commands.map((c) => c.op)).toEqual(['M', 'L', 'L', 'Z']);
  });

  it('bounds what one huge record can add', () => {
    const count = 300_000;
    const points = Array.from({ length: count * 2 }, (_, i) => i % 1000);
    const { picture } = read([emr(4, [0, 0, 0, 0, count, ...points])]);
    const commands = (picture?.items[0] as MetafilePath | undefined)?.commands.length ?? 0;
    expect(commands).toBeGreaterThan(0);
    expect(commands).toBeLessThanOrEqual(250_000);
  });

  it('survives truncation, absurd counts and zero-sized records', () => {
    const good = emf([100, 100], [...MAPPING, emrText(0, 0, 'Text'), emr(43, [0, 0, 10, 10])]);
    for (let cut = 0; cut < good.length; cut += 7) {
      expect(() => readMetafile(good.subarray(0, cut))).not.toThrow();
    }
    const absurd = emr(87, [0, 0, 0, 0, 0x7fffffff, 1, 2]);
    expect(read([absurd]).picture?.items).toEqual([]);
    const zero = emf([100, 100], [emr(43, [0, 0, 10, 10])]);
    new DataView(zero.buffer).setUint32(108 + 4, 0, true);
    const result = readMetafile(zero);
    expect('picture' in result && result.warnings.length).toBe(1);
  });
});
