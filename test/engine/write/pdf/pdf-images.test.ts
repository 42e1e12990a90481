import { unzlibSync, zlibSync } from 'fflate';
import { PDFArray, PDFDict, PDFDocument, type PDFHexString, PDFName, PDFNumber, PDFRawStream, PDFRef } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../../../src/engine/read/images/png-encoder';
import { FlateStreams } from '../../../../src/engine/write/pdf/flate-streams';
import { embedImage, embedPng } from '../../../../src/engine/write/pdf/pdf-images';
import { buildPng, concat, ihdr, PNG_SIGNATURE, pixelsAsPdfLibSees, pngChunk } from '../../read/images/helpers';

/**
 * An image XObject decoded the way a PDF reader does (ISO 32000-1 §7.4.4.4 predictors, §8.6.6.3
 * Indexed, §8.9.6.4 colour key masks, §11.6.5.3 soft masks), to 8-bit RGBA. Written apart from
 * src/images so that it checks the painter rather than repeats it.
 */
function decodeXObject(pdf: PDFDocument, ref: PDFRef): { width: number; height: number; rgba: number[] } {
  const stream = pdf.context.lookup(ref);
  if (!(stream instanceof PDFRawStream)) throw new Error('expected a stream');
  const dict = stream.dict;
  const num = (d: PDFDict, key: string) => (d.lookup(PDFName.of(key), PDFNumber) as PDFNumber).asNumber();
  const width = num(dict, 'Width');
  const height = num(dict, 'Height');
  const bpc = num(dict, 'BitsPerComponent');
  const space = dict.lookup(PDFName.of('ColorSpace'));
  let colors = 1;
  let lookup: Uint8Array | undefined;
  if (space === PDFName.of('DeviceRGB')) colors = 3;
  else if (space instanceof PDFArray) {
    expect(space.lookup(0)).toBe(PDFName.of('Indexed'));
    expect(space.lookup(1)).toBe(PDFName.of('DeviceRGB'));
    lookup = (space.lookup(3) as PDFHexString).asBytes();
    expect(lookup.length).toBe(((space.lookup(2) as PDFNumber).asNumber() + 1) * 3);
  } else expect(space).toBe(PDFName.of('DeviceGray'));

  expect(dict.lookup(PDFName.of('Filter'))).toBe(PDFName.of('FlateDecode'));
  let data: Uint8Array = unzlibSync(stream.contents);
  const rowBytes = Math.ceil((width * colors * bpc) / 8);
  const decodeParms = dict.lookupMaybe(PDFName.of('DecodeParms'), PDFDict);
  if (decodeParms) {
    expect(num(decodeParms, 'Predictor')).toBe(15);
    expect(num(decodeParms, 'Colors')).toBe(colors);
    expect(num(decodeParms, 'BitsPerComponent')).toBe(bpc);
    expect(num(decodeParms, 'Columns')).toBe(width);
    data = unpredict(data, rowBytes, Math.max(1, (colors * bpc) >> 3), height);
  }
  expect(data.length).toBe(rowBytes * height);

  const max = (1 << bpc) - 1;
  const sample = (y: number, index: number) => {
    if (bpc === 8) return data[y * rowBytes + index] as number;
    const bit = index * bpc;
    return ((data[y * rowBytes + (bit >> 3)] as number) >> (8 - bpc - (bit & 7))) & max;
  };
  const mask = dict
    .lookupMaybe(PDFName.of('Mask'), PDFArray)
    ?.asArray()
    .map((n) => (n as PDFNumber).asNumber());
  const smaskRef = dict.get(PDFName.of('SMask'));
  const smask = smaskRef instanceof PDFRef ? decodeXObject(pdf, smaskRef) : undefined;
  if (smask) expect([smask.width, smask.height]).toEqual([width, height]);

  const rgba: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const raw = Array.from({ length: colors }, (_, k) => sample(y, x * colors + k));
      let rgb: number[];
      if (lookup) rgb = [0, 1, 2].map((k) => lookup[3 * (raw[0] as number) + k] as number);
      else {
        const scaled = raw.map((v) => Math.round((v * 255) / max));
        rgb = colors === 1 ? [scaled[0], scaled[0], scaled[0]].map(Number) : scaled;
      }
      let alpha = 255;
      if (mask && raw.every((v, k) => v >= (mask[2 * k] as number) && v <= (mask[2 * k + 1] as number))) alpha = 0;
      if (smask) alpha = smask.rgba[(y * width + x) * 4] as number;
      rgba.push(...rgb, alpha);
    }
  }
  return { width, height, rgba };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Undoes PNG prediction: each row is a filter type byte and the filtered bytes. */
function unpredict(data: Uint8Array, rowBytes: number, bpp: number, height: number): Uint8Array {
  const out = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const type = data[y * (rowBytes + 1)] as number;
    for (let i = 0; i < rowBytes; i++) {
      const raw = data[y * (rowBytes + 1) + 1 + i] as number;
      const left = i >= bpp ? (out[y * rowBytes + i - bpp] as number) : 0;
      const up = y > 0 ? (out[(y - 1) * rowBytes + i] as number) : 0;
      const upLeft = y > 0 && i >= bpp ? (out[(y - 1) * rowBytes + i - bpp] as number) : 0;
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][type];
      if (predicted === undefined) throw new Error(`bad filter type ${type}`);
      out[y * rowBytes + i] = (raw + predicted) & 0xff;
    }
  }
  return out;
}

/** An 8-bit PNG whose rows use every filter type in turn (None, Sub, Up, Average, Paeth). */
function filteredPng(
  width: number,
  height: number,
  colorType: number,
  pixel: (x: number, y: number) => number[],
  afterStream: number[] = [],
) {
  const channels = pixel(0, 0).length;
  const rowBytes = width * channels;
  const rows: number[][] = [];
  for (let y = 0; y < height; y++) {
    const row: number[] = [];
    for (let x = 0; x < width; x++) row.push(...pixel(x, y));
    rows.push(row);
  }
  const filtered: number[] = [];
  rows.forEach((row, y) => {
    const type = y % 5;
    filtered.push(type);
    for (let i = 0; i < rowBytes; i++) {
      const left = i >= channels ? (row[i - channels] as number) : 0;
      const up = y > 0 ? (rows[y - 1]?.[i] as number) : 0;
      const upLeft = y > 0 && i >= channels ? (rows[y - 1]?.[i - channels] as number) : 0;
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][type] as number;
      filtered.push(((row[i] as number) - predicted) & 0xff);
    }
  });
  return concat(
    PNG_SIGNATURE,
    ihdr(width, height, 8, colorType),
    pngChunk('IDAT', concat(zlibSync(Uint8Array.from(filtered)), afterStream)),
    pngChunk('IEND', []),
  );
}

/** What a viewer shows: RGBA with the colour of fully transparent pixels left out. */
function visible(rgba: number[]): number[] {
  const out = rgba.slice();
  for (let i = 0; i < out.length; i += 4) if (out[i + 3] === 0) out.fill(0, i, i + 3);
  return out;
}

async function embedded(png: Uint8Array) {
  const pdf = await PDFDocument.create();
  const streams = new FlateStreams(pdf.context);
  const ref = await embedPng(streams, png);
  if (!ref) throw new Error('not embedded');
  await streams.done();
  const stream = pdf.context.lookup(ref) as PDFRawStream;
  return { pdf, ref, stream, decoded: decodeXObject(pdf, ref) };
}

function idatOf(png: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (type === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return concat(...parts);
}

const PLTE = pngChunk('PLTE', [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]);

const interlacedIndexed = (interlace: boolean) =>
  buildPng({
    width: 9,
    height: 9,
    bitDepth: 2,
    colorType: 3,
    interlace,
    pixel: (x, y) => [(x * y) % 4],
    before: [PLTE],
  });

const interlacedRgba = (interlace: boolean) =>
  buildPng({ width: 9, height: 9, bitDepth: 8, colorType: 6, interlace, pixel: (x, y) => [x, y, 3, x * 20] });

describe('embedPng', () => {
  // Every case: the pixels the XObject shows are the pixels pdf-lib's decoder (UPNG) sees.
  const cases: {
    name: string;
    png: () => Uint8Array;
    /** The same pixels not interlaced, for pdf-lib's decoder (it loses the end of some Adam7 streams). */
    plain?: () => Uint8Array;
    /** Written as the file's own IDAT data, not decoded and deflated again. */
    passThrough: boolean;
    smask?: boolean;
    mask?: number[];
  }[] = [
    ...[1, 2, 4, 8].map((bitDepth) => ({
      name: `grey ${bitDepth}-bit`,
      png: () =>
        buildPng({ width: 9, height: 5, bitDepth, colorType: 0, pixel: (x, y) => [(x * 3 + y) % (1 << bitDepth)] }),
      passThrough: true,
    })),
    ...[1, 2, 4, 8].map((bitDepth) => ({
      name: `indexed ${bitDepth}-bit`,
      png: () =>
        buildPng({
          width: 9,
          height: 5,
          bitDepth,
          colorType: 3,
          pixel: (x, y) => [(x + y) % Math.min(4, 1 << bitDepth)],
          before: [PLTE],
        }),
      passThrough: true,
    })),
    {
      name: 'RGB 8-bit, every filter type',
      png: () => filteredPng(7, 10, 2, (x, y) => [x * 30, y * 20, (x * y) % 256]),
      passThrough: true,
    },
    {
      name: 'grey with a tRNS colour key',
      png: () =>
        buildPng({
          width: 6,
          height: 3,
          bitDepth: 4,
          colorType: 0,
          pixel: (x) => [x * 3],
          before: [pngChunk('tRNS', [0, 6])],
        }),
      passThrough: true,
      mask: [6, 6],
    },
    {
      name: 'RGB with a tRNS colour key',
      png: () =>
        buildPng({
          width: 4,
          height: 4,
          bitDepth: 8,
          colorType: 2,
          pixel: (x, y) => [x, y, 5],
          before: [pngChunk('tRNS', [0, 1, 0, 2, 0, 5])],
        }),
      passThrough: true,
      mask: [1, 1, 2, 2, 5, 5],
    },
    {
      name: 'indexed with a run of fully transparent entries',
      png: () =>
        buildPng({
          width: 8,
          height: 2,
          bitDepth: 8,
          colorType: 3,
          pixel: (x) => [x % 4],
          before: [PLTE, pngChunk('tRNS', [255, 0, 0])],
        }),
      passThrough: true,
      mask: [1, 2],
    },
    {
      name: 'indexed with partial alpha',
      png: () =>
        buildPng({
          width: 8,
          height: 2,
          bitDepth: 4,
          colorType: 3,
          pixel: (x) => [x % 4],
          before: [PLTE, pngChunk('tRNS', [0, 128, 255])],
        }),
      passThrough: true,
      smask: true,
    },
    {
      name: 'indexed with transparent entries apart',
      png: () =>
        buildPng({
          width: 8,
          height: 2,
          bitDepth: 8,
          colorType: 3,
          pixel: (x) => [x % 4],
          before: [PLTE, pngChunk('tRNS', [0, 255, 0])],
        }),
      passThrough: true,
      smask: true,
    },
    {
      name: 'RGBA 8-bit with translucent pixels, every filter type',
      png: () => filteredPng(7, 10, 6, (x, y) => [x * 30, y * 20, (x * y) % 256, 255 - x * y]),
      passThrough: false,
      smask: true,
    },
    {
      // zlib refuses bytes after the stream (fflate and pdf-lib's decoder read them): the image is
      // then inflated whole, as before.
      name: 'RGBA 8-bit with bytes after its zlib stream',
      png: () => filteredPng(7, 10, 6, (x, y) => [x * 30, y * 20, 9, 255 - x * y], [0, 0, 0, 0]),
      passThrough: false,
      smask: true,
    },
    {
      name: 'RGBA 8-bit, all opaque',
      png: () => filteredPng(7, 10, 6, (x, y) => [x * 30, y * 20, (x * y) % 256, 255]),
      passThrough: false,
    },
    {
      name: 'grey+alpha 8-bit, every filter type',
      png: () => filteredPng(6, 6, 4, (x, y) => [x * 40, y * 50]),
      passThrough: false,
      smask: true,
    },
    {
      name: 'RGB 16-bit',
      png: () =>
        buildPng({ width: 5, height: 3, bitDepth: 16, colorType: 2, pixel: (x, y) => [x * 9000, y * 20000, 77] }),
      passThrough: false,
    },
    {
      name: 'RGBA 16-bit',
      png: () =>
        buildPng({
          width: 5,
          height: 3,
          bitDepth: 16,
          colorType: 6,
          pixel: (x, y) => [x * 9000, y, 7, 65535 - x * 999],
        }),
      passThrough: false,
      smask: true,
    },
    ...[false, true].map((interlace) => ({
      name: `interlaced indexed 2-bit${interlace ? '' : ' (reference)'}`,
      png: () => interlacedIndexed(interlace),
      plain: () => interlacedIndexed(false),
      passThrough: !interlace,
    })),
    {
      name: 'interlaced RGBA 8-bit',
      png: () => interlacedRgba(true),
      plain: () => interlacedRgba(false),
      passThrough: false,
      smask: true,
    },
  ];

  for (const c of cases) {
    it(`shows ${c.name} as pdf-lib's decoder sees it`, async () => {
      const png = c.png();
      const { pdf, stream, decoded } = await embedded(png);
      const expected = pixelsAsPdfLibSees(c.plain?.() ?? png);
      expect([decoded.width, decoded.height]).toEqual([expected.width, expected.height]);
      expect(visible(decoded.rgba)).toEqual(visible(expected.rgba));

      if (c.passThrough) expect(stream.contents).toEqual(idatOf(png));
      else expect(stream.contents).not.toEqual(idatOf(png));
      expect(stream.dict.get(PDFName.of('SMask')) instanceof PDFRef).toBe(c.smask ?? false);
      const mask = stream.dict.lookupMaybe(PDFName.of('Mask'), PDFArray);
      expect(mask?.asArray().map((n) => (n as PDFNumber).asNumber())).toEqual(c.mask);
      expect(stream.dict.get(PDFName.of('Type'))).toBe(PDFName.of('XObject'));
      expect(stream.dict.get(PDFName.of('Subtype'))).toBe(PDFName.of('Image'));
      await pdf.save(); // the streams serialise
    });
  }

  it('passes a PNG split over several IDAT chunks through as one stream', async () => {
    const single = buildPng({ width: 16, height: 16, bitDepth: 8, colorType: 2, pixel: (x, y) => [x * 9, y * 9, 0] });
    const data = idatOf(single);
    const split = concat(
      PNG_SIGNATURE,
      ihdr(16, 16, 8, 2),
      pngChunk('IDAT', data.subarray(0, 10)),
      pngChunk('IDAT', data.subarray(10)),
      pngChunk('IEND', []),
    );
    const { stream, decoded } = await embedded(split);
    expect(stream.contents).toEqual(data);
    expect(decoded.rgba).toEqual(pixelsAsPdfLibSees(single).rgba);
  });

  it("embeds the decoders' re-encoded PNGs (encodePng), opaque or not", async () => {
    const opaque = encodePng({ width: 2, height: 1, data: Uint8Array.from([1, 2, 3, 255, 4, 5, 6, 255]) });
    expect((await embedded(opaque)).decoded.rgba).toEqual([1, 2, 3, 255, 4, 5, 6, 255]);
    const translucent = encodePng({ width: 2, height: 1, data: Uint8Array.from([1, 2, 3, 255, 4, 5, 6, 7]) });
    expect((await embedded(translucent)).decoded.rgba).toEqual([1, 2, 3, 255, 4, 5, 6, 7]);
  });

  it('embeds decoded pixels as RGB samples, with a soft mask only when some pixel is not opaque', async () => {
    const pdf = await PDFDocument.create();
    const streams = new FlateStreams(pdf.context);
    const rgb = Uint8Array.from([1, 2, 3, 4, 5, 6]);
    const opaque = await embedImage(pdf, streams, {
      format: 'pixels',
      rgb,
      pixelWidth: 2,
      pixelHeight: 1,
    });
    const translucent = await embedImage(pdf, streams, {
      format: 'pixels',
      rgb,
      alpha: Uint8Array.from([255, 7]),
      pixelWidth: 2,
      pixelHeight: 1,
    });
    await streams.done();
    expect(decodeXObject(pdf, opaque as PDFRef).rgba).toEqual([1, 2, 3, 255, 4, 5, 6, 255]);
    expect(decodeXObject(pdf, translucent as PDFRef).rgba).toEqual([1, 2, 3, 255, 4, 5, 6, 7]);
    const dict = (pdf.context.lookup(opaque as PDFRef) as PDFRawStream).dict;
    expect(dict.get(PDFName.of('SMask'))).toBeUndefined();
  });

  it('leaves out what it cannot read', async () => {
    const pdf = await PDFDocument.create();
    const streams = new FlateStreams(pdf.context);
    expect(await embedPng(streams, Uint8Array.from([1, 2, 3]))).toBeUndefined();
    const rgba = filteredPng(4, 4, 6, (x, y) => [x, y, 0, 100]);
    const idat = idatOf(rgba);
    const corrupt = concat(
      PNG_SIGNATURE,
      ihdr(4, 4, 8, 6),
      pngChunk('IDAT', idat.subarray(0, idat.length - 6)),
      pngChunk('IEND', []),
    );
    expect(await embedPng(streams, corrupt)).toBeUndefined();
    const badFilter = concat(
      PNG_SIGNATURE,
      ihdr(1, 1, 8, 6),
      pngChunk('IDAT', zlibSync(Uint8Array.from([7, 1, 2, 3, 4]))),
      pngChunk('IEND', []),
    );
    expect(await embedPng(streams, badFilter)).toBeUndefined();
    const jpeg = { format: 'jpeg' as const, bytes: Uint8Array.from([1, 2]), pixelWidth: 1, pixelHeight: 1 };
    expect(await embedImage(pdf, streams, jpeg)).toBeUndefined();
  });
});

describe('a PNG with alpha larger than one split batch', () => {
  it('gives the same planes streamed a batch at a time as inflated whole', async () => {
    // 2,000 × 1,100 RGBA: 1,100 rows of 8,001 bytes (past the 8 MiB from which images are split
    // streaming), three batches of the 4 MiB split; filtered
    // rows of a varied image, so that each row depends on the one above across the batch edge.
    const width = 2000;
    const height = 1100;
    const rowBytes = 1 + width * 4;
    const raw = new Uint8Array(height * rowBytes);
    for (let y = 0; y < height; y++) {
      raw[y * rowBytes] = y % 5;
      for (let i = 1; i < rowBytes; i++) raw[y * rowBytes + i] = (i * 7 + y * 13) & 0xff;
    }
    const png = (afterStream: number[]) =>
      concat(
        PNG_SIGNATURE,
        ihdr(width, height, 8, 6),
        pngChunk('IDAT', concat(zlibSync(raw), afterStream)),
        pngChunk('IEND', []),
      );
    const planes = async (bytes: Uint8Array) => {
      const pdf = await PDFDocument.create();
      const streams = new FlateStreams(pdf.context);
      const ref = await embedPng(streams, bytes);
      await streams.done();
      const stream = pdf.context.lookup(ref as PDFRef) as PDFRawStream;
      const smask = pdf.context.lookup(stream.dict.get(PDFName.of('SMask')) as PDFRef) as PDFRawStream;
      return [unzlibSync(stream.contents), unzlibSync(smask.contents)];
    };
    // With bytes after the zlib stream, zlib refuses it and the image is inflated whole.
    const streamed = await planes(png([]));
    const whole = await planes(png([0, 0, 0, 0]));
    expect(streamed[0]?.length).toBe(height * (1 + width * 3));
    expect(streamed[1]?.length).toBe(height * (1 + width));
    expect(streamed[0]?.every((byte, i) => byte === whole[0]?.[i])).toBe(true);
    expect(streamed[1]?.every((byte, i) => byte === whole[1]?.[i])).toBe(true);
  });
});
