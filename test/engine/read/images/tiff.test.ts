import { zlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { toEmbeddableImage } from '../../../../src/engine/read/images/embeddable-image';
import { imageLimits } from '../../../../src/engine/read/images/raster';
import { decodeTiff } from '../../../../src/engine/read/images/tiff-decoder';
import { buildTiff, expectEmbeds, fromBase64, long, packBits, pixelsAsPdfLibSees, short, tiffLzw } from './helpers';

const limits = imageLimits(undefined);

// TIFF 6.0 tags used below.
const WIDTH = 256;
const HEIGHT = 257;
const BITS = 258;
const COMPRESSION = 259;
const PHOTOMETRIC = 262;
const SAMPLES = 277;
const ROWS_PER_STRIP = 278;
const PLANAR = 284;
const PREDICTOR = 317;
const COLOR_MAP = 320;
const TILE_WIDTH = 322;
const TILE_LENGTH = 323;
const TILE_OFFSETS = 324;
const TILE_COUNTS = 325;
const EXTRA_SAMPLES = 338;

/** 48×48 RGB made with libtiff: `tiffcp -c lzw:2` (LZW with horizontal predictor, one strip). */
const LIBTIFF_LZW_PREDICTOR =
  'SUkqAAQKAACAACBAUAASCQaCweFQmGQiHQuHw2IROJRWIxeKRiLRmORuGgOEgF+AUAgySSOSyeSSaRSuVSmWzCUSyZy+aS6YzeZTiazmbT+fUGe0OeTwDAAEAUBQYBPSlUwKU+lU6l0qo1Wm1IBVemVSoVqvVawVquVOyWOsWWs2m0V+sWGt20EgCTAOR3YC3gBhy83e/Xm+Xq/3u+4W9YHB3fEYbFYzDYvBYDHYfJ43I5TLvwGAAIAUCQbP57QOTRaXQgQSabQaPVabU6fV57SbDXa3T7PY6fX7nWbTdbbe7wHgCogWRgWTcYCgV2cvj8njizncvocvm8rkdMC9LsdXmdrvdzn9rr+PseLqeTwdr0dnseX08YJAAMAUDQYDU77/b9fj+vsGj7P9AT+QI/MDQC/cDwU/8FvxBMBwZA0GwhAsJQvB8Jw1DAKgAvgDpHEACxFEkQxNEYeRHE8SxVFsSRTFkYxXEMYRnF0bAPGsbx3GMdRlHh+AwAAQAKBCDSNIsjyVJMmAQYkmyXJEpSiIkoStKcmyfLEtyjI8qy5K8oy1LswySDYANSBKRgSk01ALNk3zXNs1mZOM3znO87ThNwEiZPU8T3OU9TrPlAUNPU/ULP9Fz5QlBUVSB+A8AAUAKBSDAUp1L0sqNN0zS1MGpUFLU1TFO0xUtLCpUdP09U9SVZUVPVSBVX1bTFV1nVlbVpWVUV3VlShCADpAWkdjALZAFr5ZVj2Oblk2daNk2ZaVlC5adm2pbNrWhbVlWrblk2xb9j3Db9vWtc1xWMEgABg5CDAZeV5NJed43wBl7XpfN93zeQyX/fuBXvfWCXrg7kYDgt+YNhmB4fgt/YYE4AQCBqRgak2MAKBrm45jWO4zj+M43keRY7k2OjZlGQ5BkmU5bmGXZPkGVAblmbZllub5nnueZEFQABwAoHIMBynaNouk6Ppml6LpuoafpWkakBw6atp2q6prWu6zr+qaxrmwajsezbLtAWgBFIHpHtoC7fuO3bnuG6bluu8buB4+bzu2/b7wG9b/vfA8Hw3C8KGAACAAoIINx3G8fyXI8pyHLcny/K8eQnNc7zPP8x0PPc50HPdF0vUAIGYASqCKRgik3XAL2HZ9f2Pbdr2fb913PadkCJGd73ffdx3/h+P4Xe+D43k+Z53i+h3nXBsAAkAKCSDAkp3seuqPue16/s+97Pt/F8Pr/L65KfP8Hv/H9H2ff9vze/9IJfX+v4/Z+35f5/b4QcgAT8BMkcBACwGAmXyBEBYCwKgZAeBsEIJQIE5BOB8CYLQTgdBmDEC4JwVg9AiDcIYRwXhLBAHgAAoAFAoQaFsLIXGkhfDOFxqYaQwhZDKF0O4WCkhxDcCkOofw1iHD+IUQIfRAhjEWGcNoeQziPDsH4AFVgVJGBUk0VgCgVObFqLEW4rnSi9FmK8XYrxki2KyMEW40RcjXF+L0YozxvjNGyN8aoxx0jfG2OUdovR1jgPwIQAAsAFAsQYCxTpDyGkVIiRshkAyLkTIaR0lJGSWAsLSTEj5JySk5JGSsnpNyYk1KKU0oZESgkvKeVYBAigAWwBckcsgCy0ltLOXEtUUy3lrLmXktheS9mFL+X0s5dzFmHMgC8wZiTJmcBeY8z5lD8CQAAMABQMEGmzNibU3ZuTfAwk+bc45vTknBOKcs6ZwTanROud05pwzvnVPCds8J5gECWABgIGSRgZJNPwAs/qAz9n/P1OtAKBUIoLQGhYGaD0EoHQyiNCaDUTobReidD6JUKotRmjtHKQD8CcAANABQNEGA0U6k9Jio0rpTSalCoqXUqpRS2lFNKTUypvTCllPKX0up1SanAGqbVCp9UGn9NafVDqRUOotSQogAZYBskdVAC1WA2XyrFVaqrQq3VeqtWquVgqvV6sdWKxVkqxWatVYa21qrZV+rNb6110rdXIfgVAABwAKBwg1fq+1/NJYCwlgrA2HsJYOv9i6+2KsRYawtiLHWRA5ZOxllbH2SszYmzdkLLgECuABrAHSRgdJNaQAoHTm2otNam0tq7S2ntfa61NsrU2wtrbS1VurbW7tZb23FrbWXBuBby3VxLj3GtIFoAAeACgeIMB4p10Ln3Tujda6tz7r3auzdS6V3Lv3euxeG7d4rwXjvRee9V5r2Xlvdd29wXQAN8A+SO+oBb735vtfu/F/L9X9wBf/AV/sCYBwLgPA2CcEYLwPg2/oYAACAAKCAg2FMJ4VwxhfDWFsOYZw7hvD2IcQYjw/iXEWJsSYnxVinEAYwAOcBCSMEJJsYgFxnjbGWNMc44xtjrHuPMb41yDjvIWPsh4/yLkDI2S8lZNyTk/ImUckD8DMAARABQREGBEU7LOWCo5dy3ljLWX8tZczHmLLGZsvZozDmDMmac2ZvzbmfMGagRZyztnjOObM858zEGkADwQRkj0GAXQoIy+aH0JoTROi9DaM0fpHQ+jdJaQ0VpLSml9EaV0xpzSentLaO0/pofgbAACQAKCQg2qtU6rNJqzWGqzU6x1bqnV+q9cap1nrnWGt9a6w13r/V2wtf7B1oCTX2x9ja82TrgN4AH1glJGCUk20gCglObtbam19pnS21tXae2dp7g2vt7ce3Nr7i2vuQEu5t17o2xvDdm7tt7a3VvXbu8t4b33AHIAAmACgmIMCYp3AuA8F4HwjgKAeDcE4Dwnh/B+Igm4ZxDhvCuHcN4rxLi/E+Mcb4zxbkXC+Pcl47wIOoAIKgnJHywAvLuYct5ly9FPMeX8z5tzDmvOOec358CfnfP+e856DznofLei9H6EHgAAoACgoIN1Dp/UeqdT6sChJ/UutdV631dKvXewdc6j1nsXV+ygo6/2ftXT+ydm7d1sPYAIfApJGCkk3dAC927z3Xu/dU694714DvvefBgpT94LvfhPE+B794vwvj/F+H7547yngO/+T8R5kfgfgACoAKCogwKineg8+VH0novP+hVF6f0fofTeh9b59VfrPU+l9r6j0/q/Ye39f5/2IKvZ+79P733Hqvb+/+J60QIAI1ArJH84Av0AVl8+l8/560Pq/R+f9T632vorY+z9L7n3vpfY+7+L8n5/wfn+3+n8n5v3fT/iPwQgABYHbIMCz/P+TSf6/w/+BY/6/3ABAFAA/yYC/9AS/5ANAJAZATALAUO3ARAHAfAdAXAjArAwAIEOAAk0BaJGBaJNA+AKBaObBHBDBJBBBNBBBFBVBTBJBbBIZZBPBjBLBfBRBPBXBhBvB1BxBBBnBZB5BvBrB7CJCHBSEUAAFwAKBcIMBcKdCbCZChCdCnClCZCpCvCtCjCfCyBcaxC3CrC5DBC7DDDLDJC7C/CxDHDXDVDbC1DaEaAAmCBeJHDoALDtDxDrD1DvD3DzD5D/D8Beb5EDD7ELEBENEJEBEHEREZEPEdETDoICAQAAABAwABAAAAMAAAAAEBAwABAAAAMAAAAAIBAwADAAAAygoAAAMBAwABAAAABQAAAAYBAwABAAAAAgAAAAoBAwABAAAAAQAAABEBBAABAAAACAAAABIBAwABAAAAAQAAABUBAwABAAAAAwAAABYBAwABAAAAMAAAABcBBAABAAAA/AkAABwBAwABAAAAAQAAACkBAwACAAAAAAABAD0BAwABAAAAAgAAAD4BBQACAAAA0AoAAD8BBQAGAAAA4AoAAAAAAAAIAAgACAA3GqAAAAAAAiuHCgAAACAAhetRAAAAgADD9agAAAAAAs3MTAAAAAABzcxMAAAAgADNzEwAAAAAAo/C9QAAAAAQ';
const libtiffPixel = (x: number, y: number) => [(x * 5 + y * 3) & 255, (x * y) & 255, ((x ^ y) * 4) & 255, 255];

/** Samples of an RGB test pattern, 8-bit, row-major chunky. */
function rgbPattern(width: number, height: number): { bytes: Uint8Array; rgba: number[] } {
  const bytes: number[] = [];
  const rgba: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = [(x * 37 + y) & 255, (y * 11) & 255, (x * y) & 255];
      bytes.push(...px);
      rgba.push(...px, 255);
    }
  }
  return { bytes: Uint8Array.from(bytes), rgba };
}

const rgbEntries = (width: number, height: number, extra: ReturnType<typeof short>[] = []) => [
  long(WIDTH, width),
  long(HEIGHT, height),
  short(BITS, 8, 8, 8),
  short(COMPRESSION, 1),
  short(PHOTOMETRIC, 2),
  short(SAMPLES, 3),
  long(ROWS_PER_STRIP, height),
  ...extra,
];

function withEntry(entries: ReturnType<typeof short>[], entry: ReturnType<typeof short>) {
  return [...entries.filter((e) => e.tag !== entry.tag), entry];
}

describe('TIFF', () => {
  it('decodes an uncompressed baseline RGB TIFF written byte by byte, and pdf-lib embeds the PNG', async () => {
    // II*\0, IFD at 8+12: a 2×2 image whose 12 bytes of samples follow the header.
    const tiff = buildTiff({
      entries: rgbEntries(2, 2),
      chunks: [Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])],
    });
    expect(Array.from(tiff.subarray(0, 4))).toEqual([0x49, 0x49, 42, 0]);
    const image = toEmbeddableImage(tiff);
    await expectEmbeds(image, 2, 2);
    expect(pixelsAsPdfLibSees(image?.bytes as Uint8Array).rgba).toEqual([
      255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
    ]);
  });

  it('reads big-endian files and several strips', () => {
    const { bytes, rgba } = rgbPattern(5, 7);
    const strips = [bytes.subarray(0, 45), bytes.subarray(45, 90), bytes.subarray(90)]; // 3 rows each
    const tiff = buildTiff({
      little: false,
      entries: withEntry(rgbEntries(5, 7), long(ROWS_PER_STRIP, 3)),
      chunks: strips,
    });
    expect(Array.from(decodeTiff(tiff, limits)?.data ?? [])).toEqual(rgba);
  });

  it('decompresses LZW (codes up to 12 bits and a table reset), PackBits and Deflate', () => {
    const { bytes, rgba } = rgbPattern(67, 53); // 10 KB of samples: the LZW table fills and resets
    const cases: [number, Uint8Array][] = [
      [5, tiffLzw(bytes)],
      [32773, packBits(bytes)],
      [8, zlibSync(bytes)],
      [32946, zlibSync(bytes)],
    ];
    for (const [compression, data] of cases) {
      const tiff = buildTiff({
        entries: withEntry(rgbEntries(67, 53), short(COMPRESSION, compression)),
        chunks: [data],
      });
      expect(Array.from(decodeTiff(tiff, limits)?.data ?? []), `compression ${compression}`).toEqual(rgba);
    }
  });

  it('decodes a libtiff LZW file with the horizontal predictor', () => {
    const image = decodeTiff(fromBase64(LIBTIFF_LZW_PREDICTOR), limits);
    expect(image?.width).toBe(48);
    const expected: number[] = [];
    for (let y = 0; y < 48; y++) for (let x = 0; x < 48; x++) expected.push(...libtiffPixel(x, y));
    expect(Array.from(image?.data ?? [])).toEqual(expected);
  });

  it('undoes the predictor on 16-bit samples (Deflate, grey, big-endian)', () => {
    const values = [1000, 1000, 65535, 0, 300, 40000];
    const diff = values.map((v, i) => (i === 0 ? v : (v - (values[i - 1] as number) + 65536) & 0xffff));
    const raw = Uint8Array.from(diff.flatMap((v) => [v >> 8, v & 255]));
    const tiff = buildTiff({
      little: false,
      entries: [
        long(WIDTH, 6),
        long(HEIGHT, 1),
        short(BITS, 16),
        short(COMPRESSION, 8),
        short(PHOTOMETRIC, 1),
        short(PREDICTOR, 2),
      ],
      chunks: [zlibSync(raw)],
    });
    const grey = Array.from(decodeTiff(tiff, limits)?.data ?? []).filter((_, i) => i % 4 === 0);
    expect(grey).toEqual(values.map((v) => v >> 8));
  });

  it('decodes 1-bit WhiteIsZero, 4-bit palette and RGBA with straight or premultiplied alpha', () => {
    const bilevel = buildTiff({
      entries: [long(WIDTH, 10), long(HEIGHT, 1), short(BITS, 1), short(PHOTOMETRIC, 0)],
      chunks: [Uint8Array.from([0b10100000, 0b01000000])],
    });
    const ink = Array.from(decodeTiff(bilevel, limits)?.data ?? []).filter((_, i) => i % 4 === 0);
    expect(ink).toEqual([0, 255, 0, 255, 255, 255, 255, 255, 255, 0]);

    const map = new Array(48).fill(0);
    map[1] = 0xffff; // entry 1 red
    map[16 + 2] = 0xffff; // entry 2 green
    map[32 + 3] = 0x8000; // entry 3 half blue
    const palette = buildTiff({
      entries: [long(WIDTH, 3), long(HEIGHT, 1), short(BITS, 4), short(PHOTOMETRIC, 3), short(COLOR_MAP, ...map)],
      chunks: [Uint8Array.from([0x12, 0x30])],
    });
    expect(Array.from(decodeTiff(palette, limits)?.data ?? [])).toEqual([
      255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 128, 255,
    ]);

    for (const [extra, expected] of [
      [2, [200, 100, 50, 128]],
      [1, [255, 128, 64, 128]],
    ] as const) {
      const rgba = buildTiff({
        entries: [
          long(WIDTH, 1),
          long(HEIGHT, 1),
          short(BITS, 8, 8, 8, 8),
          short(PHOTOMETRIC, 2),
          short(SAMPLES, 4),
          short(EXTRA_SAMPLES, extra),
        ],
        chunks: [Uint8Array.from(extra === 2 ? [200, 100, 50, 128] : [128, 64, 32, 128])],
      });
      expect(Array.from(decodeTiff(rgba, limits)?.data ?? []), `ExtraSamples ${extra}`).toEqual([...expected]);
    }
  });

  it('assembles tiles (with edge tiles) and planar (one plane per sample) images', () => {
    const width = 20;
    const height = 18;
    const { bytes, rgba } = rgbPattern(width, height);
    const tiles: Uint8Array[] = [];
    for (let ty = 0; ty < 2; ty++) {
      for (let tx = 0; tx < 2; tx++) {
        const tile = new Uint8Array(16 * 16 * 3); // full size even past the edge (TIFF 6.0 §15)
        for (let y = 0; y < 16 && ty * 16 + y < height; y++) {
          for (let x = 0; x < 16 && tx * 16 + x < width; x++) {
            const src = ((ty * 16 + y) * width + tx * 16 + x) * 3;
            tile.set(bytes.subarray(src, src + 3), (y * 16 + x) * 3);
          }
        }
        tiles.push(tiffLzw(tile));
      }
    }
    const tiled = buildTiff({
      entries: [
        ...withEntry(rgbEntries(width, height), short(COMPRESSION, 5)).filter((e) => e.tag !== ROWS_PER_STRIP),
        long(TILE_WIDTH, 16),
        long(TILE_LENGTH, 16),
      ],
      chunks: tiles,
      offsetsTag: TILE_OFFSETS,
      countsTag: TILE_COUNTS,
    });
    expect(Array.from(decodeTiff(tiled, limits)?.data ?? [])).toEqual(rgba);

    const planes = [0, 1, 2].map((s) => bytes.filter((_, i) => i % 3 === s));
    const planar = buildTiff({ entries: [...rgbEntries(width, height), short(PLANAR, 2)], chunks: planes });
    expect(Array.from(decodeTiff(planar, limits)?.data ?? [])).toEqual(rgba);
  });

  describe('refuses', () => {
    const { bytes } = rgbPattern(4, 4);
    const good = buildTiff({ entries: rgbEntries(4, 4), chunks: [bytes] });

    it('huge sizes before allocating, and maxPixels', () => {
      const start = performance.now();
      const huge = buildTiff({ entries: rgbEntries(100000, 100000), chunks: [bytes] });
      expect(toEmbeddableImage(huge)).toBeUndefined();
      expect(performance.now() - start).toBeLessThan(50);
      expect(toEmbeddableImage(good, { maxPixels: 15 })).toBeUndefined();
      expect(toEmbeddableImage(good, { maxPixels: 16 })).toBeDefined();
    });

    it('a Deflate strip that inflates far past its size (a bomb)', () => {
      const bomb = buildTiff({
        entries: withEntry(rgbEntries(4, 4), short(COMPRESSION, 8)),
        chunks: [zlibSync(new Uint8Array(32 * 1024 * 1024))],
      });
      const start = performance.now();
      expect(toEmbeddableImage(bomb)).toBeUndefined();
      expect(performance.now() - start).toBeLessThan(1000); // stops after the first ~8 MiB
    });

    it('an IFD of 60000 entries that each point at the whole file, quickly', () => {
      const count = 60000;
      const file = new Uint8Array(8 + 2 + 12 * count + 4);
      const view = new DataView(file.buffer);
      file.set([0x49, 0x49, 42, 0]);
      view.setUint32(4, 8, true);
      view.setUint16(8, count, true);
      for (let i = 0; i < count; i++) {
        const entry = 10 + 12 * i;
        view.setUint16(entry, 300 + (i % 2), true); // tags no decoder needs
        view.setUint16(entry + 2, 4, true); // LONG
        view.setUint32(entry + 4, Math.floor(file.length / 4) - 2, true);
        view.setUint32(entry + 8, 8, true);
      }
      const start = performance.now();
      expect(toEmbeddableImage(file)).toBeUndefined();
      expect(performance.now() - start).toBeLessThan(200);
    });

    it('JPEG and CCITT compression, old-style LZW, float samples, a truncated IFD', () => {
      for (const compression of [3, 4, 6, 7]) {
        expect(
          toEmbeddableImage(
            buildTiff({ entries: withEntry(rgbEntries(4, 4), short(COMPRESSION, compression)), chunks: [bytes] }),
          ),
        ).toBeUndefined();
      }
      const oldLzw = buildTiff({
        entries: withEntry(rgbEntries(4, 4), short(COMPRESSION, 5)),
        chunks: [Uint8Array.from([0, 1, 2, 3])],
      });
      expect(toEmbeddableImage(oldLzw)).toBeUndefined();
      const float = buildTiff({ entries: [...rgbEntries(4, 4), short(339, 3, 3, 3)], chunks: [bytes] });
      expect(toEmbeddableImage(float)).toBeUndefined();
      expect(toEmbeddableImage(good.subarray(0, good.length - 30))).toBeUndefined();
      expect(toEmbeddableImage(good.subarray(0, 8))).toBeUndefined();
    });
  });
});
