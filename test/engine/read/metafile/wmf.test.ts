import { describe, expect, it } from 'vitest';
import type { MetafilePath, MetafileText } from '../../../../src/engine/model/document';
import { readMetafile } from '../../../../src/engine/read/metafile/read-metafile';
import { readWmf } from '../../../../src/engine/read/metafile/wmf-reader';
import { colourWords, wmf, wmr, wmrFont, wmrTextOut } from './metafile-fixture';

const WINDOW = [wmr(0x020b, [0, 0]), wmr(0x020c, [500, 1000])];

function read(records: Uint8Array[]) {
  return readWmf(wmf([0, 0, 1000, 500], 1000, [...WINDOW, ...records]), () => {});
}

describe('WMF', () => {
  it('takes the placeable bounding box as the picture and fills with the selected brush', () => {
    const picture = read([
      wmr(0x02fc, [0, ...colourWords(0x3366cc), 0]), // object 0: brush
      wmr(0x02fa, [5, 0, 0, 0, 0]), // object 1: PS_NULL pen
      wmr(0x012d, [0]),
      wmr(0x012d, [1]),
      wmr(0x041b, [300, 400, 100, 200]), // bottom, right, top, left
    ]);
    expect(picture).toMatchObject({ format: 'wmf', width: 1000, height: 500 });
    const rect = picture?.items[0] as MetafilePath;
    expect(rect).toMatchObject({ fill: '3366cc' });
    expect(rect.stroke).toBeUndefined();
    expect(rect.commands[0]).toEqual({ op: 'M', x: 200, y: 100 });
  });

  it('reuses freed object slots and draws text in the selected font, symbol fonts mapped', () => {
    const picture = read([
      wmr(0x02fc, [0, 0, 0, 0]), // slot 0
      wmr(0x01f0, [0]), // freed
      wmrFont(-100, 'Times New Roman'), // slot 0 again
      wmrFont(-80, 'Symbol', 2), // slot 1
      wmr(0x012d, [0]),
      wmr(0x012e, [24]),
      wmrTextOut(100, 400, 'Sample WMF'),
      wmr(0x012d, [1]),
      wmrTextOut(100, 450, 'a'),
    ]);
    const [sample, alpha] = (picture?.items ?? []) as MetafileText[];
    expect(sample).toMatchObject({
      text: 'Sample WMF',
      font: { family: 'Times New Roman' },
      x: 100,
      y: 400,
      size: 100,
      valign: 'baseline',
    });
    expect(alpha?.text).toBe('α');
  });

  it('fills an ETO_OPAQUE text rectangle with the background colour', () => {
    const picture = read([
      wmr(0x0201, colourWords(0xffff00)),
      wmr(0x0a32, [200, 100, 2, 0x02, 90, 150, 300, 210, 0x6b4f]), // "Ok"
    ]);
    const [background, text] = picture?.items ?? [];
    expect(background).toMatchObject({ kind: 'path', fill: 'ffff00' });
    expect(background?.kind === 'path' && background.commands[0]).toEqual({ op: 'M', x: 90, y: 150 });
    expect(text).toMatchObject({ kind: 'text', text: 'Ok', x: 100, y: 200 });
  });

  it('never throws on cut or damaged files', () => {
    const good = wmf([0, 0, 1000, 500], 1000, [
      ...WINDOW,
      wmrTextOut(1, 2, 'x'),
      wmr(0x0324, [3, 0, 0, 10, 0, 10, 10]),
    ]);
    for (let cut = 0; cut < good.length; cut += 5) expect(() => readMetafile(good.subarray(0, cut))).not.toThrow();
    const absurd = read([wmr(0x0324, [0x7fff, 0, 0]), wmr(0x0538, [-1, 3])]);
    expect(absurd?.items).toEqual([]);
  });
});
